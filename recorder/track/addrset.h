/* SPDX-License-Identifier: MIT */
/* The addresses that got samples, per DSO, for embedded symbols (symembed.c): fed by track.c
 * with every sample ip and callchain entry (user ones as file offsets, kernel ones as they
 * are), bounded in memory.
 *
 * Bound: an exact hash set of up to ADDRSET_MAX (24576) distinct (DSO, address) pairs, packed
 * in 8 bytes each (DSO index in the top 16 bits, the address's low 48 bits below: file
 * offsets fit, and kernel addresses are restored by extending bit 47, as canonical 64-bit
 * kernel addresses are) in a 32768-slot table (256 KiB, at most 3/4 full) plus a 192 KiB
 * sort buffer used at the end; both from the arena, touched only as they fill. Past the
 * bound the set degrades instead of dropping anything, one DSO at a time, the one with the
 * most pairs first: its keys become 2^shift-byte ranges (shift 4 first: 16-byte ranges,
 * shorter than almost any function, so few extra symbols; then 5, 6, ... 12 = pages ... up
 * to 48 = the whole DSO), re-hashed until the set is at most 3/4 full. So it
 * over-approximates but never misses a sampled address, and a DSO with few addresses (the
 * kernel, a small library) stays exact while a huge program's gets coarse. The symbols kept
 * are those that overlap a range. */
#ifndef TINYPERF_RECORDER_TRACK_ADDRSET_H
#define TINYPERF_RECORDER_TRACK_ADDRSET_H

#include "libc-shim/types.h"
#include "recorder/base/arena.h"

#define ADDRSET_MAX	24576
#define ADDRSET_LOW	((1ULL << 48) - 1)
#define ADDRSET_RECENT	512	/* keys known to be in the set: a small, cache-resident filter */

struct addrset {
	uint64_t *v, *tmp;	/* (DSO index + 1) << 48 | (address & ADDRSET_LOW) >> dshift[DSO];
				 * 0: empty */
	uint32_t mask, nr, max, nr_dsos;
	uint8_t *dshift;	/* per DSO: 0 exact, else its ranges are 2^dshift bytes */
	uint32_t *count;	/* scratch: pairs per DSO */
	uint8_t shift;		/* the largest dshift */
	uint32_t gen;		/* counts resets: what was added before is gone */
	/* direct-mapped, by hash: a key seen recently is in the set (most callchain entries
	 * repeat), so the 256 KiB table is probed only for the others; emptied whenever keys
	 * change meaning (degrade, reset) */
	uint64_t recent[ADDRSET_RECENT];
};

/* max: most pairs before degrading (0: ADDRSET_MAX); nr_dsos: DSO indexes are below it.
 * 0 or -TP_ENOMEM */
int addrset__init(struct addrset *s, struct arena *a, uint32_t max, uint32_t nr_dsos);
/* true if the pair (or its range) was not in the set before */
bool addrset__add(struct addrset *s, uint32_t dso, uint64_t addr);
/* empty again, exact again (a new output file or snapshot) */
void addrset__reset(struct addrset *s);
/* the same, the table's and sort buffer's memory given back (their pages stop counting in
 * the RSS until used again): when the sorted pairs are no longer needed */
void addrset__drop(struct addrset *s);
/* every pair, sorted by DSO then key, in s->tmp: their number */
uint32_t addrset__sort(struct addrset *s);
/* zero [p, p + size), the whole pages in it given back to the kernel (they stop counting
 * in the RSS until touched again) */
void addrset_release(void *p, size_t size);
/* heapsort, ascending (no recursion, no memory) */
void addrset_sort_u64(uint64_t *v, uint32_t n);

/* of a pair: the DSO index, and the start of its range */
static inline uint32_t addrset_dso(uint64_t e)
{
	return (uint32_t)(e >> 48) - 1;
}

static inline uint8_t addrset_shift(const struct addrset *s, uint32_t dso)
{
	return s->dshift[dso];
}

static inline uint64_t addrset_start(const struct addrset *s, uint64_t e)
{
	uint8_t sh = s->dshift[addrset_dso(e)];
	uint64_t a = sh >= 48 ? 0 : (e & ADDRSET_LOW) << sh;

	return a >> 47 & 1 ? a | ~0ULL << 48 : a;	/* the kernel's upper bits */
}

#endif
