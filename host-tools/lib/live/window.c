/* SPDX-License-Identifier: MIT */
/* The decaying window of `tinyperf top`: samples per (comm, DSO, symbol, kernel), decayed at
 * each tick, and the filtered, sorted view of them that a refresh prints. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/live/live.h"

struct ent {
	struct tp_live_row row;		/* its strings in one allocation, at row.comm */
	uint64_t now;			/* samples in the tick in progress */
};

struct tp_live_win {
	double keep;
	struct ent *v;
	size_t nr, cap;
	struct tp_htab h;
	bool stale;			/* h is to be built again before use */
	const struct tp_live_row **view;
	size_t cap_view;
};

int tp_live_win__new(struct tp_live_win **out, double keep)
{
	struct tp_live_win *w;

	*out = NULL;
	if (!(keep > 0 && keep < 1))
		return -TP_ERR_INVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -TP_ERR_NOMEM;
	w->keep = keep;
	*out = w;
	return 0;
}

void tp_live_win__delete(struct tp_live_win *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr; i++)
		free((char *)w->v[i].row.comm);
	free(w->v);
	free(w->view);
	tp_htab__free(&w->h);
	free(w);
}

static uint32_t hash_str(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;	/* FNV-1a */
	return h;
}

static uint32_t hash_key(const struct tp_live_key *k)
{
	uint32_t h = hash_str(hash_str(hash_str(2166136261u, k->comm), k->dso), k->sym);

	return tp_hash64((uint64_t)h << 1 | k->kernel);
}

struct eq_ctx {
	const struct tp_live_win *w;
	const struct tp_live_key *k;
};

static bool eq(const void *ctx, uint32_t idx)
{
	const struct eq_ctx *c = ctx;
	const struct tp_live_row *r = &c->w->v[idx].row;

	return r->kernel == c->k->kernel && !strcmp(r->sym, c->k->sym) &&
	       !strcmp(r->dso, c->k->dso) && !strcmp(r->comm, c->k->comm);
}

static int rebuild_index(struct tp_live_win *w)
{
	tp_htab__free(&w->h);
	for (size_t i = 0; i < w->nr; i++) {
		const struct tp_live_row *r = &w->v[i].row;
		struct tp_live_key k = { r->comm, r->dso, r->sym, r->kernel };
		struct eq_ctx c = { w, &k };
		uint32_t hv = hash_key(&k);

		if (tp_htab__reserve(&w->h))
			return -TP_ERR_NOMEM;
		tp_htab__fill(&w->h, tp_htab__probe(&w->h, hv, eq, &c), hv, (uint32_t)i);
	}
	return 0;
}

int tp_live_win__add(struct tp_live_win *w, const struct tp_live_key *k, uint64_t n)
{
	struct eq_ctx c = { w, k };
	uint32_t hv = hash_key(k);
	struct tp_hslot *slot;
	size_t lc, ld, ls;
	struct ent *e;
	char *p;

	if (w->stale) {
		if (rebuild_index(w))
			return -TP_ERR_NOMEM;
		w->stale = false;
	}
	if (w->nr >= UINT32_MAX - 1 || tp_htab__reserve(&w->h))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&w->h, hv, eq, &c);
	if (slot->idx) {
		w->v[slot->idx - 1].now += n;
		return 0;
	}
	if (TP_GROW(w->v, w->cap, w->nr + 1, 64))
		return -TP_ERR_NOMEM;
	lc = strlen(k->comm) + 1;
	ld = strlen(k->dso) + 1;
	ls = strlen(k->sym) + 1;
	p = malloc(lc + ld + ls);
	if (!p)
		return -TP_ERR_NOMEM;
	e = &w->v[w->nr];
	memset(e, 0, sizeof(*e));
	e->row.comm = memcpy(p, k->comm, lc);
	e->row.dso = memcpy(p + lc, k->dso, ld);
	e->row.sym = memcpy(p + lc + ld, k->sym, ls);
	e->row.kernel = k->kernel;
	e->now = n;
	tp_htab__fill(&w->h, slot, hv, (uint32_t)w->nr++);
	return 0;
}

void tp_live_win__tick(struct tp_live_win *w)
{
	size_t kept = 0;

	for (size_t i = 0; i < w->nr; i++) {
		struct ent *e = &w->v[i];

		e->row.weight = e->row.weight * w->keep + (double)e->now;
		e->row.last = e->now;
		e->row.total += e->now;
		e->now = 0;
		if (e->row.weight < TP_LIVE_MIN_WEIGHT) {
			free((char *)e->row.comm);
			continue;
		}
		w->v[kept++] = *e;
	}
	if (kept == w->nr)
		return;
	w->nr = kept;
	/* rows moved: index them again (without the memory, the next add tries again) */
	w->stale = rebuild_index(w) != 0;
}

/* ---- the view ---- */

static bool has(const char *hay, const char *needle)
{
	return !needle || !*needle || strstr(hay, needle);
}

static int cmp_weight(const struct tp_live_row *a, const struct tp_live_row *b)
{
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(a->sym, b->sym);
}

static int by_weight(const void *x, const void *y)
{
	return cmp_weight(*(const struct tp_live_row *const *)x,
			  *(const struct tp_live_row *const *)y);
}

static int by_total(const void *x, const void *y)
{
	const struct tp_live_row *a = *(const struct tp_live_row *const *)x;
	const struct tp_live_row *b = *(const struct tp_live_row *const *)y;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return cmp_weight(a, b);
}

static int by_symbol(const void *x, const void *y)
{
	const struct tp_live_row *a = *(const struct tp_live_row *const *)x;
	const struct tp_live_row *b = *(const struct tp_live_row *const *)y;
	int c = strcmp(a->sym, b->sym);

	return c ? c : cmp_weight(a, b);
}

static int by_dso(const void *x, const void *y)
{
	const struct tp_live_row *a = *(const struct tp_live_row *const *)x;
	const struct tp_live_row *b = *(const struct tp_live_row *const *)y;
	int c = strcmp(a->dso, b->dso);

	return c ? c : cmp_weight(a, b);
}

static int by_comm(const void *x, const void *y)
{
	const struct tp_live_row *a = *(const struct tp_live_row *const *)x;
	const struct tp_live_row *b = *(const struct tp_live_row *const *)y;
	int c = strcmp(a->comm, b->comm);

	return c ? c : cmp_weight(a, b);
}

int tp_live_win__view(struct tp_live_win *w, const struct tp_live_filter *f,
		      enum tp_live_sort by, const struct tp_live_row *const **rows, size_t *n,
		      double *sum)
{
	static int (*const cmp[TP_LIVE_NR_SORTS])(const void *, const void *) = {
		by_weight, by_total, by_symbol, by_dso, by_comm,
	};
	size_t k = 0;
	double s = 0;

	*rows = NULL;
	*n = 0;
	*sum = 0;
	if ((unsigned)by >= TP_LIVE_NR_SORTS)
		return -TP_ERR_INVAL;
	if (TP_GROW(w->view, w->cap_view, w->nr ? w->nr : 1, 64))
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < w->nr; i++) {
		const struct tp_live_row *r = &w->v[i].row;

		if (f && ((f->hide_kernel && r->kernel) || !has(r->comm, f->comm) ||
			  !has(r->dso, f->dso)))
			continue;
		w->view[k++] = r;
		s += r->weight;
	}
	qsort(w->view, k, sizeof(*w->view), cmp[by]);
	*rows = w->view;
	*n = k;
	*sum = s;
	return 0;
}

const char *tp_live_sort_name(enum tp_live_sort by)
{
	static const char *const names[TP_LIVE_NR_SORTS] = {
		"overhead", "samples", "symbol", "dso", "comm",
	};

	return (unsigned)by < TP_LIVE_NR_SORTS ? names[by] : "?";
}
