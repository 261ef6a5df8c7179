/* SPDX-License-Identifier: MIT */
/* User-space records (type >= 64, written by perf tools, never by the kernel). HEADER_ATTR and
 * HEADER_FEATURE are only located here; reader.c turns them into attrs and features. */
#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/common/common.h"

int tp_build_id__decode(const uint8_t *rec, size_t size, bool swap, struct tp_ev_build_id *out)
{
	uint16_t misc = tp_ld16(rec + 4, swap);
	struct tp_cur c;
	const uint8_t *id;

	if (size < sizeof(struct perf_record_header_build_id) + 1)
		return -TP_ERR_BAD_RECORD;
	c = tp_cur_make(rec + 8, size - 8, swap);
	out->pid = (int32_t)tp_cur__u32(&c);
	id = tp_cur__take(&c, 24);
	memcpy(out->build_id, id, PERF_BUILD_ID_MAX);
	out->size = (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? id[PERF_BUILD_ID_MAX] :
							       PERF_BUILD_ID_MAX;
	out->filename = tp_cur__str_in(&c, tp_cur__left(&c));
	if (c.bad || out->size > PERF_BUILD_ID_MAX)
		return -TP_ERR_BAD_RECORD;
	return 0;
}

static int id_index(struct tp_decode *d, struct tp_event *ev, struct tp_cur *c)
{
	struct tp_ev_id_index *x = &ev->u.id_index;
	uint64_t left;

	x->nr = tp_cur__u64(c);
	left = tp_cur__left(c) / 8;
	if (x->nr && left / x->nr >= 6 && left == 6 * x->nr)
		x->stride = 6;
	else
		x->stride = 4;
	if (x->nr > left / x->stride)
		return tp_decode__fail(d, "ID_INDEX entries run past the record end");
	x->entries = tp_decode__u64s(d, c, x->nr * x->stride);
	return 0;
}

/* attr.size bytes of attr, then its ids up to the record end */
static int header_attr(struct tp_decode *d, struct tp_event *ev, struct tp_cur *c)
{
	struct tp_ev_header_attr *h = &ev->u.header_attr;
	int err = tp_attr_parse(ev->data + 8, ev->size - 8u, 0, d->swap, &h->attr, &h->file_size,
				d->why_buf, sizeof(d->why_buf));

	if (err) {
		d->why = d->why_buf;
		return err == -TP_ERR_BAD_ATTR ? -TP_ERR_BAD_RECORD : err;
	}
	tp_cur__take(c, h->file_size);
	h->nr_ids = (uint32_t)(tp_cur__left(c) / 8);
	h->ids = tp_decode__u64s(d, c, h->nr_ids);
	return 0;
}

int tp_decode__user(struct tp_decode *d, struct tp_event *ev, size_t avail)
{
	struct tp_cur c = tp_cur_make(ev->data + 8, ev->size - 8u, d->swap);

	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR:
		return header_attr(d, ev, &c);
	case PERF_RECORD_HEADER_TRACING_DATA:
		ev->u.tracing_data.size = tp_cur__u32(&c);
		if (c.bad)
			return tp_decode__fail(d, "TRACING_DATA record too short");
		if (ev->u.tracing_data.size > avail - ev->size)
			return tp_decode__fail(d, "tracing data runs past the end of the input");
		ev->extra = ev->u.tracing_data.size;
		ev->u.tracing_data.data = ev->data + ev->size;
		return 0;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (tp_build_id__decode(ev->data, ev->size, d->swap, &ev->u.build_id))
			return tp_decode__fail(d, "malformed HEADER_BUILD_ID record");
		return 0;
	case PERF_RECORD_ID_INDEX:
		return id_index(d, ev, &c);
	case PERF_RECORD_AUXTRACE:
		ev->u.auxtrace.size = tp_cur__u64(&c);
		ev->u.auxtrace.offset = tp_cur__u64(&c);
		ev->u.auxtrace.reference = tp_cur__u64(&c);
		ev->u.auxtrace.idx = tp_cur__u32(&c);
		ev->u.auxtrace.tid = tp_cur__u32(&c);
		ev->u.auxtrace.cpu = tp_cur__u32(&c);
		if (c.bad)
			return tp_decode__fail(d, "AUXTRACE record too short");
		if (ev->u.auxtrace.size > avail - ev->size)
			return tp_decode__fail(d, "AUXTRACE data runs past the end of the input");
		ev->extra = (uint32_t)ev->u.auxtrace.size;
		if (ev->extra != ev->u.auxtrace.size)
			return tp_decode__fail(d, "AUXTRACE data too large");
		return 0;
	case PERF_RECORD_TIME_CONV: {
		struct tp_ev_time_conv *t = &ev->u.time_conv;

		t->time_shift = tp_cur__u64(&c);
		t->time_mult = tp_cur__u64(&c);
		t->time_zero = tp_cur__u64(&c);
		if (tp_cur__left(&c) >= 24) {
			t->has_cycles = true;
			t->time_cycles = tp_cur__u64(&c);
			t->time_mask = tp_cur__u64(&c);
			t->cap_user_time_zero = tp_cur__u8(&c);
			t->cap_user_time_short = tp_cur__u8(&c);
		}
		return c.bad ? tp_decode__fail(d, "TIME_CONV record too short") : 0;
	}
	case PERF_RECORD_HEADER_FEATURE:
		ev->u.feature.feat_id = tp_cur__u64(&c);
		ev->u.feature.data = ev->data + 16;
		ev->u.feature.size = tp_cur__left(&c);
		return c.bad ? tp_decode__fail(d, "HEADER_FEATURE record too short") : 0;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return -TP_ERR_COMPRESSED;
	default:
		/* the rest carry nothing we use */
		return 0;
	}
}
