/* SPDX-License-Identifier: MIT */
/* Number parsing without errno or locale (parse.h). */
#include "libc-shim/parse.h"
#include "libc-shim/errno.h"

/* *v = *v * m + a; true if that passes 2^64. On 32-bit targets a checked 64-bit multiply is
 * long code; the two 32x32->64 multiplies of the halves are short (neither sum can wrap:
 * (2^32-1)^2 + 2^32-1 < 2^64), and the result fits iff the high part does. */
static TP_NOINLINE bool mul_add_halves(uint64_t *v, unsigned m, unsigned a)
{
	uint64_t lo = (uint64_t)(uint32_t)*v * m + a;
	uint64_t hi = (uint64_t)(uint32_t)(*v >> 32) * m + (uint32_t)(lo >> 32);

	*v = hi << 32 | (uint32_t)lo;
	return hi >> 32;
}

/* always inlined: on 64-bit targets GCC would keep one out-of-line copy (measured +32 x86_64) */
static inline __attribute__((always_inline)) bool mul_add(uint64_t *v, unsigned m, unsigned a)
{
	if (sizeof(long) == 8)
		return __builtin_mul_overflow(*v, m, v) || __builtin_add_overflow(*v, a, v);
	return mul_add_halves(v, m, a);
}

int tp_parse_u64_prefix(const char **s, int base, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int d, ndig = 0;

	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 0x20) == 'x' &&
	    tp_digit_value(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	if (base < 2 || base > 36)
		return -TP_EINVAL;
	for (; (d = tp_digit_value(*p)) < base; p++, ndig++) {
		if (mul_add(&v, (unsigned)base, (unsigned)d))
			return -TP_ERANGE;
	}
	if (!ndig)
		return -TP_EINVAL;
	*s = p;
	*out = v;
	return 0;
}

int tp_parse_u64(const char *s, int base, uint64_t *out)
{
	uint64_t v;
	int ret = tp_parse_u64_prefix(&s, base, &v);

	if (ret)
		return ret;
	if (*s)
		return -TP_EINVAL;
	*out = v;
	return 0;
}

int tp_parse_s64(const char *s, int base, int64_t *out)
{
	bool neg = *s == '-';
	uint64_t v;
	int ret;

	if (*s == '-' || *s == '+')
		s++;
	ret = tp_parse_u64(s, base, &v);
	if (ret)
		return ret;
	if (v > (uint64_t)INT64_MAX + neg)
		return -TP_ERANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int tp_parse_uint(const char *s, unsigned *out)
{
	uint64_t v;
	int ret = tp_parse_u64(s, 10, &v);

	if (ret)
		return ret;
	if (v > (unsigned)-1)
		return -TP_ERANGE;
	*out = (unsigned)v;
	return 0;
}

int tp_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	uint64_t v;
	unsigned shift = 0;
	int ret = tp_parse_u64_prefix(&s, 10, &v);

	if (ret)
		return ret;
	if (*s) {
		const char *u;

		for (u = units; *u && *u != (*s & ~0x20); u++)
			;
		if (!*u || s[1])
			return -TP_EINVAL;
		shift = 10 * (unsigned)(u - units + 1);
	}
	if (v > UINT64_MAX >> shift)
		return -TP_ERANGE;
	*out = v << shift;
	return 0;
}

int tp_parse_seconds_ms(const char *s, uint64_t *out_ms)
{
	uint64_t sec = 0;
	unsigned ms = 0, scale = 100;	/* under 1000: 32 bits, no 64-bit division by 10 */
	bool any = false;

	if (*s >= '0' && *s <= '9') {
		int ret = tp_parse_u64_prefix(&s, 10, &sec);

		if (ret)
			return ret;
		any = true;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, any = true) {
			ms += (*s - '0') * scale;	/* digits past milliseconds are dropped */
			scale /= 10;
		}
	}
	if (*s || !any)
		return -TP_EINVAL;
	if (mul_add(&sec, 1000, ms))
		return -TP_ERANGE;
	*out_ms = sec;
	return 0;
}

