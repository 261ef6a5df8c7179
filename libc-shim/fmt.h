/* SPDX-License-Identifier: MIT */
/* A bounded printf-style formatter for what tinyperf's format strings use: %d %u %x %c %s %%
 * with flags '-' and '0', width and precision (also '*'), and length modifiers l ll z. Any
 * other conversion (%i %o %X %p, flags '+' ' ' '#', h hh t j) prints as text after a '%'.
 * No floating point. Always NUL-terminates when size > 0 and returns the length the full
 * output would have had. */
#ifndef TINYPERF_LIBC_SHIM_FMT_H
#define TINYPERF_LIBC_SHIM_FMT_H

#include "libc-shim/types.h"
#include "arch/arch.h"	/* ARCH_VARARGS_GPR, for the variadic wrappers' definitions */

int tp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* The formatter itself: hands the output to emit() piece by piece (tp_out and tp_dprintf
 * stream through it, so output longer than any buffer is never cut); returns its length. */
typedef void tp_emit_fn(void *ctx, const char *s, size_t n);
int tp_vformat(tp_emit_fn *emit, void *ctx, const char *fmt, va_list ap);
int tp_snprintf(char *buf, size_t size, const char *fmt, ...) TP_PRINTF(3, 4);
/* *n /= d, returning the remainder, for d in 1..65536: on 32-bit targets no 64-bit division
 * helper (fmt.c says why) */
unsigned tp_divmod(uint64_t *n, unsigned d);

#endif
