/* SPDX-License-Identifier: MIT */
/* tinyperf report: the perf report --stdio table — one section per event, entries by sort
 * keys with self and children overheads and their call graphs — plus a header that says
 * where each DSO's symbols came from or why it has none. This file: the options and the
 * walk that fills the hists; cmd-report-print.c prints them. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-report.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/common/common.h"


static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf report [-i FILE|-] [--stdio] [-s KEYS] [-g [SPEC]|-G] [--children|"
		   "--no-children]\n"
		   "                      [filters] [--percent-limit P] [symbol options]\n\n"
		   "Print where the samples went, like perf report --stdio.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -s, --sort KEYS    comm,dso,sym,pid,tid,cpu,srcline in any order and subset\n"
		   "                     (default comm,dso,sym; srcline: file:line, as perf's)\n"
		   "  -g, --call-graph [SPEC]  call graphs under the entries (default with\n"
		   "                     callchains): SPEC is words among graph, none, caller,\n"
		   "                     callee, srcline (frames as \"func file:line\") and a\n"
		   "                     minimum percent, e.g. -g caller,1; -g alone is caller\n"
		   "                     order, as perf's\n"
		   "  -G, --inverted     caller order (the outermost caller first)\n"
		   "  --children, --no-children  add (or not) the time of what an entry calls\n"
		   "  --percent-limit P  hide entries under P percent (and graph nodes, unless -g\n"
		   "                     gives a minimum)\n"
		   "  -n, --show-nr-samples  a column with the number of samples\n"
		   "  -q, --quiet        only the entries, no header lines\n"
		   "  --stdio            accepted for perf's sake: the output is always text\n"
		   "  --html FILE        the report as one HTML page instead (see report --html -h)\n"
		   CMD_SYM_HELP);
}

static int parse_sort(struct report *rp, const char *arg)
{
	const char *p = arg;

	rp->keys.nr_keys = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		int k = tp_hkey_parse(p, n);

		if (k < 0 || rp->keys.nr_keys == TP_HKEY_MAX) {
			fprintf(stderr, "tinyperf: report: --sort '%.*s': keys are comm, dso, sym, pid, "
				"tid, cpu and srcline\n", (int)n, p);
			return 2;
		}
		for (unsigned i = 0; i < rp->keys.nr_keys; i++) {
			if (rp->keys.keys[i] == k) {
				fprintf(stderr, "tinyperf: report: --sort: '%s' given twice\n",
					tp_hkey_name(k));
				return 2;
			}
		}
		rp->keys.keys[rp->keys.nr_keys++] = (uint8_t)k;
		p += n + (p[n] == ',');
	}
	return rp->keys.nr_keys ? 0 : 2;
}

/* words of -g: graph, none, caller, callee, a number; perf's others are accepted */
static bool is_graph_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"graph", "fractal", "flat", "none", "caller", "callee", "function", "address",
		"percent", "period", "count", "branch", "folded", "srcline",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && !strncmp(w, words[i], n))
			return true;
	return n && strspn(w, "0123456789.") == n;
}

static bool graph_spec_ok(const char *arg)
{
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ",");

		if (!is_graph_word(p, n))
			return false;
		p += n + (p[n] == ',');
	}
	return true;
}

static int parse_graph(struct report *rp, const char *arg)
{
	rp->graph = true;
	/* perf: -g alone is its default spec, graph,0.5,caller,function,percent */
	if (!arg) {
		rp->order = TP_CG_CALLER;
		rp->order_set = true;
	}
	for (const char *p = arg; p && *p;) {
		size_t n = strcspn(p, ",");

		if (!is_graph_word(p, n)) {
			fprintf(stderr, "tinyperf: report: -g '%s': expected words among graph, none, "
				"caller, callee, srcline and a minimum percent\n", arg);
			return 2;
		}
		if (n == 7 && !strncmp(p, "srcline", 7)) {
			rp->graph_lines = true;
		} else if (n == 4 && !strncmp(p, "none", 4)) {
			rp->graph = false;
		} else if (n == 6 && !strncmp(p, "caller", 6)) {
			rp->order = TP_CG_CALLER;
			rp->order_set = true;
		} else if (n == 6 && !strncmp(p, "callee", 6)) {
			rp->order = TP_CG_CALLEE;
			rp->order_set = true;
		} else if (p[0] >= '0' && p[0] <= '9') {
			rp->min_pct = strtod(p, NULL);
			rp->min_pct_set = true;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* ---- the walk ---- */

static struct tp_hist *hist_of(struct report *rp, const struct tp_attr *a)
{
	uint32_t i = a ? a->index : 0;

	if (i >= rp->nr_hists) {
		struct tp_hist **h = realloc(rp->hists, (i + 1) * sizeof(*h));
		bool *p = realloc(rp->hist_paths, (i + 1) * sizeof(*p));

		if (h)
			rp->hists = h;
		if (p)
			rp->hist_paths = p;
		if (!h || !p)
			return NULL;
		memset(h + rp->nr_hists, 0, (i + 1 - rp->nr_hists) * sizeof(*h));
		rp->nr_hists = i + 1;
	}
	if (!rp->hists[i]) {
		struct tp_hconf conf = rp->keys;

		conf.key_of = tp_symcache__key_frame;	/* as perf: by basename */
		conf.key_ctx = rp->cs.c;
		/* call paths are kept when there are callchains, unless nothing would use them */
		conf.paths = a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
			     (rp->graph || !rp->no_children);
		conf.graph_lines = rp->graph_lines;
		if (tp_hist__new(&rp->hists[i], &conf))
			return NULL;
		rp->hist_paths[i] = conf.paths;
	}
	return rp->hists[i];
}

/* a sample with its comm: filters, then into its hist */
static int add_sample(struct report *rp, struct tp_hist *h, struct tp_hsample *s)
{
	if (!cmd_sym__thread_ok(&rp->cs, s->comm, s->pid, s->tid)) {
		tp_hist__add_hidden(h, s->weight);
		return 0;
	}
	/* a --dso/--symbol the sort keys cannot show is a filter on where samples hit */
	if ((!rp->has_key[TP_HKEY_DSO] && !rp->has_key[TP_HKEY_SYM] &&
	     !cmd_sym__dso_ok(&rp->cs, s->frames[0])) ||
	    (!rp->has_key[TP_HKEY_SYM] && !cmd_sym__sym_ok(&rp->cs, s->frames[0]))) {
		tp_hist__add_hidden(h, s->weight);
		return 0;
	}
	return tp_hist__add(h, s);
}

/* A thread that has no name yet (it forked before the recording saw it) takes the first
 * name it gets for its earlier samples too, as in perf; a few are kept until then. */
#define MAX_PARKED 4096

static int park(struct report *rp, struct tp_hist *h, const struct tp_hsample *s)
{
	struct report_parked *p;

	if (tp_grow((void **)&rp->parked, &rp->cap_parked, rp->nr_parked + 1,
		    sizeof(*rp->parked)) ||
	    tp_grow((void **)&rp->parked_frames, &rp->cap_parked_frames,
		    rp->nr_parked_frames + s->nr_frames, sizeof(*rp->parked_frames)))
		return -TP_ERR_NOMEM;
	p = &rp->parked[rp->nr_parked++];
	p->h = h;
	p->s = *s;
	p->s.frames = NULL;
	p->first = rp->nr_parked_frames;
	memcpy(rp->parked_frames + p->first, s->frames, s->nr_frames * sizeof(*s->frames));
	rp->nr_parked_frames += s->nr_frames;
	return 0;
}

/* the parked samples of tid (of all threads for tid -1) get thread t's comm now */
static int unpark(struct report *rp, int32_t tid, const struct tp_thread *t)
{
	uint32_t keep = 0;
	int err = 0;

	for (uint32_t i = 0; i < rp->nr_parked; i++) {
		struct report_parked *p = &rp->parked[i];
		struct tp_thread nameless = { .pid = p->s.pid, .tid = p->s.tid };

		if (tid != -1 && p->s.tid != tid) {
			rp->parked[keep++] = *p;
			continue;
		}
		if (!err)
			err = tp_symcache__comm(rp->cs.c, t ? t : &nameless, &p->s.comm);
		p->s.frames = rp->parked_frames + p->first;
		if (!err)
			err = add_sample(rp, p->h, &p->s);
	}
	rp->nr_parked = keep;
	if (!keep)
		rp->nr_parked_frames = 0;
	return err;
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct report *rp = ctx;
	const struct tp_attr *a = ev->attr;
	struct tp_hist *h = hist_of(rp, a);
	struct tp_hsample s = { .pid = ev->sid.pid, .tid = ev->sid.tid, .cpu = ev->sid.cpu };
	int err;

	if (!h)
		return -TP_ERR_NOMEM;
	if (!cmd_sym__time_ok(&rp->cs, ev))
		return 0;
	s.weight = a && (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ev->u.sample.period :
		   a ? a->attr.sample_period : 1;
	if (!(ev->sid_type & PERF_SAMPLE_TID)) {
		s.pid = t ? t->pid : -1;
		s.tid = t ? t->tid : -1;
	}
	if (rp->hist_paths[a ? a->index : 0]) {
		err = tp_symcache__chain(rp->cs.c, ev, t, loc, &rp->ch);
		if (err == TP_CHAIN_CORRUPT) {	/* perf counts it, in no entry */
			rp->nr_corrupt_chains++;
			tp_hist__add_hidden(h, s.weight);
			return 0;
		}
		s.frames = rp->ch.frames;
		s.nr_frames = rp->ch.nr;
		for (uint32_t i = 0; rp->lines && !err && i < rp->ch.nr; i++)
			err = report__line(rp, &rp->ch.frames[i], rp->ch.at[i].addr,
					   rp->ch.at[i].off);
	} else {
		uint64_t off;

		err = tp_symcache__resolve(rp->cs.c, loc, &rp->one, &off);
		s.frames = &rp->one;
		s.nr_frames = 1;
		if (!err && rp->lines)
			err = report__line(rp, &rp->one, loc->map ? loc->addr : ev->u.sample.ip,
					   off);
	}
	if (err)
		return err;
	if (t && !t->comm && t->tid > 0 && rp->nr_parked < MAX_PARKED)
		return park(rp, h, &s);
	err = tp_symcache__comm(rp->cs.c, t, &s.comm);
	return err ? err : add_sample(rp, h, &s);
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct report *rp = ctx;

	tp_symcache__event(rp->cs.c, ev);
	if (ev->type == PERF_RECORD_COMM && rp->nr_parked && t)
		return unpark(rp, t->tid, t);
	if (ev->type == PERF_RECORD_LOST_SAMPLES) {
		rp->lost_samples += ev->u.lost.lost;
	} else if (ev->type == PERF_RECORD_LOST) {
		rp->lost_events += ev->u.lost.lost;
		rp->nr_lost++;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "inverted", no_argument, NULL, 'G' },
		{ "children", no_argument, NULL, 'C' },
		{ "no-children", no_argument, NULL, 'N' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stdio", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	const char *path = "perf.data";
	struct report *rp = calloc(1, sizeof(*rp));
	int c, rc;

	/* the HTML page is drawn from its own walk: hand it the whole command line */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--html") || !strncmp(argv[i], "--html=", 7)) {
			free(rp);
			return cmd_report_html(argc, argv);
		}
	if (!rp)
		return 1;
	cmd_sym__init(&rp->cs);
	rp->min_pct = 0.5;
	rp->graph = true;
	rp->order = TP_CG_CALLEE;
	parse_sort(rp, "comm,dso,sym");
	optind = 1;
	opterr = 0;
	rc = -1;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:s:g::Gnqhk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'i': path = optarg; break;
		case 's': if (parse_sort(rp, optarg)) rc = 2; break;
		case 'G': rp->order = TP_CG_CALLER; rp->order_set = true; break;
		case 'C': rp->children = true; rp->no_children = false; break;
		case 'N': rp->no_children = true; rp->children = false; break;
		case 'n': rp->show_nr = true; break;
		case 'q': rp->quiet = true; break;
		case 'S': break;
		case 'P': rp->percent_limit = strtod(optarg, NULL); break;
		case 'g':
			/* perf takes "-g caller" as well as "-gcaller" */
			if (!optarg && optind < argc && graph_spec_ok(argv[optind]))
				optarg = argv[optind++];
			if (parse_graph(rp, optarg))
				rc = 2;
			break;
		default:
			switch (cmd_sym__option(&rp->cs, "report", c, optarg)) {
			case 0: rc = cmd_usage_error("report", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: report: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	for (unsigned k = 0; k < rp->keys.nr_keys; k++)
		rp->has_key[rp->keys.keys[k]] = true;
	/* --lines: a srcline column after the symbol's, and file:line in the graphs */
	if (rp->cs.conf.sym.want_lines) {
		rp->graph_lines = true;
		if (!rp->has_key[TP_HKEY_SRCLINE] && rp->keys.nr_keys < TP_HKEY_MAX) {
			unsigned at = rp->keys.nr_keys;

			for (unsigned k = 0; k < rp->keys.nr_keys; k++)
				if (rp->keys.keys[k] == TP_HKEY_SYM)
					at = k + 1;
			memmove(rp->keys.keys + at + 1, rp->keys.keys + at, rp->keys.nr_keys - at);
			rp->keys.keys[at] = TP_HKEY_SRCLINE;
			rp->keys.nr_keys++;
			rp->has_key[TP_HKEY_SRCLINE] = true;
		}
	}
	rp->lines = rp->has_key[TP_HKEY_SRCLINE] || rp->graph_lines;
	if (rp->lines)
		rp->cs.conf.sym.want_lines = true;
	if (!rp->min_pct_set && rp->percent_limit > 0)
		rp->min_pct = rp->percent_limit;
	/* perf: with children, graphs go from the callers down unless asked otherwise */
	if (!rp->no_children && !rp->order_set)
		rp->order = TP_CG_CALLER;
	if (cmd_input__open(&rp->ci, "report", path)) {
		rc = 1;
		goto out;
	}
	if (cmd_sym__open(&rp->cs, &rp->ci)) {
		rc = 1;
		goto out_close;
	}
	/* perf cannot cumulate a pipe's samples (it learns of callchains too late): as perf,
	 * unless asked */
	if (tp_reader__info(rp->ci.r)->pipe && !rp->children)
		rp->no_children = true;
	rc = tp_session__process(rp->cs.s, &ops, rp);
	if (!rc)
		rc = unpark(rp, -1, NULL);	/* never named: ":<tid>" */
	if (rc != -TP_ERR_NOMEM)	/* what could be read */
		report__print(rp);
	if (!rc)
		rc = rp->err;
	rc = rc < 0 ? cmd_input__fail(&rp->ci, rc) : cmd_input__finish(&rp->ci);
out_close:
	cmd_sym__close(&rp->cs);
	cmd_input__close(&rp->ci);
out:
	for (uint32_t i = 0; i < rp->nr_hists; i++)
		tp_hist__delete(rp->hists[i]);
	free(rp->hists);
	free(rp->hist_paths);
	free(rp->prefix);
	free(rp->parked);
	free(rp->parked_frames);
	tp_chain__release(&rp->ch);
	report__lines_free(rp);
	free(rp);
	return rc;
}
