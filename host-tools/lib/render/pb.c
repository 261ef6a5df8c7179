/* SPDX-License-Identifier: MIT */
/* The protocol buffers wire format, writing only: varints and length-delimited fields. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/render/pb.h"

static void put(struct pb *p, const void *data, size_t n)
{
	if (p->err || (n && TP_GROW(p->b, p->cap, p->len + n, 4096))) {
		p->err = -TP_ERR_NOMEM;
		return;
	}
	if (n)
		memcpy(p->b + p->len, data, n);
	p->len += n;
}

static void varint(struct pb *p, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n++] = (uint8_t)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
	put(p, b, n);
}

void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	varint(p, (uint64_t)field << 3);	/* wire type 0 */
	varint(p, v);
}

void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t n)
{
	varint(p, (uint64_t)field << 3 | 2);
	varint(p, n);
	put(p, data, n);
}

void pb_packed(struct pb *p, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		for (uint64_t x = v[i]; ; x >>= 7) {
			len++;
			if (x <= 0x7f)
				break;
		}
	varint(p, (uint64_t)field << 3 | 2);
	varint(p, len);
	for (size_t i = 0; i < n; i++)
		varint(p, v[i]);
}

void pb_release(struct pb *p)
{
	free(p->b);
	memset(p, 0, sizeof(*p));
}
