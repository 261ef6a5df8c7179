/* SPDX-License-Identifier: MIT */
/* Number parsing without errno: each returns 0 or -EINVAL / -ERANGE and never reads past the
 * terminating NUL. The whole string must be consumed unless an end pointer is asked for. */
#ifndef TINYPERF_LIBC_SHIM_PARSE_H
#define TINYPERF_LIBC_SHIM_PARSE_H

#include "libc-shim/types.h"

/* base 0 = auto (0x.. hex, 0.. octal, else decimal) */
int tp_parse_u64(const char *s, int base, uint64_t *out);
int tp_parse_s64(const char *s, int base, int64_t *out);
int tp_parse_uint(const char *s, unsigned *out);          /* decimal, fits in unsigned */
/* parse a number at *s, advance *s past it; no whole-string requirement */
int tp_parse_u64_prefix(const char **s, int base, uint64_t *out);
/* "512", "64K", "16M", "2G" (powers of 1024) */
int tp_parse_size(const char *s, uint64_t *out);
/* "1.5", "2", "0.25" seconds -> milliseconds */
int tp_parse_seconds_ms(const char *s, uint64_t *out_ms);
/* the value of a digit in bases up to 36, '0'-'9' then 'a'-'z' in either case; else 99 */
static inline int tp_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 99;
}

/* the value of one hex digit, '0'-'9', 'a'-'f' or 'A'-'F': 0-15, else -1 (inline: the host's
 * kallsyms parser calls it for every address digit) */
static inline int tp_hexval(char c)
{
	int d = tp_digit_value(c);

	return d < 16 ? d : -1;
}

#endif
