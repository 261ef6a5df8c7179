/* SPDX-License-Identifier: MIT */
/* tinyperf annotate: the perf annotate --stdio listing — per instruction of the hottest
 * symbols (or the ones named) the share of their samples, disassembled from the verified
 * binary, with source lines between. This file: the options and the walk that counts
 * samples by address; cmd-annotate-print.c prints each symbol. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-annotate.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/common/common.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf annotate [-i FILE|-] [SYMBOL] [--stdio] [-s SYMBOL] [--dsos LIST]\n"
		   "                        [-l] [--no-source] [--percent-limit P] [symbol options]\n\n"
		   "Show the instructions of the hottest symbols (or of SYMBOL) with the share of\n"
		   "their samples at each, and the source lines between, like perf annotate --stdio.\n"
		   "Code comes from the binary the symbolizer proved ran (build-id or text hash):\n"
		   "without it a symbol is not annotated (one line says why; exit status 1).\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -s, --symbol LIST  only these symbols (as SYMBOL; comma-separated)\n"
		   "  -l, --print-line   a file:line line above each source line\n"
		   "  --no-source        no source lines, only the disassembly\n"
		   "  --percent-limit P  skip symbols with less than P percent of the samples\n"
		   "  --stdio            accepted for perf's sake: the output is always text\n"
		   CMD_SYM_HELP);
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct annotate *an = ctx;
	const struct tp_attr *a = ev->attr;
	const struct tp_symres *r;
	struct tp_frame f;
	uint64_t off, weight;
	uint32_t comm;
	int32_t pid, tid;
	int err;

	if (!cmd_sym__time_ok(&an->cs, ev))
		return 0;
	err = tp_symcache__resolve(an->cs.c, loc, &f, &off);
	if (!err)
		err = tp_symcache__comm(an->cs.c, t, &comm);
	if (err)
		return err;
	if (ev->sid_type & PERF_SAMPLE_TID) {
		pid = (int32_t)ev->sid.pid;
		tid = (int32_t)ev->sid.tid;
	} else {
		pid = t ? t->pid : -1;
		tid = t ? t->tid : -1;
	}
	if (!cmd_sym__thread_ok(&an->cs, comm, pid, tid) || !cmd_sym__dso_ok(&an->cs, f))
		return 0;
	weight = a && (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ev->u.sample.period :
		 a ? a->attr.sample_period : 1;
	r = loc->map && f.dso ? tp_symcache__where(an->cs.c, f.dso, loc->addr) : NULL;
	if (!r || !r->name) {
		/* kept by DSO: one without its binary is named at the end */
		if (tp_grow((void **)&an->unresolved, &an->cap_unresolved, f.dso + 1,
			    sizeof(*an->unresolved)))
			return -TP_ERR_NOMEM;
		if (an->nr_unresolved <= f.dso) {
			memset(an->unresolved + an->nr_unresolved, 0,
			       (f.dso + 1 - an->nr_unresolved) * sizeof(*an->unresolved));
			an->nr_unresolved = f.dso + 1;
		}
		an->unresolved[f.dso] += weight;
		return 0;
	}
	if (!cmd_sym__sym_ok(&an->cs, f))
		return 0;
	return tp_annhits__add(&an->hits, a ? a->index : 0, f.dso, f.sym, r->sym_start,
			       r->sym_size, loc->addr, weight);
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct annotate *an = ctx;

	(void)t;
	tp_symcache__event(an->cs.c, ev);
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	enum { OPT_STDIO = 0x100, OPT_NO_SOURCE, OPT_PERCENT_LIMIT };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "print-line", no_argument, NULL, 'l' },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	const char *path = "perf.data";
	struct annotate *an = calloc(1, sizeof(*an));
	int c, rc;

	if (!an)
		return 1;
	cmd_sym__init(&an->cs);
	optind = 1;
	opterr = 0;
	rc = -1;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:s:lhk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'i': path = optarg; break;
		case 'l': an->print_line = true; break;
		case OPT_NO_SOURCE: an->no_source = true; break;
		case OPT_STDIO: break;
		case OPT_PERCENT_LIMIT: an->percent_limit = strtod(optarg, NULL); break;
		case 's': c = CMD_SYM_SYMBOL; /* fall through */
		default:
			if (c == CMD_SYM_SYMBOL)
				an->named = true;
			switch (cmd_sym__option(&an->cs, "annotate", c, optarg)) {
			case 0: rc = cmd_usage_error("annotate", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	/* perf annotate [SYMBOL]: the same as --symbol */
	for (; rc < 0 && optind < argc; optind++) {
		an->named = true;
		if (cmd_sym__option(&an->cs, "annotate", CMD_SYM_SYMBOL, argv[optind]) != 1)
			rc = 2;
	}
	if (rc >= 0)
		goto out;
	an->cs.conf.sym.want_lines = !an->no_source || an->print_line;
	if (cmd_input__open(&an->ci, "annotate", path)) {
		rc = 1;
		goto out;
	}
	if (cmd_sym__open(&an->cs, &an->ci)) {
		rc = 1;
		goto out_close;
	}
	rc = tp_session__process(an->cs.s, &ops, an);
	if (rc) {
		rc = cmd_input__fail(&an->ci, rc);
	} else {
		int prc;

		tp_annhits__sort(&an->hits);
		prc = annotate__print(an, path);
		rc = cmd_input__finish(&an->ci);
		if (prc)
			rc = prc;
	}
	cmd_sym__close(&an->cs);
out_close:
	cmd_input__close(&an->ci);
out:
	tp_annhits__release(&an->hits);
	free(an->unresolved);
	free(an);
	return rc;
}
