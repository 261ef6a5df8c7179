/* SPDX-License-Identifier: MIT */
/* Walking the records: each one is checked and decoded before it is returned; a corrupt one
 * is reported with its offset and skipped, resynchronising on the next plausible header.
 * Records that change the reader (pipe-mode attrs, features, build-ids) are applied the
 * first time they are walked. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/reader-int.h"

static bool known_type(uint32_t t)
{
	return (t >= PERF_RECORD_MMAP && t < PERF_RECORD_MAX) ||
	       (t >= PERF_RECORD_USER_TYPE_START && t < PERF_RECORD_HEADER_MAX);
}

static int fail_id(struct tp_reader *r, uint64_t id)
{
	snprintf(r->dec.why_buf, sizeof(r->dec.why_buf), "sample id %llu matches no event",
		 (unsigned long long)id);
	r->dec.why = r->dec.why_buf;
	return -TP_ERR_UNKNOWN_ID;
}

/* the attr of a kernel record: by its id when there are several attrs */
static int pick_attr(struct tp_reader *r, const struct tp_event *ev, const struct tp_attr **out)
{
	const struct tp_attr *first = r->nr_attrs ? &r->attrs[0] : NULL, *a;
	bool sample = ev->type == PERF_RECORD_SAMPLE;
	uint64_t id;
	int pos;

	*out = first;
	if (!first)
		return sample ? tp_decode__fail(&r->dec, "sample before any event attr") : 0;
	if (r->nr_attrs == 1)
		return 0;
	pos = tp_decode__id_pos(first->attr.sample_type, sample, first->id_hdr_size != 0,
				ev->size);
	if (pos < 0)
		return 0;
	id = tp_ld64(ev->data + pos, r->info.swapped);
	a = tp_reader__attr_by_id(r, id);
	if (a)
		*out = a;
	else if (sample && id)
		return fail_id(r, id);
	return 0;
}

/* decode the record at p (avail bytes to the end of the data) into ev */
static int decode(struct tp_reader *r, const uint8_t *p, uint64_t off, size_t avail,
		  struct tp_event *ev)
{
	const struct tp_attr *attr;
	int err;

	memset(ev, 0, sizeof(*ev));
	ev->offset = off;
	ev->data = p;
	ev->type = tp_ld32(p, r->info.swapped);
	ev->misc = tp_ld16(p + 4, r->info.swapped);
	ev->size = tp_ld16(p + 6, r->info.swapped);
	r->dec.used = 0;
	r->dec.why = "malformed";
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return tp_decode__user(&r->dec, ev, avail);
	err = pick_attr(r, ev, &attr);
	if (err)
		return err;
	if (ev->type == PERF_RECORD_SAMPLE)
		return tp_decode__sample(&r->dec, attr, ev);
	return tp_decode__kernel(&r->dec, attr, ev);
}

int tp_reader__decode(struct tp_reader *r, const uint8_t *data, uint64_t offset,
		      struct tp_event *ev)
{
	if (offset < r->data_start || offset > r->info.data_end ||
	    r->info.data_end - offset < 8 || data != r->buf + offset)
		return -TP_ERR_INVAL;
	return decode(r, data, offset, (size_t)(r->info.data_end - offset), ev);
}

/* a record header worth resuming at: known type, 8-aligned size that fits, decodes */
static bool plausible(struct tp_reader *r, uint64_t pos)
{
	const uint8_t *p = r->buf + pos;
	uint32_t type = tp_ld32(p, r->info.swapped);
	uint16_t size = tp_ld16(p + 6, r->info.swapped);
	struct tp_event ev;

	if (!known_type(type) || type == PERF_RECORD_COMPRESSED ||
	    type == PERF_RECORD_COMPRESSED2 || size < 8 || size % 8 ||
	    size > r->info.data_end - pos)
		return false;
	return decode(r, p, pos, (size_t)(r->info.data_end - pos), &ev) == 0;
}

/* the next plausible record header after pos, 8 bytes at a time; end if there is none */
static uint64_t next_plausible(struct tp_reader *r, uint64_t pos)
{
	uint64_t end = r->info.data_end, p = pos + 8;

	while (p < end && end - p >= 8 && !plausible(r, p))
		p += 8;
	return p < end && end - p >= 8 ? p : end;
}

static void resync(struct tp_reader *r, uint64_t pos, bool fresh, const char *why)
{
	uint64_t end = r->info.data_end, p = next_plausible(r, pos);
	uint32_t type = tp_ld32(r->buf + pos, r->info.swapped);
	uint16_t size = tp_ld16(r->buf + pos + 6, r->info.swapped);

	if (fresh) {
		tp_log__warn(&r->log, "corrupt record at offset %#llx (type %u, size %u): %s: "
			     "skipped %llu bytes, %s %#llx", (unsigned long long)pos, type, size,
			     why, (unsigned long long)(p - pos),
			     p < end ? "resuming at" : "no valid record up to the data end at",
			     (unsigned long long)p);
		r->stats.nr_skipped++;
		r->stats.bytes_skipped += p - pos;
	}
	r->pos = p;
}

/* what a freshly walked record changes in the reader; 0 or a fatal error */
static int apply(struct tp_reader *r, const struct tp_event *ev)
{
	int err = 0;

	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR:
		err = tp_reader__add_attr(r, &ev->u.header_attr.attr, ev->u.header_attr.file_size,
					  ev->u.header_attr.ids, ev->u.header_attr.nr_ids);
		if (!err)	/* in case EVENT_DESC came first */
			tp_reader__name_attrs(r);
		return err;
	case PERF_RECORD_HEADER_FEATURE:
		/* an empty one is the end marker */
		if (!ev->u.feature.size || ev->u.feature.feat_id >= HEADER_FEAT_BITS)
			return 0;
		err = tp_features__parse(&r->feat, (uint32_t)ev->u.feature.feat_id,
					 ev->u.feature.data, ev->u.feature.size, ev->offset + 16,
					 r->info.swapped, &r->log);
		if (err == -TP_ERR_BAD_FEATURE) {
			r->stats.nr_bad_features++;
			err = 0;
		}
		if (ev->u.feature.feat_id == HEADER_EVENT_DESC)
			tp_reader__name_attrs(r);
		return err;
	case PERF_RECORD_HEADER_BUILD_ID:
		err = tp_features__add_build_id(&r->feat, &ev->u.build_id, ev->misc);
		r->feat.present[0] |= 1ULL << HEADER_BUILD_ID;
		return err;
	case PERF_RECORD_HEADER_TRACING_DATA:
		err = tp_features__parse(&r->feat, HEADER_TRACING_DATA, ev->u.tracing_data.data,
					 ev->u.tracing_data.size, ev->offset + ev->size,
					 r->info.swapped, &r->log);
		if (err == -TP_ERR_BAD_FEATURE) {
			r->stats.nr_bad_features++;
			err = 0;
		}
		return err;
	default:
		return 0;
	}
}

/* Ask for the first KiB of the next record (its header, a sample's registers and the top of
 * its stack copy, which the unwinder reads first) while the caller still works on this one:
 * on dwarf-mode recordings those were the reads that most often waited for memory. (Asking
 * for the record's last line too, a stack copy's dyn_size, cost more than it saved: its size
 * must be read first.) */
static void prefetch(const struct tp_reader *r, uint64_t end)
{
	for (uint64_t a = r->pos; a < end && a < r->pos + 1024; a += 64)
		__builtin_prefetch(r->buf + a);
}

int tp_reader__next(struct tp_reader *r, struct tp_event *ev)
{
	for (;;) {
		uint64_t pos = r->pos, end = r->info.data_end, left;
		bool fresh = pos >= r->seen;
		const uint8_t *p = r->buf + pos;
		uint32_t type;
		uint16_t size;
		int err;

		if (r->pos > r->seen)
			r->seen = r->pos;
		if (pos >= end)
			return 0;
		left = end - pos;
		if (left < 8) {
			if (fresh) {
				tp_log__warn(&r->log, "the input ends %llu bytes into a record "
					     "header at offset %#llx: the file is truncated",
					     (unsigned long long)left, (unsigned long long)pos);
				r->stats.truncated = true;
			}
			r->pos = end;
			continue;
		}
		type = tp_ld32(p, r->info.swapped);
		size = tp_ld16(p + 6, r->info.swapped);
		if (size < 8) {
			resync(r, pos, fresh, "size is smaller than a record header");
			continue;
		}
		if (!known_type(type)) {
			resync(r, pos, fresh, "unknown record type");
			continue;
		}
		if (size > left) {
			/* at the end of the input with nothing valid after it: cut short */
			if (end < r->len || next_plausible(r, pos) < end) {
				resync(r, pos, fresh, "size runs past the end of the data");
				continue;
			}
			if (fresh) {
				tp_log__warn(&r->log, "the record at offset %#llx (%s, %u bytes) is "
					     "cut off by the end of the input after %llu bytes: the "
					     "file is truncated", (unsigned long long)pos,
					     tp_record_name(type), size, (unsigned long long)left);
				r->stats.truncated = true;
			}
			r->pos = end;
			continue;
		}
		err = decode(r, p, pos, (size_t)left, ev);
		if (err == -TP_ERR_COMPRESSED) {
			tp_log__error(&r->log, "record at offset %#llx is %s: zstd-compressed "
				      "records are not supported", (unsigned long long)pos,
				      tp_record_name(type));
			return err;
		}
		if (err == -TP_ERR_ATTR_ABI) {
			tp_log__error(&r->log, "ATTR record at offset %#llx: %s",
				      (unsigned long long)pos, r->dec.why);
			return err;
		}
		if (err) {
			if (fresh) {
				tp_log__warn(&r->log, "record at offset %#llx (%s, %u bytes): %s: "
					     "skipped", (unsigned long long)pos,
					     tp_record_name(type), size, r->dec.why);
				r->stats.nr_skipped++;
				r->stats.bytes_skipped += size;
			}
			r->pos = pos + size;
			continue;
		}
		if (fresh) {
			err = apply(r, ev);
			if (err)
				return err;
			r->stats.nr_records++;
		}
		r->pos = pos + size + ev->extra;
		if (r->pos > r->seen)
			r->seen = r->pos;
		prefetch(r, end);
		return 1;
	}
}

void tp_reader__rewind(struct tp_reader *r)
{
	r->pos = r->data_start;
}

void tp_reader__set_mapped(struct tp_reader *r)
{
	r->mapped = true;
}

void tp_reader__release(struct tp_reader *r, uint64_t offset)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t end;

	if (!r->mapped || page <= 0 || offset > r->len)
		return;
	end = offset - offset % (uint64_t)page;	/* the mapping starts on a page */
	/* 4 MiB at a time: each call zaps and flushes the TLB, and the kernel's fault-around
	 * maps 64 KiB blocks, so small releases also drop pages it maps again (at 64 KiB a
	 * dwarf-mode recording's report -g took 8 % longer; its peak RSS is 1.3 MiB more) */
	if (end <= r->released || end - r->released < ((uint64_t)4 << 20))
		return;
	/* a private read-only file mapping: the pages are dropped, not their contents */
	if (!madvise((void *)(uintptr_t)(r->buf + r->released), (size_t)(end - r->released),
		     MADV_DONTNEED))
		r->released = end;
}
