/* SPDX-License-Identifier: MIT */
/* Library-internal: an open-addressing hash index over items the caller keeps in its own
 * arrays. A slot holds only the item's hash and index (8 bytes), so an index over millions
 * of call-tree nodes stays small; equality is the caller's, through an inlined callback.
 *
 *	if (tp_htab__reserve(&h)) return -TP_ERR_NOMEM;
 *	slot = tp_htab__probe(&h, hv, eq, ctx);
 *	if (!slot->idx) tp_htab__fill(&h, slot, hv, new_item_index);
 *	item = slot->idx - 1;
 */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_HTAB_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_HTAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct tp_hslot {
	uint32_t hash;
	uint32_t idx;		/* item index + 1; 0: empty */
};

struct tp_htab {
	struct tp_hslot *slots;
	uint32_t mask;		/* capacity - 1 (capacity a power of two), 0 before the first use */
	uint32_t nr;
};

static inline uint32_t tp_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

static inline uint32_t tp_hash2(uint64_t a, uint64_t b)
{
	return tp_hash64(a * 0x9e3779b97f4a7c15ULL ^ tp_hash64(b));
}

/* room for one more item (load factor at most 3/4): 0 or -1 when out of memory */
static inline int tp_htab__reserve(struct tp_htab *h)
{
	uint32_t cap = h->slots ? h->mask + 1 : 0, ncap;
	struct tp_hslot *n;

	if (4ULL * (h->nr + 1) <= 3ULL * cap)
		return 0;
	if (cap >= (1U << 31))
		return -1;
	ncap = cap ? 2 * cap : 256;
	n = calloc(ncap, sizeof(*n));
	if (!n)
		return -1;
	for (uint32_t i = 0; i < cap; i++) {
		uint32_t j;

		if (!h->slots[i].idx)
			continue;
		for (j = h->slots[i].hash & (ncap - 1); n[j].idx; j = (j + 1) & (ncap - 1))
			;
		n[j] = h->slots[i];
	}
	free(h->slots);
	h->slots = n;
	h->mask = ncap - 1;
	return 0;
}

/* the slot of the item eq() accepts, or the empty slot where it would go; the table must
 * have been reserved at least once */
static inline struct tp_hslot *tp_htab__probe(const struct tp_htab *h, uint32_t hv,
					      bool (*eq)(const void *ctx, uint32_t idx),
					      const void *ctx)
{
	for (uint32_t i = hv & h->mask;; i = (i + 1) & h->mask) {
		struct tp_hslot *s = &h->slots[i];

		if (!s->idx || (s->hash == hv && eq(ctx, s->idx - 1)))
			return s;
	}
}

/* a lookup that does not insert: the item index, or -1 */
static inline int64_t tp_htab__find(const struct tp_htab *h, uint32_t hv,
				    bool (*eq)(const void *ctx, uint32_t idx), const void *ctx)
{
	if (!h->slots)
		return -1;
	return (int64_t)tp_htab__probe(h, hv, eq, ctx)->idx - 1;
}

static inline void tp_htab__fill(struct tp_htab *h, struct tp_hslot *s, uint32_t hv,
				 uint32_t idx)
{
	s->hash = hv;
	s->idx = idx + 1;
	h->nr++;
}

static inline void tp_htab__free(struct tp_htab *h)
{
	free(h->slots);
	h->slots = NULL;
	h->mask = h->nr = 0;
}

#endif
