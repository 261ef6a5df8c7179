/* tinyperf report: the perf report --stdio table — one section per event, entries by sort
 * keys with self and children overheads and their call graphs — plus a header that says
 * where each DSO's symbols came from or why it has none. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-input.h"
#include "host-tools/cmd-sym.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/error.h"
#include "host-tools/lib/hist.h"

struct report {
	struct cmd_sym cs;
	struct cmd_input ci;
	struct tp_hconf keys;
	bool children, no_children, graph, quiet, show_nr, order_set;
	enum tp_cgorder order;
	double min_pct, percent_limit;
	bool min_pct_set;
	bool has_key[TP_HKEY_MAX];

	struct tp_hist **hists;		/* by attr index */
	bool *hist_paths;
	uint32_t nr_hists;
	struct tp_chain ch;
	struct tp_frame one;		/* the stack of a sample without paths */
	uint64_t lost_samples, lost_events, nr_lost;
	char *prefix;			/* the graph's drawing prefix, grown as needed */
	size_t prefix_cap;
	int err;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf report [-i FILE|-] [--stdio] [-s KEYS] [-g [SPEC]|-G] [--children|"
		   "--no-children]\n"
		   "                      [filters] [--percent-limit P] [symbol options]\n\n"
		   "Print where the samples went, like perf report --stdio.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -s, --sort KEYS    comm,dso,sym,pid,tid,cpu in any order and subset\n"
		   "                     (default comm,dso,sym)\n"
		   "  -g, --call-graph [SPEC]  call graphs under the entries (default with\n"
		   "                     callchains): SPEC is words among graph, none, caller,\n"
		   "                     callee and a minimum percent, e.g. -g caller,1\n"
		   "  -G, --inverted     caller order (the outermost caller first)\n"
		   "  --children, --no-children  add (or not) the time of what an entry calls\n"
		   "  --percent-limit P  hide entries under P percent (and graph nodes, unless -g\n"
		   "                     gives a minimum)\n"
		   "  -n, --show-nr-samples  a column with the number of samples\n"
		   "  -q, --quiet        only the entries, no header lines\n"
		   "  --stdio            accepted for perf's sake: the output is always text\n"
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
				"tid and cpu\n", (int)n, p);
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
		"percent", "period", "count", "branch", "folded",
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
	for (const char *p = arg; p && *p;) {
		size_t n = strcspn(p, ",");

		if (!is_graph_word(p, n)) {
			fprintf(stderr, "tinyperf: report: -g '%s': expected words among graph, none, "
				"caller, callee and a minimum percent\n", arg);
			return 2;
		}
		if (n == 4 && !strncmp(p, "none", 4)) {
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

		/* call paths are kept when there are callchains, unless nothing would use them */
		conf.paths = a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
			     (rp->graph || !rp->no_children);
		if (tp_hist__new(&rp->hists[i], &conf))
			return NULL;
		rp->hist_paths[i] = conf.paths;
	}
	return rp->hists[i];
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
	if (rp->cs.nr_times && (!(ev->sid_type & PERF_SAMPLE_TIME) ||
				!cmd_sym__in_time(&rp->cs, ev->sid.time)))
		return 0;
	s.weight = a && (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ev->u.sample.period :
		   a ? a->attr.sample_period : 1;
	if (!(ev->sid_type & PERF_SAMPLE_TID)) {
		s.pid = t ? t->pid : -1;
		s.tid = t ? t->tid : -1;
	}
	err = tp_symcache__comm(rp->cs.c, t, &s.comm);
	if (err)
		return err;
	if (!cmd_sym__thread_ok(&rp->cs, s.comm, s.pid, s.tid)) {
		tp_hist__add_hidden(h, s.weight);
		return 0;
	}
	if (rp->hist_paths[a ? a->index : 0]) {
		err = tp_symcache__chain(rp->cs.c, ev, t, loc, &rp->ch);
		s.frames = rp->ch.frames;
		s.nr_frames = rp->ch.nr;
	} else {
		uint64_t off;

		err = tp_symcache__resolve(rp->cs.c, loc, &rp->one, &off);
		s.frames = &rp->one;
		s.nr_frames = 1;
	}
	if (err)
		return err;
	/* a --dso/--symbol the sort keys cannot show is a filter on where samples hit */
	if ((rp->cs.dsos.n && !rp->has_key[TP_HKEY_DSO] && !rp->has_key[TP_HKEY_SYM]) ||
	    (rp->cs.syms.n && !rp->has_key[TP_HKEY_SYM])) {
		if (!cmd_sym__frame_ok(&rp->cs, s.frames[0])) {
			tp_hist__add_hidden(h, s.weight);
			return 0;
		}
	}
	return tp_hist__add(h, &s);
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct report *rp = ctx;

	(void)t;
	if (ev->type == PERF_RECORD_LOST_SAMPLES) {
		rp->lost_samples += ev->u.lost.lost;
	} else if (ev->type == PERF_RECORD_LOST) {
		rp->lost_events += ev->u.lost.lost;
		rp->nr_lost++;
	}
	return 0;
}

/* ---- printing ---- */

static const char *key_head(enum tp_hkey k)
{
	static const char *const heads[TP_HKEY_MAX] = {
		[TP_HKEY_COMM] = "Command", [TP_HKEY_DSO] = "Shared Object",
		[TP_HKEY_SYM] = "Symbol", [TP_HKEY_PID] = "Pid", [TP_HKEY_TID] = "Tid",
		[TP_HKEY_CPU] = "CPU",
	};

	return heads[k];
}

static int key_str(const struct report *rp, const struct tp_hentry *e, enum tp_hkey k,
		   char *buf, size_t n)
{
	const struct tp_csym *sym;

	switch (k) {
	case TP_HKEY_COMM:
		return snprintf(buf, n, "%s", tp_symcache__comm_str(rp->cs.c, e->comm));
	case TP_HKEY_DSO:
		return snprintf(buf, n, "%s", tp_symcache__dso(rp->cs.c, e->frame.dso)->short_name);
	case TP_HKEY_SYM:
		sym = tp_symcache__sym(rp->cs.c, e->frame.sym);
		if (sym->name)
			return snprintf(buf, n, "[%c] %s", e->frame.level, sym->name);
		/* as perf's "%#.16llx": no 0x for a zero */
		return snprintf(buf, n, "[%c] %s%016llx", e->frame.level, sym->addr ? "0x" : "",
				(unsigned long long)sym->addr);
	case TP_HKEY_PID:
		return snprintf(buf, n, "%d", e->pid);
	case TP_HKEY_TID:
		return snprintf(buf, n, "%d", e->tid);
	case TP_HKEY_CPU:
		return snprintf(buf, n, "%03u", e->cpu);
	default:
		return snprintf(buf, n, "?");
	}
}

static const char *frame_name(const struct report *rp, struct tp_frame f, char *buf, size_t n)
{
	const struct tp_csym *sym = tp_symcache__sym(rp->cs.c, f.sym);

	if (sym->name)
		return sym->name;
	snprintf(buf, n, "%#llx", (unsigned long long)sym->addr);
	return buf;
}

/* the drawing prefix, one 11-character piece per level ("|          ") */
static char *prefix_at(struct report *rp, size_t len, size_t more)
{
	if (len + more + 1 > rp->prefix_cap) {
		size_t cap = 2 * (len + more + 1) + 256;
		char *p = realloc(rp->prefix, cap);

		if (!p)
			return NULL;
		rp->prefix = p;
		rp->prefix_cap = cap;
	}
	return rp->prefix + len;
}

/* perf's graph: a separator line, then each child's run, the first frame with its percent */
static void print_children(struct report *rp, const struct tp_cgnode *node, size_t plen,
			   int margin, uint64_t total)
{
	char name[64];

	for (uint32_t k = 0; k < node->nr_children; k++) {
		const struct tp_cgnode *c = &node->children[k];
		bool last = k + 1 == node->nr_children;
		char *p = prefix_at(rp, plen, 11);

		if (!p)
			return;
		printf("%12s%*s%.*s|          \n", "", margin, "", (int)plen, rp->prefix);
		for (uint32_t j = 0; j < c->nr_frames; j++) {
			printf("%12s%*s%.*s%c", "", margin, "", (int)plen, rp->prefix,
			       last ? ' ' : '|');
			if (!j)
				printf("--%.2f%%--", total ? 100.0 * (double)c->total / (double)total : 0);
			else
				printf("          ");
			printf("%s\n", frame_name(rp, c->frames[j], name, sizeof(name)));
		}
		memcpy(rp->prefix + plen, last ? "           " : "|          ", 11);
		print_children(rp, c, plen + 11, margin, total);
	}
}

static void print_graph(struct report *rp, struct tp_hist *h, const struct tp_hentry *e,
			bool children, uint64_t total)
{
	uint64_t min = (uint64_t)((double)total * (rp->min_pct / 100.0));
	const struct tp_cgnode *top;
	struct tp_cgraph *g;
	int margin = 0;
	char name[64];

	if (tp_hist__callgraph(h, e, rp->order, children, min, &g)) {
		rp->err = -TP_ERR_NOMEM;
		return;
	}
	top = &g->root;
	if (top->nr_children == 1) {
		/* one root: its run without a percent (it is the entry's), after "---" */
		const struct tp_cgnode *r = &top->children[0];
		bool printed = false;

		for (uint32_t j = 0; j < r->nr_frames; j++) {
			if (!j && rp->keys.keys[0] == TP_HKEY_SYM)
				continue;	/* the entry's own symbol, as perf */
			if (!printed) {
				printf("%12s|\n%12s---", "", "");
				margin = 3;
				printed = true;
			} else {
				printf("%12s%*s", "", margin, "");
			}
			printf("%s\n", frame_name(rp, r->frames[j], name, sizeof(name)));
		}
		top = r;
	}
	if (top != &g->root || top->nr_children) {
		print_children(rp, top, 0, margin, total);
		printf("\n");
	}
	tp_cgraph__delete(g);
}

static bool entry_visible(struct report *rp, const struct tp_hentry *e, bool children,
			  uint64_t total)
{
	double pct = total ? 100.0 * (double)(children ? e->children : e->self) / (double)total : 0;

	if (rp->percent_limit > 0 && pct < rp->percent_limit)
		return false;
	if (rp->cs.dsos.n && (rp->has_key[TP_HKEY_DSO] || rp->has_key[TP_HKEY_SYM]) &&
	    !cmd_sym__frame_ok(&rp->cs, (struct tp_frame){ 0, e->frame.dso }))
		return false;
	if (rp->cs.syms.n && rp->has_key[TP_HKEY_SYM]) {
		const struct tp_csym *s = tp_symcache__sym(rp->cs.c, e->frame.sym);
		struct cmd_list dsos = rp->cs.dsos;
		bool ok;

		rp->cs.dsos.n = 0;	/* the symbol alone */
		ok = s && cmd_sym__frame_ok(&rp->cs, e->frame);
		rp->cs.dsos = dsos;
		return ok;
	}
	return true;
}

static void print_dots(int n)
{
	while (n-- > 0)
		putchar('.');
}

static void print_section(struct report *rp, uint32_t idx)
{
	struct tp_hist *h = rp->hists[idx];
	const struct tp_attr *a = tp_reader__attr(rp->ci.r, idx);
	bool children = rp->hist_paths[idx] && !rp->no_children;
	int width[TP_HKEY_MAX] = { 0 };
	uint64_t total = tp_hist__total(h);
	char buf[4096], evbuf[64];
	size_t n;

	if (tp_hist__finish(h, children)) {
		rp->err = -TP_ERR_NOMEM;
		return;
	}
	n = tp_hist__nr_entries(h);
	for (unsigned k = 0; k < rp->keys.nr_keys; k++)
		width[k] = (int)strlen(key_head(rp->keys.keys[k]));
	for (size_t i = 0; i < n; i++) {
		const struct tp_hentry *e = tp_hist__entry(h, i);

		if (!entry_visible(rp, e, children, total))
			continue;
		for (unsigned k = 0; k < rp->keys.nr_keys; k++) {
			int w = key_str(rp, e, rp->keys.keys[k], buf, sizeof(buf));

			if (w > width[k])
				width[k] = w < (int)sizeof(buf) ? w : (int)sizeof(buf) - 1;
		}
	}
	if (!rp->quiet) {
		printf("#\n# Samples: %llu  of event '%s'\n# Event count (approx.): %llu\n#\n",
		       (unsigned long long)tp_hist__nr_samples(h),
		       cmd_sym__event_name(a, evbuf, sizeof(evbuf)), (unsigned long long)total);
		printf(children ? "# Children      Self" : "# Overhead");
		if (rp->show_nr)
			printf("       Samples");
		for (unsigned k = 0; k < rp->keys.nr_keys; k++)
			printf("  %-*s", k + 1 < rp->keys.nr_keys ? width[k] : 0,
			       key_head(rp->keys.keys[k]));
		printf(children ? "\n# ........  ........" : "\n# ........");
		if (rp->show_nr)
			printf("  ............");
		for (unsigned k = 0; k < rp->keys.nr_keys; k++) {
			printf("  ");
			print_dots(width[k]);
		}
		printf("\n#\n");
	}
	for (size_t i = 0; i < n && !rp->err; i++) {
		const struct tp_hentry *e = tp_hist__entry(h, i);

		if (!entry_visible(rp, e, children, total))
			continue;
		if (children)
			printf("  %7.2f%%  %7.2f%%", 100.0 * (double)e->children / (double)total,
			       100.0 * (double)e->self / (double)total);
		else
			printf("  %7.2f%%", 100.0 * (double)e->self / (double)total);
		if (rp->show_nr)
			printf("  %12llu", (unsigned long long)e->nr_samples);
		for (unsigned k = 0; k < rp->keys.nr_keys; k++) {
			key_str(rp, e, rp->keys.keys[k], buf, sizeof(buf));
			printf("  %-*s", k + 1 < rp->keys.nr_keys ? width[k] : 0, buf);
		}
		printf("\n");
		if (rp->graph && rp->hist_paths[idx])
			print_graph(rp, h, e, children, total);
	}
	if (!rp->quiet)
		printf("\n");
}

static void print_report(struct report *rp)
{
	if (!rp->quiet) {
		printf("# To display the perf.data header info, please use tinyperf header.\n#\n");
		printf("# Symbols of the DSOs samples landed in:\n");
		cmd_sym__print_dsos(&rp->cs, stdout, "#   ");
		printf("#\n# Total Lost Samples: %llu\n", (unsigned long long)rp->lost_samples);
		if (rp->nr_lost)
			printf("# Lost events: %llu in %llu LOST records (the ring buffer overflowed)\n",
			       (unsigned long long)rp->lost_events, (unsigned long long)rp->nr_lost);
	}
	for (uint32_t i = 0; i < rp->nr_hists && !rp->err; i++)
		if (rp->hists[i] && tp_hist__nr_samples(rp->hists[i]))
			print_section(rp, i);
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
	if (rc != -TP_ERR_NOMEM)	/* what could be read */
		print_report(rp);
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
	tp_chain__release(&rp->ch);
	free(rp);
	return rc;
}
