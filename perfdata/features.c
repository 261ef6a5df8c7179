/* SPDX-License-Identifier: MIT */
/* Feature payload encoders; perf's reader is the spec for each (header.c process_*). */
#include "libc-shim/shim.h"
#include "perfdata/features.h"

/* describe what was appended since `start`, or report the sticky error (one copy: every
 * encoder ends with it) */
static TP_NOINLINE int done(struct tp_fbuf *f, struct tp_feat *out, uint32_t id, size_t start)
{
	if (f->err)
		return f->err;
	out->id = id;
	out->data = f->buf + start;
	out->size = f->len - start;
	return 0;
}

int tp_feat__string(struct tp_fbuf *f, struct tp_feat *out, uint32_t id, const char *s)
{
	size_t start = f->len;

	tp_fbuf__string(f, s);
	return done(f, out, id, start);
}

int tp_feat__nrcpus(struct tp_fbuf *f, struct tp_feat *out, uint32_t avail, uint32_t online)
{
	size_t start = f->len;

	tp_fbuf__u32(f, avail);
	tp_fbuf__u32(f, online);
	return done(f, out, HEADER_NRCPUS, start);
}

int tp_feat__total_mem(struct tp_fbuf *f, struct tp_feat *out, uint64_t kb)
{
	size_t start = f->len;

	tp_fbuf__u64(f, kb);
	return done(f, out, HEADER_TOTAL_MEM, start);
}

int tp_feat__cmdline(struct tp_fbuf *f, struct tp_feat *out, uint32_t argc,
		     const char *const *argv)
{
	size_t start = f->len;

	tp_fbuf__string_list(f, argv, argc);
	return done(f, out, HEADER_CMDLINE, start);
}

int tp_feat__event_desc(struct tp_fbuf *f, struct tp_feat *out,
			const struct tp_writer_attr *attrs, uint32_t nr, uint32_t attr_size)
{
	size_t start = f->len;

	/* perf stops reading events at an attr.size of 0: tp_fbuf__attr stores attr_size */
	if (attr_size < PERF_ATTR_SIZE_VER0)
		return -TP_EINVAL;
	tp_fbuf__u32(f, nr);
	tp_fbuf__u32(f, attr_size);
	for (uint32_t i = 0; i < nr; i++) {
		tp_fbuf__attr(f, attrs[i].attr, attr_size);
		tp_fbuf__u32(f, attrs[i].nr_ids);
		tp_fbuf__string(f, attrs[i].name ? attrs[i].name : "");
		tp_fbuf__u64_array(f, attrs[i].ids, attrs[i].nr_ids);
	}
	return done(f, out, HEADER_EVENT_DESC, start);
}

int tp_feat__sample_time(struct tp_fbuf *f, struct tp_feat *out, uint64_t first, uint64_t last)
{
	size_t start = f->len;

	tp_fbuf__u64(f, first);
	tp_fbuf__u64(f, last);
	return done(f, out, HEADER_SAMPLE_TIME, start);
}

int tp_fbuf__build_id(struct tp_fbuf *f, const struct tp_build_id *b)
{
	size_t name_len = strlen(b->filename);
	size_t size = TP_ALIGN(sizeof(struct perf_record_header_build_id) + name_len + 1,
			       (size_t)8);
	uint8_t *p;

	if (!b->size || b->size > PERF_BUILD_ID_MAX || size > 0xffff)
		return -TP_EINVAL;
	p = tp_fbuf__zero(f, size);		/* all or nothing */
	if (p) {
		struct perf_event_header head = {
			PERF_RECORD_HEADER_BUILD_ID,
			(uint16_t)(b->cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE), (uint16_t)size
		};

		if (tp_fbuf__swaps(f)) {	/* the head in f's byte order */
			struct tp_fbuf h;

			tp_fbuf__init(&h, p, 8, f->swap);
			tp_fbuf__header(&h, head.type, head.misc, head.size);
		} else {
			memcpy(p, &head, sizeof(head));
		}
		memset(p + 8, 0xff, 4);		/* pid -1 (either order): the host machine */
		/* then id[20], size, reserved, filename, padding */
		memcpy(p + 12, b->id, b->size);
		p[12 + PERF_BUILD_ID_MAX] = b->size;
		memcpy(p + 36, b->filename, name_len);
	}
	return f->err;
}

int tp_feat__build_id(struct tp_fbuf *f, struct tp_feat *out, const struct tp_build_id *ids,
		      uint32_t nr)
{
	size_t start = f->len;

	for (uint32_t i = 0; i < nr; i++) {
		int err = tp_fbuf__build_id(f, &ids[i]);

		if (err)
			return err;
	}
	return done(f, out, HEADER_BUILD_ID, start);
}

TP_NOINLINE void tp_feat__blob(struct tp_feat *out, uint32_t id, const void *data, size_t size)
{
	out->id = id;
	out->data = data;
	out->size = size;
}
