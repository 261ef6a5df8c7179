/* SPDX-License-Identifier: MIT */
/* The flame tree: stacks merged into a prefix tree by frame name (the names in one buffer),
 * and the children lists sorted by name that the SVG is laid out from. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/render/internal.h"

/* a copy of name at the end of text: its offset, or -1 out of memory */
static int64_t keep_name(struct tp_flame *fl, const char *name)
{
	size_t n = strlen(name) + 1, at = fl->len_text;

	if (at + n > UINT32_MAX || TP_GROW(fl->text, fl->cap_text, at + n, 1 << 16))
		return -1;
	memcpy(fl->text + at, name, n);
	fl->len_text += n;
	return (int64_t)at;
}

int tp_flame__new(struct tp_flame **out)
{
	struct tp_flame *fl = calloc(1, sizeof(*fl));

	*out = NULL;
	if (!fl || TP_GROW(fl->nodes, fl->cap_nodes, 1, 1024) || keep_name(fl, "all") < 0) {
		tp_flame__delete(fl);
		return -TP_ERR_NOMEM;
	}
	fl->nodes[0] = (struct fnode){ .kind = TP_FK_ROOT };
	fl->nr_nodes = 1;
	*out = fl;
	return 0;
}

void tp_flame__delete(struct tp_flame *fl)
{
	if (!fl)
		return;
	free(fl->text);
	free(fl->nodes);
	free(fl->buf);
	tp_htab__free(&fl->node_idx);
	free(fl);
}

static uint32_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return tp_hash64(h);
}

/* a node is found by its parent and its name's text (fl->want) */
static bool node_eq(const void *ctx, uint32_t idx)
{
	const struct tp_flame *fl = ctx;
	const struct fnode *n = &fl->nodes[idx];

	return n->parent == fl->want_parent && !strcmp(flame__name(fl, n), fl->want_name);
}

/* the child of parent named name (made if new): its index, or -1 out of memory */
static int64_t child(struct tp_flame *fl, uint32_t parent, const char *name, uint8_t kind)
{
	uint32_t hv = tp_hash2(parent, hash_str(name));
	struct tp_hslot *slot;
	int64_t at;

	if (tp_htab__reserve(&fl->node_idx))
		return -1;
	fl->want_parent = parent;
	fl->want_name = name;
	slot = tp_htab__probe(&fl->node_idx, hv, node_eq, fl);
	if (slot->idx)
		return slot->idx - 1;
	if (fl->nr_nodes >= UINT32_MAX - 1 ||
	    TP_GROW(fl->nodes, fl->cap_nodes, fl->nr_nodes + 1, 1024))
		return -1;
	at = keep_name(fl, name);
	if (at < 0)
		return -1;
	fl->nodes[fl->nr_nodes] = (struct fnode){ .name = (uint32_t)at, .parent = parent,
						  .kind = kind };
	tp_htab__fill(&fl->node_idx, slot, hv, (uint32_t)fl->nr_nodes);
	return (int64_t)fl->nr_nodes++;
}

int tp_flame__add(struct tp_flame *fl, const char *const *names, const uint8_t *kinds,
		  uint32_t nr, uint64_t weight, bool old)
{
	uint32_t leaf;

	return flame__add_leaf(fl, names, kinds, nr, weight, old, &leaf);
}

int flame__add_leaf(struct tp_flame *fl, const char *const *names, const uint8_t *kinds,
		    uint32_t nr, uint64_t weight, bool old, uint32_t *leaf)
{
	uint32_t at = 0;

	if (!nr)
		return -TP_ERR_INVAL;
	*(old ? &fl->nodes[0].old : &fl->nodes[0].weight) += weight;
	for (uint32_t i = 0; i < nr; i++) {
		int64_t n = child(fl, at, names[i], kinds[i]);

		if (n < 0)
			return -TP_ERR_NOMEM;
		at = (uint32_t)n;
		*(old ? &fl->nodes[at].old : &fl->nodes[at].weight) += weight;
	}
	*leaf = at;
	return 0;
}

uint64_t tp_flame__total(const struct tp_flame *fl, bool old)
{
	return old ? fl->nodes[0].old : fl->nodes[0].weight;
}

/* ---- from a hist ---- */

struct from_hist {
	struct tp_flame *fl;
	const struct tp_symcache *c;
	bool old;
	const char **names;
	uint8_t *kinds;
	size_t cap, cap_kinds;
};

const char *render_frame_name(const struct tp_symcache *c, struct tp_frame f, char *buf,
			      size_t size)
{
	const struct tp_csym *sym = tp_symcache__sym(c, f.sym);
	const struct tp_cdso *d = f.dso ? tp_symcache__dso(c, f.dso) : NULL;
	const char *base;

	if (sym && sym->name)
		return sym->name;
	if (!d)
		return "[unknown]";
	base = strrchr(d->name, '/');
	snprintf(buf, size, "[%s]", base ? base + 1 : d->name);
	return buf;
}

static int add_path(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		    uint32_t nr, uint64_t weight)
{
	struct from_hist *fh = ctx;
	size_t need = (size_t)nr + 1, used = 0;
	char *p;

	if (TP_GROW(fh->names, fh->cap, need, 64))
		return -TP_ERR_NOMEM;
	if (TP_GROW(fh->kinds, fh->cap_kinds, need, 64))
		return -TP_ERR_NOMEM;
	/* the unresolved frames' names go into one buffer, addressed after it stops moving */
	if (TP_GROW(fh->fl->buf, fh->fl->cap_buf, need * 80, 4096))
		return -TP_ERR_NOMEM;
	p = fh->fl->buf;
	fh->names[0] = tp_symcache__comm_str(fh->c, e->comm);
	fh->kinds[0] = TP_FK_COMM;
	for (uint32_t i = 0; i < nr; i++) {
		const char *n = render_frame_name(fh->c, frames[i], p + used, 80);

		if (n == p + used)
			used += strlen(n) + 1;
		fh->names[i + 1] = n;
		fh->kinds[i + 1] = frames[i].level == 'k' ? TP_FK_KERNEL : TP_FK_USER;
	}
	return tp_flame__add(fh->fl, fh->names, fh->kinds, (uint32_t)need, weight, fh->old);
}

int tp_flame__add_hist(struct tp_flame *fl, struct tp_hist *h, const struct tp_symcache *c,
		       bool old)
{
	struct from_hist fh = { .fl = fl, .c = c, .old = old };
	int err = tp_hist__each_path(h, add_path, &fh);

	free(fh.names);
	free(fh.kinds);
	return err;
}

/* ---- the children, sorted ---- */

static int cmp_kid(const void *a, const void *b, void *arg)
{
	const struct tp_flame *fl = arg;

	return strcmp(flame__name(fl, &fl->nodes[*(const uint32_t *)a]),
		      flame__name(fl, &fl->nodes[*(const uint32_t *)b]));
}

int flame__children(const struct tp_flame *fl, uint32_t **first, uint32_t **kids)
{
	size_t n = fl->nr_nodes;
	uint32_t *fi = calloc(n + 1, sizeof(*fi)), *k = malloc(n * sizeof(*k)), *fill;

	*first = *kids = NULL;
	fill = calloc(n + 1, sizeof(*fill));
	if (!fi || !k || !fill) {
		free(fi);
		free(k);
		free(fill);
		return -TP_ERR_NOMEM;
	}
	for (size_t i = 1; i < n; i++)
		fi[fl->nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		fi[i + 1] += fi[i];
	memcpy(fill, fi, (n + 1) * sizeof(*fill));
	for (size_t i = 1; i < n; i++)
		k[fill[fl->nodes[i].parent]++] = (uint32_t)i;
	for (size_t i = 0; i < n; i++)
		if (fi[i + 1] - fi[i] > 1)
			qsort_r(k + fi[i], fi[i + 1] - fi[i], sizeof(*k), cmp_kid, (void *)fl);
	free(fill);
	*first = fi;
	*kids = k;
	return 0;
}
