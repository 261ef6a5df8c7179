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

#endif
