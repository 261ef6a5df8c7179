/* SPDX-License-Identifier: MIT */
/* Unit tests for perfdata/: fbuf limits and strings, attr byte-order conversion and build-id
 * records here; record encoders (writer/records.c); the file writer, its checkpoint and its
 * byte-swapped output re-read field by field (writer/file.c); pipe-mode framing
 * (writer/pipe.c). `test-writer --emit FILE ...` writes a synthetic recording instead
 * (writer/emit.c) for tests/unit/writer-peer.sh to hand to Linux perf.
 *
 * Built by `make HOST_SANITIZE=1 host-tests` like every tests/unit/test-*.c: this file
 * linked with the .c files of perfdata/, libc-shim/common/ and libc-shim/hosted/. */
#define _POSIX_C_SOURCE 200809L	/* open(), uname() for --emit under -std=c11 */

#include "writer/common.h"

/* ---- fbuf ---- */
static void test_fbuf_limits(void)
{
	struct tcase c = case_begin("fbuf: sticky -ENOSPC, nothing appended after it");
	uint8_t mem[14];
	struct tp_fbuf f;

	tp_fbuf__init(&f, mem, sizeof(mem), false);
	tp_fbuf__u64(&f, 1);
	tp_fbuf__u32(&f, 2);
	EXPECT(&c, "len after 12 bytes", 12, f.len);
	EXPECT(&c, "err while it fits", 0, tp_fbuf__err(&f));
	tp_fbuf__u32(&f, 3);
	EXPECT(&c, "err when a u32 does not fit", -TP_ENOSPC, f.err);
	EXPECT(&c, "len unchanged by the failed append", 12, f.len);
	tp_fbuf__u16(&f, 4);
	EXPECT(&c, "a u16 that would fit is refused after the error", 12, f.len);
	tp_fbuf__reset(&f);
	tp_fbuf__string(&f, "x");
	EXPECT(&c, "a string that does not fit is not started", 0, f.len);
	tp_fbuf__reset(&f);
	{
		uint64_t v[2] = { 1, 2 };

		tp_fbuf__u32(&f, 9);
		tp_fbuf__u64_array(&f, v, 2);
		EXPECT(&c, "u64 array is all or nothing", 4, f.len);
		EXPECT(&c, "u64 array error", -TP_ENOSPC, f.err);
	}
	tp_fbuf__init(&f, mem, sizeof(mem), false);
	tp_fbuf__u32(&f, 1);
	tp_fbuf__pad(&f, 8);
	EXPECT(&c, "pad to 8", 8, f.len);
	tp_fbuf__pad(&f, 8);
	EXPECT(&c, "pad when aligned adds nothing", 8, f.len);
	EXPECT(&c, "pad bytes are zero", 0, rd32(mem + 4, false));
	case_end(&c);
}

static void test_fbuf_strings(void)
{
	struct tcase c = case_begin("fbuf: perf strings are u32 len + NUL-padded to 64");
	static const struct { const char *s; uint32_t len; } cases[] = {
		{ "", 64 }, { "abc", 64 },
		{ "012345678901234567890123456789012345678901234567890123456789012", 64 },
		{ "0123456789012345678901234567890123456789012345678901234567890123", 128 },
	};
	uint8_t mem[512];
	struct tp_fbuf f;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = strlen(cases[i].s);
		uint8_t zeros[128] = { 0 };

		tp_fbuf__init(&f, mem, sizeof(mem), false);
		memset(mem, 0xaa, sizeof(mem));
		tp_fbuf__string(&f, cases[i].s);
		EXPECT(&c, "len field", cases[i].len, rd32(mem, false));
		EXPECT(&c, "bytes appended", 4 + cases[i].len, f.len);
		EXPECT(&c, "tp_fbuf_string_size", f.len, tp_fbuf_string_size(cases[i].s));
		expect_mem(&c, "string bytes", cases[i].s, mem + 4, n);
		expect_mem(&c, "NUL and padding", zeros, mem + 4 + n, cases[i].len - n);
	}
	{
		const char *argv[] = { "tinyperf", "record" };

		tp_fbuf__init(&f, mem, sizeof(mem), true);
		tp_fbuf__string_list(&f, argv, 2);
		EXPECT(&c, "string list nr (swapped)", 2, rd32(mem, true));
		EXPECT(&c, "string list first len (swapped)", 64, rd32(mem + 4, true));
		EXPECT(&c, "second string after the first", 'r', mem[4 + 68 + 4]);
		EXPECT(&c, "string list size", 4 + 2 * 68, f.len);
	}
	case_end(&c);
}

static void test_fbuf_swap(void)
{
	struct tcase c = case_begin("fbuf: integers byte-swapped on request");
	uint8_t mem[16];
	struct tp_fbuf f;
	uint16_t v16 = 0x0102;
	uint32_t v32 = 0x01020304;
	uint64_t v64 = 0x0102030405060708ULL;

	tp_fbuf__init(&f, mem, sizeof(mem), true);
	tp_fbuf__u16(&f, v16);
	tp_fbuf__u32(&f, v32);
	tp_fbuf__u64(&f, v64);
	EXPECT(&c, "u16", __builtin_bswap16(v16), rd16(mem, false));
	EXPECT(&c, "u32", __builtin_bswap32(v32), rd32(mem + 2, false));
	EXPECT(&c, "u64", __builtin_bswap64(v64), rd64(mem + 6, false));
	case_end(&c);
}

/* ---- attr byte order ---- */
static void test_attr_swap(void)
{
	struct tcase c = case_begin("attr: foreign layout of the flag word and round trip");
	/* disabled | freq | precise_ip=1 | sample_id_all, as GCC lays it out for x86 and for
	 * big-endian MIPS (read from the objects' .data) */
	static const uint8_t le[8] = { 0x01, 0x84, 0x04 }, be[8] = { 0x80, 0x20, 0xa0 };
	bool host_le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	struct perf_event_attr a, b;

	memset(&a, 0, sizeof(a));
	a.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_FREQ | PERF_ATTR_PRECISE_IP(1) |
		  PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	expect_mem(&c, "native flag bytes", host_le ? le : be, &a.flags, 8);
	tp_attr__to_foreign(&a);
	expect_mem(&c, "foreign flag bytes", host_le ? be : le, &a.flags, 8);

	for (unsigned p = 0; p < 4; p++) {
		a = test_attr();
		PERF_ATTR_SET_PRECISE_IP(a.flags, p);
		b = a;
		tp_attr__to_foreign(&b);
		EXPECT(&c, "type swapped", __builtin_bswap32(a.type), b.type);
		EXPECT(&c, "config swapped", __builtin_bswap64(a.config), b.config);
		EXPECT(&c, "sample_max_stack swapped", __builtin_bswap16(a.sample_max_stack),
		       b.sample_max_stack);
		tp_attr__from_foreign(&b);
		expect_mem(&c, "round trip", &a, &b, sizeof(a));
	}
	case_end(&c);
}

/* ---- build-id records ---- */
static void test_build_id(void)
{
	struct tcase c = case_begin("build-id records: ALIGN(36 + strlen + 1, 8), fields");
	static const struct { const char *name; size_t size; } cases[] = {
		{ "", 40 }, { "abc", 40 }, { "abcd", 48 }, { "/usr/lib/libc.so.6", 56 },
		{ "[kernel.kallsyms]", 56 },
	};
	uint8_t id[20], mem[256], zeros[64] = { 0 };
	struct tp_fbuf f;

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct tp_build_id b = { PERF_RECORD_MISC_USER, id, 20, cases[i].name };
		size_t n = strlen(cases[i].name);

		memset(mem, 0xaa, sizeof(mem));
		tp_fbuf__init(&f, mem, sizeof(mem), false);
		EXPECT(&c, "encode", 0, tp_fbuf__build_id(&f, &b));
		EXPECT(&c, "record size", cases[i].size, f.len);
		EXPECT(&c, "header.size", cases[i].size, rd16(mem + 6, false));
		EXPECT(&c, "header.type", PERF_RECORD_HEADER_BUILD_ID, rd32(mem, false));
		EXPECT(&c, "header.misc", PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
		       rd16(mem + 4, false));
		EXPECT(&c, "pid", 0xffffffff, rd32(mem + 8, false));
		expect_mem(&c, "id", id, mem + 12, 20);
		EXPECT(&c, "size byte", 20, mem[32]);
		EXPECT(&c, "reserved1", 0, mem[33]);
		EXPECT(&c, "reserved2", 0, rd16(mem + 34, false));
		expect_mem(&c, "filename", cases[i].name, mem + 36, n);
		expect_mem(&c, "NUL and padding", zeros, mem + 36 + n, cases[i].size - 36 - n);
	}
	{
		uint8_t short_id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		struct tp_build_id b = { PERF_RECORD_MISC_KERNEL, short_id, 8, "[kernel.kallsyms]" };

		tp_fbuf__init(&f, mem, sizeof(mem), true);
		EXPECT(&c, "short id", 0, tp_fbuf__build_id(&f, &b));
		EXPECT(&c, "short id size byte", 8, mem[32]);
		expect_mem(&c, "short id zero-padded", zeros, mem + 20, 12);
		EXPECT(&c, "swapped misc", PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE,
		       rd16(mem + 4, true));
		b.size = 0;
		EXPECT(&c, "size 0 rejected", -TP_EINVAL, tp_fbuf__build_id(&f, &b));
		b.size = 21;
		EXPECT(&c, "size 21 rejected", -TP_EINVAL, tp_fbuf__build_id(&f, &b));
		b.size = 8;
		tp_fbuf__init(&f, mem, 50, false);
		EXPECT(&c, "no room", -TP_ENOSPC, tp_fbuf__build_id(&f, &b));
		EXPECT(&c, "nothing appended without room", 0, f.len);
	}
	case_end(&c);
}

/* the other parts of the program: see writer/common.h for why they are included */
#include "writer/records.c"
#include "writer/file.c"
#include "writer/pipe.c"
#include "writer/emit.c"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--emit"))
		return writer_emit_main(argc, argv);

	test_fbuf_limits();
	test_fbuf_strings();
	test_fbuf_swap();
	test_attr_swap();
	test_build_id();
	test_records();
	test_sample();
	test_writer_file();
	test_writer_errors();
	test_writer_buffered();
	test_writer_swapped();
	test_writer_pipe();
	test_writer_pipe_swapped();
	return check_summary("test-writer");
}
