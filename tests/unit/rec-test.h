/* SPDX-License-Identifier: MIT */
/* Shared by the recorder's host unit tests (tests/unit/test-rec-*.c): [OK]/[FAIL] reporting,
 * record encoders feeding a struct track, and the hit-DSO list as text. */
#ifndef TINYPERF_TESTS_UNIT_REC_TEST_H
#define TINYPERF_TESTS_UNIT_REC_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "recorder/track/track.h"

static int passed, failed;

static void check(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("[OK] %s\n", name);
		passed++;
		return;
	}
	printf("[FAIL] %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

/* ---- records: a sample_type with callchains and a sample_id trailer, like the command's ---- */

#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
static struct tp_rec_fmt fmt;
static uint64_t rb[1024];	/* one encoded record */

static inline int feed(struct track *t, int len)
{
	if (len < 0) {
		printf("encoder failed: %d\n", len);
		exit(2);
	}
	return track__record(t, (const struct perf_event_header *)rb);
}

static inline int sample(struct track *t, uint16_t mode, uint32_t pid, uint64_t ip,
		  const uint64_t *cc, uint32_t ncc)
{
	struct tp_sample s = { .id = 7, .ip = ip, .pid = pid, .tid = pid, .period = 1,
			       .callchain = cc, .nr_callchain = ncc };

	return feed(t, tp_rec__sample(rb, sizeof(rb), &fmt, TYPE, mode, &s));
}

static inline void mmap2(struct track *t, uint32_t pid, uint64_t addr, uint64_t len, uint64_t ino,
		  const char *name)
{
	struct tp_mmap2 m = { .pid = pid, .tid = pid, .addr = addr, .len = len, .maj = 8,
			      .ino = ino, .prot = 5, .flags = 2, .filename = name };

	feed(t, tp_rec__mmap2(rb, sizeof(rb), &fmt, PERF_RECORD_MISC_USER, &m));
}

static inline void task(struct track *t, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid)
{
	feed(t, type == PERF_RECORD_FORK ? tp_rec__fork(rb, sizeof(rb), &fmt, pid, ppid, tid, ppid, 0)
					 : tp_rec__exit(rb, sizeof(rb), &fmt, pid, ppid, tid, ppid, 0));
}

static inline void exec_comm(struct track *t, uint32_t pid, const char *comm)
{
	feed(t, tp_rec__comm(rb, sizeof(rb), &fmt, pid, pid, comm, true));
}

static inline void round_end(struct track *t)
{
	feed(t, tp_rec__finished_round(rb, sizeof(rb), &fmt));
}

/* the hit DSOs as "K path" lines (K: u user, k kernel, m module; +id when known) */
static char hitbuf[1 << 16];

static inline int hit_cb(void *ctx, const char *path, enum track_kind kind, const uint8_t *id,
		  uint8_t idlen)
{
	size_t n = strlen(hitbuf);

	(void)ctx;
	snprintf(hitbuf + n, sizeof(hitbuf) - n, "%c %s%s\n", "ukm"[kind], path,
		 id ? (idlen == 20 ? " +id" : " +short-id") : "");
	return 0;
}

static inline const char *hits(struct track *t)
{
	hitbuf[0] = '\0';
	track__for_each_hit_dso(t, hit_cb, NULL);
	return hitbuf;
}

static inline bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
