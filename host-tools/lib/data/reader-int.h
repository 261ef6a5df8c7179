/* SPDX-License-Identifier: MIT */
/* Library-internal: the reader's state, shared by reader.c (header, attrs, features) and
 * walk.c (records). */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_READER_INT_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_READER_INT_H

#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/data/reader.h"

struct tp_id_entry {
	uint64_t id;
	uint32_t attr;
};

struct tp_reader {
	const uint8_t *buf;
	size_t len;
	struct tp_log log;
	struct tp_reader_info info;
	struct tp_reader_stats stats;
	struct tp_features feat;

	struct tp_attr *attrs;
	uint32_t nr_attrs, cap_attrs;
	struct tp_id_entry *ids;	/* sorted by id when !ids_dirty */
	size_t nr_ids, cap_ids;
	bool ids_dirty;

	uint64_t data_start;		/* first record */
	uint64_t pos;			/* next record */
	uint64_t seen;			/* records before this were already applied and reported */
	uint64_t released;		/* pages before this were handed back (mapped input) */
	bool mapped;			/* buf is a read-only file mapping */
	struct tp_decode dec;
};

/* add an attr (copied) with its ids; 0 or -TP_ERR_NOMEM */
int tp_reader__add_attr(struct tp_reader *r, const struct perf_event_attr *attr,
			uint32_t file_size, const uint64_t *ids, uint32_t nr_ids);
/* give attrs their EVENT_DESC names */
void tp_reader__name_attrs(struct tp_reader *r);

#endif
