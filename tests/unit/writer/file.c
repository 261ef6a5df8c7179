/* SPDX-License-Identifier: MIT */
/* File-mode writer: header, id arrays, attr entries, checkpoint rewrite, feature table and
 * payloads, error handling, and the byte-swapped file re-read field by field. */
#include "common.h"

/* everything one recording needs, built the same way for the native and the swapped file */
struct fixture {
	struct perf_event_attr attr[2];
	struct tp_writer_attr wattrs[2];
	uint8_t recs[512];
	size_t recs_len, checkpoint_len;	/* records before/at the checkpoint */
	uint8_t checkpoint_header[104];
	uint8_t fmem[2048];
	struct tp_feat feats[6];
	unsigned nr_feats;
	struct mem_sink sink;
	struct tp_writer w;
};

static int add_records(struct fixture *fx, bool swap, int n)
{
	struct tp_rec_fmt fmt = { .id_hdr_size = tp_id_hdr_size(fx->attr[0].sample_type),
				  .swap = swap };
	size_t start = fx->recs_len;

	for (int i = 0; i < n; i++) {
		struct tp_sample s = { .ip = 0x400000 + (uint64_t)i, .pid = 9, .tid = 9,
				       .time = 1000 + (uint64_t)i, .period = 1 };
		int len = tp_rec__sample(fx->recs + fx->recs_len, sizeof(fx->recs) - fx->recs_len,
					 &fmt, fx->attr[0].sample_type, PERF_RECORD_MISC_USER, &s);

		if (len < 0)
			return len;
		fx->recs_len += (size_t)len;
	}
	return tp_writer__add(&fx->w, fx->recs + start, fx->recs_len - start);
}

/* Writes the whole file; returns the first error. Features are given out of order and
 * without HOSTNAME on purpose. */
static int build_file(struct fixture *fx, bool swap)
{
	static const uint8_t id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					11, 12, 13, 14, 15, 16 };
	struct tp_build_id bid = { PERF_RECORD_MISC_USER, id, 20, "/bin/true" };
	struct tp_rec_fmt fmt;
	struct tp_fbuf f;
	int err;

	memset(fx, 0, sizeof(*fx));
	fx->attr[0] = test_attr();
	fx->attr[1] = test_attr();
	fx->attr[1].config = PERF_COUNT_SW_TASK_CLOCK;
	fx->wattrs[0] = (struct tp_writer_attr){ &fx->attr[0], "cpu-clock", ids0, 2 };
	fx->wattrs[1] = (struct tp_writer_attr){ &fx->attr[1], "task-clock", ids1, 1 };
	fmt = (struct tp_rec_fmt){ .id_hdr_size = tp_id_hdr_size(fx->attr[0].sample_type),
				   .swap = swap };
	mem_sink_init(&fx->sink, true);

	err = tp_writer__open(&fx->w, &fx->sink.sink, TP_WRITER_FILE, swap, fx->wattrs, 2,
			      ATTR_SIZE);
	if (err)
		return err;
	fx->recs_len = (size_t)tp_rec__comm(fx->recs, sizeof(fx->recs), &fmt, 9, 9, "t", true);
	err = tp_writer__add(&fx->w, fx->recs, fx->recs_len);
	if (!err)
		err = add_records(fx, swap, 3);
	if (!err)
		err = tp_writer__finished_round(&fx->w);
	if (!err)	/* the record the writer should have written, for comparison */
		fx->recs_len += (size_t)tp_rec__finished_round(fx->recs + fx->recs_len, 8, &fmt);
	if (!err)
		err = tp_writer__checkpoint(&fx->w);
	if (err)
		return err;
	fx->checkpoint_len = fx->recs_len;
	memcpy(fx->checkpoint_header, fx->sink.buf, sizeof(fx->checkpoint_header));
	err = add_records(fx, swap, 2);
	if (err)
		return err;

	tp_writer__fbuf(&fx->w, &f, fx->fmem, sizeof(fx->fmem));
	err = tp_feat__sample_time(&f, &fx->feats[0], 1000, 1001);
	err = err ? err : tp_feat__nrcpus(&f, &fx->feats[1], 8, 4);
	err = err ? err : tp_feat__build_id(&f, &fx->feats[2], &bid, 1);
	err = err ? err : tp_feat__string(&f, &fx->feats[3], HEADER_ARCH, "mips");
	err = err ? err : tp_feat__event_desc(&f, &fx->feats[4], fx->wattrs, 2, ATTR_SIZE);
	tp_feat__blob(&fx->feats[5], TP_FEAT_RECORD_INFO, "k\0v\0", 4);
	fx->nr_feats = 6;
	return err ? err : tp_writer__close(&fx->w, fx->feats, fx->nr_feats);
}

/* ids of the sections the file should list, ascending */
static const uint32_t want_ids[] = { HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_ARCH,
				     HEADER_NRCPUS, HEADER_EVENT_DESC, HEADER_SAMPLE_TIME,
				     TP_FEAT_RECORD_INFO };

static const struct tp_feat *feat_by_id(const struct fixture *fx, uint32_t id)
{
	for (unsigned i = 0; i < fx->nr_feats; i++)
		if (fx->feats[i].id == id)
			return &fx->feats[i];
	return NULL;
}

static void test_writer_file(void)
{
	struct tcase c = case_begin("file: header, ids, attrs, data, feature table, checkpoint");
	static struct fixture fx;
	const uint8_t *b = fx.sink.buf;
	uint64_t data_off = 104 + 3 * 8 + 2 * (ATTR_SIZE + 16), off, table;
	struct perf_event_attr want = test_attr(), got;
	uint8_t host[68];	/* the empty hostname the writer adds */
	struct tp_fbuf hf;

	tp_fbuf__init(&hf, host, sizeof(host), false);
	tp_fbuf__string(&hf, "");
	EXPECT(&c, "build", 0, build_file(&fx, false));
	EXPECT(&c, "magic", PERF_MAGIC2, rd64(b, false));
	expect_mem(&c, "magic bytes on this host", __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
		   "PERFILE2" : "2ELIFREP", b, 8);
	EXPECT(&c, "header size", 104, rd64(b + 8, false));
	EXPECT(&c, "attr_size", ATTR_SIZE + 16, rd64(b + 16, false));
	EXPECT(&c, "attrs.offset", 104 + 3 * 8, rd64(b + 24, false));
	EXPECT(&c, "attrs.size", 2 * (ATTR_SIZE + 16), rd64(b + 32, false));
	EXPECT(&c, "data.offset", data_off, rd64(b + 40, false));
	EXPECT(&c, "data.size", fx.recs_len, rd64(b + 48, false));
	EXPECT(&c, "event_types", 0, rd64(b + 56, false) | rd64(b + 64, false));
	EXPECT(&c, "feature bits 0-63", (1ULL << 2) | (1ULL << 3) | (1ULL << 6) | (1ULL << 7) |
	       (1ULL << 12) | (1ULL << 21), rd64(b + 72, false));
	EXPECT(&c, "feature bits 128-191", 1ULL << (TP_FEAT_RECORD_INFO - 128), rd64(b + 88, false));
	EXPECT(&c, "feature bits 64-127, 192-255", 0, rd64(b + 80, false) | rd64(b + 96, false));

	EXPECT(&c, "ids[0]", 1, rd64(b + 104, false));
	EXPECT(&c, "ids[1]", 2, rd64(b + 112, false));
	EXPECT(&c, "ids[2]", 3, rd64(b + 120, false));
	want.size = ATTR_SIZE;
	expect_mem(&c, "attr 0, first attr_size bytes", &want, b + 128, ATTR_SIZE);
	EXPECT(&c, "attr 0 ids.offset", 104, rd64(b + 128 + ATTR_SIZE, false));
	EXPECT(&c, "attr 0 ids.size", 16, rd64(b + 136 + ATTR_SIZE, false));
	memcpy(&got, b + 128 + ATTR_SIZE + 16, ATTR_SIZE);
	EXPECT(&c, "attr 1 config", PERF_COUNT_SW_TASK_CLOCK, got.config);
	EXPECT(&c, "attr 1 ids.offset", 120, rd64(b + 128 + 2 * ATTR_SIZE + 16, false));
	EXPECT(&c, "attr 1 ids.size", 8, rd64(b + 136 + 2 * ATTR_SIZE + 16, false));
	expect_mem(&c, "records verbatim", fx.recs, b + data_off, fx.recs_len);
	EXPECT(&c, "finished round", PERF_RECORD_FINISHED_ROUND,
	       rd32(b + data_off + fx.checkpoint_len - 8, false));

	table = data_off + fx.recs_len;
	off = table + ARRAY_SIZE(want_ids) * 16;
	for (size_t i = 0; i < ARRAY_SIZE(want_ids); i++) {
		const struct tp_feat *ft = feat_by_id(&fx, want_ids[i]);
		uint64_t size = ft ? ft->size : sizeof(host);

		EXPECT(&c, "section offset (contiguous, ascending ids)", off,
		       rd64(b + table + 16 * i, false));
		EXPECT(&c, "section size", size, rd64(b + table + 16 * i + 8, false));
		if (off + size <= sizeof(fx.sink.buf))
			expect_mem(&c, "payload", ft ? ft->data : host, b + off, size);
		off += size;
	}
	EXPECT(&c, "file ends after the last payload", off, fx.sink.len);

	b = fx.checkpoint_header;
	EXPECT(&c, "checkpoint data.size", fx.checkpoint_len, rd64(b + 48, false));
	EXPECT(&c, "checkpoint data.offset", data_off, rd64(b + 40, false));
	EXPECT(&c, "checkpoint has no features", 0, rd64(b + 72, false) | rd64(b + 80, false) |
	       rd64(b + 88, false) | rd64(b + 96, false));
	EXPECT(&c, "checkpoint attr_size", ATTR_SIZE + 16, rd64(b + 16, false));
	case_end(&c);
}

static void test_writer_errors(void)
{
	struct tcase c = case_begin("file: argument errors, sticky sink errors, use after close");
	static struct mem_sink m;
	struct perf_event_attr a = test_attr();
	struct tp_writer_attr wa = { &a, "cpu-clock", ids0, 2 };
	struct tp_feat dup[2] = { { HEADER_ARCH, "x", 1 }, { HEADER_ARCH, "y", 1 } };
	struct tp_feat bad0 = { 0, "x", 1 }, bad256 = { 256, "x", 1 };
	uint8_t rec[32] = { 0 };
	struct tp_writer w;

	mem_sink_init(&m, false);
	EXPECT(&c, "file mode on a stream", -TP_EINVAL,
	       tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 64));
	mem_sink_init(&m, true);
	EXPECT(&c, "attr_size below VER0", -TP_EINVAL,
	       tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 56));
	EXPECT(&c, "attr_size above ours", -TP_EINVAL,
	       tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 144));
	EXPECT(&c, "attr_size not a multiple of 8", -TP_EINVAL,
	       tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 100));
	EXPECT(&c, "nothing written by failed opens", 0, m.len);

	EXPECT(&c, "open", 0, tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 64));
	EXPECT(&c, "pipe_features is a no-op in file mode", 0,
	       tp_writer__pipe_features(&w, dup, 1));
	EXPECT(&c, "duplicate feature ids", -TP_EINVAL, tp_writer__close(&w, dup, 2));
	EXPECT(&c, "feature id 0", -TP_EINVAL, tp_writer__close(&w, &bad0, 1));
	EXPECT(&c, "feature id 256", -TP_EINVAL, tp_writer__close(&w, &bad256, 1));
	EXPECT(&c, "close after refused ones", 0, tp_writer__close(&w, dup, 1));
	EXPECT(&c, "add after close", -TP_EINVAL, tp_writer__add(&w, rec, 8));
	EXPECT(&c, "close twice", -TP_EINVAL, tp_writer__close(&w, NULL, 0));

	mem_sink_init(&m, true);
	EXPECT(&c, "open", 0, tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 64));
	m.fail_at = m.len + 24;
	EXPECT(&c, "add that fits", 0, tp_writer__add(&w, rec, 16));
	EXPECT(&c, "add past the failure point", -TP_EIO, tp_writer__add(&w, rec, 16));
	EXPECT(&c, "sticky: a small add", -TP_EIO, tp_writer__add(&w, rec, 1));
	EXPECT(&c, "sticky: finished_round", -TP_EIO, tp_writer__finished_round(&w));
	EXPECT(&c, "sticky: checkpoint", -TP_EIO, tp_writer__checkpoint(&w));
	EXPECT(&c, "sticky: close", -TP_EIO, tp_writer__close(&w, NULL, 0));
	EXPECT(&c, "data.size counts what was written", 16, w.data_size);
	case_end(&c);
}

/* add() through the caller's buffer: small records gathered into one write, in order; a
 * checkpoint or a header rewrite counts only what reached the sink; a failed flush leaves
 * the data section at the last record written whole */
static void test_writer_buffered(void)
{
	struct tcase c = case_begin("file: small records gathered in the writer's buffer");
	static struct mem_sink m;
	struct perf_event_attr a = test_attr();
	struct tp_writer_attr wa = { &a, "cpu-clock", ids0, 2 };
	uint8_t rec[96], buf[64];
	struct tp_writer w;
	size_t data_off;
	unsigned n;

	for (unsigned i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)i;
	mem_sink_init(&m, true);
	EXPECT(&c, "open", 0, tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, 64));
	w.buf = buf;
	w.buf_cap = sizeof(buf);
	data_off = m.len;
	n = m.writes;
	for (unsigned i = 0; i < 3; i++)
		EXPECT(&c, "small add", 0, tp_writer__add(&w, rec + 16 * i, 16));
	EXPECT(&c, "three small records: no write yet", n, m.writes);
	EXPECT(&c, "pos counts them", data_off + 48, w.pos);
	EXPECT(&c, "an add that does not fit in what is left", 0, tp_writer__add(&w, rec + 48, 24));
	EXPECT(&c, "the first three in one write", n + 1, m.writes);
	EXPECT(&c, "checkpoint", 0, tp_writer__checkpoint(&w));
	EXPECT(&c, "checkpoint: the buffer first", n + 2, m.writes);
	EXPECT(&c, "checkpoint: data.size", 72, rd64(m.buf + 48, false));
	EXPECT(&c, "checkpoint: the file holds the data", data_off + 72, m.len);
	EXPECT(&c, "small add", 0, tp_writer__add(&w, rec + 72, 8));
	EXPECT(&c, "an add as big as the buffer goes straight", 0, tp_writer__add(&w, rec, 64));
	EXPECT(&c, "the small one first, then the big one", n + 4, m.writes);
	expect_mem(&c, "bytes in order", rec, m.buf + data_off, 80);
	expect_mem(&c, "the big record after them", rec, m.buf + data_off + 80, 64);
	EXPECT(&c, "flush with nothing gathered", 0, tp_writer__flush(&w));
	EXPECT(&c, "no write for it", n + 4, m.writes);

	m.fail_at = m.len + 8;
	EXPECT(&c, "a small add before the failure", 0, tp_writer__add(&w, rec, 16));
	EXPECT(&c, "its flush fails", -TP_EIO, tp_writer__flush(&w));
	EXPECT(&c, "sticky", -TP_EIO, tp_writer__add(&w, rec, 8));
	EXPECT(&c, "data.size without the record lost", 144, w.data_size);
	EXPECT(&c, "salvage rewrites the header", 0, tp_writer__salvage(&w));
	EXPECT(&c, "salvaged data.size", 144, rd64(m.buf + 48, false));
	case_end(&c);
}

/* the header and section table of a file, read in whichever byte order it has */
struct file_view {
	bool swap;
	uint64_t f[13];			/* the 13 u64 words of the header */
	uint64_t ids[3];
	uint64_t sec[ARRAY_SIZE(want_ids)][2];
};

static void view(const uint8_t *b, struct file_view *v)
{
	v->swap = rd64(b, false) == PERF_MAGIC2_SWAPPED;
	for (int i = 0; i < 13; i++)
		v->f[i] = rd64(b + 8 * i, v->swap);
	for (int i = 0; i < 3; i++)
		v->ids[i] = rd64(b + 104 + 8 * i, v->swap);
	for (size_t i = 0; i < ARRAY_SIZE(want_ids); i++) {
		v->sec[i][0] = rd64(b + v->f[5] + v->f[6] + 16 * i, v->swap);
		v->sec[i][1] = rd64(b + v->f[5] + v->f[6] + 16 * i + 8, v->swap);
	}
}

static const uint8_t *section(const struct fixture *fx, const struct file_view *v, uint32_t id)
{
	for (size_t i = 0; i < ARRAY_SIZE(want_ids); i++)
		if (want_ids[i] == id)
			return fx->sink.buf + v->sec[i][0];
	return fx->sink.buf;
}

static void test_writer_swapped(void)
{
	struct tcase c = case_begin("file: byte-swapped output re-read field by field");
	static struct fixture nat, sw;
	struct file_view n, s;
	const uint8_t *pn, *ps;

	EXPECT(&c, "build native", 0, build_file(&nat, false));
	EXPECT(&c, "build swapped", 0, build_file(&sw, true));
	EXPECT(&c, "same length", nat.sink.len, sw.sink.len);
	if (c.failed)
		goto out;
	view(nat.sink.buf, &n);
	view(sw.sink.buf, &s);
	EXPECT(&c, "native file reads native", 0, n.swap);
	EXPECT(&c, "swapped file reads swapped", 1, s.swap);
	for (int i = 0; i < 13; i++)
		EXPECT(&c, "header word (magic, sizes, sections, feature bitmap)", n.f[i], s.f[i]);
	for (int i = 0; i < 3; i++)
		EXPECT(&c, "id", n.ids[i], s.ids[i]);
	for (size_t i = 0; i < ARRAY_SIZE(want_ids); i++) {
		EXPECT(&c, "section offset", n.sec[i][0], s.sec[i][0]);
		EXPECT(&c, "section size", n.sec[i][1], s.sec[i][1]);
	}
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr an, as;
		uint64_t at = n.f[3] + (uint64_t)i * n.f[2];

		memset(&an, 0, sizeof(an));
		memset(&as, 0, sizeof(as));
		memcpy(&an, nat.sink.buf + at, ATTR_SIZE);
		memcpy(&as, sw.sink.buf + at, ATTR_SIZE);
		tp_attr__from_foreign(&as);
		expect_mem(&c, "attr after from_foreign", &an, &as, sizeof(an));
		EXPECT(&c, "attr ids.offset", rd64(nat.sink.buf + at + ATTR_SIZE, false),
		       rd64(sw.sink.buf + at + ATTR_SIZE, true));
		EXPECT(&c, "precise_ip survives", 1, PERF_ATTR_PRECISE_IP_GET(as.flags));
	}
	expect_mem(&c, "records untouched", sw.recs, sw.sink.buf + n.f[5], sw.recs_len);

	pn = section(&nat, &n, HEADER_NRCPUS);
	ps = section(&sw, &s, HEADER_NRCPUS);
	EXPECT(&c, "nrcpus avail", rd32(pn, false), rd32(ps, true));
	EXPECT(&c, "nrcpus online", rd32(pn + 4, false), rd32(ps + 4, true));
	pn = section(&nat, &n, HEADER_SAMPLE_TIME);
	ps = section(&sw, &s, HEADER_SAMPLE_TIME);
	EXPECT(&c, "first sample time", rd64(pn, false), rd64(ps, true));
	EXPECT(&c, "last sample time", rd64(pn + 8, false), rd64(ps + 8, true));
	pn = section(&nat, &n, HEADER_ARCH);
	ps = section(&sw, &s, HEADER_ARCH);
	EXPECT(&c, "arch string len", rd32(pn, false), rd32(ps, true));
	expect_mem(&c, "arch string bytes", pn + 4, ps + 4, 64);
	pn = section(&nat, &n, HEADER_HOSTNAME);
	ps = section(&sw, &s, HEADER_HOSTNAME);
	EXPECT(&c, "default hostname len", rd32(pn, false), rd32(ps, true));
	pn = section(&nat, &n, HEADER_BUILD_ID);
	ps = section(&sw, &s, HEADER_BUILD_ID);
	EXPECT(&c, "build-id type", rd32(pn, false), rd32(ps, true));
	EXPECT(&c, "build-id misc", rd16(pn + 4, false), rd16(ps + 4, true));
	EXPECT(&c, "build-id size", rd16(pn + 6, false), rd16(ps + 6, true));
	EXPECT(&c, "build-id pid", rd32(pn + 8, false), rd32(ps + 8, true));
	expect_mem(&c, "build-id id, size byte and name", pn + 12, ps + 12, rd16(pn + 6, false) - 12);
	pn = section(&nat, &n, HEADER_EVENT_DESC);
	ps = section(&sw, &s, HEADER_EVENT_DESC);
	EXPECT(&c, "event_desc nr", rd32(pn, false), rd32(ps, true));
	EXPECT(&c, "event_desc attr_size", rd32(pn + 4, false), rd32(ps + 4, true));
	EXPECT(&c, "event_desc nr_ids", rd32(pn + 8 + ATTR_SIZE, false),
	       rd32(ps + 8 + ATTR_SIZE, true));
	EXPECT(&c, "event_desc first id", rd64(pn + 8 + ATTR_SIZE + 4 + 68, false),
	       rd64(ps + 8 + ATTR_SIZE + 4 + 68, true));
	EXPECT(&c, "checkpoint data.size", rd64(nat.checkpoint_header + 48, false),
	       rd64(sw.checkpoint_header + 48, true));
out:
	case_end(&c);
}
