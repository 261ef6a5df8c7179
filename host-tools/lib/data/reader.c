/* SPDX-License-Identifier: MIT */
/* Opening a perf.data: magic and byte order, the file header, attrs and their ids, the
 * feature table (perf-data-format.md §1.1-1.4, §1.6). Records are walked in walk.c. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/reader-int.h"
#include "perfdata/records.h"

#define FILE_HEADER_SIZE	sizeof(struct perf_file_header)
#define FILE_HEADER_SIZE_OLD	72	/* before the feature bitmap */
#define PIPE_HEADER_SIZE	sizeof(struct perf_pipe_file_header)

static bool host_is_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

/* [off, off + size) lies within [0, len) */
static bool in_bounds(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

static uint64_t end_of(const struct perf_file_section *s)
{
	return s->size > UINT64_MAX - s->offset ? UINT64_MAX : s->offset + s->size;
}

int tp_reader__add_attr(struct tp_reader *r, const struct perf_event_attr *attr,
			uint32_t file_size, const uint64_t *ids, uint32_t nr_ids)
{
	struct tp_attr *a;

	if (tp_grow((void **)&r->attrs, &r->cap_attrs, r->nr_attrs + 1, sizeof(*r->attrs)))
		return -TP_ERR_NOMEM;
	if (nr_ids > SIZE_MAX / sizeof(*r->ids) - r->nr_ids)
		return -TP_ERR_NOMEM;
	if (TP_GROW(r->ids, r->cap_ids, r->nr_ids + nr_ids, 16))
		return -TP_ERR_NOMEM;
	a = &r->attrs[r->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	if (!a->ids)
		return -TP_ERR_NOMEM;
	a->attr = *attr;
	a->index = r->nr_attrs;
	a->file_size = file_size;
	a->nr_ids = nr_ids;
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
	if (attr->flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL)
		a->id_hdr_size = tp_id_hdr_size(attr->sample_type);
	for (uint32_t i = 0; i < nr_ids; i++)
		r->ids[r->nr_ids++] = (struct tp_id_entry){ ids[i], a->index };
	r->ids_dirty = true;
	r->nr_attrs++;
	return 0;
}

void tp_reader__name_attrs(struct tp_reader *r)
{
	const struct tp_features *f = &r->feat;

	for (uint32_t i = 0; i < f->nr_events; i++) {
		const struct tp_event_desc *d = &f->events[i];
		const struct tp_attr *a = d->nr_ids ? tp_reader__attr_by_id(r, d->ids[0]) : NULL;

		/* by id; by position when the ids say nothing (one event, or none recorded) */
		if (!a && i < r->nr_attrs && f->nr_events == r->nr_attrs)
			a = &r->attrs[i];
		if (a)
			r->attrs[a->index].name = d->name;
	}
}

static int cmp_id(const void *a, const void *b)
{
	const struct tp_id_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const struct tp_attr *tp_reader__attr_by_id(struct tp_reader *r, uint64_t id)
{
	size_t lo = 0, hi;

	if (r->ids_dirty && r->nr_ids > 1) {
		qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
		r->ids_dirty = false;
	}
	hi = r->nr_ids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nr_ids && r->ids[lo].id == id ? &r->attrs[r->ids[lo].attr] : NULL;
}

/* attrs.size / attr_size entries, attr_size apart, each attr then its ids section */
static int read_attrs(struct tp_reader *r, const struct perf_file_section *s, uint64_t attr_size)
{
	uint64_t nr = s->size / attr_size;
	char why[160];

	if (attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    attr_size > 4096) {
		tp_log__error(&r->log, "attr_size %llu is not a perf_event_attr size",
			      (unsigned long long)attr_size);
		return -TP_ERR_BAD_ATTR;
	}
	if (!in_bounds(s->offset, s->size, r->len)) {
		tp_log__error(&r->log, "the attrs section (offset %#llx, %llu bytes) runs past "
			      "the end of the file (%zu bytes)", (unsigned long long)s->offset,
			      (unsigned long long)s->size, r->len);
		return -TP_ERR_SHORT_HEADER;
	}
	if (!nr) {
		tp_log__error(&r->log, "the attrs section is empty");
		return -TP_ERR_NO_ATTRS;
	}
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *p = r->buf + s->offset + i * attr_size;
		uint32_t sz = (uint32_t)attr_size - sizeof(struct perf_file_section);
		struct perf_event_attr attr;
		uint64_t ids_off, ids_size, *ids;
		uint32_t file_size, nr_ids;
		int err = tp_attr_parse(p, sz, sz, r->info.swapped, &attr, &file_size, why,
					sizeof(why));

		if (err) {
			tp_log__error(&r->log, "attr %llu: %s", (unsigned long long)i, why);
			return err;
		}
		ids_off = tp_ld64(p + sz, r->info.swapped);
		ids_size = tp_ld64(p + sz + 8, r->info.swapped);
		if (!in_bounds(ids_off, ids_size, r->len) || ids_size / 8 > UINT32_MAX) {
			tp_log__error(&r->log, "attr %llu: its ids (offset %#llx, %llu bytes) run "
				      "past the end of the file", (unsigned long long)i,
				      (unsigned long long)ids_off, (unsigned long long)ids_size);
			return -TP_ERR_BAD_ATTR;
		}
		nr_ids = (uint32_t)(ids_size / 8);
		/* each id has its own 8 bytes in a real file: refuse attrs whose id
		 * arrays overlap into more ids than the file can hold */
		if (nr_ids > r->len / 8 - r->nr_ids) {
			tp_log__error(&r->log, "attr %llu: its ids overlap those of other attrs",
				      (unsigned long long)i);
			return -TP_ERR_BAD_ATTR;
		}
		ids = malloc((nr_ids ? nr_ids : 1) * sizeof(*ids));
		if (!ids)
			return -TP_ERR_NOMEM;
		for (uint32_t j = 0; j < nr_ids; j++)
			ids[j] = tp_ld64(r->buf + ids_off + 8 * j, r->info.swapped);
		err = tp_reader__add_attr(r, &attr, file_size, ids, nr_ids);
		free(ids);
		if (err)
			return err;
	}
	return 0;
}

/* The bitmap is the writer's unsigned long[]: u64 or u32 words in its byte order. As perf
 * does, take it as u64 words, then as u32 words, whichever has HEADER_HOSTNAME set (every
 * perf and tinyperf writer sets it); with neither, trust only BUILD_ID. Little-endian words
 * of either size give the same bits, so only a big-endian file needs the probe. */
static void read_bitmap(struct tp_reader *r, const uint8_t *p, uint64_t bits[4])
{
	bool swap = r->info.swapped;

	for (int i = 0; i < 4; i++)
		bits[i] = tp_ld64(p + 8 * i, swap);
	if (!r->info.big_endian || (bits[0] & (1ULL << HEADER_HOSTNAME)))
		return;
	for (int i = 0; i < 4; i++)
		bits[i] = (uint64_t)tp_ld32(p + 8 * i, swap) |
			  (uint64_t)tp_ld32(p + 8 * i + 4, swap) << 32;
	if (bits[0] & (1ULL << HEADER_HOSTNAME))
		return;
	memset(bits, 0, 4 * sizeof(bits[0]));
	bits[0] = 1ULL << HEADER_BUILD_ID;
}

static void read_features(struct tp_reader *r, const uint64_t bits[4])
{
	uint64_t slot = r->info.feat_offset;

	for (uint32_t id = 0; id < HEADER_FEAT_BITS; id++) {
		const char *name = tp_feature_name(id);
		uint64_t off, size;
		int err;

		if (!(bits[id / 64] >> (id % 64) & 1))
			continue;
		if (!in_bounds(slot, sizeof(struct perf_file_section), r->len)) {
			tp_log__warn(&r->log, "the feature table (offset %#llx) runs past the end "
				     "of the file: the file is truncated, features from %s on "
				     "are lost", (unsigned long long)r->info.feat_offset,
				     name ? name : "?");
			r->stats.truncated = true;
			return;
		}
		off = tp_ld64(r->buf + slot, r->info.swapped);
		size = tp_ld64(r->buf + slot + 8, r->info.swapped);
		slot += sizeof(struct perf_file_section);
		if (!in_bounds(off, size, r->len)) {
			tp_log__warn(&r->log, "feature %s (offset %#llx, %llu bytes) runs past the "
				     "end of the file (%zu bytes): skipped", name ? name : "?",
				     (unsigned long long)off, (unsigned long long)size, r->len);
			r->stats.nr_bad_features++;
			continue;
		}
		err = tp_features__parse(&r->feat, id, r->buf + off, (size_t)size, off,
					 r->info.swapped, &r->log);
		if (err == -TP_ERR_BAD_FEATURE)
			r->stats.nr_bad_features++;
	}
}

static int open_file(struct tp_reader *r)
{
	struct tp_reader_info *in = &r->info;
	struct perf_file_section attrs, data;
	uint64_t bits[4] = { 0 };
	const uint8_t *b = r->buf;
	bool s = in->swapped;
	int err;

	in->header_size = tp_ld64(b + 8, s);
	if (in->header_size != FILE_HEADER_SIZE && in->header_size != FILE_HEADER_SIZE_OLD) {
		tp_log__error(&r->log, "header size %llu is neither the pipe (16) nor the file "
			      "header's (104)", (unsigned long long)in->header_size);
		return -TP_ERR_BAD_HEADER;
	}
	if (r->len < in->header_size) {
		tp_log__error(&r->log, "the file has %zu bytes, its header needs %llu", r->len,
			      (unsigned long long)in->header_size);
		return -TP_ERR_SHORT_HEADER;
	}
	in->attr_size = tp_ld64(b + 16, s);
	attrs.offset = tp_ld64(b + 24, s);
	attrs.size = tp_ld64(b + 32, s);
	data.offset = tp_ld64(b + 40, s);
	data.size = tp_ld64(b + 48, s);
	in->data_offset = data.offset;
	in->data_size = data.size;
	if (in->header_size == FILE_HEADER_SIZE)
		read_bitmap(r, b + 72, bits);
	if (!in->attr_size) {
		tp_log__error(&r->log, "attr_size is 0");
		return -TP_ERR_BAD_ATTR;
	}
	if ((attrs.size && attrs.offset < in->header_size) || data.offset < in->header_size ||
	    (attrs.size && data.size && attrs.offset < end_of(&data) &&
	     data.offset < end_of(&attrs))) {
		tp_log__error(&r->log, "header sections overlap (attrs at %#llx+%llu, data at "
			      "%#llx+%llu)", (unsigned long long)attrs.offset,
			      (unsigned long long)attrs.size, (unsigned long long)data.offset,
			      (unsigned long long)data.size);
		return -TP_ERR_BAD_HEADER;
	}
	err = read_attrs(r, &attrs, in->attr_size);
	if (err)
		return err;
	if (data.offset > r->len) {
		tp_log__error(&r->log, "the data section (offset %#llx) starts past the end of "
			      "the file (%zu bytes)", (unsigned long long)data.offset, r->len);
		return -TP_ERR_SHORT_HEADER;
	}
	r->data_start = data.offset;
	in->data_end = data.offset + data.size;
	in->feat_offset = in->data_end;
	if (!data.size) {
		tp_log__warn(&r->log, "the data size in the header is 0: the recording was not "
			     "finished (recorder killed?): reading records up to the end of "
			     "the file");
		in->data_end = r->len;
		r->stats.unfinished = true;
		return 0;
	}
	if (!in_bounds(data.offset, data.size, r->len)) {
		tp_log__warn(&r->log, "the data section (%llu bytes at %#llx) runs past the end "
			     "of the file (%zu bytes): the file is truncated",
			     (unsigned long long)data.size, (unsigned long long)data.offset,
			     r->len);
		in->data_end = r->len;
		r->stats.truncated = true;
	} else if (!(bits[0] | bits[1] | bits[2] | bits[3])) {
		/* a header checkpointed mid-recording (perf and tinyperf write features when
		 * they finish): more records may follow */
		if (in->data_end < r->len)
			tp_log__warn(&r->log, "no feature sections and %llu bytes after the data "
				     "section: the recording was not finished, reading records "
				     "up to the end of the file",
				     (unsigned long long)(r->len - in->data_end));
		else
			tp_log__warn(&r->log, "no feature sections: the recording was not "
				     "finished (recorder killed?)");
		in->data_end = r->len;
		r->stats.unfinished = true;
	}
	read_features(r, bits);
	tp_reader__name_attrs(r);
	return 0;
}

int tp_reader__new(struct tp_reader **out, const void *buf, size_t len, const struct tp_log *log)
{
	struct tp_reader *r;
	bool le;
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -TP_ERR_NOMEM;
	r->dec.scratch = malloc(TP_SCRATCH_U64 * sizeof(uint64_t));
	if (!r->dec.scratch) {
		free(r);
		return -TP_ERR_NOMEM;
	}
	r->buf = buf;
	r->len = len;
	if (log)
		r->log = *log;
	err = -TP_ERR_EMPTY;
	if (!len)
		goto out_err;
	err = -TP_ERR_SHORT_HEADER;
	if (len < PIPE_HEADER_SIZE) {
		tp_log__error(&r->log, "the file has only %zu bytes", len);
		goto out_err;
	}
	err = -TP_ERR_BAD_MAGIC;
	if (!memcmp(buf, "PERFILE2", 8))
		le = true;
	else if (!memcmp(buf, "2ELIFREP", 8))
		le = false;
	else {
		if (!memcmp(buf, "PERFFILE", 8))
			err = -TP_ERR_OLD_MAGIC;
		goto out_err;
	}
	r->info.big_endian = !le;
	r->info.swapped = le != host_is_le();
	r->dec.swap = r->info.swapped;
	if (tp_ld64((const uint8_t *)buf + 8, r->info.swapped) == PIPE_HEADER_SIZE) {
		r->info.pipe = true;
		r->data_start = PIPE_HEADER_SIZE;
		r->info.data_offset = PIPE_HEADER_SIZE;
		r->info.data_end = len;
		r->info.header_size = PIPE_HEADER_SIZE;
	} else {
		err = open_file(r);
		if (err)
			goto out_err;
	}
	r->pos = r->data_start;
	*out = r;
	return 0;

out_err:
	tp_reader__delete(r);
	return err;
}

void tp_reader__delete(struct tp_reader *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nr_attrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	free(r->ids);
	tp_features__release(&r->feat);
	free(r->dec.scratch);
	free(r);
}

const struct tp_reader_info *tp_reader__info(const struct tp_reader *r) { return &r->info; }
const struct tp_reader_stats *tp_reader__stats(const struct tp_reader *r) { return &r->stats; }
const struct tp_features *tp_reader__features(const struct tp_reader *r) { return &r->feat; }
uint32_t tp_reader__nr_attrs(const struct tp_reader *r) { return r->nr_attrs; }

const struct tp_attr *tp_reader__attr(const struct tp_reader *r, uint32_t i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

bool tp_reader__had_errors(const struct tp_reader *r)
{
	return r->stats.nr_skipped || r->stats.nr_bad_features || r->stats.truncated ||
	       r->stats.unfinished;
}
