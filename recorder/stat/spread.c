/* SPDX-License-Identifier: MIT */
/* stat -r's statistics: the mean of the runs' counts and perf's spread (the standard error of
 * the mean, relative to it), in integers: the recorder has no floating point. */
#include "libc-shim/shim.h"
#include "recorder/stat/stat.h"

ARCH_COLD_CODE static uint64_t isqrt(uint64_t v)
{
	uint64_t r = 0, b = 1ULL << 62;

	while (b > v)
		b >>= 2;
	for (; b; b >>= 2) {
		if (v >= r + b) {
			v -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/* Each deviation is taken relative to the mean in units of 2^-20 (capped at 64 times the mean),
 * so the squares add up in 64 bits for up to REC_MAX_RUNS runs. perf prints the spread
 * whenever it is not 0, "+-  0.00%" too: *noise is 0 only when every run counted the same. */
ARCH_COLD_CODE uint64_t stat_spread(const uint64_t *x, unsigned n, size_t stride,
				    uint32_t *noise, uint64_t *sd)
{
	uint64_t sum = 0, sq = 0, m, rt;
	bool varied = false;

	for (unsigned i = 0; i < n; i++) {
		sum += x[i * stride];
		varied |= x[i * stride] != x[0];
	}
	m = (sum + n / 2) / n;
	*noise = 0;
	*sd = 0;
	if (!m || !varied)
		return m;
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = x[i * stride], d = v > m ? v - m : m - v;
		uint64_t rel = d >= m << 6 ? 1ULL << 26 : stat_muldiv(d, 1 << 20, m);

		sq += rel * rel;
	}
	rt = isqrt(sq / ((uint64_t)n * (n - 1)));	/* relative, in units of 2^-20 */
	*noise = 1 + (uint32_t)((rt * 10000 + (1 << 19)) >> 20);
	*sd = stat_muldiv(m, rt, 1 << 20);
	return m;
}
