/* SPDX-License-Identifier: MIT */
/* Aggregation: samples into entries keyed by the sort keys, with totals, the call-path tree
 * and, at the end, children weights and the sorted order. No allocation per sample once the
 * contexts, entries and paths it touches exist. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/internal.h"

static const char *const key_names[TP_HKEY_MAX] = {
	[TP_HKEY_COMM] = "comm", [TP_HKEY_DSO] = "dso", [TP_HKEY_SYM] = "sym",
	[TP_HKEY_PID] = "pid", [TP_HKEY_TID] = "tid", [TP_HKEY_CPU] = "cpu",
	[TP_HKEY_SRCLINE] = "srcline",
};

int tp_hkey_parse(const char *name, size_t len)
{
	if (len == 6 && !strncmp(name, "symbol", 6))
		return TP_HKEY_SYM;
	for (int k = 0; k < TP_HKEY_MAX; k++)
		if (strlen(key_names[k]) == len && !strncmp(name, key_names[k], len))
			return k;
	return -1;
}

const char *tp_hkey_name(enum tp_hkey k)
{
	return (unsigned)k < TP_HKEY_MAX ? key_names[k] : "?";
}

int tp_hist__new(struct tp_hist **out, const struct tp_hconf *conf)
{
	struct tp_hist *h;

	*out = NULL;
	if (!conf->nr_keys || conf->nr_keys > TP_HKEY_MAX)
		return -TP_ERR_INVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -TP_ERR_NOMEM;
	h->conf = *conf;
	for (unsigned i = 0; i < conf->nr_keys; i++) {
		if (conf->keys[i] >= TP_HKEY_MAX || h->has[conf->keys[i]]) {
			free(h);
			return -TP_ERR_INVAL;
		}
		h->has[conf->keys[i]] = true;
	}
	h->last_ctx = TP_HNONE;
	if (conf->paths) {
		h->ncache = malloc(TP_HNODE_CACHE * sizeof(*h->ncache));
		if (!h->ncache) {
			free(h);
			return -TP_ERR_NOMEM;
		}
		for (uint32_t i = 0; i < TP_HNODE_CACHE; i++)
			h->ncache[i].node = TP_HNONE;
	}
	*out = h;
	return 0;
}

void tp_hist__delete(struct tp_hist *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nr_ctxs; i++) {
		free(h->ctxs[i].last);
		free(h->ctxs[i].last_key);
	}
	free(h->ctxs);
	tp_htab__free(&h->ctx_idx);
	free(h->entries);
	tp_htab__free(&h->entry_idx);
	free(h->order);
	free(h->nodes);
	tp_htab__free(&h->node_idx);
	free(h->total);
	free(h->ncache);
	free(h->scratch);
	free(h->by_entry);
	free(h->by_entry_start);
	free(h);
}

/* ---- contexts ---- */

struct ctx_key {
	const struct tp_hist *h;
	struct tp_hctx c;
};

static bool ctx_key_eq(const void *p, uint32_t i)
{
	const struct ctx_key *k = p;
	const struct tp_hctx *c = &k->h->ctxs[i];

	return c->comm == k->c.comm && c->pid == k->c.pid && c->tid == k->c.tid &&
	       c->cpu == k->c.cpu;
}

static int new_node(struct tp_hist *h, struct tp_frame f, uint32_t parent, uint32_t entry,
		    uint32_t *out);

/* the context of a sample, made if new */
static int get_ctx(struct tp_hist *h, const struct tp_hsample *s, uint32_t *out)
{
	struct ctx_key k = { .h = h };
	struct tp_hslot *slot;
	uint32_t hv;

	k.c.comm = h->has[TP_HKEY_COMM] ? s->comm : 0;
	k.c.pid = h->has[TP_HKEY_PID] ? s->pid : 0;
	k.c.tid = h->has[TP_HKEY_TID] ? s->tid : 0;
	k.c.cpu = h->has[TP_HKEY_CPU] ? s->cpu : 0;
	if (h->last_ctx != TP_HNONE && ctx_key_eq(&k, h->last_ctx)) {
		*out = h->last_ctx;
		return 0;
	}
	hv = tp_hash2(((uint64_t)k.c.comm << 32) | (uint32_t)k.c.pid,
		      ((uint64_t)(uint32_t)k.c.tid << 32) | k.c.cpu);
	if (tp_htab__reserve(&h->ctx_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&h->ctx_idx, hv, ctx_key_eq, &k);
	if (!slot->idx) {
		uint32_t i = h->nr_ctxs;

		if (tp_grow((void **)&h->ctxs, &h->cap_ctxs, i + 1, sizeof(*h->ctxs)))
			return -TP_ERR_NOMEM;
		k.c.root = TP_HNONE;
		k.c.last = NULL;
		k.c.last_key = NULL;
		k.c.nr_last = k.c.cap_last = k.c.cap_last_key = 0;
		h->ctxs[i] = k.c;
		h->nr_ctxs++;
		if (h->conf.paths &&
		    new_node(h, (struct tp_frame){ TP_HNONE, i, 0, 0 }, TP_HNONE, TP_HNONE,
			     &h->ctxs[i].root))
			return -TP_ERR_NOMEM;
		tp_htab__fill(&h->ctx_idx, slot, hv, i);
	}
	*out = h->last_ctx = slot->idx - 1;
	return 0;
}

/* ---- entries ---- */

struct entry_key {
	const struct tp_hist *h;
	uint32_t ctx;
	struct tp_frame f;		/* projected on the keys */
};

static bool entry_eq(const void *p, uint32_t i)
{
	const struct entry_key *k = p;
	const struct tp_hentry *e = &k->h->entries[i];

	return e->ctx == k->ctx && e->frame.sym == k->f.sym && e->frame.dso == k->f.dso &&
	       e->frame.line == k->f.line;
}

static int get_entry(struct tp_hist *h, uint32_t ctx, struct tp_frame f, uint32_t *out)
{
	struct entry_key k = { h, ctx, { 0, 0, 0, 0 } };
	struct tp_hslot *slot;
	uint32_t hv;

	if (h->conf.key_of)
		f = h->conf.key_of(h->conf.key_ctx, f);
	if (h->has[TP_HKEY_DSO] || h->has[TP_HKEY_SYM])
		k.f.dso = f.dso;
	if (h->has[TP_HKEY_SYM]) {
		k.f.sym = f.sym;
		k.f.level = f.level;
	}
	if (h->has[TP_HKEY_SRCLINE])
		k.f.line = f.line;
	hv = tp_hash2(((uint64_t)ctx << 32) | k.f.dso, ((uint64_t)k.f.line << 32) | k.f.sym);
	if (tp_htab__reserve(&h->entry_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&h->entry_idx, hv, entry_eq, &k);
	if (!slot->idx) {
		const struct tp_hctx *c = &h->ctxs[ctx];
		uint32_t i = h->nr_entries;
		struct tp_hentry *e;

		if (tp_grow((void **)&h->entries, &h->cap_entries, i + 1, sizeof(*h->entries)))
			return -TP_ERR_NOMEM;
		e = &h->entries[i];
		memset(e, 0, sizeof(*e));
		e->comm = c->comm;
		e->pid = c->pid;
		e->tid = c->tid;
		e->cpu = c->cpu;
		e->frame = k.f;
		e->ctx = ctx;
		h->nr_entries++;
		tp_htab__fill(&h->entry_idx, slot, hv, i);
	}
	*out = slot->idx - 1;
	return 0;
}

/* ---- call paths ---- */

struct node_key {
	const struct tp_hist *h;
	uint32_t parent, sym, line;
};

static bool node_eq(const void *p, uint32_t i)
{
	const struct node_key *k = p;
	const struct tp_hnode *n = &k->h->nodes[i];

	return n->parent == k->parent && n->frame.sym == k->sym && n->frame.line == k->line;
}

static int new_node(struct tp_hist *h, struct tp_frame f, uint32_t parent, uint32_t entry,
		    uint32_t *out)
{
	uint32_t i = h->nr_nodes;
	struct tp_hnode *n;

	if (i == TP_HNONE ||
	    tp_grow((void **)&h->nodes, &h->cap_nodes, i + 1, sizeof(*h->nodes)))
		return -TP_ERR_NOMEM;
	n = &h->nodes[i];
	n->frame = f;
	n->parent = parent;
	n->first_child = TP_HNONE;
	n->next = TP_HNONE;
	n->entry = entry;
	n->self = 0;
	n->nr = 0;
	if (parent != TP_HNONE) {
		n->next = h->nodes[parent].first_child;
		h->nodes[parent].first_child = i;
	}
	h->nr_nodes++;
	*out = i;
	return 0;
}

/* the child of parent for frame f, made if new */
static int child(struct tp_hist *h, uint32_t ctx, uint32_t parent, struct tp_frame f,
		 uint32_t *out)
{
	struct node_key k = { h, parent, f.sym, f.line };
	uint32_t hv = tp_hash2(parent, ((uint64_t)f.line << 32) | f.sym), entry;
	struct tp_hnode_cache *nc = &h->ncache[hv & (TP_HNODE_CACHE - 1)];
	struct tp_hslot *slot;
	int err;

	if (nc->node != TP_HNONE && nc->parent == parent && nc->sym == f.sym &&
	    nc->line == f.line) {
		*out = nc->node;
		return 0;
	}
	if (tp_htab__reserve(&h->node_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&h->node_idx, hv, node_eq, &k);
	if (slot->idx) {
		*out = slot->idx - 1;
	} else {
		err = get_entry(h, ctx, f, &entry);
		if (!err)
			err = new_node(h, f, parent, entry, out);
		if (err)
			return err;
		tp_htab__fill(&h->node_idx, slot, hv, *out);
	}
	*nc = (struct tp_hnode_cache){ parent, f.sym, f.line, *out };
	return 0;
}

int tp_hist__add(struct tp_hist *h, const struct tp_hsample *s)
{
	uint32_t ctx, entry, node;
	int err;

	if (!s->nr_frames || h->finished)
		return -TP_ERR_INVAL;
	err = get_ctx(h, s, &ctx);
	if (err)
		return err;
	if (h->conf.paths) {
		struct tp_hctx *c = &h->ctxs[ctx];
		bool same = true;
		uint32_t d = 0;

		if (tp_grow((void **)&c->last, &c->cap_last, s->nr_frames, sizeof(*c->last)) ||
		    tp_grow((void **)&c->last_key, &c->cap_last_key, s->nr_frames,
			    sizeof(*c->last_key))) {
			c->nr_last = 0;
			return -TP_ERR_NOMEM;
		}
		node = c->root;
		for (uint32_t i = s->nr_frames; i-- > 0; d++) {
			uint64_t key = (uint64_t)s->frames[i].line << 32 | s->frames[i].sym;

			if (same && d < c->nr_last && c->last_key[d] == key) {
				node = c->last[d];
				continue;
			}
			same = false;
			err = child(h, ctx, node, s->frames[i], &node);
			if (err) {
				c->nr_last = 0;
				return err;
			}
			c->last[d] = node;
			c->last_key[d] = key;
		}
		c->nr_last = d;
		/* the entries get their self weight from the nodes at the end */
		h->nodes[node].self += s->weight;
		h->nodes[node].nr++;
	} else {
		err = get_entry(h, ctx, s->frames[0], &entry);
		if (err)
			return err;
		h->entries[entry].self += s->weight;
		h->entries[entry].nr_samples++;
	}
	h->total_weight += s->weight;
	h->nr_samples++;
	return 0;
}

void tp_hist__add_hidden(struct tp_hist *h, uint64_t weight)
{
	h->total_weight += weight;
	h->nr_samples++;
}

/* ---- the end: children weights and order ---- */

/* Children of an entry: the total of each of its outermost occurrences on the paths, i.e.
 * every sample with the entry on its path, counted once however often it recurs. */
static int cumulate(struct tp_hist *h)
{
	uint32_t *onpath;

	h->total = malloc((size_t)(h->nr_nodes ? h->nr_nodes : 1) * sizeof(*h->total));
	onpath = calloc(h->nr_entries ? h->nr_entries : 1, sizeof(*onpath));
	if (!h->total || !onpath) {
		free(onpath);
		return -TP_ERR_NOMEM;
	}
	for (uint32_t i = 0; i < h->nr_nodes; i++) {
		const struct tp_hnode *n = &h->nodes[i];

		h->total[i] = n->self;
		if (n->entry != TP_HNONE) {
			h->entries[n->entry].self += n->self;
			h->entries[n->entry].nr_samples += n->nr;
		}
	}
	for (uint32_t i = h->nr_nodes; i-- > 0;)	/* children come after their parent */
		if (h->nodes[i].parent != TP_HNONE)
			h->total[h->nodes[i].parent] += h->total[i];
	for (uint32_t c = 0; c < h->nr_ctxs; c++) {
		uint32_t root = h->ctxs[c].root, n = h->nodes[root].first_child;

		/* depth first without a stack: down, across, or up until there is an across */
		while (n != TP_HNONE) {
			const struct tp_hnode *nd = &h->nodes[n];

			if (!onpath[nd->entry]++)
				h->entries[nd->entry].children += h->total[n];
			if (nd->first_child != TP_HNONE) {
				n = nd->first_child;
				continue;
			}
			for (;;) {
				onpath[h->nodes[n].entry]--;
				if (h->nodes[n].next != TP_HNONE) {
					n = h->nodes[n].next;
					break;
				}
				n = h->nodes[n].parent;
				if (n == root) {
					n = TP_HNONE;
					break;
				}
			}
		}
	}
	free(onpath);
	return 0;
}

/* what the sort compares, in one place: no trip to the entries for most comparisons */
struct sort_rec {
	uint64_t a, b;			/* the primary and secondary weights, as ordered */
	uint32_t key[TP_HKEY_MAX];	/* the key fields in sort-key order */
	uint32_t idx;
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct sort_rec *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a > y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b > y->b ? -1 : 1;
	for (unsigned i = 0; i < TP_HKEY_MAX; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

/* Entries by weight, descending; with children, by children and then by self ascending, as
 * perf's output puts callers first among equals; then by key. */
static int sort_entries(struct tp_hist *h, bool by_children)
{
	struct sort_rec *r = malloc((size_t)(h->nr_entries ? h->nr_entries : 1) * sizeof(*r));

	if (!r)
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < h->nr_entries; i++) {
		const struct tp_hentry *e = &h->entries[i];

		memset(&r[i], 0, sizeof(r[i]));
		r[i].a = by_children ? e->children : e->self;
		r[i].b = by_children ? ~e->self : 0;
		r[i].idx = i;
		for (unsigned k = 0; k < h->conf.nr_keys; k++) {
			switch (h->conf.keys[k]) {
			case TP_HKEY_COMM: r[i].key[k] = e->comm; break;
			case TP_HKEY_DSO: r[i].key[k] = e->frame.dso; break;
			case TP_HKEY_SYM: r[i].key[k] = e->frame.sym; break;
			/* signed ids ordered as signed */
			case TP_HKEY_PID: r[i].key[k] = (uint32_t)e->pid ^ 0x80000000u; break;
			case TP_HKEY_TID: r[i].key[k] = (uint32_t)e->tid ^ 0x80000000u; break;
			case TP_HKEY_CPU: r[i].key[k] = e->cpu; break;
			case TP_HKEY_SRCLINE: r[i].key[k] = e->frame.line & ~TP_LINE_NOSRC; break;
			}
		}
	}
	qsort(r, h->nr_entries, sizeof(*r), cmp_rec);
	for (uint32_t i = 0; i < h->nr_entries; i++)
		h->order[i] = r[i].idx;
	free(r);
	return 0;
}

int tp_hist__finish(struct tp_hist *h, bool by_children)
{
	if (!h->finished) {
		if (h->conf.paths) {
			int err = cumulate(h);

			if (err)
				return err;
		} else {
			for (uint32_t i = 0; i < h->nr_entries; i++)
				h->entries[i].children = h->entries[i].self;
		}
		h->order = malloc((size_t)(h->nr_entries ? h->nr_entries : 1) * sizeof(*h->order));
		if (!h->order)
			return -TP_ERR_NOMEM;
		h->finished = true;
	}
	return sort_entries(h, by_children);
}

uint64_t tp_hist__total(const struct tp_hist *h)
{
	return h->total_weight;
}

uint64_t tp_hist__nr_samples(const struct tp_hist *h)
{
	return h->nr_samples;
}

size_t tp_hist__nr_entries(const struct tp_hist *h)
{
	return h->finished ? h->nr_entries : 0;
}

const struct tp_hentry *tp_hist__entry(const struct tp_hist *h, size_t i)
{
	return h->finished && i < h->nr_entries ? &h->entries[h->order[i]] : NULL;
}
