/* SPDX-License-Identifier: MIT */
/* Tracepoint format unit tests: a TRACING_DATA blob built here (perf's layout, either byte
 * order) with format files copied from a 6.x kernel, and records printed as perf script
 * prints them: sched_switch's flags and ternaries, arrays, dynamic strings, symbolic values
 * with names the file cannot define, and the field list when the print fmt is not usable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/error.h"
#include "host-tools/lib/trace/trace.h"
#include "tests/unit/check.h"

static const char sched_switch[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char sys_enter[] =
	"name: sys_enter\nID: 21\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

static const char named[] =
	"name: named\nID: 5\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:4;\tsize:4;\tsigned:0;\n"
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int mode;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"name=%s cpu=%03d mode=%s neg=%d\", __get_str(name), REC->cpu, "
	"__print_symbolic(REC->mode, { MODE_A, \"A\" }, { 1, \"ONE\" }), -(int)REC->cpu\n";

static const char fallback[] =
	"name: fallback\nID: 6\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int a;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:char c[8];\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"a=%d mask=%s\", REC->a, __get_bitmask(mask)\n";

struct buf {
	uint8_t b[8192];
	size_t n;
	bool be;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_num(struct buf *b, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		b->b[b->n + i] = (uint8_t)(v >> 8 * (b->be ? size - 1 - i : i));
	b->n += size;
}

static void put_format(struct buf *b, const char *f)
{
	put_num(b, strlen(f), 8);
	put(b, f, strlen(f));
}

static void make_blob(struct buf *b, bool be)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	memset(b, 0, sizeof(*b));
	b->be = be;
	put(b, magic, sizeof(magic));
	put(b, "0.6", 4);
	put_num(b, be, 1);
	put_num(b, 8, 1);		/* long size */
	put_num(b, 4096, 4);
	put(b, "header_page", 12);
	put_num(b, 0, 8);
	put(b, "header_event", 13);
	put_num(b, 0, 8);
	put_num(b, 0, 4);		/* ftrace formats */
	put_num(b, 2, 4);		/* systems */
	put(b, "sched", 6);
	put_num(b, 2, 4);
	put_format(b, sched_switch);
	put_format(b, named);
	put(b, "raw_syscalls", 13);
	put_num(b, 2, 4);
	put_format(b, sys_enter);
	put_format(b, fallback);
	put_num(b, 0, 4);		/* kallsyms */
	put_num(b, 0, 4);		/* printk */
	put_num(b, 0, 8);		/* saved cmdlines */
}

static void raw_num(uint8_t *raw, size_t off, uint64_t v, unsigned size, bool be)
{
	for (unsigned i = 0; i < size; i++)
		raw[off + i] = (uint8_t)(v >> 8 * (be ? size - 1 - i : i));
}

static bool same(struct tcase *c, const char *what, const char *want, const char *got)
{
	if (c->failed || !strcmp(want, got))
		return !c->failed;
	printf("[FAIL] %s: %s:\n  expected '%s'\n  got      '%s'\n", c->name, what, want, got);
	c->failed = true;
	return false;
}

static void test_records(bool be)
{
	struct tcase c = case_begin(be ? "records of a big-endian recording print as perf's" :
					 "records print as perf script prints them");
	struct tp_tracefmt *tf = NULL;
	uint8_t raw[128] = { 0 };
	struct buf b;
	char out[512];

	make_blob(&b, be);
	EXPECT(&c, "parse", 0, tp_tracefmt__parse(&tf, b.b, b.n, NULL));
	EXPECT(&c, "events", 4, tp_tracefmt__nr_events(tf));
	EXPECT_TRUE(&c, "sched_switch by id", tp_tracefmt__event(tf, 372));
	EXPECT_TRUE(&c, "no id 7", !tp_tracefmt__event(tf, 7));

	memcpy(raw + 8, "perf", 5);
	raw_num(raw, 24, 22300, 4, be);
	raw_num(raw, 28, 120, 4, be);
	raw_num(raw, 32, 2, 8, be);		/* D */
	memcpy(raw + 40, "migration/0", 12);
	raw_num(raw, 56, 18, 4, be);
	raw_num(raw, 60, 0, 4, be);
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 372), raw, 64, out, sizeof(out));
	same(&c, "sched_switch", "prev_comm=perf prev_pid=22300 prev_prio=120 prev_state=D ==> "
	     "next_comm=migration/0 next_pid=18 next_prio=0", out);
	raw_num(raw, 32, 0x101, 8, be);		/* S and preempted: "S+" */
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 372), raw, 64, out, sizeof(out));
	EXPECT_TRUE(&c, "S+", strstr(out, "prev_state=S+ ==>"));
	raw_num(raw, 32, 0, 8, be);		/* running: "R" */
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 372), raw, 64, out, sizeof(out));
	EXPECT_TRUE(&c, "R", strstr(out, "prev_state=R ==>"));

	memset(raw, 0, sizeof(raw));
	raw_num(raw, 8, 16, 8, be);
	raw_num(raw, 16, 0xb, 8, be);
	raw_num(raw, 24, 0x2400, 8, be);
	raw_num(raw, 40, 0x7f14e0a2b5e0, 8, be);
	raw_num(raw, 48, 1, 8, be);
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 21), raw, 64, out, sizeof(out));
	same(&c, "sys_enter", "NR 16 (b, 2400, 0, 7f14e0a2b5e0, 1, 0)", out);

	memset(raw, 0, sizeof(raw));
	raw_num(raw, 4, 6u << 16 | 16, 4, be);	/* 6 bytes at 16 */
	raw_num(raw, 8, 7, 4, be);
	raw_num(raw, 12, 5, 4, be);
	memcpy(raw + 16, "kwork", 6);
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 5), raw, 22, out, sizeof(out));
	same(&c, "dynamic string, %03d, unknown symbolic name", "name=kwork cpu=007 mode=0x5 "
	     "neg=-7", out);
	raw_num(raw, 12, 1, 4, be);
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 5), raw, 22, out, sizeof(out));
	EXPECT_TRUE(&c, "symbolic name found", strstr(out, "mode=ONE"));
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 5), raw, 18, out, sizeof(out));
	same(&c, "a string past the record's end: the fields", "name=? cpu=7 mode=1", out);

	memset(raw, 0, sizeof(raw));
	raw_num(raw, 4, (uint64_t)-3, 4, be);
	memcpy(raw + 8, "xy", 3);
	tp_tpevent__format(tf, tp_tracefmt__event(tf, 6), raw, 16, out, sizeof(out));
	same(&c, "an unsupported print fmt: the fields", "a=-3 c=xy", out);
	EXPECT(&c, "truncated output reports the length", 9,
	       tp_tpevent__format(tf, tp_tracefmt__event(tf, 6), raw, 16, out, 4));
	EXPECT(&c, "and stays terminated", 3, strlen(out));
	tp_tracefmt__delete(tf);
	case_end(&c);
}

static void test_bad(void)
{
	struct tcase c = case_begin("a blob that is not tracing data, or ends early");
	struct tp_tracefmt *tf = NULL;
	struct buf b;

	make_blob(&b, false);
	b.b[0] ^= 1;
	EXPECT(&c, "bad magic", -TP_ERR_BAD_FEATURE, tp_tracefmt__parse(&tf, b.b, b.n, NULL));
	make_blob(&b, false);
	EXPECT(&c, "cut in the last format: what was read is kept", 0,
	       tp_tracefmt__parse(&tf, b.b, b.n - 200, NULL));
	EXPECT(&c, "the events before the cut", 3, tp_tracefmt__nr_events(tf));
	tp_tracefmt__delete(tf);
	case_end(&c);
}

/* tracing data with no event format at all (a recording of no tracepoint): no events, and
 * no qsort(NULL, 0, ...), which UBSan refuses (issue 24) */
static void test_no_events(void)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcase c = case_begin("tracing data without any event format");
	struct tp_tracefmt *tf = NULL;
	struct buf b;

	memset(&b, 0, sizeof(b));
	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	put_num(&b, 0, 1);
	put_num(&b, 8, 1);
	put_num(&b, 4096, 4);
	put(&b, "header_page", 12);
	put_num(&b, 0, 8);
	put(&b, "header_event", 13);
	put_num(&b, 0, 8);
	put_num(&b, 0, 4);		/* ftrace formats */
	put_num(&b, 0, 4);		/* systems */
	put_num(&b, 0, 4);		/* kallsyms */
	put_num(&b, 0, 4);		/* printk */
	put_num(&b, 0, 8);		/* saved cmdlines */
	EXPECT(&c, "parse", 0, tp_tracefmt__parse(&tf, b.b, b.n, NULL));
	EXPECT(&c, "no events", 0, tp_tracefmt__nr_events(tf));
	tp_tracefmt__delete(tf);
	case_end(&c);
}

int main(void)
{
	test_no_events();
	test_records(false);
	test_records(true);
	test_bad();
	return check_summary("test-tracefmt");
}
