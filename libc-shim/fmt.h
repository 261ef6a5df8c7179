/* A bounded printf-style formatter: %d %i %u %x %X %o %c %s %p %% with flags '-', '0', '+', ' ',
 * width and precision (also '*'), and length modifiers hh h l ll z t j. No floating point:
 * callers print fixed-point with tp_fmt_fixed(). Always NUL-terminates when size > 0 and
 * returns the length the full output would have had. */
#ifndef TINYPERF_LIBC_SHIM_FMT_H
#define TINYPERF_LIBC_SHIM_FMT_H

#include "libc-shim/types.h"

int tp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* The formatter itself: hands the output to emit() piece by piece (tp_out and tp_dprintf
 * stream through it, so output longer than any buffer is never cut); returns its length. */
typedef void tp_emit_fn(void *ctx, const char *s, size_t n);
int tp_vformat(tp_emit_fn *emit, void *ctx, const char *fmt, va_list ap);
int tp_snprintf(char *buf, size_t size, const char *fmt, ...) TP_PRINTF(3, 4);

#endif
