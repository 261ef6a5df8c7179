/* SPDX-License-Identifier: MIT */
/* The perf.data reader: a file-mode or pipe-mode perf.data in memory, in either byte order,
 * from a 32- or 64-bit recorder. tp_reader__new() checks the header, reads the attrs and
 * their ids and the feature sections; tp_reader__next() walks the records one at a time,
 * decoded (event.h).
 *
 * Bad input never stops the walk unless nothing more can be read: a corrupt record is
 * reported through the log callback with its offset and skipped (the walk resynchronises on
 * the next plausible record header), a truncated file is read up to where it ends, a
 * malformed feature section is skipped. tp_reader__stats() tells afterwards whether any of
 * that happened. The reader keeps pointers into buf: it must outlive the reader. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_READER_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/data/event.h"
#include "host-tools/lib/data/feature.h"
#include "host-tools/lib/common/common.h"

struct tp_reader;

struct tp_reader_info {
	bool pipe;
	bool swapped;			/* the recorder's byte order is not ours */
	bool big_endian;		/* the recorder's byte order */
	uint64_t header_size;		/* file mode: the header's fields, as read */
	uint64_t attr_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;		/* data_offset + data_size, where the feature table is */
	uint64_t data_end;		/* where the walk stops (may differ from data_offset +
					 * data_size for a truncated or unfinished file) */
};

struct tp_reader_stats {
	uint64_t nr_records;		/* records returned by tp_reader__next */
	uint64_t nr_skipped;		/* corrupt records skipped */
	uint64_t bytes_skipped;
	uint32_t nr_bad_features;	/* feature sections skipped */
	bool truncated;			/* the input ends before what its header announces */
	bool unfinished;		/* the recorder did not finalise the file (data.size 0 or
					 * no feature sections): read to the end of the file */
};

/* 0 and *out, or -TP_ERR_* (detail logged at TP_LOG_ERROR). log may be NULL; it is copied. */
int tp_reader__new(struct tp_reader **out, const void *buf, size_t len, const struct tp_log *log);
void tp_reader__delete(struct tp_reader *r);

/* The next record: 1 (and *ev), 0 at the end, or a fatal -TP_ERR_* (e.g. COMPRESSED). */
int tp_reader__next(struct tp_reader *r, struct tp_event *ev);
/* Back to the first record. Records seen before are not re-applied (attrs, features) and
 * their problems not reported again. */
void tp_reader__rewind(struct tp_reader *r);
/* Decode again a record tp_reader__next() returned (its data pointer and offset), e.g. after
 * holding it in a queue: 0 or -TP_ERR_*. */
int tp_reader__decode(struct tp_reader *r, const uint8_t *data, uint64_t offset,
		      struct tp_event *ev);
/* The buffer given to tp_reader__new() is a read-only file mapping (tp_input's), whose pages
 * tp_reader__release() may hand back to the kernel; never say so of a heap buffer. */
void tp_reader__set_mapped(struct tp_reader *r);
/* No record before offset will be decoded again soon (the walk is past it and nothing holds
 * it): the whole pages before it leave the resident set of a mapped input. Touched again,
 * they come back from the file, so this only bounds memory; a no-op for a heap buffer. */
void tp_reader__release(struct tp_reader *r, uint64_t offset);

const struct tp_reader_info *tp_reader__info(const struct tp_reader *r);
const struct tp_reader_stats *tp_reader__stats(const struct tp_reader *r);
/* anything skipped or missing (exit status material) */
bool tp_reader__had_errors(const struct tp_reader *r);
/* features: complete after tp_reader__new() in file mode, after the walk in pipe mode */
const struct tp_features *tp_reader__features(const struct tp_reader *r);

uint32_t tp_reader__nr_attrs(const struct tp_reader *r);
const struct tp_attr *tp_reader__attr(const struct tp_reader *r, uint32_t i);
/* the attr a sample id belongs to, or NULL */
const struct tp_attr *tp_reader__attr_by_id(struct tp_reader *r, uint64_t id);

#endif
