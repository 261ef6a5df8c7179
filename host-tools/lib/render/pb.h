/* SPDX-License-Identifier: MIT */
/* Library-internal to render/: the little of the protocol buffers wire format profile.proto
 * needs (varints, length-delimited fields, packed repeated integers), into a growing buffer. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_PB_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_PB_H

#include <stddef.h>
#include <stdint.h>

struct pb {
	uint8_t *b;
	size_t len, cap;
	int err;		/* -TP_ERR_NOMEM once growing failed; later writes do nothing */
};

/* field (varint type); 0 is left out, as proto3 does */
void pb_uint(struct pb *p, uint32_t field, uint64_t v);
/* field (length-delimited): bytes, a string, or an embedded message's encoding */
void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t n);
/* field as a packed repeated varint */
void pb_packed(struct pb *p, uint32_t field, const uint64_t *v, size_t n);
void pb_release(struct pb *p);

#endif
