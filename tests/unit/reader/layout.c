/* SPDX-License-Identifier: MIT */
/* Layouts laid out by hand: what perf or other recorders write and our writer does not. */
#include "perfdata/attr.h"

/* appending to a mem in a byte order */
static void a_bytes(struct mem *m, const void *p, size_t n) { mem_write(&m->sink, p, n); }
static void a32(struct mem *m, uint32_t v, bool swap) { uint8_t b[4]; put32(b, v, swap); a_bytes(m, b, 4); }
static void a64(struct mem *m, uint64_t v, bool swap) { uint8_t b[8]; put64(b, v, swap); a_bytes(m, b, 8); }
static void a16(struct mem *m, uint16_t v, bool swap) { uint8_t b[2]; put16(b, v, swap); a_bytes(m, b, 2); }

/* attr a (native) as attr_len bytes in the file's order; bytes past our struct are `extra` */
static void a_attr(struct mem *m, const struct perf_event_attr *a, uint32_t attr_len,
		   uint8_t extra, bool swap)
{
	struct perf_event_attr x = *a;

	x.size = attr_len;
	if (swap)
		tp_attr__to_foreign(&x);
	a_bytes(m, &x, attr_len < sizeof(x) ? attr_len : sizeof(x));
	for (uint32_t i = sizeof(x); i < attr_len; i++)
		a_bytes(m, &extra, 1);
}

enum bitmap_kind { BITMAP_U64, BITMAP_U32, BITMAP_GARBAGE };

/* header | ids | one attr of attr_len bytes | data | feature table | HOSTNAME, ARCH */
static void hand_file(struct mem *m, bool swap, const struct perf_event_attr *a,
		      uint32_t attr_len, uint8_t extra, const void *data, size_t data_len,
		      enum bitmap_kind bk)
{
	uint64_t ids_off = 104, attrs_off = ids_off + 8, data_off = attrs_off + attr_len + 16;
	uint64_t feat_off = data_off + data_len, host_off = feat_off + 32, arch_off = host_off + 68;
	uint64_t bits = (1ULL << HEADER_HOSTNAME) | (1ULL << HEADER_ARCH);

	mem_init(m, true);
	a_bytes(m, magic(swap), 8);
	a64(m, 104, swap);
	a64(m, attr_len + 16, swap);
	a64(m, attrs_off, swap);
	a64(m, attr_len + 16, swap);
	a64(m, data_off, swap);
	a64(m, data_len, swap);
	a64(m, 0, swap);
	a64(m, 0, swap);
	if (bk == BITMAP_U32) {		/* a 32-bit writer's unsigned long words */
		a32(m, (uint32_t)bits, swap);
		a32(m, 0, swap);
	} else {
		a64(m, bk == BITMAP_GARBAGE ? 3ULL << 40 : bits, swap);
	}
	a64(m, 0, swap);
	a64(m, 0, swap);
	a64(m, 0, swap);
	a64(m, 7, swap);			/* the one id */
	a_attr(m, a, attr_len, extra, swap);
	a64(m, ids_off, swap);
	a64(m, 8, swap);
	a_bytes(m, data, data_len);
	a64(m, host_off, swap);
	a64(m, 68, swap);
	a64(m, arch_off, swap);
	a64(m, 68, swap);
	a32(m, 64, swap);
	a_bytes(m, "handhost\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
		   "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 64);
	a32(m, 64, swap);
	a_bytes(m, "armv7l\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
		   "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 64);
}

static struct perf_event_attr simple_attr(void)
{
	struct perf_event_attr a = std_attr(PERF_COUNT_SW_CPU_CLOCK);

	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.flags &= ~PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	return a;
}

/* one IP|TID sample */
static size_t simple_sample(uint8_t *p, bool swap)
{
	put32(p, PERF_RECORD_SAMPLE, swap);
	put16(p + 4, PERF_RECORD_MISC_USER, swap);
	put16(p + 6, 24, swap);
	put64(p + 8, 0x1234, swap);
	put32(p + 16, 42, swap);
	put32(p + 20, 43, swap);
	return 24;
}

static void test_big_attr(void)
{
	struct tcase c = case_begin("attr bigger than ours: zero tail accepted, else ATTR_ABI");
	struct perf_event_attr a = simple_attr();
	uint8_t data[24];

	for (int swap = 0; swap < 2; swap++) {
		struct tp_reader *r;
		struct logbuf l;
		struct mem m;
		unsigned samples;
		int err;

		simple_sample(data, swap);
		hand_file(&m, swap, &a, PERF_ATTR_SIZE_VER8 + 16, 0, data, 24, BITMAP_U64);
		r = open_reader(m.buf, m.len, &l, &err);
		if (EXPECT(&c, "zero tail: reader__new", 0, err)) {
			EXPECT(&c, "file size", PERF_ATTR_SIZE_VER8 + 16, tp_reader__attr(r, 0)->file_size);
			EXPECT(&c, "walk", 1, walk(r, &samples));
			EXPECT(&c, "sample", 1, samples);
			tp_reader__delete(r);
		}
		free(m.buf);
		hand_file(&m, swap, &a, PERF_ATTR_SIZE_VER8 + 8, 1, data, 24, BITMAP_U64);
		r = open_reader(m.buf, m.len, &l, &err);
		EXPECT(&c, "non-zero tail: error", -TP_ERR_ATTR_ABI, err);
		EXPECT_TRUE(&c, "message says how many bytes", has(&l, "8 bytes more"));
		tp_reader__delete(r);
		free(m.buf);
	}
	case_end(&c);
}

static void test_bitmaps(void)
{
	struct tcase c = case_begin("feature bitmap: u64 and 32-bit words, HOSTNAME probe");
	struct perf_event_attr a = simple_attr();
	uint8_t data[24];

	for (int k = 0; k < 6; k++) {
		bool swap = k & 1;
		enum bitmap_kind bk = (enum bitmap_kind)(k / 2);
		const struct tp_features *f;
		struct tp_reader *r;
		struct logbuf l;
		struct mem m;
		int err;

		simple_sample(data, swap);
		hand_file(&m, swap, &a, PERF_ATTR_SIZE_VER5, 0, data, 24, bk);
		r = open_reader(m.buf, m.len, &l, &err);
		if (!EXPECT(&c, "reader__new", 0, err))
			break;
		f = tp_reader__features(r);
		if (bk == BITMAP_GARBAGE) {
			EXPECT(&c, "garbage bitmap: no hostname", 0,
			       tp_features__has(f, HEADER_HOSTNAME));
		} else {
			EXPECT_TRUE(&c, "hostname", f->hostname && !strcmp(f->hostname, "handhost"));
			EXPECT_TRUE(&c, "arch", f->arch && !strcmp(f->arch, "armv7l"));
			EXPECT(&c, "no warnings", 0, l.warnings);
		}
		tp_reader__delete(r);
		free(m.buf);
	}
	case_end(&c);
}

/* every sample_type bit at once, laid out in the kernel's order */
#define ALL_SAMPLE ((PERF_SAMPLE_MAX - 1) & ~PERF_SAMPLE_WEIGHT)
static size_t all_fields_sample(struct mem *m, bool swap)
{
	size_t start = m->len;

	a32(m, PERF_RECORD_SAMPLE, swap);
	a16(m, PERF_RECORD_MISC_USER, swap);
	a16(m, 0, swap);			/* size, patched below */
	a64(m, 7, swap);			/* IDENTIFIER */
	a64(m, 0x1111, swap);			/* IP */
	a32(m, 5, swap), a32(m, 6, swap);	/* TID */
	a64(m, 1000, swap);			/* TIME */
	a64(m, 0x2222, swap);			/* ADDR */
	a64(m, 7, swap);			/* ID */
	a64(m, 88, swap);			/* STREAM_ID */
	a32(m, 3, swap), a32(m, 0, swap);	/* CPU */
	a64(m, 99, swap);			/* PERIOD */
	a64(m, 2, swap), a64(m, 10, swap), a64(m, 9, swap);	/* READ group: nr, ena, run */
	a64(m, 1, swap), a64(m, 7, swap), a64(m, 0, swap);
	a64(m, 2, swap), a64(m, 8, swap), a64(m, 1, swap);
	a64(m, 2, swap), a64(m, PERF_CONTEXT_USER, swap), a64(m, 0x1111, swap);	/* CALLCHAIN */
	a32(m, 12, swap), a_bytes(m, "abcdefghijkl", 12);	/* RAW */
	a64(m, 1, swap), a64(m, 5, swap);	/* BRANCH_STACK nr, hw_idx */
	a64(m, 0xa, swap), a64(m, 0xb, swap), a64(m, 0xc, swap);
	a64(m, 2, swap), a64(m, 0x51, swap), a64(m, 0x52, swap);	/* REGS_USER */
	a64(m, 8, swap), a_bytes(m, "stackstk", 8), a64(m, 8, swap);	/* STACK_USER */
	a32(m, 1234, swap), a16(m, 5, swap), a16(m, 6, swap);	/* WEIGHT_STRUCT */
	a64(m, 0x333, swap);			/* DATA_SRC */
	a64(m, 0x444, swap);			/* TRANSACTION */
	a64(m, 2, swap), a64(m, 0x61, swap), a64(m, 0x62, swap);	/* REGS_INTR */
	a64(m, 0x555, swap);			/* PHYS_ADDR */
	a64(m, 0x666, swap);			/* CGROUP */
	a64(m, 4096, swap);			/* DATA_PAGE_SIZE */
	a64(m, 8192, swap);			/* CODE_PAGE_SIZE */
	a64(m, 8, swap), a_bytes(m, "auxdata!", 8);	/* AUX */
	put16(m->buf + start + 6, (uint16_t)(m->len - start), swap);
	return m->len - start;
}

static void test_all_sample_fields(void)
{
	struct tcase c = case_begin("sample with every sample_type bit, both byte orders");
	struct perf_event_attr a = simple_attr();

	a.sample_type = ALL_SAMPLE;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.sample_regs_user = 0x5;
	a.sample_regs_intr = 0x3;
	a.branch_sample_type = 1ULL << 17;	/* HW_INDEX */
	for (int swap = 0; swap < 2; swap++) {
		struct mem rec, m;
		struct tp_reader *r;
		struct tp_event ev;
		struct logbuf l;
		int err;

		mem_init(&rec, false);
		all_fields_sample(&rec, swap);
		hand_file(&m, swap, &a, PERF_ATTR_SIZE_VER8, 0, rec.buf, rec.len, BITMAP_U64);
		r = open_reader(m.buf, m.len, &l, &err);
		if (EXPECT(&c, "reader__new", 0, err) && EXPECT(&c, "next", 1, tp_reader__next(r, &ev))) {
			const struct tp_ev_sample *s = &ev.u.sample;

			EXPECT(&c, "id", 7, ev.sid.id);
			EXPECT(&c, "ip", 0x1111, s->ip);
			EXPECT(&c, "pid", 5, ev.sid.pid);
			EXPECT(&c, "tid", 6, ev.sid.tid);
			EXPECT(&c, "time", 1000, ev.sid.time);
			EXPECT(&c, "addr", 0x2222, s->addr);
			EXPECT(&c, "stream_id", 88, ev.sid.stream_id);
			EXPECT(&c, "cpu", 3, ev.sid.cpu);
			EXPECT(&c, "period", 99, s->period);
			EXPECT(&c, "read nr", 2, s->read.nr);
			EXPECT(&c, "read enabled", 10, s->read.time_enabled);
			EXPECT(&c, "read running", 9, s->read.time_running);
			EXPECT(&c, "read[1] id", 8, s->read.values[1].id);
			EXPECT(&c, "read[1] lost", 1, s->read.values[1].lost);
			EXPECT(&c, "callchain nr", 2, s->callchain_nr);
			EXPECT(&c, "callchain[1]", 0x1111, s->callchain[1]);
			EXPECT(&c, "raw size", 12, s->raw_size);
			expect_mem(&c, "raw", "abcdefghijkl", s->raw, 12);
			EXPECT(&c, "branch nr", 1, s->branch_nr);
			EXPECT(&c, "branch hw_idx", 5, s->branch_hw_idx);
			EXPECT(&c, "branch to", 0xb, s->branches[0].to);
			EXPECT(&c, "regs_user abi", 2, s->regs_user.abi);
			EXPECT(&c, "regs_user nr", 2, s->regs_user.nr);
			EXPECT(&c, "regs_user[1]", 0x52, s->regs_user.regs[1]);
			EXPECT(&c, "stack size", 8, s->stack_size);
			EXPECT(&c, "stack dyn size", 8, s->stack_dyn_size);
			EXPECT(&c, "weight var1", 1234, s->weight);
			EXPECT(&c, "weight var3", 6, s->weight_var3);
			EXPECT(&c, "data_src", 0x333, s->data_src);
			EXPECT(&c, "transaction", 0x444, s->transaction);
			EXPECT(&c, "regs_intr[0]", 0x61, s->regs_intr.regs[0]);
			EXPECT(&c, "phys_addr", 0x555, s->phys_addr);
			EXPECT(&c, "cgroup", 0x666, s->cgroup);
			EXPECT(&c, "data page size", 4096, s->data_page_size);
			EXPECT(&c, "code page size", 8192, s->code_page_size);
			EXPECT(&c, "aux size", 8, s->aux_size);
			expect_mem(&c, "aux", "auxdata!", s->aux, 8);
		}
		EXPECT(&c, "no warnings", 0, l.warnings);
		tp_reader__delete(r);
		free(m.buf);
		free(rec.buf);
	}
	case_end(&c);
}

/* perf's own pipe layout for tracing data: a 16-byte record, the blob after it */
static void test_pipe_tracing_data(void)
{
	struct tcase c = case_begin("pipe: HEADER_TRACING_DATA blob outside the record is skipped");
	struct perf_event_attr a = simple_attr();

	a.type = PERF_TYPE_TRACEPOINT;
	for (int swap = 0; swap < 2; swap++) {
		const struct tp_features *f;
		struct tp_reader *r;
		struct logbuf l;
		uint8_t smp[24];
		unsigned samples;
		struct mem m;
		int err;

		mem_init(&m, false);
		a_bytes(&m, magic(swap), 8);
		a64(&m, 16, swap);
		a32(&m, PERF_RECORD_HEADER_ATTR, swap), a16(&m, 0, swap);
		a16(&m, 8 + PERF_ATTR_SIZE_VER5 + 8, swap);
		a_attr(&m, &a, PERF_ATTR_SIZE_VER5, 0, swap);
		a64(&m, 7, swap);
		a32(&m, PERF_RECORD_HEADER_TRACING_DATA, swap), a16(&m, 0, swap), a16(&m, 16, swap);
		a32(&m, 24, swap), a32(&m, 0, swap);
		a_bytes(&m, PERF_TRACING_DATA_MAGIC "0.6\0\0\0\0\0\0\0\0\0\0", 24);
		simple_sample(smp, swap);
		a_bytes(&m, smp, 24);
		r = open_reader(m.buf, m.len, &l, &err);
		if (EXPECT(&c, "reader__new", 0, err)) {
			EXPECT(&c, "records", 3, walk(r, &samples));
			EXPECT(&c, "samples", 1, samples);
			f = tp_reader__features(r);
			EXPECT_TRUE(&c, "tracing data kept", tp_features__has(f, HEADER_TRACING_DATA));
			EXPECT(&c, "tracing data size", 24, f->sect[HEADER_TRACING_DATA].size);
			EXPECT(&c, "no warnings", 0, l.warnings);
			tp_reader__delete(r);
		}
		free(m.buf);
	}
	case_end(&c);
}

static void test_layouts(void)
{
	test_big_attr();
	test_bitmaps();
	test_all_sample_fields();
	test_pipe_tracing_data();
}
