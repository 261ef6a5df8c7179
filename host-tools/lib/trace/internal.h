/* SPDX-License-Identifier: MIT */
/* Library-internal: what trace/format.c (the TRACING_DATA blob, format files, fields) and
 * trace/expr.c (print fmt parsing and evaluation) share. */
#ifndef TINYPERF_HOST_TOOLS_LIB_TRACE_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_TRACE_INTERNAL_H

#include <stdarg.h>

#include "host-tools/lib/trace/trace.h"

struct tp_tracefmt {
	bool swap;			/* the recording's byte order is not ours */
	uint8_t long_size;		/* sizeof(long) on the recording machine */
	struct tp_tpevent *events;	/* sorted by id */
	uint32_t nr_events, cap_events;
	char **texts;			/* the format files' copies, strings point into them */
	uint32_t nr_texts, cap_texts;
};

/* snprintf-like output: writes while there is room, counts everything */
struct tp_obuf {
	char *p;
	size_t n, len;
};

void tp_obuf__putc(struct tp_obuf *o, char c);
void tp_obuf__put(struct tp_obuf *o, const char *s, size_t len);
__attribute__((format(printf, 2, 3)))
void tp_obuf__printf(struct tp_obuf *o, const char *fmt, ...);

/* element idx of an integer field (or array), widened (sign-extended if signed); false
 * if it lies outside the record */
bool tp_tpfield__int(const struct tp_tracefmt *tf, const struct tp_tpfield *f,
		     const uint8_t *raw, size_t size, uint32_t idx, uint64_t *v);
/* the bytes of an array, string or dynamic field; NULL if outside the record */
const uint8_t *tp_tpfield__bytes(const struct tp_tracefmt *tf, const struct tp_tpfield *f,
				 const uint8_t *raw, size_t size, uint32_t *len);
const struct tp_tpfield *tp_tpevent__field(const struct tp_tpevent *e, const char *name,
					   size_t len);

/* ---- a parsed print fmt: trace/expr.c builds it, trace/print.c evaluates it ---- */

enum tp_pkind {
	N_NUM, N_STR, N_FIELD, N_INDEX, N_UNARY, N_BINARY, N_COND, N_CAST, N_CALL, N_PAIR,
	N_UNKNOWN,		/* an enum or macro name the format file does not define */
};
enum tp_pcall { C_GET_STR, C_DYN_ARRAY, C_FLAGS, C_SYMBOLIC, C_HEX };

/* binary operators, two characters packed where needed */
#define OP2(a, b) ((a) << 8 | (b))

struct tp_pnode {
	enum tp_pkind kind;
	int op;				/* N_UNARY/N_BINARY operator; N_CALL: enum tp_pcall */
	uint64_t num;
	const char *str;
	size_t len;
	const struct tp_tpfield *field;
	struct tp_pnode *a, *b, *c;
	struct tp_pnode **args;
	unsigned nr_args;
	unsigned bits;			/* N_CAST: 8..64 */
	bool is_signed;
};

struct tp_pfmt {
	const char *fmt;		/* the format string, escapes decoded */
	size_t fmt_len;
	struct tp_pnode **args;
	unsigned nr_args;
	void **allocs;			/* everything to free */
	size_t nr_allocs, cap_allocs;
};

/* trace/expr.c: NULL if the print fmt uses what is not supported (or no memory) */
struct tp_pfmt *tp_pfmt__parse(const struct tp_tpevent *e, const char *text);
void tp_pfmt__delete(struct tp_pfmt *p);
/* trace/print.c: false if evaluating failed (a field outside the record, an unknown
 * conversion): print the fields instead */
bool tp_pfmt__print(const struct tp_tracefmt *tf, const struct tp_pfmt *p,
		    const uint8_t *raw, size_t size, struct tp_obuf *o);

#endif
