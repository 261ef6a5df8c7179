/* SPDX-License-Identifier: MIT */
/* The bounded set of sampled addresses (addrset.h). */
#include "libc-shim/shim.h"
#include "recorder/track/addrset.h"

int addrset__init(struct addrset *s, struct arena *a, uint32_t max, uint32_t nr_dsos)
{
	uint32_t slots = 16;

	memset(s, 0, sizeof(*s));
	s->max = max ? max : ADDRSET_MAX;
	s->nr_dsos = nr_dsos;
	while (slots / 4 * 3 < s->max)	/* at most 3/4 full: probes stay short */
		slots <<= 1;
	s->mask = slots - 1;
	s->v = arena__alloc(a, slots * sizeof(*s->v));
	s->tmp = arena__alloc(a, s->max * sizeof(*s->tmp));
	s->dshift = arena__alloc(a, nr_dsos);
	s->count = arena__alloc(a, nr_dsos * sizeof(*s->count));
	return s->v && s->tmp && s->dshift && s->count ? 0 : -TP_ENOMEM;
}

static uint64_t pack(const struct addrset *s, uint32_t dso, uint64_t addr)
{
	uint8_t sh = s->dshift[dso];

	return (uint64_t)(dso + 1) << 48 | (sh >= 48 ? 0 : (addr & ADDRSET_LOW) >> sh);
}

/* 1 if new, 0 if there, -1 if the set is full */
static int insert(struct addrset *s, uint64_t key)
{
	uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & s->mask;

	for (; s->v[i]; i = (i + 1) & s->mask)
		if (s->v[i] == key)
			return 0;
	if (s->nr == s->max)
		return -1;
	s->v[i] = key;
	s->nr++;
	return 1;
}

/* the DSO with the most pairs gets coarser ranges, until everything fits with room */
static void degrade(struct addrset *s)
{
	do {
		uint32_t n = 0, worst = 0, d;
		uint8_t by;

		memset(s->count, 0, s->nr_dsos * sizeof(*s->count));
		for (uint32_t i = 0; i <= s->mask; i++) {
			if (!s->v[i])
				continue;
			s->tmp[n++] = s->v[i];
			d = addrset_dso(s->v[i]);
			if (s->dshift[d] < 48 && ++s->count[d] > s->count[worst])
				worst = d;
		}
		if (!s->count[worst])
			return;		/* every DSO is one range: cannot be (max > DSOs) */
		/* 16-byte ranges first (functions are longer: few extra symbols), then twice
		 * as coarse each time, so it stops at the finest that fits */
		by = s->dshift[worst] ? 1 : 4;
		s->dshift[worst] = (uint8_t)TP_MIN(s->dshift[worst] + by, 48);
		s->shift = TP_MAX(s->shift, s->dshift[worst]);
		memset(s->v, 0, (s->mask + 1) * sizeof(*s->v));
		s->nr = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t k = s->tmp[i];

			/* its low bits move down; the top ones (DSO) stay */
			if (addrset_dso(k) == worst)
				k = (k & ~ADDRSET_LOW) |
				    (s->dshift[worst] >= 48 ? 0 : (k & ADDRSET_LOW) >> by);
			insert(s, k);
		}
	} while (s->nr > s->max / 4 * 3);
}

bool addrset__add(struct addrset *s, uint32_t dso, uint64_t addr)
{
	uint64_t key = pack(s, dso, addr);
	uint64_t *r = &s->recent[(key * 0x9e3779b97f4a7c15ULL) >> 55 & (ADDRSET_RECENT - 1)];
	int k;

	if (*r == key)
		return false;
	if ((k = insert(s, key)) < 0) {
		degrade(s);
		memset(s->recent, 0, sizeof(s->recent));
		key = pack(s, dso, addr);
		k = insert(s, key);
		r = &s->recent[(key * 0x9e3779b97f4a7c15ULL) >> 55 & (ADDRSET_RECENT - 1)];
	}
	*r = key;
	return k != 0;
}

void addrset__reset(struct addrset *s)
{
	if (s->nr)
		memset(s->v, 0, (s->mask + 1) * sizeof(*s->v));
	if (s->shift)
		memset(s->dshift, 0, s->nr_dsos);
	s->nr = 0;
	s->shift = 0;
	s->gen++;
	memset(s->recent, 0, sizeof(s->recent));
}

/* zeroed, the whole pages inside given back to the kernel (fresh zero pages mapped over) */
void addrset_release(void *p, size_t size)
{
	size_t pg = tp_getauxval(TP_AT_PAGESZ) ? tp_getauxval(TP_AT_PAGESZ) : 4096;
	uintptr_t a = ((uintptr_t)p + pg - 1) & ~(pg - 1);
	uintptr_t b = ((uintptr_t)p + size) & ~(pg - 1);

	if (b <= a || sys_mmap((void *)a, b - a, TP_PROT_READ | TP_PROT_WRITE, TP_MAP_PRIVATE |
			       TP_MAP_ANONYMOUS | TP_MAP_NORESERVE | TP_MAP_FIXED, -1, 0) != (long)a) {
		memset(p, 0, size);
		return;
	}
	memset(p, 0, a - (uintptr_t)p);
	memset((void *)b, 0, (uintptr_t)p + size - b);
}

void addrset__drop(struct addrset *s)
{
	addrset_release(s->v, (s->mask + 1) * sizeof(*s->v));
	addrset_release(s->tmp, s->max * sizeof(*s->tmp));
	s->nr = 0;	/* the table is empty already */
	addrset__reset(s);
}

/* heapsort: no recursion, no extra memory */
static void sift(uint64_t *v, uint32_t i, uint32_t n)
{
	uint64_t x = v[i];
	uint32_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && v[c] < v[c + 1])
			c++;
		if (x >= v[c])
			break;
		v[i] = v[c];
		i = c;
	}
	v[i] = x;
}

void addrset_sort_u64(uint64_t *v, uint32_t n)
{
	for (uint32_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (uint32_t i = n; i-- > 1;) {
		uint64_t x = v[0];

		v[0] = v[i];
		v[i] = x;
		sift(v, 0, i);
	}
}

uint32_t addrset__sort(struct addrset *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i <= s->mask; i++)
		if (s->v[i])
			s->tmp[n++] = s->v[i];
	addrset_sort_u64(s->tmp, n);
	return n;
}
