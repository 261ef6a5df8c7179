/* SPDX-License-Identifier: MIT */
/* tp_fbuf: appends perf.data integers, strings and structs to caller memory, in the output
 * byte order (native, or swapped when the writer produces a foreign-endian file).
 * Errors are sticky: the first append that does not fit sets err = -TP_ENOSPC and nothing is
 * appended after it, so a sequence of appends is checked once at the end. */
#ifndef TINYPERF_PERFDATA_FBUF_H
#define TINYPERF_PERFDATA_FBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/tinyperf/perf_event.h"

struct tp_fbuf {
	uint8_t *buf;
	size_t cap;
	size_t len;		/* bytes appended so far */
	int err;		/* 0 or the first -TP_ENOSPC */
	bool swap;		/* byte-swap integers as they are appended */
};

void tp_fbuf__init(struct tp_fbuf *f, void *buf, size_t cap, bool swap);
/* Whether f swaps. Only the host writes the other byte order (tinyperf recv keeps a foreign
 * device's, the tests); a device build (CONFIG_REC_RECORD) never does and drops that code. */
#define tp_fbuf__swaps(f) (!IS_ENABLED(CONFIG_REC_RECORD) && (f)->swap)
/* back to empty, keeping memory and byte order */
void tp_fbuf__reset(struct tp_fbuf *f);
/* reserve n zeroed bytes; NULL (and err set) if they do not fit */
void *tp_fbuf__zero(struct tp_fbuf *f, size_t n);
void tp_fbuf__bytes(struct tp_fbuf *f, const void *p, size_t n);
void tp_fbuf__u16(struct tp_fbuf *f, uint16_t v);
void tp_fbuf__u32(struct tp_fbuf *f, uint32_t v);
void tp_fbuf__u64(struct tp_fbuf *f, uint64_t v);
void tp_fbuf__u64_array(struct tp_fbuf *f, const uint64_t *v, size_t n);
/* zero bytes up to the next multiple of align (a power of two) */
void tp_fbuf__pad(struct tp_fbuf *f, size_t align);
/* perf header string: u32 len; s NUL-padded to len = ALIGN(strlen(s) + 1, 64) */
void tp_fbuf__string(struct tp_fbuf *f, const char *s);
/* u32 nr; nr perf header strings */
void tp_fbuf__string_list(struct tp_fbuf *f, const char *const *v, uint32_t nr);
void tp_fbuf__header(struct tp_fbuf *f, uint32_t type, uint16_t misc, uint16_t size);
/* the first attr_size bytes of *attr with attr.size = attr_size, in the output byte order */
void tp_fbuf__attr(struct tp_fbuf *f, const struct perf_event_attr *attr, uint32_t attr_size);

static inline int tp_fbuf__err(const struct tp_fbuf *f) { return f->err; }

/* bytes a perf header string of s takes */
size_t tp_fbuf_string_size(const char *s);

#endif
