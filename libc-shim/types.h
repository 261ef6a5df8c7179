/* SPDX-License-Identifier: MIT */
/* Basic types: only the compiler's own freestanding headers, never the libc's. */
#ifndef TINYPERF_LIBC_SHIM_TYPES_H
#define TINYPERF_LIBC_SHIM_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>

#define TP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TP_ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define TP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TP_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TP_UNUSED __attribute__((unused))
#define TP_PRINTF(f, a) __attribute__((format(printf, f, a)))
/* a function LTO would copy into each of its few callers, where one copy is smaller (measured) */
#define TP_NOINLINE __attribute__((noinline))

/* Kconfig symbols as 0/1 constants: if (IS_ENABLED(CONFIG_X)) */
#define TP_IS_ENABLED_1(x) TP_IS_ENABLED_2(__tp_placeholder_##x)
#define __tp_placeholder_1 0,
#define TP_IS_ENABLED_2(arg) TP_IS_ENABLED_3(arg 1, 0, 0)
#define TP_IS_ENABLED_3(ignored, val, ...) val
#define IS_ENABLED(option) TP_IS_ENABLED_1(option)

/* Bit n of a bitmap of u64 words (perf's feature bits, CPU masks) as the byte that holds it and
 * the bit within that byte: no 64-bit shifts on 32-bit targets. Bits 0-7 of a word are its
 * last byte on big-endian targets. */
static inline uint8_t *tp_bit_byte(const uint64_t *map, unsigned n)
{
	return (uint8_t *)map + ((n >> 3) ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 7u : 0u));
}
#define TP_BIT_MASK(n) ((uint8_t)(1u << ((n) & 7)))

/* Native-order integers at any alignment (record fields): through packed types the compiler
 * emits the target's unaligned loads (one or two instructions; lwl/lwr on MIPS), where a
 * memcpy() into a variable can stay a call */
struct tp_un32 {
	uint32_t v;
} __attribute__((packed, may_alias));

struct tp_un64 {
	uint64_t v;
} __attribute__((packed, may_alias));

static inline uint32_t tp_get32(const void *p)
{
	return ((const struct tp_un32 *)p)->v;
}

static inline uint64_t tp_get64(const void *p)
{
	return ((const struct tp_un64 *)p)->v;
}

#endif
