/* SPDX-License-Identifier: MIT */
/* Record encoders: sizes, field offsets, zeroed sample_id trailers, byte order, limits. */
#include "common.h"

static const uint8_t zeros[64];

/* header fields and a zero trailer of `trailer` bytes at the end */
static void expect_header(struct tcase *c, const uint8_t *r, int len, uint32_t type,
			  uint16_t misc, int size, size_t trailer, bool swap)
{
	EXPECT(c, "returned length", size, len);
	EXPECT(c, "header.type", type, rd32(r, swap));
	EXPECT(c, "header.misc", misc, rd16(r + 4, swap));
	EXPECT(c, "header.size", size, rd16(r + 6, swap));
	EXPECT(c, "size is a multiple of 8", 0, size % 8);
	if (size >= (int)trailer)
		expect_mem(c, "zeroed sample_id trailer", zeros, r + size - trailer, trailer);
}

static void test_task_records(void)
{
	struct tcase c = case_begin("records: COMM, MMAP, FORK, EXIT, LOST, LOST_SAMPLES, ROUND");
	struct tp_rec_fmt fmt = { .id_hdr_size = 16 };
	uint8_t r[256];
	int len;

	memset(r, 0xaa, sizeof(r));
	len = tp_rec__comm(r, sizeof(r), &fmt, 10, 11, "sleep", true);
	expect_header(&c, r, len, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 40, 16, false);
	EXPECT(&c, "comm pid", 10, rd32(r + 8, false));
	EXPECT(&c, "comm tid", 11, rd32(r + 12, false));
	expect_mem(&c, "comm name padded to 8", "sleep\0\0\0", r + 16, 8);
	len = tp_rec__comm(r, sizeof(r), &fmt, 10, 11, "12345678", false);
	expect_header(&c, r, len, PERF_RECORD_COMM, 0, 48, 16, false);

	memset(r, 0xaa, sizeof(r));
	len = tp_rec__mmap(r, sizeof(r), &fmt, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0,
			   0xffffffff81000000ULL, 0x1000000, 0xffffffff81000000ULL,
			   "[kernel.kallsyms]_text");
	expect_header(&c, r, len, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 80, 16, false);
	EXPECT(&c, "mmap pid", 0xffffffff, rd32(r + 8, false));
	EXPECT(&c, "mmap addr", 0xffffffff81000000ULL, rd64(r + 16, false));
	EXPECT(&c, "mmap len", 0x1000000, rd64(r + 24, false));
	EXPECT(&c, "mmap pgoff", 0xffffffff81000000ULL, rd64(r + 32, false));
	expect_mem(&c, "mmap filename", "[kernel.kallsyms]_text\0\0", r + 40, 24);

	memset(r, 0xaa, sizeof(r));
	len = tp_rec__fork(r, sizeof(r), &fmt, 20, 1, 21, 1, 12345);
	expect_header(&c, r, len, PERF_RECORD_FORK, 0, 48, 16, false);
	EXPECT(&c, "fork pid", 20, rd32(r + 8, false));
	EXPECT(&c, "fork ppid", 1, rd32(r + 12, false));
	EXPECT(&c, "fork tid", 21, rd32(r + 16, false));
	EXPECT(&c, "fork ptid", 1, rd32(r + 20, false));
	EXPECT(&c, "fork time", 12345, rd64(r + 24, false));
	len = tp_rec__exit(r, sizeof(r), &fmt, 20, 1, 21, 1, 999);
	expect_header(&c, r, len, PERF_RECORD_EXIT, 0, 48, 16, false);
	EXPECT(&c, "exit time", 999, rd64(r + 24, false));

	len = tp_rec__lost(r, sizeof(r), &fmt, 77, 5);
	expect_header(&c, r, len, PERF_RECORD_LOST, 0, 40, 16, false);
	EXPECT(&c, "lost id", 77, rd64(r + 8, false));
	EXPECT(&c, "lost count", 5, rd64(r + 16, false));
	len = tp_rec__lost_samples(r, sizeof(r), &fmt, 6);
	expect_header(&c, r, len, PERF_RECORD_LOST_SAMPLES, 0, 32, 16, false);
	EXPECT(&c, "lost samples", 6, rd64(r + 8, false));

	len = tp_rec__finished_round(r, sizeof(r), &fmt);
	expect_header(&c, r, len, PERF_RECORD_FINISHED_ROUND, 0, 8, 0, false);

	fmt.swap = true;
	len = tp_rec__comm(r, sizeof(r), &fmt, 10, 11, "sleep", false);
	expect_header(&c, r, len, PERF_RECORD_COMM, 0, 40, 16, true);
	EXPECT(&c, "swapped comm pid", 10, rd32(r + 8, true));
	case_end(&c);
}

static void test_mmap2(void)
{
	struct tcase c = case_begin("records: MMAP2 with maj/min/ino and with a build-id");
	struct tp_rec_fmt fmt = { .id_hdr_size = 8 };
	uint8_t r[256], id[20];
	struct tp_mmap2 m = {
		.pid = 5, .tid = 6, .addr = 0x400000, .len = 0x2000, .pgoff = 0x1000,
		.maj = 8, .min = 1, .ino = 123456, .ino_generation = 2,
		.prot = 5, .flags = 2, .filename = "/bin/true",
	};
	int len;

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(i + 1);
	memset(r, 0xaa, sizeof(r));
	len = tp_rec__mmap2(r, sizeof(r), &fmt, PERF_RECORD_MISC_USER, &m);
	expect_header(&c, r, len, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 96, 8, false);
	EXPECT(&c, "pid", 5, rd32(r + 8, false));
	EXPECT(&c, "tid", 6, rd32(r + 12, false));
	EXPECT(&c, "addr", 0x400000, rd64(r + 16, false));
	EXPECT(&c, "len", 0x2000, rd64(r + 24, false));
	EXPECT(&c, "pgoff", 0x1000, rd64(r + 32, false));
	EXPECT(&c, "maj", 8, rd32(r + 40, false));
	EXPECT(&c, "min", 1, rd32(r + 44, false));
	EXPECT(&c, "ino", 123456, rd64(r + 48, false));
	EXPECT(&c, "ino_generation", 2, rd64(r + 56, false));
	EXPECT(&c, "prot", 5, rd32(r + 64, false));
	EXPECT(&c, "flags", 2, rd32(r + 68, false));
	expect_mem(&c, "filename", "/bin/true\0\0\0\0\0\0", r + 72, 16);

	m.build_id = id;
	m.build_id_size = 20;
	memset(r, 0xaa, sizeof(r));
	fmt.swap = true;
	len = tp_rec__mmap2(r, sizeof(r), &fmt, PERF_RECORD_MISC_USER, &m);
	expect_header(&c, r, len, PERF_RECORD_MMAP2,
		      PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, 96, 8, true);
	EXPECT(&c, "build-id size byte", 20, r[40]);
	EXPECT(&c, "build-id reserved", 0, r[41] | r[42] | r[43]);
	expect_mem(&c, "build-id bytes (never swapped)", id, r + 44, 20);
	EXPECT(&c, "swapped prot", 5, rd32(r + 64, true));
	m.build_id_size = 21;
	EXPECT(&c, "build-id of 21 bytes", -TP_EINVAL,
	       tp_rec__mmap2(r, sizeof(r), &fmt, PERF_RECORD_MISC_USER, &m));
	case_end(&c);
}

static void test_record_limits(void)
{
	struct tcase c = case_begin("records: -ENOSPC for the buffer, -E2BIG past 64 KiB");
	struct tp_rec_fmt fmt = { .id_hdr_size = 16 };
	static char big[70000];
	uint8_t r[64];

	memset(r, 0xaa, sizeof(r));
	EXPECT(&c, "comm one byte short", -TP_ENOSPC,
	       tp_rec__comm(r, 39, &fmt, 1, 1, "sleep", false));
	EXPECT(&c, "nothing written when it does not fit", 0xaa, r[0]);
	EXPECT(&c, "comm exactly fits", 40, tp_rec__comm(r, 40, &fmt, 1, 1, "sleep", false));
	memset(big, 'x', sizeof(big) - 1);
	EXPECT(&c, "name past the u16 size", -TP_E2BIG,
	       tp_rec__comm(r, sizeof(r), &fmt, 1, 1, big, false));
	EXPECT(&c, "round needs 8 bytes", -TP_ENOSPC, tp_rec__finished_round(r, 7, &fmt));
	case_end(&c);
}

static void test_records(void)
{
	struct tcase c = case_begin("records: sample_id trailer size from sample_type");

	EXPECT(&c, "TID|TIME", 16, tp_id_hdr_size(PERF_SAMPLE_TID | PERF_SAMPLE_TIME));
	EXPECT(&c, "IP|PERIOD carry no trailer", 0,
	       tp_id_hdr_size(PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD));
	EXPECT(&c, "all six", 48,
	       tp_id_hdr_size(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER |
			      PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN));
	case_end(&c);
	test_task_records();
	test_mmap2();
	test_record_limits();
}

static void test_sample(void)
{
	struct tcase c = case_begin("records: SAMPLE field order, callchain, RAW padding");
	const uint64_t type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	const uint64_t chain[3] = { PERF_CONTEXT_USER, 0x400123, 0x400200 };
	struct tp_sample s = {
		.id = 0x11, .ip = 0x400123, .pid = 5, .tid = 6, .time = 777, .cpu = 3,
		.period = 1000, .callchain = chain, .nr_callchain = 3, .raw = "hello", .raw_size = 5,
	};
	struct tp_rec_fmt fmt = { .id_hdr_size = 99 };	/* not used by samples */
	uint8_t r[256];
	int len;

	memset(r, 0xaa, sizeof(r));
	len = tp_rec__sample(r, sizeof(r), &fmt, type, PERF_RECORD_MISC_USER, &s);
	expect_header(&c, r, len, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 112, 0, false);
	EXPECT(&c, "identifier first", 0x11, rd64(r + 8, false));
	EXPECT(&c, "ip", 0x400123, rd64(r + 16, false));
	EXPECT(&c, "pid", 5, rd32(r + 24, false));
	EXPECT(&c, "tid", 6, rd32(r + 28, false));
	EXPECT(&c, "time", 777, rd64(r + 32, false));
	EXPECT(&c, "id", 0x11, rd64(r + 40, false));
	EXPECT(&c, "cpu", 3, rd32(r + 48, false));
	EXPECT(&c, "cpu reserved", 0, rd32(r + 52, false));
	EXPECT(&c, "period", 1000, rd64(r + 56, false));
	EXPECT(&c, "callchain nr", 3, rd64(r + 64, false));
	EXPECT(&c, "callchain context", PERF_CONTEXT_USER, rd64(r + 72, false));
	EXPECT(&c, "callchain last", 0x400200, rd64(r + 88, false));
	EXPECT(&c, "raw size counts the padding", 12, rd32(r + 96, false));
	expect_mem(&c, "raw data zero-padded", "hello\0\0\0\0\0\0\0", r + 100, 12);

	len = tp_rec__sample(r, sizeof(r), &fmt, PERF_SAMPLE_RAW, 0,
			     &(struct tp_sample){ .raw_size = 0 });
	EXPECT(&c, "empty raw is {u32 4; u32 0}", 16, len);
	EXPECT(&c, "empty raw size", 4, rd32(r + 8, false));
	EXPECT(&c, "empty raw pad", 0, rd32(r + 12, false));

	fmt.swap = true;
	len = tp_rec__sample(r, sizeof(r), &fmt, PERF_SAMPLE_TID | PERF_SAMPLE_IP, 0, &s);
	EXPECT(&c, "swapped length", 24, len);
	EXPECT(&c, "swapped ip", 0x400123, rd64(r + 8, true));
	EXPECT(&c, "swapped pid", 5, rd32(r + 16, true));
	EXPECT(&c, "swapped tid", 6, rd32(r + 20, true));

	EXPECT(&c, "ADDR not encodable", -TP_EINVAL,
	       tp_rec__sample(r, sizeof(r), &fmt, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR, 0, &s));
	EXPECT(&c, "one byte short", -TP_ENOSPC,
	       tp_rec__sample(r, 111, &fmt, type, PERF_RECORD_MISC_USER, &s));
	s.nr_callchain = 9000;
	EXPECT(&c, "callchain past 64 KiB", -TP_E2BIG,
	       tp_rec__sample(r, sizeof(r), &fmt, type, PERF_RECORD_MISC_USER, &s));
	case_end(&c);
}
