/* SPDX-License-Identifier: MIT */
/* One recording session: a perf.data pipe stream in, a regular perf.data out, as the bytes
 * arrive. HEADER_ATTR records become the file's attrs (the file is opened at the first record
 * after them), HEADER_FEATURE, HEADER_BUILD_ID and HEADER_TRACING_DATA become feature
 * sections written at the end, everything else goes to the data section verbatim. A stream
 * in the other byte order gives a file in that byte order (the writer's swap), so records are
 * never rewritten. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/lib/data/data.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/sink.h"
#include "perfdata/writer.h"

#define MAX_ATTRS	256
#define REC_MAX		0xffff
#define CKPT_MS		1000

struct attr_ent {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
};

struct feat_buf {
	uint8_t *data;
	size_t len, cap;
};

struct tp_recv_sess {
	struct tp_recv_conf conf;
	struct tp_recv_info info;
	char err[320];
	int64_t started;		/* wall clock: the file's name */
	int failed;			/* sticky -TP_ERR_* */
	/* the stream */
	bool got_header;
	bool swap;
	size_t have;			/* bytes of rec collected */
	uint64_t blob_left;		/* TRACING_DATA bytes still to come */
	bool blob_skip;			/* ... and dropped (over the budget) */
	uint8_t rec[REC_MAX + 1];
	/* the attrs, until the file is opened */
	struct attr_ent attrs[MAX_ATTRS];
	uint32_t nr_attrs, attr_size;
	/* the file */
	int fd;
	bool open;
	struct tp_sink_fd sink;
	struct tp_writer w;
	int64_t last_ckpt;
	struct feat_buf feat[HEADER_FEAT_BITS];
	size_t meta;			/* feature bytes held */
	bool meta_warned;
	uint32_t more_id;		/* the feature whose next part comes (TP_FEATURE_MISC_MORE) */
	bool more_skip;			/* ... dropped: over the budget */
};

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fail(struct tp_recv_sess *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct tp_recv_sess *s, int err, const char *fmt, ...)
{
	va_list ap;

	if (s->failed)
		return s->failed;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->info.error = s->err;	/* told once, when the session is closed */
	s->failed = err;
	return err;
}

int tp_recv_sess__new(struct tp_recv_sess **out, const struct tp_recv_conf *conf,
		      const struct tp_hello *hello, const char *origin)
{
	struct tp_recv_sess *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -TP_ERR_NOMEM;
	s->conf = *conf;
	if (!s->conf.meta_max)
		s->conf.meta_max = TP_RECV_META_MAX;
	s->info.hello = *hello;
	tp_recv_sanitize(s->info.device, sizeof(s->info.device), hello->device, "unknown");
	snprintf(s->info.origin, sizeof(s->info.origin), "%s", origin);
	s->started = time(NULL);
	s->fd = -1;
	*out = s;
	return 0;
}

struct tp_recv_info *tp_recv_sess__info(struct tp_recv_sess *s)
{
	return &s->info;
}

/* ---- feature sections, kept in the stream's byte order ---- */

static int feat_append(struct tp_recv_sess *s, uint32_t id, const void *p, size_t n)
{
	struct feat_buf *f = &s->feat[id];

	if (n > s->conf.meta_max - s->meta) {
		if (!s->meta_warned)
			tp_log__warn(s->conf.log, "%s: header sections past %zu bytes are dropped "
				     "(feature %u first)", s->info.origin, s->conf.meta_max, id);
		s->meta_warned = true;
		return -1;
	}
	if (TP_GROW(f->data, f->cap, f->len + n, 256))
		return fail(s, -TP_ERR_NOMEM, "out of memory");
	memcpy(f->data + f->len, p, n);
	f->len += n;
	s->meta += n;
	return 0;
}

static void feat_drop(struct tp_recv_sess *s, uint32_t id)
{
	s->meta -= s->feat[id].len;
	s->feat[id].len = 0;
}

/* ---- the file ---- */

static int open_file(struct tp_recv_sess *s)
{
	struct tp_writer_attr wa[MAX_ATTRS];
	int e;

	if (!s->nr_attrs)
		return fail(s, -TP_ERR_NO_ATTRS, "records came before any event attribute");
	e = tp_recv_create(s->conf.dirfd, s->info.device, s->info.hello.session, s->started,
			   s->info.path, sizeof(s->info.path));
	if (e < 0)
		return fail(s, e, "cannot create a file in %s/: %s", s->info.device,
			    tp_strerror(e));
	s->fd = e;
	tp_sink_fd__init(&s->sink, s->fd, true);
	for (uint32_t i = 0; i < s->nr_attrs; i++) {
		wa[i].attr = &s->attrs[i].attr;
		wa[i].name = NULL;
		wa[i].ids = s->attrs[i].ids;
		wa[i].nr_ids = s->attrs[i].nr_ids;
	}
	e = tp_writer__open(&s->w, &s->sink.sink, TP_WRITER_FILE, s->swap, wa, s->nr_attrs,
			    s->attr_size);
	if (e) {
		fail(s, e, "cannot write %s: %s", s->info.path, tp_strerror(e));
		close(s->fd);
		unlinkat(s->conf.dirfd, s->info.path, 0);
		s->info.path[0] = 0;
		return s->failed;
	}
	s->open = true;
	s->last_ckpt = mono_ms();
	if (s->conf.on_event)
		s->conf.on_event(s->conf.ctx, TP_RECV_STARTED, &s->info);
	return 0;
}

static int add_data(struct tp_recv_sess *s, const uint8_t *p, size_t n, uint64_t records,
		    uint64_t samples)
{
	int e;

	if (s->conf.dirfd < 0) {	/* a live view only: nothing to write */
		s->info.records += records;
		s->info.samples += samples;
		return 0;
	}
	if (!s->open && open_file(s))
		return s->failed;
	e = tp_writer__add(&s->w, p, n);
	if (e)
		return fail(s, e, "cannot write %s: %s", s->info.path, tp_strerror(e));
	s->info.records += records;
	s->info.samples += samples;
	if (mono_ms() - s->last_ckpt >= CKPT_MS) {
		/* a killed recv still leaves a file that reads up to here */
		tp_writer__checkpoint(&s->w);
		s->last_ckpt = mono_ms();
	}
	return 0;
}

/* ---- records ---- */

static int add_attr(struct tp_recv_sess *s, const uint8_t *rec, size_t size)
{
	struct attr_ent *a;
	uint32_t fsize;
	char why[128];
	size_t nr;
	int e;

	if (s->open) {
		tp_log__warn(s->conf.log, "%s: an event attribute after the data is ignored",
			     s->info.origin);
		return 0;
	}
	if (s->nr_attrs == MAX_ATTRS)
		return fail(s, -TP_ERR_BAD_ATTR, "more than %d event attributes", MAX_ATTRS);
	a = &s->attrs[s->nr_attrs];
	e = tp_attr_parse(rec + 8, size - 8, 0, s->swap, &a->attr, &fsize, why, sizeof(why));
	if (e)
		return fail(s, e, "bad event attribute: %s", why);
	nr = (size - 8 - fsize) / 8;
	a->ids = calloc(nr ? nr : 1, sizeof(*a->ids));
	if (!a->ids)
		return fail(s, -TP_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++)
		a->ids[i] = tp_ld64(rec + 8 + fsize + 8 * i, s->swap);
	a->nr_ids = (uint32_t)nr;
	if (fsize > sizeof(struct perf_event_attr))
		fsize = sizeof(struct perf_event_attr);
	if (fsize > s->attr_size)
		s->attr_size = fsize;
	s->nr_attrs++;
	return 0;
}

static int add_feature(struct tp_recv_sess *s, const uint8_t *rec, size_t size)
{
	uint64_t id;
	bool part;

	if (size < 16)
		return fail(s, -TP_ERR_BAD_RECORD, "a HEADER_FEATURE record of %zu bytes", size);
	id = tp_ld64(rec + 8, s->swap);
	if (size == 16) {
		s->info.complete = true;	/* the writer's end marker */
		return 0;
	}
	if (!id || id >= HEADER_FEAT_BITS || id == HEADER_BUILD_ID || id == HEADER_TRACING_DATA)
		return 0;
	/* tinyperf's own sections come in parts when they are over 64 KiB */
	part = s->more_id == id;
	s->more_id = id >= TP_FEAT_FIRST && tp_ld16(rec + 4, s->swap) & TP_FEATURE_MISC_MORE ?
		     (uint32_t)id : 0;
	if (!part) {
		feat_drop(s, (uint32_t)id);	/* sent again: the last one counts */
		s->more_skip = false;
	}
	if (!s->more_skip && feat_append(s, (uint32_t)id, rec + 16, size - 16)) {
		feat_drop(s, (uint32_t)id);	/* no part of it, rather than a broken one */
		s->more_skip = true;
	}
	return s->failed;
}

static int record(struct tp_recv_sess *s, const uint8_t *rec, size_t size)
{
	uint32_t type = tp_ld32(rec, s->swap);

	if (s->conf.on_record)
		s->conf.on_record(s->conf.ctx, rec, size, s->swap);
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		return add_attr(s, rec, size);
	case PERF_RECORD_HEADER_FEATURE:
		return add_feature(s, rec, size);
	case PERF_RECORD_HEADER_BUILD_ID:
		feat_append(s, HEADER_BUILD_ID, rec, size);
		return s->failed;
	case PERF_RECORD_HEADER_TRACING_DATA:
		s->blob_left = tp_ld32(rec + 8, s->swap);
		feat_drop(s, HEADER_TRACING_DATA);
		s->blob_skip = s->blob_left > s->conf.meta_max - s->meta;
		if (s->blob_skip && !s->meta_warned)
			tp_log__warn(s->conf.log, "%s: tracing data of %llu bytes dropped: over "
				     "%zu bytes of headers", s->info.origin,
				     (unsigned long long)s->blob_left, s->conf.meta_max);
		s->meta_warned |= s->blob_skip;
		return 0;
	case PERF_RECORD_HEADER_EVENT_TYPE:
		return 0;
	}
	return add_data(s, rec, size, 1, type == PERF_RECORD_SAMPLE);
}

/* a record type that can be in a stream: kernel types and perf's user types */
static bool type_ok(uint32_t type)
{
	return type && type < PERF_RECORD_HEADER_MAX;
}

static bool plain(uint32_t type)
{
	return type != PERF_RECORD_HEADER_ATTR && type != PERF_RECORD_HEADER_FEATURE &&
	       type != PERF_RECORD_HEADER_BUILD_ID && type != PERF_RECORD_HEADER_TRACING_DATA &&
	       type != PERF_RECORD_HEADER_EVENT_TYPE;
}

/* whole ordinary records at p go to the file in one write; how many bytes that took */
static size_t fast_path(struct tp_recv_sess *s, const uint8_t *p, size_t len)
{
	uint64_t records = 0, samples = 0;
	size_t off = 0;

	while (len - off >= 8) {
		uint32_t type = tp_ld32(p + off, s->swap);
		uint16_t size = tp_ld16(p + off + 6, s->swap);

		if (!plain(type) || !type_ok(type) || size < 8 || size > len - off)
			break;
		records++;
		samples += type == PERF_RECORD_SAMPLE;
		if (s->conf.on_record)
			s->conf.on_record(s->conf.ctx, p + off, size, s->swap);
		off += size;
	}
	if (off && add_data(s, p, off, records, samples))
		return 0;
	return off;
}

int tp_recv_sess__feed(struct tp_recv_sess *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (s->failed)
		return s->failed;
	s->info.bytes += len;
	/* until nothing more can be done with what there is: a whole record may be waiting
	 * to be taken even when all the bytes were used */
	for (;;) {
		size_t need, k;

		if (s->blob_left) {
			if (!len)
				break;
			k = (size_t)(s->blob_left < len ? s->blob_left : len);
			if (!s->blob_skip && feat_append(s, HEADER_TRACING_DATA, p, k)) {
				s->blob_skip = true;
				feat_drop(s, HEADER_TRACING_DATA);
			}
			p += k;
			len -= k;
			s->blob_left -= k;
			continue;
		}
		if (s->got_header && !s->have && len && (k = fast_path(s, p, len))) {
			p += k;
			len -= k;
			continue;
		}
		if (s->failed)
			return s->failed;
		if (!s->got_header) {
			need = 16;
		} else if (s->have < 8) {
			need = 8;
		} else {
			uint32_t type = tp_ld32(s->rec, s->swap);

			need = tp_ld16(s->rec + 6, s->swap);
			if (need < 8 || !type_ok(type) ||
			    (type == PERF_RECORD_HEADER_TRACING_DATA && need < 12))
				return fail(s, -TP_ERR_BAD_RECORD, "corrupt record (type %u, size %zu) "
					    "after %llu bytes", type, need,
					    (unsigned long long)(s->info.bytes - len));
		}
		if (s->have < need) {
			if (!len)
				break;
			k = need - s->have < len ? need - s->have : len;
			memcpy(s->rec + s->have, p, k);
			s->have += k;
			p += k;
			len -= k;
			continue;
		}
		s->have = 0;
		if (!s->got_header) {
			uint64_t magic = tp_ld64(s->rec, false);

			s->swap = magic == PERF_MAGIC2_SWAPPED;
			if ((magic != PERF_MAGIC2 && !s->swap) || tp_ld64(s->rec + 8, s->swap) != 16)
				return fail(s, -TP_ERR_BAD_MAGIC, "not a perf.data pipe stream");
			s->info.swapped = s->swap;
			s->got_header = true;
			continue;
		}
		if (record(s, s->rec, need))
			return s->failed;
	}
	return 0;
}

void tp_recv_sess__resync(struct tp_recv_sess *s)
{
	if (s->blob_left)
		feat_drop(s, HEADER_TRACING_DATA);
	s->blob_left = 0;
	s->have = 0;
	s->info.resyncs++;
}

void tp_recv_sess__close(struct tp_recv_sess *s, const char *why)
{
	struct tp_feat feats[HEADER_FEAT_BITS];
	unsigned n = 0;

	if (why && !s->info.error) {
		snprintf(s->err, sizeof(s->err), "%s", why);
		s->info.error = s->err;
	}
	if ((s->have || s->blob_left) && !s->info.error) {
		snprintf(s->err, sizeof(s->err), "it stopped inside a record");
		s->info.error = s->err;
	}
	if (s->blob_left)
		feat_drop(s, HEADER_TRACING_DATA);
	/* attrs but no data yet: still a file, with no samples */
	if (!s->open && s->nr_attrs && !s->failed && s->conf.dirfd >= 0)
		open_file(s);
	if (s->open) {
		int e;

		for (uint32_t id = 1; id < HEADER_FEAT_BITS; id++)
			if (s->feat[id].len)
				feats[n++] = (struct tp_feat){ id, s->feat[id].data, s->feat[id].len };
		e = s->w.err ? s->w.err : tp_writer__close(&s->w, feats, n);
		if (e) {
			snprintf(s->err, sizeof(s->err), "cannot finish %s: %s", s->info.path,
				 tp_strerror(e));
			s->info.error = s->err;
		}
		close(s->fd);
	} else {
		s->info.path[0] = 0;
	}
	if (s->conf.on_event)
		s->conf.on_event(s->conf.ctx, TP_RECV_FINISHED, &s->info);
	for (uint32_t i = 0; i < s->nr_attrs; i++)
		free(s->attrs[i].ids);
	for (uint32_t id = 0; id < HEADER_FEAT_BITS; id++)
		free(s->feat[id].data);
	free(s);
}
