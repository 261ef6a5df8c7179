/* SPDX-License-Identifier: MIT */
/* A one-shot .xz decoder for MiniDebugInfo (.gnu_debugdata) and, as raw LZMA2, for the packed
 * recorder's payload (recorder/pack/unpack.c), written from the public .xz file
 * format specification (1.1.0/1.2.0) and the LZMA/LZMA2 descriptions: one stream (trailing
 * stream padding allowed), its blocks with the LZMA2 filter only (no BCJ, no delta), checks
 * none, CRC32 and CRC64 (verified), the stream's index read first so the caller can size its
 * buffer. The output buffer is the dictionary: no allocation, no floating point, no state
 * outside the work area. Every length read from the input is checked; hostile input gives
 * -TP_EBADMSG (corrupt), -TP_ENOSYS (a valid feature this decoder lacks) or -TP_EFBIG (past
 * XZ_OUT_MAX), never a read or write out of bounds. */
#ifndef TINYPERF_RECORDER_EMBED_XZ_H
#define TINYPERF_RECORDER_EMBED_XZ_H

#include "libc-shim/types.h"

#define XZ_OUT_MAX	(4u << 20)	/* most bytes decoded: larger payloads are refused */
#define XZ_LIT_MAX	(0x300u << 4)	/* literal coder probabilities at lc + lp = 4 */

/* the decoder's state: about 31 KiB, the caller's memory */
struct xz_work {
	uint16_t probs[1846 + XZ_LIT_MAX];
	uint32_t crc32[256];
	uint64_t crc64[256];
	bool tables;			/* crc32/crc64 filled */
};

/* the uncompressed size of the .xz stream in [in, in + len) from its index: >= 0, or <0 */
long xz__size(const uint8_t *in, size_t len);
/* decode it whole into out (out_len >= xz__size()): the bytes written, or <0 */
long xz__decode(struct xz_work *w, const uint8_t *in, size_t len, uint8_t *out, size_t out_len);

/* a raw LZMA2 stream (xz --format=raw --lzma2=...: its chunks and their end mark, nothing
 * else, no check) that is all of in[0, len), into out[0, out_len): the bytes written, or <0.
 * The packed recorder's first stage (recorder/pack/unpack.c) decodes its payload with it. */
long xz__lzma2(struct xz_work *w, const uint8_t *in, size_t len, uint8_t *out, size_t out_len);

#endif
