/* SPDX-License-Identifier: MIT */
/* Sorted symbol arrays: build, fold aliases, size, binary-search. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/symtab.h"

/* how far back a lookup walks for a symbol that encloses smaller ones (nested labels) */
#define ENCLOSING_SCAN 8

int tp_symtab__add(struct tp_symtab *t, const struct tp_sym *s)
{
	/* seq holds the index in 32 bits */
	if (t->n >= UINT32_MAX || TP_GROW(t->syms, t->cap, t->n + 1, 256))
		return -TP_ERR_NOMEM;
	t->syms[t->n] = *s;
	t->syms[t->n].seq = (uint32_t)t->n;
	t->n++;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct tp_sym *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the byte b of a symbol's sort key (start, seq): 0-3 seq, 4-11 start, least significant
 * first */
static inline unsigned key_byte(const struct tp_sym *s, unsigned b)
{
	return (unsigned)((b < 4 ? (uint64_t)s->seq >> (8 * b) : s->start >> (8 * (b - 4))) & 0xff);
}

/* syms sorted on (start, seq) as qsort() with cmp_start() sorts them (glibc's is a stable
 * merge sort: equal keys keep their order), by a stable radix sort over the key bytes in
 * which the symbols differ: an ELF's symbols come in no order, and this costs a fraction
 * of the compares. seq needs no pass where it already rises (it is the index after
 * tp_symtab__add(); not after a first finish folded the table). */
static void sort_syms(struct tp_symtab *t)
{
	struct tp_sym *src = t->syms, *dst;
	uint64_t diff_start = 0, diff_seq = 0;
	bool seq_rises = true;
	uint32_t count[256];

	if (t->n > UINT32_MAX || !(dst = malloc(t->n * sizeof(*dst)))) {
		qsort(t->syms, t->n, sizeof(*t->syms), cmp_start);
		return;
	}
	for (size_t i = 1; i < t->n; i++) {
		seq_rises &= src[i - 1].seq < src[i].seq;
		diff_start |= src[i].start ^ src[0].start;
		diff_seq |= src[i].seq ^ src[0].seq;
	}
	for (unsigned b = seq_rises ? 4 : 0; b < 12; b++) {
		uint32_t pos = 0, c;

		if (!(((b < 4 ? diff_seq >> (8 * b) : diff_start >> (8 * (b - 4)))) & 0xff))
			continue;	/* every symbol has the same byte here */
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < t->n; i++)
			count[key_byte(&src[i], b)]++;
		for (unsigned v = 0; v < 256; v++) {
			c = count[v];
			count[v] = pos;
			pos += c;
		}
		for (size_t i = 0; i < t->n; i++)
			dst[count[key_byte(&src[i], b)]++] = src[i];
		struct tp_sym *swap = src;

		src = dst;
		dst = swap;
	}
	if (src != t->syms) {		/* the sorted copy becomes the table */
		t->syms = src;
		t->cap = t->n;
	}
	free(dst);
}

/* whether alias a is a better name than alias b: perf's choose_best_symbol() order */
static bool better(const struct tp_sym *a, bool a_sized, const struct tp_sym *b, bool b_sized)
{
	size_t ua, ub, la, lb;

	if ((a->rank == TP_SYMRANK_DATA) != (b->rank == TP_SYMRANK_DATA))
		return b->rank == TP_SYMRANK_DATA;
	if (a_sized != b_sized)
		return a_sized;
	if ((a->rank == TP_SYMRANK_WEAK) != (b->rank == TP_SYMRANK_WEAK))
		return b->rank == TP_SYMRANK_WEAK;
	if ((a->rank == TP_SYMRANK_GLOBAL) != (b->rank == TP_SYMRANK_GLOBAL))
		return a->rank == TP_SYMRANK_GLOBAL;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la > lb;
	return a->seq < b->seq;
}

/* the room of an unsized symbol at start: up to next (0 = none), else last_size, or for
 * an ELF the end of the page after the one it starts in */
static uint64_t room(enum tp_symtab_kind kind, uint64_t start, bool has_next, uint64_t next,
		     uint64_t last_size)
{
	uint64_t end;

	if (has_next)
		return next - start;
	if (kind == TP_SYMTAB_ELF)
		end = (start | 0xfff) + 1 + 0x1000;
	else
		end = start + last_size;
	return end > start ? end - start : UINT64_MAX - start;
}

void tp_symtab__finish(struct tp_symtab *t, enum tp_symtab_kind kind, uint64_t last_size)
{
	size_t i, j, k, out = 0;

	if (!t->n)
		return;
	/* kallsyms comes sorted by address: a check in one pass saves an n log n sort (the
	 * order is total, on (start, seq), so the result is the same either way) */
	for (i = 1; i < t->n && t->syms[i - 1].start <= t->syms[i].start; i++)
		;
	if (i < t->n)
		sort_syms(t);
	for (i = 0; i < t->n; i = j) {
		size_t best = i;
		bool best_sized, has_next;
		uint64_t next;

		for (j = i + 1; j < t->n && t->syms[j].start == t->syms[i].start; j++)
			;
		has_next = j < t->n;
		next = has_next ? t->syms[j].start : 0;
		/* perf sizes before it folds, and only a group's last unsized symbol gets room */
		best_sized = t->syms[i].size || i == j - 1;
		for (k = i + 1; k < j; k++) {
			bool sized = t->syms[k].size || k == j - 1;

			if (better(&t->syms[k], sized, &t->syms[best], best_sized)) {
				best = k;
				best_sized = sized;
			}
		}
		t->syms[out] = t->syms[best];
		if (!t->syms[out].size)
			t->syms[out].size = room(kind, t->syms[out].start, has_next, next, last_size);
		out++;
	}
	t->n = out;
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
