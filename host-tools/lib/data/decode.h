/* SPDX-License-Identifier: MIT */
/* Library-internal: decoding one record's body (reader.c walks the records and picks the
 * attr; these functions only check the bytes against header.size and convert them). */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_DECODE_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/event.h"

/* u64 arrays converted out of one record. Everything a record expands to fits: no output
 * element is wider than 3x the input bytes it comes from (group read values). */
#define TP_SCRATCH_U64	(3 * 65536 / 8 + 64)

struct tp_decode {
	bool swap;
	uint64_t *scratch;		/* TP_SCRATCH_U64 entries */
	size_t used;			/* reset per record */
	const char *why;		/* what was wrong, for the warning */
	char why_buf[160];		/* room for a why with numbers in it */
};

/* n u64s of scratch, or NULL */
uint64_t *tp_decode__scratch(struct tp_decode *d, uint64_t n);
/* n u64s from the cursor into scratch, converted; NULL (cursor bad) if they are not there */
const uint64_t *tp_decode__u64s(struct tp_decode *d, struct tp_cur *c, uint64_t n);
/* fail with a reason: returns -TP_ERR_BAD_RECORD */
int tp_decode__fail(struct tp_decode *d, const char *why);

/* read_format values (SAMPLE READ and PERF_RECORD_READ) */
void tp_decode__read(struct tp_decode *d, struct tp_cur *c, uint64_t read_format,
		     struct tp_read *out);
/* PERF_RECORD_SAMPLE body (ev->data/size set) with attr; fills ev->sid and ev->u.sample */
int tp_decode__sample(struct tp_decode *d, const struct tp_attr *attr, struct tp_event *ev);
/* kernel records other than SAMPLE; attr (may be NULL) gives the sample_id trailer */
int tp_decode__kernel(struct tp_decode *d, const struct tp_attr *attr, struct tp_event *ev);
/* where a record's id is, for picking its attr: the offset of the u64 from the record start,
 * or -1 when the record carries none. sample_type is the (common) sample_type of the attrs. */
int tp_decode__id_pos(uint64_t sample_type, bool sample, bool sample_id_all, uint16_t size);
/* user records (type >= 64); avail = input bytes from the record start (for out-of-band
 * payloads, which set ev->extra) */
int tp_decode__user(struct tp_decode *d, struct tp_event *ev, size_t avail);

/* a build-id entry (HEADER_BUILD_ID record or BUILD_ID feature entry) of size bytes at rec;
 * 0 or -TP_ERR_BAD_RECORD */
int tp_build_id__decode(const uint8_t *rec, size_t size, bool swap, struct tp_ev_build_id *out);

#endif
