/* SPDX-License-Identifier: MIT */
/* The output primitive every perfdata encoder goes through, so byte order is handled once. */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/attr.h"
#include "perfdata/bswap.h"
#include "perfdata/fbuf.h"

void tp_fbuf__init(struct tp_fbuf *f, void *buf, size_t cap, bool swap)
{
	f->buf = buf;
	f->cap = cap;
	f->len = 0;
	f->err = 0;
	f->swap = swap;
}

void tp_fbuf__reset(struct tp_fbuf *f)
{
	f->len = 0;
	f->err = 0;
}

static void *reserve(struct tp_fbuf *f, size_t n)
{
	void *p;

	if (f->err)
		return NULL;
	if (n > f->cap - f->len) {
		f->err = -TP_ENOSPC;
		return NULL;
	}
	p = f->buf + f->len;
	f->len += n;
	return p;
}

void *tp_fbuf__zero(struct tp_fbuf *f, size_t n)
{
	void *p = reserve(f, n);

	if (p)
		memset(p, 0, n);
	return p;
}

void tp_fbuf__bytes(struct tp_fbuf *f, const void *src, size_t n)
{
	void *p = reserve(f, n);

	if (p && n)
		memcpy(p, src, n);
}

TP_NOINLINE void tp_fbuf__u16(struct tp_fbuf *f, uint16_t v)
{
	if (tp_fbuf__swaps(f))
		v = tp_bswap16(v);
	tp_fbuf__bytes(f, &v, sizeof(v));
}

TP_NOINLINE void tp_fbuf__u32(struct tp_fbuf *f, uint32_t v)
{
	if (tp_fbuf__swaps(f))
		v = tp_bswap32(v);
	tp_fbuf__bytes(f, &v, sizeof(v));
}

TP_NOINLINE void tp_fbuf__u64(struct tp_fbuf *f, uint64_t v)
{
	if (tp_fbuf__swaps(f))
		v = tp_bswap64(v);
	tp_fbuf__bytes(f, &v, sizeof(v));
}

void tp_fbuf__u64_array(struct tp_fbuf *f, const uint64_t *v, size_t n)
{
	if (n > (f->cap - f->len) / 8) {	/* all or nothing */
		if (!f->err)
			f->err = -TP_ENOSPC;
		return;
	}
	if (!tp_fbuf__swaps(f))	/* 8 * n cannot wrap: it fits */
		tp_fbuf__bytes(f, v, 8 * n);
	else
		for (size_t i = 0; i < n; i++)
			tp_fbuf__u64(f, v[i]);
}

void tp_fbuf__pad(struct tp_fbuf *f, size_t align)
{
	tp_fbuf__zero(f, TP_ALIGN(f->len, align) - f->len);
}

size_t tp_fbuf_string_size(const char *s)
{
	return 4 + TP_ALIGN(strlen(s) + 1, (size_t)PERF_HEADER_STRING_ALIGN);
}

void tp_fbuf__string(struct tp_fbuf *f, const char *s)
{
	size_t len = strlen(s);
	size_t padded = TP_ALIGN(len + 1, (size_t)PERF_HEADER_STRING_ALIGN);
	uint8_t *p;

	if (padded > UINT32_MAX) {
		if (!f->err)
			f->err = -TP_E2BIG;
		return;
	}
	p = tp_fbuf__zero(f, 4 + padded);	/* all or nothing */
	if (p) {
		uint32_t v = (uint32_t)padded;

		if (tp_fbuf__swaps(f))
			v = tp_bswap32(v);
		memcpy(p, &v, 4);
		memcpy(p + 4, s, len);
	}
}

void tp_fbuf__string_list(struct tp_fbuf *f, const char *const *v, uint32_t nr)
{
	tp_fbuf__u32(f, nr);
	for (uint32_t i = 0; i < nr; i++)
		tp_fbuf__string(f, v[i]);
}

/* one call per record head built (LTO would copy it into each of its callers) */
TP_NOINLINE void tp_fbuf__header(struct tp_fbuf *f, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { type, misc, size };	/* one append, not three */

	if (tp_fbuf__swaps(f)) {
		h.type = tp_bswap32(type);
		h.misc = tp_bswap16(misc);
		h.size = tp_bswap16(size);
	}
	tp_fbuf__bytes(f, &h, sizeof(h));
}

void tp_fbuf__attr(struct tp_fbuf *f, const struct perf_event_attr *attr, uint32_t attr_size)
{
	struct perf_event_attr a = *attr;

	if (attr_size > sizeof(a)) {
		if (!f->err)
			f->err = -TP_EINVAL;
		return;
	}
	a.size = attr_size;
	if (tp_fbuf__swaps(f))
		tp_attr__to_foreign(&a);
	tp_fbuf__bytes(f, &a, attr_size);
}
