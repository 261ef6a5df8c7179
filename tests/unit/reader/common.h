/* SPDX-License-Identifier: MIT */
/* Shared by the parts of test-reader (one translation unit: test-reader.c includes them).
 * Recordings are made with perfdata/'s writer and record encoders, in either byte order and
 * mode, so the reader is checked against the writer the recorder uses; what the writer never
 * produces (odd attr sizes, 32-bit bitmaps, every sample field, corruption) is patched in or
 * built by hand here. */
#ifndef TINYPERF_TESTS_READER_COMMON_H
#define TINYPERF_TESTS_READER_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/error.h"
#include "host-tools/lib/data/reader.h"
#include "host-tools/lib/session/session.h"
#include "perfdata/bswap.h"
#include "perfdata/features.h"
#include "perfdata/records.h"
#include "perfdata/sink.h"
#include "perfdata/writer.h"
#include "../check.h"

/* ---- a growing memory sink ---- */
struct mem {
	struct tp_sink sink;
	uint8_t *buf;
	size_t len, cap;
};

static int mem_write(struct tp_sink *s, const void *p, size_t n)
{
	struct mem *m = (struct mem *)s;

	if (m->len + n > m->cap) {
		size_t cap = 2 * (m->len + n) + 4096;
		uint8_t *b = realloc(m->buf, cap);

		if (!b)
			return -1;
		m->buf = b;
		m->cap = cap;
	}
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	return 0;
}

static int mem_pwrite(struct tp_sink *s, const void *p, size_t n, uint64_t off)
{
	struct mem *m = (struct mem *)s;

	if (off > m->len || n > m->len - off)
		return -1;
	memcpy(m->buf + off, p, n);
	return 0;
}

static void mem_init(struct mem *m, bool seekable)
{
	memset(m, 0, sizeof(*m));
	m->sink.write = mem_write;
	m->sink.pwrite = seekable ? mem_pwrite : NULL;
}

/* ---- byte-order helpers for patching ---- */
static void put16(uint8_t *p, uint16_t v, bool swap)
{
	v = swap ? tp_bswap16(v) : v;
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v, bool swap)
{
	v = swap ? tp_bswap32(v) : v;
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v, bool swap)
{
	v = swap ? tp_bswap64(v) : v;
	memcpy(p, &v, 8);
}

/* "PERFILE2" as a writer of the host's (or the other) byte order stores it */
static const char *magic(bool swap)
{
	const uint16_t one = 1;
	bool le = *(const uint8_t *)&one == 1;

	return le != swap ? "PERFILE2" : "2ELIFREP";
}

/* ---- log capture: warnings and errors appended to one string ---- */
struct logbuf {
	char text[8192];
	size_t len;
	unsigned warnings, errors;
};

static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	struct logbuf *l = ctx;
	int n;

	if (level == TP_LOG_WARN)
		l->warnings++;
	else if (level == TP_LOG_ERROR)
		l->errors++;
	else
		return;
	n = snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s\n", msg);
	if (n > 0 && l->len + (size_t)n < sizeof(l->text))
		l->len += (size_t)n;
}

static bool has(const struct logbuf *l, const char *words)
{
	return strstr(l->text, words) != NULL;
}

static struct tp_log make_log(struct logbuf *l)
{
	memset(l, 0, sizeof(*l));
	return (struct tp_log){ log_fn, l };
}

/* ---- the standard recording ---- */
#define PID	100
#define CHILD	101
#define MAP_START	0x400000ULL
#define MAP_LEN		0x10000ULL
#define MAP_PGOFF	0x1000ULL
#define KTEXT		0xffffffff81000000ULL

struct rec_opts {
	enum tp_writer_mode mode;
	bool swap;
	uint32_t attr_size;		/* 0: VER5 */
};

/* both events: the trailer fields TID, TIME, CPU, IDENTIFIER (32 bytes) */
static struct perf_event_attr std_attr(uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = PERF_ATTR_SIZE_VER5;
	a.config = config;
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER;
	a.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_MMAP | PERF_ATTR_FLAG_COMM |
		  PERF_ATTR_FLAG_FREQ | PERF_ATTR_FLAG_SAMPLE_ID_ALL | PERF_ATTR_FLAG_MMAP2 |
		  PERF_ATTR_FLAG_COMM_EXEC | PERF_ATTR_FLAG_EXCLUDE_GUEST | PERF_ATTR_PRECISE_IP(2);
	a.sample_max_stack = 127;
	return a;
}

static const uint64_t ids_a[] = { 10, 11 }, ids_b[] = { 20 };
static const uint8_t prog_id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				     11, 12, 13, 14, 15, 16 };
static const uint8_t kern_id[20] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
				     0xbb, 0xcc, 0xdd, 0xee, 0xff, 0, 1, 2, 3, 4 };

/* Fill the sample_id trailer of the record just encoded at rec (len bytes) for attr a. */
static void trailer(uint8_t *rec, int len, bool swap, uint32_t pid, uint64_t time, uint64_t id)
{
	uint8_t *t = rec + len - 32;

	put32(t, pid, swap);
	put32(t + 4, pid, swap);
	put64(t + 8, time, swap);
	put32(t + 16, 1, swap);		/* cpu */
	put32(t + 20, 0, swap);
	put64(t + 24, id, swap);
}

/* the records of the standard recording (see std_recording) into buf; returns the length */
static size_t std_records(uint8_t *buf, size_t cap, bool swap)
{
	struct perf_event_attr a = std_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct tp_rec_fmt fmt = { tp_id_hdr_size(a.sample_type), swap };
	static const uint64_t chain[] = { PERF_CONTEXT_USER, MAP_START + 0x100,
					  MAP_START + 0x200 };
	struct tp_mmap2 m2 = { .pid = PID, .tid = PID, .addr = MAP_START, .len = MAP_LEN,
			       .pgoff = MAP_PGOFF, .build_id = prog_id, .build_id_size = 20,
			       .prot = 5, .flags = 2, .filename = "/bin/prog" };
	struct tp_sample s = { .callchain = chain, .nr_callchain = 3, .period = 4000, .cpu = 1 };
	size_t n = 0;
	int len;

#define ADD(call) do { len = (call); if (len < 0) return 0; n += (size_t)len; } while (0)
	ADD(tp_rec__mmap(buf + n, cap - n, &fmt, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0, KTEXT,
			 0x1000000, KTEXT, "[kernel.kallsyms]_text"));
	ADD(tp_rec__comm(buf + n, cap - n, &fmt, PID, PID, "prog", false));
	ADD(tp_rec__mmap2(buf + n, cap - n, &fmt, PERF_RECORD_MISC_USER, &m2));
	trailer(buf + n - len, len, swap, PID, 50, 10);
	ADD(tp_rec__finished_round(buf + n, cap - n, &fmt));
	/* three samples out of time order within the round */
	s.pid = s.tid = PID;
	s.id = 10, s.ip = MAP_START + 0x100, s.time = 300;
	ADD(tp_rec__sample(buf + n, cap - n, &fmt, a.sample_type, PERF_RECORD_MISC_USER, &s));
	s.id = 20, s.ip = MAP_START + 0x200, s.time = 100;
	ADD(tp_rec__sample(buf + n, cap - n, &fmt, a.sample_type, PERF_RECORD_MISC_USER, &s));
	s.id = 11, s.ip = KTEXT + 0x1000, s.time = 200;
	ADD(tp_rec__sample(buf + n, cap - n, &fmt, a.sample_type, PERF_RECORD_MISC_KERNEL, &s));
	/* a child process inherits the map and, as in perf, keeps it across its exec */
	ADD(tp_rec__fork(buf + n, cap - n, &fmt, CHILD, PID, CHILD, PID, 400));
	trailer(buf + n - len, len, swap, CHILD, 400, 10);
	s.pid = s.tid = CHILD;
	s.id = 10, s.ip = MAP_START + 0x300, s.time = 500;
	ADD(tp_rec__sample(buf + n, cap - n, &fmt, a.sample_type, PERF_RECORD_MISC_USER, &s));
	ADD(tp_rec__comm(buf + n, cap - n, &fmt, CHILD, CHILD, "other", true));
	trailer(buf + n - len, len, swap, CHILD, 600, 10);
	s.time = 700;
	ADD(tp_rec__sample(buf + n, cap - n, &fmt, a.sample_type, PERF_RECORD_MISC_USER, &s));
	ADD(tp_rec__finished_round(buf + n, cap - n, &fmt));
	ADD(tp_rec__exit(buf + n, cap - n, &fmt, CHILD, PID, CHILD, PID, 800));
	trailer(buf + n - len, len, swap, CHILD, 800, 10);
#undef ADD
	return n;
}

#define STD_SAMPLES	5
#define STD_RECORDS	13

/* A whole recording: 2 events (cpu-clock ids 10, 11; task-clock id 20), kernel MMAP, COMM,
 * MMAP2 with a build-id, samples, FORK, COMM exec, EXIT, and the usual features. The caller
 * frees m->buf. Returns 0 or the writer's error. */
static int std_recording(struct mem *m, const struct rec_opts *o)
{
	struct perf_event_attr a = std_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr b = std_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint32_t attr_size = o->attr_size ? o->attr_size : PERF_ATTR_SIZE_VER5;
	const struct tp_writer_attr wa[2] = { { &a, "cpu-clock", ids_a, 2 },
					      { &b, "task-clock", ids_b, 1 } };
	static const char *const argv[] = { "tinyperf", "record", "-g" };
	static const char info[] = "key\0value";
	struct tp_build_id bids[2] = { { PERF_RECORD_MISC_USER, prog_id, 20, "/bin/prog" },
				       { PERF_RECORD_MISC_KERNEL, kern_id, 20,
					 "[kernel.kallsyms]" } };
	static uint8_t recs[4096], fmem[8192];
	struct tp_feat feats[12];
	struct tp_writer w;
	struct tp_fbuf f;
	unsigned nr = 0;
	size_t n;
	int err;

	mem_init(m, o->mode == TP_WRITER_FILE);
	err = tp_writer__open(&w, &m->sink, o->mode, o->swap, wa, 2, attr_size);
	if (err)
		return err;
	n = std_records(recs, sizeof(recs), o->swap);
	if (!n)
		return -1;
	err = tp_writer__add(&w, recs, n);
	tp_writer__fbuf(&w, &f, fmem, sizeof(fmem));
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_HOSTNAME, "testhost");
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_OSRELEASE, "6.1.0-test");
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_ARCH, "mips");
	err = err ? err : tp_feat__nrcpus(&f, &feats[nr++], 4, 2);
	err = err ? err : tp_feat__total_mem(&f, &feats[nr++], 123456);
	err = err ? err : tp_feat__cmdline(&f, &feats[nr++], 3, argv);
	err = err ? err : tp_feat__event_desc(&f, &feats[nr++], wa, 2, attr_size);
	err = err ? err : tp_feat__sample_time(&f, &feats[nr++], 100, 700);
	err = err ? err : tp_feat__build_id(&f, &feats[nr++], bids, 2);
	if (err)
		return err;
	{	/* tinyperf's text hash of a DSO without a build-id */
		size_t start = f.len;

		tp_fbuf__u32(&f, 1);
		tp_fbuf__u64(&f, 0x1122334455667788ULL);
		tp_fbuf__string(&f, "/lib/nobuildid.so");
		if (tp_fbuf__err(&f))
			return tp_fbuf__err(&f);
		tp_feat__blob(&feats[nr++], TP_FEAT_TEXT_HASH, f.buf + start, f.len - start);
	}
	tp_feat__blob(&feats[nr++], TP_FEAT_RECORD_INFO, info, sizeof(info));
	return tp_writer__close(&w, feats, nr);
}

/* a reader on buf with a capturing log; NULL (and err set) on failure */
static struct tp_reader *open_reader(const void *buf, size_t len, struct logbuf *l, int *err)
{
	struct tp_log log = make_log(l);
	struct tp_reader *r = NULL;

	*err = tp_reader__new(&r, buf, len, &log);
	return r;
}

/* walk every record; returns how many, or the fatal error */
static long walk(struct tp_reader *r, unsigned *samples)
{
	struct tp_event ev;
	long n = 0;
	int rc;

	*samples = 0;
	while ((rc = tp_reader__next(r, &ev)) > 0) {
		n++;
		*samples += ev.type == PERF_RECORD_SAMPLE;
	}
	return rc < 0 ? rc : n;
}

#endif
