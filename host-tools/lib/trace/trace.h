/* SPDX-License-Identifier: MIT */
/* Tracepoint records decoded with the format files a perf.data carries (its TRACING_DATA:
 * the kernel's events/<system>/<name>/format files), printed as perf script prints them.
 *
 * What is supported:
 *   fields: integers of 1, 2, 4 and 8 bytes (signed or not), fixed arrays ("char comm[16]"
 *     is a string, "unsigned long args[6]" an array), __data_loc and __rel_loc dynamic
 *     arrays and strings; either byte order.
 *   print fmt: the format string with %d %i %u %x %X %o %c %s %p (and %pS-style suffixes,
 *     printed as an address) with flags, width, precision and h/hh/l/ll/z length modifiers;
 *     arguments that are C expressions over REC->field and REC->array[i]: integer and
 *     string literals, casts to integer types, unary - ! ~, binary * / % + - << >> < <= > >=
 *     == != & ^ | && ||, ?:, and __get_str(), __get_dynamic_array(), __print_flags(),
 *     __print_symbolic(), __print_hex().
 *   Anything else (another helper, a parse error) falls back to "field=value" for each
 *   field that is not common_*: the output stays informative, if not perf's. */
/* Layer trace: may use common/, data/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_TRACE_TRACE_H
#define TINYPERF_HOST_TOOLS_LIB_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

struct tp_tpfield {
	const char *type;	/* "unsigned short", "char", "__data_loc char[]" ... */
	const char *name;
	uint32_t offset, size;
	uint32_t nr;		/* array elements (1 for a scalar, 0 for a dynamic array) */
	uint32_t elem_size;
	bool is_signed;
	bool dynamic;		/* __data_loc: a u32 holding length << 16 | offset */
	bool rel;		/* __rel_loc: the offset counts from the end of the field */
	bool string;		/* a char array or dynamic char array */
};

struct tp_pfmt;			/* a parsed print fmt (trace/expr.c) */

struct tp_tpevent {
	uint64_t id;
	const char *system, *name;
	struct tp_tpfield *fields;
	uint32_t nr_fields;
	const char *print_fmt;	/* the text after "print fmt: ", or NULL */
	struct tp_pfmt *pfmt;	/* NULL if it could not be parsed: fields are listed */
};

struct tp_tracefmt;

/* Parse a TRACING_DATA blob (its data and size): 0, -TP_ERR_NOMEM, or -TP_ERR_BAD_FEATURE
 * (the reason logged as a warning) when it is not one. Formats that do not parse are
 * skipped (their records print as raw fields of nothing: "[unknown tracepoint]"). */
int tp_tracefmt__parse(struct tp_tracefmt **out, const uint8_t *data, size_t size,
		       const struct tp_log *log);
void tp_tracefmt__delete(struct tp_tracefmt *tf);

/* the event of a tracepoint attr's config, or NULL */
const struct tp_tpevent *tp_tracefmt__event(const struct tp_tracefmt *tf, uint64_t id);
size_t tp_tracefmt__nr_events(const struct tp_tracefmt *tf);

/* Format one record's raw data (PERF_SAMPLE_RAW) like perf script: the print fmt applied,
 * or the fields listed. Writes at most n bytes including a NUL, returns the length it
 * needed (as snprintf). */
size_t tp_tpevent__format(const struct tp_tracefmt *tf, const struct tp_tpevent *e,
			  const uint8_t *raw, size_t size, char *buf, size_t n);

#endif
