/* SPDX-License-Identifier: MIT */
/* Call graphs drawn from the call-path tree of a hist: for one entry, the paths through it
 * are gathered into a scratch tree in the display order asked for, which is then pruned,
 * compressed into runs (as perf's callchain nodes) and sorted by weight. Also the walk over
 * every distinct path (folded stacks). */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/internal.h"

/* ---- the scratch tree ---- */

struct tnode {
	struct tp_frame frame;
	uint32_t parent, first_child, next;
	uint32_t nr_live;		/* children with weight, after totals */
	uint64_t self, total;
};

struct build {
	struct tp_hist *h;
	uint32_t entry;
	struct tnode *t;
	uint32_t nr, cap;
	struct tp_htab idx;
	bool nomem;
};

struct tkey {
	const struct build *b;
	uint32_t parent, sym, line;
};

static bool tnode_eq(const void *p, uint32_t i)
{
	const struct tkey *k = p;

	return k->b->t[i].parent == k->parent && k->b->t[i].frame.sym == k->sym &&
	       k->b->t[i].frame.line == k->line;
}

/* the child of parent for f, made if new; 0 (the root) when out of memory, with b->nomem */
static uint32_t tchild(struct build *b, uint32_t parent, struct tp_frame f)
{
	struct tkey k;
	uint32_t hv, i;
	struct tp_hslot *slot;
	struct tnode *n;

	/* one node per function, whatever its lines; with them, a frame with no line is one node
	 * per function too (two offsets in a kernel function are one node, as in perf) */
	if (!b->h->conf.graph_lines || (f.line & TP_LINE_NOSRC))
		f.line = 0;
	k = (struct tkey){ b, parent, f.sym, f.line };
	hv = tp_hash2(parent, ((uint64_t)f.line << 32) | f.sym);

	if (tp_htab__reserve(&b->idx))
		goto out_nomem;
	slot = tp_htab__probe(&b->idx, hv, tnode_eq, &k);
	if (slot->idx)
		return slot->idx - 1;
	i = b->nr;
	if (tp_grow((void **)&b->t, &b->cap, i + 1, sizeof(*b->t)))
		goto out_nomem;
	n = &b->t[i];
	memset(n, 0, sizeof(*n));
	n->frame = f;
	n->parent = parent;
	n->first_child = TP_HNONE;
	n->next = b->t[parent].first_child;
	b->t[parent].first_child = i;
	b->nr++;
	tp_htab__fill(&b->idx, slot, hv, i);
	return i;

out_nomem:
	b->nomem = true;
	return 0;
}

/* the path of trie node n, from the outermost caller down to n, into the scratch tree */
static uint32_t add_down(struct build *b, uint32_t n)
{
	struct tp_hist *h = b->h;
	uint32_t depth = 0, t = 0;

	for (uint32_t x = n; h->nodes[x].parent != TP_HNONE; x = h->nodes[x].parent)
		depth++;
	if (tp_grow((void **)&h->scratch, &h->cap_scratch, depth, sizeof(*h->scratch))) {
		b->nomem = true;
		return 0;
	}
	for (uint32_t d = depth; d-- > 0; n = h->nodes[n].parent)
		h->scratch[d] = n;
	for (uint32_t d = 0; d < depth && !b->nomem; d++)
		t = tchild(b, t, h->nodes[h->scratch[d]].frame);
	return t;
}

/* the path from trie node n up to the outermost caller */
static uint32_t add_up(struct build *b, uint32_t n)
{
	const struct tp_hist *h = b->h;
	uint32_t t = 0;

	for (; h->nodes[n].parent != TP_HNONE; n = h->nodes[n].parent)
		t = tchild(b, t, h->nodes[n].frame);
	return t;
}

/* the nearest proper ancestor of trie node n counting for the same entry, or TP_HNONE */
static uint32_t same_above(const struct tp_hist *h, uint32_t n)
{
	uint32_t e = h->nodes[n].entry;

	for (n = h->nodes[n].parent; n != TP_HNONE; n = h->nodes[n].parent)
		if (h->nodes[n].entry == e)
			return n;
	return TP_HNONE;
}

/* Caller order, cumulative part: the subtree below outermost occurrence n mirrored under
 * scratch node t, with the weight of the samples that did not hit the entry itself. */
static void mirror(struct build *b, uint32_t n, uint32_t t)
{
	const struct tp_hist *h = b->h;
	uint32_t top = n;

	for (;;) {
		const struct tp_hnode *nd = &h->nodes[n];

		if (nd->self && nd->entry != b->entry)
			b->t[t].self += nd->self;
		if (nd->first_child != TP_HNONE) {
			n = nd->first_child;
			t = tchild(b, t, h->nodes[n].frame);
			if (b->nomem)
				return;
			continue;
		}
		while (n != top && h->nodes[n].next == TP_HNONE) {
			n = h->nodes[n].parent;
			t = b->t[t].parent;
		}
		if (n == top)
			return;
		n = h->nodes[n].next;
		t = tchild(b, b->t[t].parent, h->nodes[n].frame);
		if (b->nomem)
			return;
	}
}

/* nodes grouped by entry, once */
static int index_by_entry(struct tp_hist *h)
{
	uint32_t *start, *pos, *by;

	if (h->by_entry)
		return 0;
	start = calloc((size_t)h->nr_entries + 1, sizeof(*start));
	pos = malloc(((size_t)h->nr_entries + 1) * sizeof(*pos));
	by = malloc((size_t)(h->nr_nodes ? h->nr_nodes : 1) * sizeof(*by));
	if (!start || !pos || !by) {
		free(start);
		free(pos);
		free(by);
		return -TP_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < h->nr_nodes; i++)
		if (h->nodes[i].entry != TP_HNONE)
			start[h->nodes[i].entry + 1]++;
	for (uint32_t e = 0; e < h->nr_entries; e++)
		start[e + 1] += start[e];
	memcpy(pos, start, ((size_t)h->nr_entries + 1) * sizeof(*pos));
	for (uint32_t i = 0; i < h->nr_nodes; i++)
		if (h->nodes[i].entry != TP_HNONE)
			by[pos[h->nodes[i].entry]++] = i;
	free(pos);
	h->by_entry = by;
	h->by_entry_start = start;
	return 0;
}

static int gather(struct build *b, enum tp_cgorder order, bool children)
{
	const struct tp_hist *h = b->h;
	const uint32_t *list = h->by_entry + h->by_entry_start[b->entry];
	uint32_t nr = h->by_entry_start[b->entry + 1] - h->by_entry_start[b->entry];
	uint64_t *excl = NULL;

	if (!children || order == TP_CG_CALLER) {
		/* the full paths of the samples that hit the entry */
		for (uint32_t i = 0; i < nr && !b->nomem; i++) {
			uint32_t n = list[i], t;

			if (!h->nodes[n].self)
				continue;
			t = order == TP_CG_CALLER ? add_down(b, n) : add_up(b, n);
			b->t[t].self += h->nodes[n].self;
		}
	}
	if (children && order == TP_CG_CALLER) {
		for (uint32_t i = 0; i < nr && !b->nomem; i++) {
			uint32_t n = list[i];

			if (same_above(h, n) == TP_HNONE)
				mirror(b, n, tchild(b, 0, h->nodes[n].frame));
		}
	} else if (children) {
		/* each sample counts at the innermost occurrence on its path */
		excl = malloc(sizeof(*excl) * (nr ? nr : 1));
		if (!excl)
			return -TP_ERR_NOMEM;
		for (uint32_t i = 0; i < nr; i++)
			excl[i] = h->total[list[i]];
		for (uint32_t i = 0; i < nr; i++) {
			uint32_t up = same_above(h, list[i]), lo = 0, hi = i;

			if (up == TP_HNONE)
				continue;
			while (lo < hi) {	/* the list is in node order, up comes before */
				uint32_t mid = lo + (hi - lo) / 2;

				if (list[mid] < up)
					lo = mid + 1;
				else
					hi = mid;
			}
			excl[lo] -= h->total[list[i]];
		}
		for (uint32_t i = 0; i < nr && !b->nomem; i++) {
			if (excl[i]) {
				uint32_t t = add_up(b, list[i]);

				b->t[t].self += excl[i];
			}
		}
	}
	free(excl);
	return b->nomem ? -TP_ERR_NOMEM : 0;
}

/* ---- from the scratch tree to the drawn graph ---- */

struct arena {
	struct arena *next;
	size_t used, cap;
	max_align_t data[];
};

struct cgraph {
	struct tp_cgraph g;
	struct arena *arena;
};

static void *alloc(struct cgraph *g, size_t n)
{
	struct arena *a = g->arena;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!a || a->cap - a->used < n) {
		size_t cap = n > 65536 ? n : 65536;

		a = malloc(sizeof(*a) + cap);
		if (!a)
			return NULL;
		a->next = g->arena;
		a->used = 0;
		a->cap = cap;
		g->arena = a;
	}
	a->used += n;
	return (char *)a->data + a->used - n;
}

void tp_cgraph__delete(struct tp_cgraph *pub)
{
	struct cgraph *g = (struct cgraph *)pub;

	if (!g)
		return;
	while (g->arena) {
		struct arena *next = g->arena->next;

		free(g->arena);
		g->arena = next;
	}
	free(g);
}

static int cmp_cgnode(const void *pa, const void *pb)
{
	const struct tp_cgnode *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->frames[0].sym != b->frames[0].sym)
		return a->frames[0].sym < b->frames[0].sym ? -1 : 1;
	return a->frames[0].line < b->frames[0].line ? -1 : a->frames[0].line > b->frames[0].line;
}

/* the children of scratch node t with at least min_weight, as drawn nodes */
static int emit_children(const struct build *b, struct cgraph *g, uint32_t t, uint64_t min,
			 struct tp_cgnode *out)
{
	uint32_t nr = 0, k = 0;

	for (uint32_t c = b->t[t].first_child; c != TP_HNONE; c = b->t[c].next)
		nr += b->t[c].total && b->t[c].total >= min;
	out->nr_children = nr;
	if (!nr)
		return 0;
	out->children = alloc(g, nr * sizeof(*out->children));
	if (!out->children)
		return -TP_ERR_NOMEM;
	for (uint32_t c = b->t[t].first_child; c != TP_HNONE; c = b->t[c].next) {
		struct tp_cgnode *n = &out->children[k];
		struct tp_frame *frames;
		uint32_t run = 1, last = c;
		int err;

		if (!b->t[c].total || b->t[c].total < min)
			continue;
		k++;
		/* a run goes on while nothing ends or branches */
		while (!b->t[last].self && b->t[last].nr_live == 1) {
			uint32_t x = b->t[last].first_child;

			while (!b->t[x].total)
				x = b->t[x].next;
			last = x;
			run++;
		}
		frames = alloc(g, run * sizeof(*frames));
		if (!frames)
			return -TP_ERR_NOMEM;
		n->frames = frames;
		n->nr_frames = run;
		n->total = b->t[c].total;
		n->self = b->t[last].self;
		for (uint32_t x = c, i = 0; i < run; i++) {
			frames[i] = b->t[x].frame;
			if (i + 1 < run)
				for (x = b->t[x].first_child; !b->t[x].total; x = b->t[x].next)
					;
		}
		err = emit_children(b, g, last, min, n);
		if (err)
			return err;
	}
	qsort(out->children, nr, sizeof(*out->children), cmp_cgnode);
	return 0;
}

int tp_hist__callgraph(struct tp_hist *h, const struct tp_hentry *e, enum tp_cgorder order,
		       bool children, uint64_t min_weight, struct tp_cgraph **out)
{
	struct build b = { .h = h };
	struct cgraph *g = NULL;
	int err;

	*out = NULL;
	if (!h->conf.paths || !h->finished || e < h->entries || e >= h->entries + h->nr_entries)
		return -TP_ERR_INVAL;
	err = index_by_entry(h);
	if (err)
		return err;
	b.entry = tp_hist__entry_index(h, e);
	if (tp_grow((void **)&b.t, &b.cap, 1, sizeof(*b.t))) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	memset(&b.t[0], 0, sizeof(b.t[0]));
	b.t[0].frame = (struct tp_frame){ TP_HNONE, TP_HNONE, 0, 0 };
	b.t[0].parent = b.t[0].first_child = b.t[0].next = TP_HNONE;
	b.nr = 1;
	err = gather(&b, order, children);
	if (err)
		goto out;
	for (uint32_t i = 0; i < b.nr; i++)
		b.t[i].total = b.t[i].self;
	for (uint32_t i = b.nr; i-- > 1;) {	/* children come after their parent */
		b.t[b.t[i].parent].total += b.t[i].total;
		b.t[b.t[i].parent].nr_live += b.t[i].total != 0;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	g->g.root.total = b.t[0].total;
	err = emit_children(&b, g, 0, min_weight, &g->g.root);
	if (err) {
		tp_cgraph__delete(&g->g);
		goto out;
	}
	*out = &g->g;
out:
	free(b.t);
	tp_htab__free(&b.idx);
	return err;
}

int tp_hist__each_path_nr(struct tp_hist *h,
			  int (*fn)(void *ctx, const struct tp_hentry *e,
				    const struct tp_frame *frames, uint32_t nr, uint64_t weight,
				    uint64_t samples),
			  void *ctx)
{
	struct tp_frame *buf;
	int err = 0;

	if (!h->conf.paths)
		return -TP_ERR_INVAL;
	buf = malloc(sizeof(*buf) * (h->nr_nodes ? h->nr_nodes : 1));
	if (!buf)
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < h->nr_nodes && !err; i++) {
		struct tp_hentry e = { 0 };
		const struct tp_hctx *c;
		uint32_t n = i, depth = 0;

		if ((!h->nodes[i].self && !h->nodes[i].nr) || h->nodes[i].parent == TP_HNONE)
			continue;
		for (; h->nodes[n].parent != TP_HNONE; n = h->nodes[n].parent)
			depth++;
		c = &h->ctxs[h->nodes[n].frame.dso];
		e.comm = c->comm;
		e.pid = c->pid;
		e.tid = c->tid;
		e.cpu = c->cpu;
		e.ctx = h->nodes[n].frame.dso;
		n = i;
		for (uint32_t d = depth; d-- > 0; n = h->nodes[n].parent)
			buf[d] = h->nodes[n].frame;
		err = fn(ctx, &e, buf, depth, h->nodes[i].self, h->nodes[i].nr);
	}
	free(buf);
	return err;
}

struct weight_only {
	int (*fn)(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		  uint32_t nr, uint64_t weight);
	void *ctx;
};

static int weight_only(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		       uint32_t nr, uint64_t weight, uint64_t samples)
{
	const struct weight_only *w = ctx;

	(void)samples;
	return weight ? w->fn(w->ctx, e, frames, nr, weight) : 0;
}

int tp_hist__each_path(struct tp_hist *h,
		       int (*fn)(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
				 uint32_t nr, uint64_t weight),
		       void *ctx)
{
	struct weight_only w = { fn, ctx };

	return tp_hist__each_path_nr(h, weight_only, &w);
}
