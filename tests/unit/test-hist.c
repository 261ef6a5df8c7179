/* SPDX-License-Identifier: MIT */
/* Aggregation unit tests: entries by sort keys, totals and hidden samples, ordering and
 * ties, percentages as perf prints them, children weights with recursion, call graphs in
 * caller and callee order (merging, run compression, pruning), folded paths, and the
 * sample filters. Samples are made of made-up ids: no files, no symbolizer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/error.h"
#include "host-tools/lib/agg/hfilter.h"
#include "host-tools/lib/agg/hist.h"
#include "tests/unit/check.h"

/* frames: symbol ids; the DSO of symbol s is s / 100 */
static struct tp_frame F(uint32_t sym)
{
	return (struct tp_frame){ sym, sym / 100, '.', 0 };
}

/* add a sample whose stack is given innermost first, 0-terminated */
static int add(struct tp_hist *h, uint32_t comm, uint64_t w, const uint32_t *syms)
{
	struct tp_frame fr[32];
	uint32_t n = 0;

	while (syms[n] && n < 32) {
		fr[n] = F(syms[n]);
		n++;
	}
	return tp_hist__add(h, &(struct tp_hsample){ .comm = comm, .pid = 1, .tid = 1,
						       .weight = w, .frames = fr, .nr_frames = n });
}

static struct tp_hist *make(bool paths, unsigned nr, ...)
{
	struct tp_hconf conf = { .nr_keys = nr, .paths = paths };
	struct tp_hist *h;
	va_list ap;

	va_start(ap, nr);
	for (unsigned i = 0; i < nr; i++)
		conf.keys[i] = (uint8_t)va_arg(ap, int);
	va_end(ap);
	return tp_hist__new(&h, &conf) ? NULL : h;
}

static void test_keys_and_totals(void)
{
	struct tcase c = case_begin("entries by comm,dso,sym: weights, sample counts, order");
	struct tp_hist *h = make(false, 3, TP_HKEY_COMM, TP_HKEY_DSO, TP_HKEY_SYM);
	const struct tp_hentry *e;

	for (int i = 0; i < 3; i++)
		add(h, 1, 100, (uint32_t[]){ 110, 0 });
	add(h, 1, 100, (uint32_t[]){ 111, 0 });
	add(h, 2, 50, (uint32_t[]){ 110, 0 });
	tp_hist__add_hidden(h, 50);
	EXPECT(&c, "finish", 0, tp_hist__finish(h, false));
	EXPECT(&c, "entries", 3, tp_hist__nr_entries(h));
	EXPECT(&c, "total weight (hidden included)", 500, tp_hist__total(h));
	EXPECT(&c, "samples (hidden included)", 6, tp_hist__nr_samples(h));
	e = tp_hist__entry(h, 0);
	EXPECT(&c, "first: comm", 1, e->comm);
	EXPECT(&c, "first: sym", 110, e->frame.sym);
	EXPECT(&c, "first: dso", 1, e->frame.dso);
	EXPECT(&c, "first: self", 300, e->self);
	EXPECT(&c, "first: children = self without paths", 300, e->children);
	EXPECT(&c, "first: samples", 3, e->nr_samples);
	EXPECT(&c, "second: sym", 111, tp_hist__entry(h, 1)->frame.sym);
	EXPECT(&c, "third: comm", 2, tp_hist__entry(h, 2)->comm);
	EXPECT_TRUE(&c, "no fourth", !tp_hist__entry(h, 3));
	tp_hist__delete(h);
	case_end(&c);
}

static void test_ties_and_keys(void)
{
	struct tcase c = case_begin("equal weights ordered by key; unused keys are zero");
	struct tp_hist *h = make(false, 1, TP_HKEY_DSO);
	struct tp_hconf bad = { .keys = { TP_HKEY_SYM, TP_HKEY_SYM }, .nr_keys = 2 };
	struct tp_hist *dup = NULL;

	add(h, 7, 10, (uint32_t[]){ 301, 0 });
	add(h, 8, 10, (uint32_t[]){ 205, 0 });
	add(h, 9, 10, (uint32_t[]){ 302, 0 });	/* same DSO as 301: one entry */
	tp_hist__finish(h, false);
	EXPECT(&c, "entries", 2, tp_hist__nr_entries(h));
	EXPECT(&c, "first: dso 3 (20 > 10)", 3, tp_hist__entry(h, 0)->frame.dso);
	EXPECT(&c, "first: comm not a key", 0, tp_hist__entry(h, 0)->comm);
	EXPECT(&c, "first: sym not a key", 0, tp_hist__entry(h, 0)->frame.sym);
	tp_hist__delete(h);
	h = make(false, 2, TP_HKEY_SYM, TP_HKEY_COMM);
	add(h, 5, 10, (uint32_t[]){ 402, 0 });
	add(h, 4, 10, (uint32_t[]){ 402, 0 });
	add(h, 4, 10, (uint32_t[]){ 401, 0 });
	tp_hist__finish(h, false);
	EXPECT(&c, "tie: sym first", 401, tp_hist__entry(h, 0)->frame.sym);
	EXPECT(&c, "tie: then comm", 4, tp_hist__entry(h, 1)->comm);
	EXPECT(&c, "tie: last", 5, tp_hist__entry(h, 2)->comm);
	EXPECT(&c, "a key twice is refused", -TP_ERR_INVAL, tp_hist__new(&dup, &bad));
	EXPECT(&c, "no frames is refused", -TP_ERR_INVAL,
	       tp_hist__add(h, &(struct tp_hsample){ .weight = 1 }));
	tp_hist__delete(h);
	case_end(&c);
}

static void test_percent(void)
{
	struct tcase c = case_begin("percentages print as perf's %.2f");
	struct { uint64_t w, t; const char *want; } v[] = {
		{ 1, 3, "33.33" }, { 2, 3, "66.67" }, { 1, 8, "12.50" }, { 1, 200, "0.50" },
		{ 1, 20000, "0.01" }, { 1, 40000, "0.00" }, { 7, 7, "100.00" }, { 3, 0, "0.00" },
	};
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		snprintf(buf, sizeof(buf), "%.2f", tp_hist_pct(v[i].w, v[i].t));
		if (strcmp(buf, v[i].want)) {
			printf("[FAIL] %s: %llu of %llu: expected %s, got %s\n", c.name,
			       (unsigned long long)v[i].w, (unsigned long long)v[i].t, v[i].want, buf);
			c.failed = true;
			break;
		}
	}
	case_end(&c);
}

/* main=1, a=2, b=3, c=4 (DSO 0) */
static struct tp_hist *recursion_hist(void)
{
	struct tp_hist *h = make(true, 1, TP_HKEY_SYM);

	add(h, 1, 1, (uint32_t[]){ 4, 2, 3, 2, 1, 0 });	/* main > a > b > a > c */
	add(h, 1, 1, (uint32_t[]){ 3, 1, 0 });		/* main > b */
	tp_hist__finish(h, true);
	return h;
}

static const struct tp_hentry *find(struct tp_hist *h, uint32_t sym)
{
	for (size_t i = 0; i < tp_hist__nr_entries(h); i++)
		if (tp_hist__entry(h, i)->frame.sym == sym)
			return tp_hist__entry(h, i);
	return NULL;
}

static void test_children(void)
{
	struct tcase c = case_begin("children: every sample on the path, once however it recurs");
	struct tp_hist *h = recursion_hist();

	EXPECT(&c, "entries", 4, tp_hist__nr_entries(h));
	EXPECT(&c, "main children", 2, find(h, 1)->children);
	EXPECT(&c, "a children (recursive, counted once)", 1, find(h, 2)->children);
	EXPECT(&c, "b children", 2, find(h, 3)->children);
	EXPECT(&c, "c children", 1, find(h, 4)->children);
	EXPECT(&c, "b self", 1, find(h, 3)->self);
	EXPECT(&c, "main self", 0, find(h, 1)->self);
	/* by children, ties: less self first (perf puts callers first) */
	EXPECT(&c, "first by children: main", 1, tp_hist__entry(h, 0)->frame.sym);
	EXPECT(&c, "second: b", 3, tp_hist__entry(h, 1)->frame.sym);
	tp_hist__delete(h);
	h = make(true, 1, TP_HKEY_DSO);
	add(h, 1, 1, (uint32_t[]){ 101, 201, 102, 0 });	/* dso 1 > dso 2 > dso 1 */
	tp_hist__finish(h, true);
	EXPECT(&c, "dso key: entries", 2, tp_hist__nr_entries(h));
	EXPECT(&c, "dso key: dso 1 children once", 1, tp_hist__entry(h, 0)->children);
	EXPECT(&c, "dso key: dso 1 self", 1, tp_hist__entry(h, 0)->frame.dso == 1 ?
	       tp_hist__entry(h, 0)->self : tp_hist__entry(h, 1)->self);
	tp_hist__delete(h);
	case_end(&c);
}

static bool frames_are(const struct tp_cgnode *n, const uint32_t *syms)
{
	uint32_t i;

	for (i = 0; syms[i]; i++)
		if (i >= n->nr_frames || n->frames[i].sym != syms[i])
			return false;
	return i == n->nr_frames;
}

static void test_graphs(void)
{
	struct tcase c = case_begin("call graphs: merged, runs compressed, pruned, both orders");
	struct tp_hist *h = make(true, 1, TP_HKEY_SYM);
	struct tp_cgraph *g = NULL;
	const struct tp_cgnode *r;

	/* main=1 > mid=2 > leaf=3 (x3), main > mid > leaf2=4, main > mid (self) */
	for (int i = 0; i < 3; i++)
		add(h, 1, 1, (uint32_t[]){ 3, 2, 1, 0 });
	add(h, 1, 1, (uint32_t[]){ 4, 2, 1, 0 });
	add(h, 1, 1, (uint32_t[]){ 2, 1, 0 });
	tp_hist__finish(h, true);
	EXPECT(&c, "graph of main", 0, tp_hist__callgraph(h, find(h, 1), TP_CG_CALLER, true, 0, &g));
	EXPECT(&c, "one root", 1, g ? g->root.nr_children : 0);
	r = g && g->root.nr_children ? &g->root.children[0] : NULL;
	EXPECT_TRUE(&c, "root run main,mid (ends where mid has self)",
		    r && frames_are(r, (uint32_t[]){ 1, 2, 0 }));
	EXPECT(&c, "root total", 5, r ? r->total : 0);
	EXPECT(&c, "root self", 1, r ? r->self : 0);
	EXPECT(&c, "two children", 2, r ? r->nr_children : 0);
	EXPECT(&c, "heaviest first", 3, r && r->nr_children ? r->children[0].frames[0].sym : 0);
	EXPECT(&c, "its total", 3, r && r->nr_children ? r->children[0].total : 0);
	tp_cgraph__delete(g);
	g = NULL;
	tp_hist__callgraph(h, find(h, 1), TP_CG_CALLER, true, 2, &g);
	r = g && g->root.nr_children ? &g->root.children[0] : NULL;
	EXPECT(&c, "pruned under 2: one child left", 1, r ? r->nr_children : 0);
	EXPECT(&c, "pruned weight stays in the total", 5, r ? r->total : 0);
	tp_cgraph__delete(g);
	g = NULL;
	tp_hist__callgraph(h, find(h, 3), TP_CG_CALLEE, false, 0, &g);
	r = g && g->root.nr_children ? &g->root.children[0] : NULL;
	EXPECT_TRUE(&c, "callee order, self: leaf,mid,main",
		    r && frames_are(r, (uint32_t[]){ 3, 2, 1, 0 }) && r->total == 3);
	tp_cgraph__delete(g);
	g = NULL;
	tp_hist__callgraph(h, find(h, 2), TP_CG_CALLEE, true, 0, &g);
	r = g && g->root.nr_children ? &g->root.children[0] : NULL;
	EXPECT_TRUE(&c, "callee order, children: mid,main with all 5",
		    r && frames_are(r, (uint32_t[]){ 2, 1, 0 }) && r->total == 5);
	tp_cgraph__delete(g);
	g = NULL;
	tp_hist__callgraph(h, find(h, 2), TP_CG_CALLER, true, 0, &g);
	EXPECT(&c, "caller order, children of mid: the self path and the one below",
	       2, g ? g->root.nr_children : 0);
	tp_cgraph__delete(g);
	tp_hist__delete(h);

	h = recursion_hist();
	g = NULL;
	tp_hist__callgraph(h, find(h, 2), TP_CG_CALLER, true, 0, &g);
	r = g && g->root.nr_children ? &g->root.children[0] : NULL;
	EXPECT_TRUE(&c, "recursion: from the outermost a down: a,b,a,c",
		    r && g->root.nr_children == 1 && frames_are(r, (uint32_t[]){ 2, 3, 2, 4, 0 }));
	tp_cgraph__delete(g);
	tp_hist__delete(h);
	case_end(&c);
}

struct paths {
	unsigned nr;
	uint64_t weight;
	bool main_first;
};

static int count_path(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		      uint32_t nr, uint64_t weight)
{
	struct paths *p = ctx;

	p->nr++;
	p->weight += weight;
	/* the keys have no comm: the context is empty */
	p->main_first = p->main_first && nr && frames[0].sym == 1 && e->comm == 0;
	return 0;
}

static void test_paths(void)
{
	struct tcase c = case_begin("folded paths: each distinct stack once, outermost first");
	struct tp_hist *h = recursion_hist();
	struct paths p = { .main_first = true };

	add(h, 1, 1, (uint32_t[]){ 3, 1, 0 });	/* after finish: refused */
	EXPECT(&c, "walk", 0, tp_hist__each_path(h, count_path, &p));
	EXPECT(&c, "paths", 2, p.nr);
	EXPECT(&c, "weight", 2, p.weight);
	EXPECT_TRUE(&c, "outermost first", p.main_first);
	tp_hist__delete(h);
	case_end(&c);
}

static int count_samples(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
			 uint32_t nr, uint64_t weight, uint64_t samples)
{
	struct paths *p = ctx;

	(void)e;
	(void)frames;
	p->nr += (unsigned)samples;
	p->weight += weight;
	p->main_first = p->main_first && nr;
	return 0;
}

static void test_paths_nr(void)
{
	struct tcase c = case_begin("paths with their samples: weights and counts, 0 weights too");
	struct tp_hist *h = make(true, 1, TP_HKEY_COMM);
	struct paths p = { .main_first = true }, w = { 0 };

	add(h, 1, 10, (uint32_t[]){ 3, 1, 0 });
	add(h, 1, 30, (uint32_t[]){ 3, 1, 0 });
	add(h, 1, 0, (uint32_t[]){ 2, 1, 0 });		/* a sample of period 0 */
	tp_hist__finish(h, true);
	EXPECT(&c, "walk", 0, tp_hist__each_path_nr(h, count_samples, &p));
	EXPECT(&c, "samples, the one that weighed 0 too", 3, p.nr);
	EXPECT(&c, "weights", 40, p.weight);
	EXPECT_TRUE(&c, "frames", p.main_first);
	EXPECT(&c, "each_path leaves out the path of weight 0", 0,
	       tp_hist__each_path(h, count_path, &w));
	EXPECT(&c, "so one path", 1, w.nr);
	tp_hist__delete(h);
	case_end(&c);
}

static void test_filters(void)
{
	struct tcase c = case_begin("filters: lists, ids, time ranges in seconds");
	struct tp_hfilter f = { 0 };

	EXPECT(&c, "comm list", 0, tp_hfilter__add_list(&f, TP_HFILTER_COMM, "spin,sysc"));
	EXPECT(&c, "pid list", 0, tp_hfilter__add_list(&f, TP_HFILTER_PID, "10,20"));
	EXPECT(&c, "a pid that is no number", -TP_ERR_INVAL,
	       tp_hfilter__add_list(&f, TP_HFILTER_PID, "x"));
	EXPECT_TRUE(&c, "spin in pid 10", tp_hfilter__thread_ok(&f, 0, "spin", 10, 11));
	EXPECT_TRUE(&c, "spin again (cached)", tp_hfilter__thread_ok(&f, 0, "spin", 20, 11));
	EXPECT_TRUE(&c, "not cat", !tp_hfilter__thread_ok(&f, 1, "cat", 10, 11));
	EXPECT_TRUE(&c, "not pid 30", !tp_hfilter__thread_ok(&f, 0, "spin", 30, 30));
	EXPECT(&c, "dso list", 0, tp_hfilter__add_list(&f, TP_HFILTER_DSO, "libc.so.6"));
	EXPECT_TRUE(&c, "dso by basename",
		    tp_hfilter__dso_ok(&f, "/usr/lib/libc.so.6", "libc.so.6"));
	EXPECT_TRUE(&c, "not another dso", !tp_hfilter__dso_ok(&f, "/bin/x", "x"));
	EXPECT_TRUE(&c, "any symbol without --symbol", tp_hfilter__sym_ok(&f, NULL, false));
	tp_hfilter__add_list(&f, TP_HFILTER_SYM, "main");
	EXPECT_TRUE(&c, "symbol main", tp_hfilter__sym_ok(&f, "main", true));
	EXPECT_TRUE(&c, "unresolved never matches", !tp_hfilter__sym_ok(&f, NULL, false));
	EXPECT_TRUE(&c, "no --time: any time", tp_hfilter__time_ok(&f, false, 0));
	EXPECT(&c, "times", 0, tp_hfilter__add_times(&f, "1.5,2.000000001 ,3 7.25,"));
	EXPECT(&c, "three ranges", 3, f.nr_times);
	EXPECT(&c, "start exact", 1500000000ULL, f.times[0].start);
	EXPECT(&c, "end exact", 2000000001ULL, f.times[0].end);
	EXPECT_TRUE(&c, "in the first", tp_hfilter__time_ok(&f, true, 1600000000ULL));
	EXPECT_TRUE(&c, "before the second's end", tp_hfilter__time_ok(&f, true, 5));
	EXPECT_TRUE(&c, "between", !tp_hfilter__time_ok(&f, true, 5000000000ULL));
	EXPECT_TRUE(&c, "open end", tp_hfilter__time_ok(&f, true, UINT64_MAX));
	EXPECT_TRUE(&c, "a sample without time fails", !tp_hfilter__time_ok(&f, false, 0));
	EXPECT(&c, "a bad range", -TP_ERR_INVAL, tp_hfilter__add_times(&f, "2,1"));
	EXPECT(&c, "no comma", -TP_ERR_INVAL, tp_hfilter__add_times(&f, "2"));
	EXPECT(&c, "not a number", -TP_ERR_INVAL, tp_hfilter__add_times(&f, "1s,2"));
	tp_hfilter__release(&f);
	case_end(&c);
}

/* add a sample with source lines: syms and lines innermost first, 0-terminated syms */
static int add_lines(struct tp_hist *h, uint64_t w, const uint32_t *syms, const uint32_t *lines)
{
	struct tp_frame fr[32];
	uint32_t n = 0;

	while (syms[n] && n < 32) {
		fr[n] = F(syms[n]);
		fr[n].line = lines[n];
		n++;
	}
	return tp_hist__add(h, &(struct tp_hsample){ .comm = 1, .pid = 1, .tid = 1, .weight = w,
						       .frames = fr, .nr_frames = n });
}

static void test_srcline(void)
{
	struct tcase c = case_begin("srcline key: entries by line (across symbols alone, within "
				    "a symbol with sym), children per line, graphs by line on request");
	struct tp_hist *h = make(false, 1, TP_HKEY_SRCLINE);
	struct tp_hconf conf = { .nr_keys = 2, .keys = { TP_HKEY_SYM, TP_HKEY_SRCLINE },
				 .paths = true };
	struct tp_cgraph *g;
	const struct tp_hentry *e;

	/* line 7 in two symbols: one entry without sym */
	add_lines(h, 30, (uint32_t[]){ 110, 0 }, (uint32_t[]){ 7 });
	add_lines(h, 20, (uint32_t[]){ 120, 0 }, (uint32_t[]){ 7 });
	add_lines(h, 40, (uint32_t[]){ 110, 0 }, (uint32_t[]){ 8 });
	EXPECT(&c, "finish", 0, tp_hist__finish(h, false));
	EXPECT(&c, "srcline alone: 2 entries", 2, tp_hist__nr_entries(h));
	e = tp_hist__entry(h, 0);
	EXPECT(&c, "first: line 7 of both symbols", 7, e->frame.line);
	EXPECT(&c, "first: self", 50, e->self);
	EXPECT(&c, "first: no sym in the key", 0, e->frame.sym);
	tp_hist__delete(h);

	/* sym,srcline with paths: 110:7 <- 200:1 twice, 110:8 <- 200:1, 110:7 <- 200:2 */
	EXPECT(&c, "new", 0, tp_hist__new(&h, &conf));
	add_lines(h, 10, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 7, 1 });
	add_lines(h, 10, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 7, 1 });
	add_lines(h, 10, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 8, 1 });
	add_lines(h, 10, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 7, 2 });
	EXPECT(&c, "finish", 0, tp_hist__finish(h, true));
	EXPECT(&c, "sym,srcline: 4 entries", 4, tp_hist__nr_entries(h));
	e = tp_hist__entry(h, 0);
	EXPECT(&c, "first: 200:1", 200 * 100 + 1, e->frame.sym * 100 + e->frame.line);
	EXPECT(&c, "first: children", 30, e->children);
	EXPECT(&c, "first: self", 0, e->self);
	e = tp_hist__entry(h, 1);
	EXPECT(&c, "second: 110:7", 110 * 100 + 7, e->frame.sym * 100 + e->frame.line);
	EXPECT(&c, "second: self", 30, e->self);
	/* 110:7's graph (callee order): its callers by function, 200 once */
	EXPECT(&c, "graph", 0, tp_hist__callgraph(h, e, TP_CG_CALLEE, false, 0, &g));
	EXPECT(&c, "graph by function: one root", 1, g->root.nr_children);
	EXPECT(&c, "graph by function: its frames", 2, g->root.children[0].nr_frames);
	tp_cgraph__delete(g);
	tp_hist__delete(h);

	conf.graph_lines = true;
	EXPECT(&c, "new", 0, tp_hist__new(&h, &conf));
	add_lines(h, 10, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 7, 1 });
	add_lines(h, 20, (uint32_t[]){ 110, 200, 0 }, (uint32_t[]){ 7, 2 });
	EXPECT(&c, "finish", 0, tp_hist__finish(h, false));
	e = tp_hist__entry(h, 0);
	EXPECT(&c, "graph_lines: first 110:7", 110 * 100 + 7, e->frame.sym * 100 + e->frame.line);
	EXPECT(&c, "graph", 0, tp_hist__callgraph(h, e, TP_CG_CALLEE, false, 0, &g));
	EXPECT(&c, "graph by line: one root (110:7)", 1, g->root.nr_children);
	EXPECT(&c, "graph by line: two callers' lines under it", 2,
	       g->root.children[0].nr_children);
	EXPECT(&c, "graph by line: the heavier first (200:2)", 2,
	       g->root.children[0].children[0].frames[0].line);
	tp_cgraph__delete(g);
	tp_hist__delete(h);

	/* lines with no source (a kernel function's "sym+off"): by function in a graph, as
	 * perf's callchains, whose srcline is none there; 300+221 and 300+261 are one root */
	conf = (struct tp_hconf){ .nr_keys = 1, .keys = { TP_HKEY_SYM }, .paths = true,
				  .graph_lines = true };
	EXPECT(&c, "new", 0, tp_hist__new(&h, &conf));
	add_lines(h, 30, (uint32_t[]){ 300, 200, 0 }, (uint32_t[]){ 5 | TP_LINE_NOSRC, 1 });
	add_lines(h, 10, (uint32_t[]){ 300, 200, 0 }, (uint32_t[]){ 6 | TP_LINE_NOSRC, 1 });
	EXPECT(&c, "finish", 0, tp_hist__finish(h, false));
	e = tp_hist__entry(h, 0);
	EXPECT(&c, "no-source lines: one entry for the symbol", 40, e->self);
	EXPECT(&c, "graph", 0, tp_hist__callgraph(h, e, TP_CG_CALLEE, false, 0, &g));
	EXPECT(&c, "no-source lines: one root", 1, g->root.nr_children);
	EXPECT(&c, "no-source lines: the root holds all the weight", 40,
	       g->root.children[0].total);
	EXPECT(&c, "no-source lines: the root's frame has no line", 0,
	       g->root.children[0].frames[0].line);
	EXPECT(&c, "no-source lines: the caller keeps its line", 1,
	       g->root.children[0].frames[1].line);
	tp_cgraph__delete(g);
	tp_hist__delete(h);
	case_end(&c);
}

int main(void)
{
	test_keys_and_totals();
	test_ties_and_keys();
	test_percent();
	test_children();
	test_graphs();
	test_paths();
	test_paths_nr();
	test_filters();
	test_srcline();
	return check_summary("test-hist");
}
