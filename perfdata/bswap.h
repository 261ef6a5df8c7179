/* SPDX-License-Identifier: MIT */
/* Byte swapping for the writer's foreign-endian output and for readers of foreign files.
 * Compiler builtins: they become single instructions where the target has them. */
#ifndef TINYPERF_PERFDATA_BSWAP_H
#define TINYPERF_PERFDATA_BSWAP_H

#include <stdint.h>

static inline uint16_t tp_bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t tp_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t tp_bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* Reverse the bit order inside each byte of v, bytes staying in place. This is what moving a
 * kernel bitfield word (attr flags, aux_action) between byte orders takes: GCC allocates
 * bitfields LSB-first on little-endian and MSB-first on big-endian, so field n sits in byte n/8
 * of memory either way, at bit n%8 (LE) or 7-n%8 (BE). Its own inverse. */
static inline uint64_t tp_bitrev_bytes64(uint64_t v)
{
	v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
	v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
	v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
	return v;
}

static inline uint32_t tp_bitrev_bytes32(uint32_t v)
{
	return (uint32_t)tp_bitrev_bytes64(v);
}

#endif
