/* SPDX-License-Identifier: MIT */
/* tinyperf script: every sample as perf script prints it (so stackcollapse-perf.pl,
 * speedscope and the Firefox Profiler read it), tracepoint fields decoded from the file's
 * format files; or, with --folded, the stacks collapsed into "comm;outer;...;inner count". */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/stacks.h"
#include "host-tools/cmd-script.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/render/render.h"

static const struct { const char *name; unsigned bit; } field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVENT }, { "period", F_PERIOD }, { "ip", F_IP },
	{ "sym", F_SYM }, { "symoff", F_SYMOFF }, { "dso", F_DSO }, { "trace", F_TRACE },
	{ "srcline", F_SRCLINE },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf script [-i FILE|-] [-F FIELDS] [--folded|--speedscope OUT.json]\n"
		   "                      [-G] [--ns] [filters]\n"
		   "                      [symbol options]\n\n"
		   "Print every sample like perf script.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -F, --fields LIST  among comm,tid,pid,time,cpu,event,period,ip,sym,symoff,dso,\n"
		   "                     trace,srcline; +LIST adds to the defaults, -LIST takes away\n"
		   "                     (srcline: file:line under each frame, as perf; --lines\n"
		   "                     is -F +srcline; --inline adds the inlined functions to\n"
		   "                     callchains, \"func+0x1a (inlined)\")\n"
		   "  --folded           one line per distinct stack, \"comm;outer;...;inner N\"\n"
		   "                     (N samples), as stackcollapse-perf.pl writes them\n"
		   "  --speedscope FILE  those stacks as a speedscope file, one profile per thread\n"
		   "                     (open it at speedscope.app or with npm's speedscope)\n"
		   "  -G, --hide-call-graph  the ip only, without the callchain\n"
		   "  --ns               times in nanoseconds\n"
		   CMD_SYM_HELP
		   "\nTracepoint fields are printed with the event's print format when it uses only\n"
		   "what tinyperf evaluates (fields, arithmetic, __print_flags/symbolic, __get_str),\n"
		   "else as name=value pairs.\n");
}

/* "comm,tid" sets the fields; "+pid,-cpu" changes the defaults (each name with its sign) */
static int parse_fields(struct script *sc, const char *arg)
{
	const char *p = strchr(arg, ':') && !strchr(arg, ',') ? strchr(arg, ':') + 1 : arg;
	bool set = false, change = false;

	while (*p) {
		char sign = *p == '+' || *p == '-' ? *p++ : 0;
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (strlen(field_names[i].name) == n && !strncmp(p, field_names[i].name, n))
				break;
		if (i == sizeof(field_names) / sizeof(field_names[0])) {
			fprintf(stderr, "tinyperf: script: -F: unknown field '%.*s'\n", (int)n, p);
			return 2;
		}
		set = set || !sign;
		change = change || sign;
		if (set && change) {
			fprintf(stderr, "tinyperf: script: -F '%s': either fields, or +/- changes\n",
				arg);
			return 2;
		}
		if (!sign) {
			if (!sc->user_set)
				sc->set = 0;
			sc->user_set = true;
			sc->set |= field_names[i].bit;
		} else {
			*(sign == '+' ? &sc->add : &sc->del) |= field_names[i].bit;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct script *sc = ctx;
	const struct tp_attr *a = ev->attr;
	bool chain = a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && !sc->no_graph;
	int32_t pid = (ev->sid_type & PERF_SAMPLE_TID) ? (int32_t)ev->sid.pid : t ? t->pid : -1;
	int32_t tid = (ev->sid_type & PERF_SAMPLE_TID) ? (int32_t)ev->sid.tid : t ? t->tid : -1;
	uint32_t comm;
	int err;

	if (!cmd_sym__time_ok(&sc->cs, ev))
		return 0;
	err = tp_symcache__comm(sc->cs.c, t, &comm);
	if (err)
		return err;
	if (!cmd_sym__thread_ok(&sc->cs, comm, pid, tid))
		return 0;
	if (chain) {
		err = tp_symcache__chain(sc->cs.c, ev, t, loc, &sc->ch);
		if (err == TP_CHAIN_CORRUPT)	/* as perf: no frames, the ip for filters */
			err = tp_symcache__resolve(sc->cs.c, loc, &sc->one, &sc->one_off);
		else if (!err && sc->ch.nr) {
			sc->one = sc->ch.frames[0];
			sc->one_off = sc->ch.at[0].off;
		}
	} else {
		sc->ch.nr = 0;
		err = tp_symcache__resolve(sc->cs.c, loc, &sc->one, &sc->one_off);
		sc->one_addr = loc->map ? loc->addr : ev->u.sample.ip;
	}
	if (err)
		return err;
	if (cmd_sym__has_frame_filter(&sc->cs) && !cmd_sym__frame_ok(&sc->cs, sc->one))
		return 0;
	if (sc->folded) {
		struct tp_hsample hs = { .comm = comm, .pid = pid, .tid = tid, .weight = 1,
					 .frames = chain && sc->ch.nr ? sc->ch.frames : &sc->one,
					 .nr_frames = chain && sc->ch.nr ? sc->ch.nr : 1 };

		return tp_hist__add(sc->folds, &hs);
	}
	script__print_sample(sc, ev, script__fields(sc, a), tp_symcache__comm_str(sc->cs.c, comm),
			     chain);
	return sc->err;
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct script *sc = ctx;

	(void)t;
	tp_symcache__event(sc->cs.c, ev);
	return 0;
}

/* ---- the command ---- */

static int write_speedscope(void *ctx, FILE *f)
{
	struct script *sc = ctx;

	return tp_speedscope__write(sc->folds, sc->cs.c, sc->ci.name, f);
}

static int setup(struct script *sc)
{
	const struct tp_features *feat = tp_reader__features(sc->ci.r);
	char buf[64];

	for (uint32_t i = 0; i < tp_reader__nr_attrs(sc->ci.r); i++) {
		int n = (int)strlen(cmd_sym__event_name(tp_reader__attr(sc->ci.r, i), buf,
							sizeof(buf)));

		if (n > sc->name_width)
			sc->name_width = n;
	}
	if (tp_features__has(feat, HEADER_TRACING_DATA)) {
		int err = tp_tracefmt__parse(&sc->tf, feat->sect[HEADER_TRACING_DATA].data,
					     feat->sect[HEADER_TRACING_DATA].size, &sc->ci.log);

		if (err == -TP_ERR_NOMEM)
			return err;
	}
	if (sc->folded) {
		/* speedscope: a profile per thread */
		struct tp_hconf conf = { .keys = { TP_HKEY_COMM, TP_HKEY_PID, TP_HKEY_TID },
					 .nr_keys = sc->speedscope ? 3 : 1, .paths = true };

		return tp_hist__new(&sc->folds, &conf);
	}
	return 0;
}

int cmd_script(int argc, char **argv)
{
	enum { O_FOLDED = 0x100, O_NS, O_SPEEDSCOPE };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "folded", no_argument, NULL, O_FOLDED },
		{ "speedscope", required_argument, NULL, O_SPEEDSCOPE },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "ns", no_argument, NULL, O_NS },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	const char *path = "perf.data";
	struct script *sc = calloc(1, sizeof(*sc));
	int c, rc = -1, out_failed = 0;

	if (!sc)
		return 1;
	cmd_sym__init(&sc->cs);
	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:F:Ghk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'i': path = optarg; break;
		case 'F': if (parse_fields(sc, optarg)) rc = 2; break;
		case 'G': sc->no_graph = true; break;
		case O_FOLDED: sc->folded = true; break;
		case O_SPEEDSCOPE: sc->speedscope = optarg; sc->folded = true; break;
		case O_NS: sc->ns = true; break;
		default:
			switch (cmd_sym__option(&sc->cs, "script", c, optarg)) {
			case 0: rc = cmd_usage_error("script", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: script: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	if (sc->cs.conf.sym.want_lines)		/* --lines */
		sc->add |= F_SRCLINE;
	if ((sc->set | sc->add) & F_SRCLINE)
		sc->cs.conf.sym.want_lines = true;
	sc->cap = 1 << 20;
	sc->out = malloc(sc->cap);
	if (!sc->out || cmd_input__open(&sc->ci, "script", path)) {
		rc = 1;
		goto out;
	}
	if (cmd_sym__open(&sc->cs, &sc->ci)) {
		rc = 1;
		goto out_close;
	}
	rc = setup(sc);
	if (!rc)
		rc = tp_session__process(sc->cs.s, &ops, sc);
	if (sc->speedscope && rc != -TP_ERR_NOMEM) {	/* what could be read */
		/* (a failure to write it is said there; the exit status says it again) */
		out_failed = cmd_stacks__write("script", sc->speedscope, write_speedscope, sc);
	} else if (sc->folded && rc != -TP_ERR_NOMEM) {
		rc = script__print_folded(sc) ? -TP_ERR_NOMEM : rc;
	}
	script__out_flush(sc);
	fflush(stdout);
	if (!rc)
		rc = sc->err;
	rc = rc < 0 ? cmd_input__fail(&sc->ci, rc) : cmd_input__finish(&sc->ci);
	rc = out_failed ? 1 : rc;
out_close:
	cmd_sym__close(&sc->cs);
	cmd_input__close(&sc->ci);
out:
	tp_hist__delete(sc->folds);
	tp_tracefmt__delete(sc->tf);
	script__release(sc);
	free(sc);
	return rc;
}
