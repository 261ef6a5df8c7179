/* SPDX-License-Identifier: MIT */
/* Shared by the parts of test-writer (one program, one translation unit: the Makefile builds
 * each tests/unit/test-*.c on its own, so test-writer.c includes its parts from writer/). */
#ifndef TINYPERF_TESTS_WRITER_COMMON_H
#define TINYPERF_TESTS_WRITER_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arch/abi.h"
#include "perfdata/attr.h"
#include "perfdata/features.h"
#include "perfdata/records.h"
#include "perfdata/sink.h"
#include "perfdata/writer.h"
#include "../check.h"

#define ATTR_SIZE PERF_ATTR_SIZE_VER5	/* shorter than our struct: exercises truncation */

static const uint64_t ids0[] = { 1, 2 }, ids1[] = { 3 };

/* a sink into memory that can be told to fail */
struct mem_sink {
	struct tp_sink sink;
	uint8_t buf[16384];
	size_t len;
	size_t fail_at;		/* a write reaching past this many bytes fails (0: never) */
	unsigned writes;	/* write() calls that succeeded */
};

static int mem_write(struct tp_sink *s, const void *p, size_t n)
{
	struct mem_sink *m = (struct mem_sink *)s;

	if ((m->fail_at && m->len + n > m->fail_at) || n > sizeof(m->buf) - m->len)
		return -TP_EIO;
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	m->writes++;
	return 0;
}

static int mem_pwrite(struct tp_sink *s, const void *p, size_t n, uint64_t off)
{
	struct mem_sink *m = (struct mem_sink *)s;

	if (off > m->len || n > m->len - off)	/* the writer only rewrites what it wrote */
		return -TP_EINVAL;
	memcpy(m->buf + off, p, n);
	return 0;
}

static void mem_sink_init(struct mem_sink *m, bool seekable)
{
	memset(m, 0, sizeof(*m));
	m->sink.write = mem_write;
	m->sink.pwrite = seekable ? mem_pwrite : NULL;
}

/* reading back what was written, in either byte order */
static uint16_t rd16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* a cpu-clock attr with fields set to values that show up when swapped wrongly */
static struct perf_event_attr test_attr(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_MMAP | PERF_ATTR_FLAG_COMM |
		  PERF_ATTR_FLAG_SAMPLE_ID_ALL | PERF_ATTR_PRECISE_IP(1);
	a.wakeup_events = 7;
	a.sample_max_stack = 127;
	a.clockid = -3;
	return a;
}

#endif
