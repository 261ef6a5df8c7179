/* Sorted symbol arrays: build, fold aliases, size, binary-search. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/error.h"
#include "host-tools/lib/symtab.h"

/* how far back a lookup walks for a symbol that encloses smaller ones (nested labels) */
#define ENCLOSING_SCAN 8

int tp_symtab__add(struct tp_symtab *t, const struct tp_sym *s)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct tp_sym *p;

		if (cap > SIZE_MAX / sizeof(*p))
			return -TP_ERR_NOMEM;
		p = realloc(t->syms, cap * sizeof(*p));
		if (!p)
			return -TP_ERR_NOMEM;
		t->syms = p;
		t->cap = cap;
	}
	t->syms[t->n++] = *s;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* address, then the better alias first: rank, fewer leading underscores, shorter, by name */
static int cmp_sym(const void *pa, const void *pb)
{
	const struct tp_sym *a = pa, *b = pb;
	size_t ua, ub, la, lb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a->name, b->name);
}

void tp_symtab__finish(struct tp_symtab *t, uint64_t last_size)
{
	size_t i, j;

	if (!t->n)
		return;
	qsort(t->syms, t->n, sizeof(*t->syms), cmp_sym);
	for (i = 1, j = 1; i < t->n; i++) {
		struct tp_sym *prev = &t->syms[j - 1];

		if (t->syms[i].start == prev->start) {
			if (t->syms[i].size > prev->size)
				prev->size = t->syms[i].size;
			if (t->syms[i].limit > prev->limit)
				prev->limit = t->syms[i].limit;
			continue;
		}
		t->syms[j++] = t->syms[i];
	}
	t->n = j;
	for (i = 0; i < t->n; i++) {
		struct tp_sym *s = &t->syms[i];
		uint64_t end;

		if (s->size)
			continue;
		if (i + 1 < t->n)
			end = t->syms[i + 1].start;
		else if (s->limit > s->start)
			end = s->limit;
		else
			end = s->start + last_size < s->start ? UINT64_MAX : s->start + last_size;
		if (s->limit > s->start && s->limit < end)
			end = s->limit;
		s->size = end - s->start;
	}
}

const struct tp_sym *tp_symtab__find(const struct tp_symtab *t, uint64_t addr, long module)
{
	size_t lo = 0, hi = t->n, k;

	/* first symbol starting above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < ENCLOSING_SCAN && lo > k; k++) {
		const struct tp_sym *s = &t->syms[lo - 1 - k];

		if (addr - s->start >= s->size)
			continue;
		if (s->rank == TP_SYMRANK_DATA)
			return NULL;
		if (module >= 0 && s->module != (uint32_t)module)
			return NULL;
		return s;
	}
	return NULL;
}

void tp_symtab__exit(struct tp_symtab *t)
{
	free(t->syms);
	memset(t, 0, sizeof(*t));
}
