/* SPDX-License-Identifier: MIT */
/* Pipe-mode framing: pipe header, HEADER_ATTR records, features as HEADER_FEATURE records
 * early and late (each once), build-id and tracing-data records, what is left out, the end
 * marker, and the same stream byte-swapped. */
#include "common.h"

/* one record as the stream walk sees it */
struct seen {
	uint32_t type;
	uint16_t size;
	uint64_t feat_id;	/* HEADER_FEATURE */
	uint32_t extra;		/* HEADER_TRACING_DATA: out-of-band bytes */
	size_t at;
};

/* Walks the stream by header.size, following HEADER_TRACING_DATA's out-of-band blob.
 * Returns the number of records, or -1 if the walk does not end exactly at len. */
static int walk(const uint8_t *b, size_t len, bool swap, struct seen *out, int max)
{
	size_t at = 16;
	int n = 0;

	while (at + 8 <= len && n < max) {
		struct seen *s = &out[n++];

		s->at = at;
		s->type = rd32(b + at, swap);
		s->size = rd16(b + at + 6, swap);
		s->feat_id = s->type == PERF_RECORD_HEADER_FEATURE ? rd64(b + at + 8, swap) : 0;
		s->extra = s->type == PERF_RECORD_HEADER_TRACING_DATA ? rd32(b + at + 8, swap) : 0;
		if (s->size < 8)
			return -1;
		at += s->size + s->extra;
	}
	return at == len ? n : -1;
}

struct pipe_run {
	struct perf_event_attr attr[2];
	struct tp_writer_attr wattrs[2];
	uint8_t fmem[1024];
	struct mem_sink sink;
	struct tp_writer w;
};

static const uint8_t trace_blob[13] = "\027\010Dtracing0";

static int build_pipe(struct pipe_run *r, bool swap, bool private)
{
	static const uint8_t id[20] = { 1, 2, 3 };
	struct tp_build_id bids[2] = { { PERF_RECORD_MISC_KERNEL, id, 20, "[kernel.kallsyms]" },
				       { PERF_RECORD_MISC_USER, id, 3, "/bin/sh" } };
	struct tp_feat early[4], late[4];
	struct tp_rec_fmt fmt = { .id_hdr_size = 16, .swap = swap };
	struct tp_sample s = { .ip = 0x1000, .pid = 1, .tid = 1, .time = 5, .period = 1 };
	uint8_t rec[64];
	struct tp_fbuf f;
	int err, len;

	memset(r, 0, sizeof(*r));
	r->attr[0] = test_attr();
	r->attr[1] = test_attr();
	r->wattrs[0] = (struct tp_writer_attr){ &r->attr[0], "cpu-clock", ids0, 2 };
	r->wattrs[1] = (struct tp_writer_attr){ &r->attr[1], "cpu-clock", ids1, 1 };
	mem_sink_init(&r->sink, false);
	err = tp_writer__open(&r->w, &r->sink.sink, TP_WRITER_PIPE, swap, r->wattrs, 2, ATTR_SIZE);
	if (err)
		return err;
	r->w.pipe_private = private;

	tp_writer__fbuf(&r->w, &f, r->fmem, sizeof(r->fmem));
	err = tp_feat__string(&f, &early[0], HEADER_HOSTNAME, "box");
	err = err ? err : tp_feat__string(&f, &early[1], HEADER_ARCH, "x86_64");
	tp_feat__blob(&early[2], HEADER_BRANCH_STACK, NULL, 0);	/* never in a pipe */
	tp_feat__blob(&early[3], TP_FEAT_RECORD_INFO, "k\0v\0", 4);
	err = err ? err : tp_writer__pipe_features(&r->w, early, 4);
	if (err)
		return err;

	len = tp_rec__sample(rec, sizeof(rec), &fmt, r->attr[0].sample_type, 0, &s);
	err = len < 0 ? len : tp_writer__add(&r->w, rec, (size_t)len);
	err = err ? err : tp_writer__finished_round(&r->w);

	late[0] = early[0];			/* already sent: skipped */
	err = err ? err : tp_feat__build_id(&f, &late[1], bids, 2);
	tp_feat__blob(&late[2], HEADER_TRACING_DATA, trace_blob, sizeof(trace_blob));
	err = err ? err : tp_feat__sample_time(&f, &late[3], 5, 5);
	return err ? err : tp_writer__close(&r->w, late, 4);
}

static void check_stream(struct tcase *c, const struct pipe_run *r, bool swap, bool private)
{
	const uint8_t *b = r->sink.buf;
	struct seen s[16];
	const struct { uint32_t type; uint64_t feat; uint16_t size; } want[] = {
		{ PERF_RECORD_HEADER_ATTR, 0, 8 + ATTR_SIZE + 16 },
		{ PERF_RECORD_HEADER_ATTR, 0, 8 + ATTR_SIZE + 8 },
		{ PERF_RECORD_HEADER_FEATURE, HEADER_HOSTNAME, 16 + 72 },
		{ PERF_RECORD_HEADER_FEATURE, HEADER_ARCH, 16 + 72 },
		{ PERF_RECORD_HEADER_FEATURE, TP_FEAT_RECORD_INFO, 16 + 8 },	/* if private */
		{ PERF_RECORD_SAMPLE, 0, 40 },
		{ PERF_RECORD_FINISHED_ROUND, 0, 8 },
		{ PERF_RECORD_HEADER_BUILD_ID, 0, 56 },
		{ PERF_RECORD_HEADER_BUILD_ID, 0, 48 },
		{ PERF_RECORD_HEADER_TRACING_DATA, 0, 12 },
		{ PERF_RECORD_HEADER_FEATURE, HEADER_SAMPLE_TIME, 16 + 16 },
		{ PERF_RECORD_HEADER_FEATURE, TP_PIPE_END_FEATURE, 16 },
	};
	int n = walk(b, r->sink.len, swap, s, 16), k = 0;

	EXPECT(c, "pipe magic", PERF_MAGIC2, rd64(b, swap));
	EXPECT(c, "pipe header size", 16, rd64(b + 8, swap));
	EXPECT(c, "records walk to the end of the stream", (int)ARRAY_SIZE(want) - !private, n);
	for (size_t i = 0; i < ARRAY_SIZE(want) && k < n; i++) {
		if (want[i].feat == TP_FEAT_RECORD_INFO && !private)
			continue;
		EXPECT(c, "record type", want[i].type, s[k].type);
		EXPECT(c, "feat_id", want[i].feat, s[k].feat_id);
		EXPECT(c, "record size", want[i].size, s[k].size);
		k++;
	}
	if (c->failed)
		return;
	/* HEADER_ATTR: the attr and its ids */
	{
		struct perf_event_attr a, want_attr = test_attr();

		memset(&a, 0, sizeof(a));
		memcpy(&a, b + s[0].at + 8, ATTR_SIZE);
		if (swap)
			tp_attr__from_foreign(&a);
		memset((uint8_t *)&want_attr + ATTR_SIZE, 0, sizeof(want_attr) - ATTR_SIZE);
		want_attr.size = ATTR_SIZE;
		expect_mem(c, "HEADER_ATTR attr", &want_attr, &a, sizeof(a));
		EXPECT(c, "HEADER_ATTR id 0", 1, rd64(b + s[0].at + 8 + ATTR_SIZE, swap));
		EXPECT(c, "HEADER_ATTR id 1", 2, rd64(b + s[0].at + 16 + ATTR_SIZE, swap));
		EXPECT(c, "second HEADER_ATTR id", 3, rd64(b + s[1].at + 8 + ATTR_SIZE, swap));
	}
	/* HEADER_FEATURE payload: the section bytes, zero-padded to 8 */
	EXPECT(c, "hostname len", 64, rd32(b + s[2].at + 16, swap));
	expect_mem(c, "hostname", "box\0", b + s[2].at + 20, 4);
	EXPECT(c, "hostname record pad", 0, rd32(b + s[2].at + 84, false));
	/* HEADER_TRACING_DATA: size field is the padded blob, blob follows the record */
	k = n - 3;
	EXPECT(c, "tracing data padded size", 16, s[k].extra);
	expect_mem(c, "tracing data blob", trace_blob, b + s[k].at + 12, sizeof(trace_blob));
	EXPECT(c, "tracing data pad", 0, b[s[k].at + 25] | b[s[k].at + 26] | b[s[k].at + 27]);
	EXPECT(c, "build-id misc", PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
	       rd16(b + s[k - 1].at + 4, swap));
	EXPECT(c, "sample time first", 5, rd64(b + s[n - 2].at + 16, swap));
}

static void test_writer_pipe(void)
{
	struct tcase c = case_begin("pipe: framing, features once each, end marker");
	static struct pipe_run r;
	static uint8_t big[70000];
	struct tp_feat huge = { HEADER_CMDLINE, big, sizeof(big) };
	size_t before;

	EXPECT(&c, "build", 0, build_pipe(&r, false, false));
	check_stream(&c, &r, false, false);
	EXPECT(&c, "build with private features", 0, build_pipe(&r, false, true));
	check_stream(&c, &r, false, true);

	EXPECT(&c, "checkpoint is a no-op", 0, tp_writer__checkpoint(&(struct tp_writer){
		.mode = TP_WRITER_PIPE }));
	build_pipe(&r, false, false);
	EXPECT(&c, "features after close", -TP_EINVAL, tp_writer__pipe_features(&r.w, &huge, 1));
	memset(&r, 0, sizeof(r));
	mem_sink_init(&r.sink, false);
	r.attr[0] = test_attr();
	r.wattrs[0] = (struct tp_writer_attr){ &r.attr[0], "x", ids0, 2 };
	EXPECT(&c, "open", 0, tp_writer__open(&r.w, &r.sink.sink, TP_WRITER_PIPE, false,
					      r.wattrs, 1, ATTR_SIZE));
	before = r.sink.len;
	EXPECT(&c, "feature past 64 KiB", -TP_E2BIG, tp_writer__pipe_features(&r.w, &huge, 1));
	EXPECT(&c, "nothing written for it", before, r.sink.len);
	r.w.pipe_end_feature = 0;
	EXPECT(&c, "not sticky: the stream is intact", 0, tp_writer__close(&r.w, NULL, 0));
	EXPECT(&c, "no end marker when pipe_end_feature is 0", before, r.sink.len);
	r.wattrs[0].nr_ids = 9000;
	EXPECT(&c, "HEADER_ATTR past 64 KiB", -TP_E2BIG,
	       tp_writer__open(&r.w, &r.sink.sink, TP_WRITER_PIPE, false, r.wattrs, 1, ATTR_SIZE));
	case_end(&c);
}

static void test_writer_pipe_swapped(void)
{
	struct tcase c = case_begin("pipe: byte-swapped stream re-read field by field");
	static struct pipe_run r;

	EXPECT(&c, "build", 0, build_pipe(&r, true, false));
	EXPECT(&c, "magic reads swapped", PERF_MAGIC2_SWAPPED, rd64(r.sink.buf, false));
	check_stream(&c, &r, true, false);
	case_end(&c);
}
