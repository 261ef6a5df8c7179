/* SPDX-License-Identifier: MIT */
/* Samples by instruction: per symbol (an event, a DSO, a symbol), the weight at each address,
 * for annotate's percent column. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/annotate/annotate.h"
#include "host-tools/lib/common/common.h"

struct sym_key {
	const struct tp_annhits *h;
	uint32_t attr, dso, sym;
};

static bool sym_eq(const void *p, uint32_t i)
{
	const struct sym_key *k = p;
	const struct tp_annsym *s = &k->h->syms[i];

	return s->attr == k->attr && s->dso == k->dso && s->sym == k->sym;
}

static int find_sym(struct tp_annhits *h, uint32_t attr, uint32_t dso, uint32_t sym,
		    uint64_t start, uint64_t size, uint32_t *out)
{
	struct sym_key k = { h, attr, dso, sym };
	uint32_t hv = tp_hash2(((uint64_t)attr << 32) | dso, sym);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&h->sym_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&h->sym_idx, hv, sym_eq, &k);
	if (!slot->idx) {
		if (tp_grow((void **)&h->syms, &h->cap_syms, h->nr_syms + 1, sizeof(*h->syms)))
			return -TP_ERR_NOMEM;
		h->syms[h->nr_syms] = (struct tp_annsym){ .attr = attr, .dso = dso, .sym = sym,
							  .start = start, .size = size };
		tp_htab__fill(&h->sym_idx, slot, hv, h->nr_syms++);
	}
	*out = slot->idx - 1;
	return 0;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct tp_annhit *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the first hit at or above addr in s's hits (kept by address) */
static uint32_t hit_at(const struct tp_annsym *s, uint64_t addr)
{
	uint32_t at = 0, n = s->nr_hits;

	while (n) {
		uint32_t half = n / 2;

		if (s->hits[at + half].addr < addr) {
			at += half + 1;
			n -= half + 1;
		} else {
			n = half;
		}
	}
	return at;
}

/* A symbol's hits stay sorted as they come: a hot function has few addresses hit, and the
 * same ones again and again, so a new one is rarely inserted. */
int tp_annhits__add(struct tp_annhits *h, uint32_t attr, uint32_t dso, uint32_t sym,
		    uint64_t start, uint64_t size, uint64_t addr, uint64_t weight)
{
	struct tp_annsym *s;
	uint32_t i, at;

	if (find_sym(h, attr, dso, sym, start, size, &i))
		return -TP_ERR_NOMEM;
	s = &h->syms[i];
	at = hit_at(s, addr);
	if (at == s->nr_hits || s->hits[at].addr != addr) {
		if (tp_grow((void **)&s->hits, &s->cap_hits, s->nr_hits + 1, sizeof(*s->hits)))
			return -TP_ERR_NOMEM;
		memmove(s->hits + at + 1, s->hits + at, (s->nr_hits - at) * sizeof(*s->hits));
		s->hits[at] = (struct tp_annhit){ addr, 0 };
		s->nr_hits++;
	}
	s->hits[at].weight += weight;
	s->total += weight;
	s->nr_samples++;
	h->total += weight;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct tp_annsym *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->attr != y->attr)
		return x->attr < y->attr ? -1 : 1;
	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

void tp_annhits__sort(struct tp_annhits *h)
{
	if (h->nr_syms)
		qsort(h->syms, h->nr_syms, sizeof(*h->syms), cmp_sym);
	tp_htab__free(&h->sym_idx);	/* it points into what moved */
}

void tp_annhits__release(struct tp_annhits *h)
{
	for (uint32_t i = 0; i < h->nr_syms; i++)
		free(h->syms[i].hits);
	free(h->syms);
	tp_htab__free(&h->sym_idx);
	memset(h, 0, sizeof(*h));
}

uint64_t tp_annsym__weight(const struct tp_annsym *s, uint64_t addr)
{
	uint32_t at = hit_at(s, addr);

	return at < s->nr_hits && s->hits[at].addr == addr ? s->hits[at].weight : 0;
}

uint32_t tp_annsym__to_vaddr(struct tp_annsym *s, const struct tp_annelf *e, bool file_offsets,
			     int64_t reloc)
{
	uint32_t keep = 0, out = 0;

	for (uint32_t i = 0; i < s->nr_hits; i++) {
		uint64_t v = s->hits[i].addr - (uint64_t)reloc;

		if (file_offsets && tp_annelf__vaddr(e, s->hits[i].addr, &v)) {
			out++;
			continue;
		}
		s->hits[keep].addr = v;
		s->hits[keep++].weight = s->hits[i].weight;
	}
	s->nr_hits = keep;
	if (s->nr_hits > 1)
		qsort(s->hits, s->nr_hits, sizeof(*s->hits), cmp_hit);
	return out;
}
