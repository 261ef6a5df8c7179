/* SPDX-License-Identifier: MIT */
/* Bounded, byte-order-aware reads from untrusted bytes. A cursor never reads past its end:
 * the first read that does not fit marks it bad, returns 0/NULL, and every later read does
 * the same, so a run of reads is checked once at the end. Loads go through memcpy, so input
 * alignment never matters (pipe streams put records at any offset). */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_CURSOR_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfdata/bswap.h"

static inline uint16_t tp_ld16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? tp_bswap16(v) : v;
}

static inline uint32_t tp_ld32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? tp_bswap32(v) : v;
}

static inline uint64_t tp_ld64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? tp_bswap64(v) : v;
}

struct tp_cur {
	const uint8_t *p;
	size_t len;
	size_t pos;
	bool swap;
	bool bad;
};

static inline struct tp_cur tp_cur_make(const void *p, size_t len, bool swap)
{
	struct tp_cur c = { .p = p, .len = len, .swap = swap };

	return c;
}

static inline size_t tp_cur__left(const struct tp_cur *c)
{
	return c->bad ? 0 : c->len - c->pos;
}

/* n more bytes, or NULL (and bad) when they are not there */
static inline const uint8_t *tp_cur__take(struct tp_cur *c, size_t n)
{
	const uint8_t *p;

	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

/* n elements of `size` bytes, with the multiplication checked */
static inline const uint8_t *tp_cur__take_array(struct tp_cur *c, uint64_t n, size_t size)
{
	if (size && n > (c->len - c->pos) / size) {
		c->bad = true;
		return NULL;
	}
	return tp_cur__take(c, (size_t)n * size);
}

static inline uint8_t tp_cur__u8(struct tp_cur *c)
{
	const uint8_t *p = tp_cur__take(c, 1);

	return p ? *p : 0;
}

static inline uint16_t tp_cur__u16(struct tp_cur *c)
{
	const uint8_t *p = tp_cur__take(c, 2);

	return p ? tp_ld16(p, c->swap) : 0;
}

static inline uint32_t tp_cur__u32(struct tp_cur *c)
{
	const uint8_t *p = tp_cur__take(c, 4);

	return p ? tp_ld32(p, c->swap) : 0;
}

static inline uint64_t tp_cur__u64(struct tp_cur *c)
{
	const uint8_t *p = tp_cur__take(c, 8);

	return p ? tp_ld64(p, c->swap) : 0;
}

/* A NUL-terminated string in the next n bytes (the rest is padding): a pointer into the
 * input, or NULL (and bad) when there is no NUL inside them. */
static inline const char *tp_cur__str_in(struct tp_cur *c, size_t n)
{
	const uint8_t *p = tp_cur__take(c, n);

	if (!p || !memchr(p, 0, n)) {
		c->bad = true;
		return NULL;
	}
	return (const char *)p;
}

/* perf header string: u32 len; char str[len] (NUL-terminated inside len) */
static inline const char *tp_cur__hdr_string(struct tp_cur *c)
{
	uint32_t len = tp_cur__u32(c);

	return tp_cur__str_in(c, len);
}

#endif
