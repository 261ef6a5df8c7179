/* SPDX-License-Identifier: MIT */
/* Encoders for the records tinyperf synthesizes itself (the kernel writes all the others):
 * the task and mapping state before recording starts, round markers, loss counts, and samples
 * (for the serial coalescer and for tests). Each writes one record into buf and returns its
 * length, or -TP_ENOSPC if it does not fit in cap, -TP_E2BIG past the 64 KiB record limit,
 * -TP_EINVAL for arguments it cannot encode.
 *
 * Non-sample records end with a zeroed sample_id trailer of fmt->id_hdr_size bytes, as perf's
 * own synthesized records do: time 0 sorts them before the samples. */
#ifndef TINYPERF_PERFDATA_RECORDS_H
#define TINYPERF_PERFDATA_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/tinyperf/perf_event.h"

struct tp_rec_fmt {
	uint16_t id_hdr_size;	/* tp_id_hdr_size(sample_type) if attr has sample_id_all, else 0 */
	bool swap;		/* encode in the other byte order */
};

/* size of the sample_id trailer the kernel appends to non-sample records for sample_type */
uint16_t tp_id_hdr_size(uint64_t sample_type);

int tp_rec__comm(void *buf, size_t cap, const struct tp_rec_fmt *fmt,
		 uint32_t pid, uint32_t tid, const char *comm, bool exec);

/* MMAP: misc is the cpumode, e.g. PERF_RECORD_MISC_KERNEL with pid (uint32_t)-1, tid 0 and
 * "[kernel.kallsyms]_text" for the kernel map (pgoff = runtime address of _text) */
int tp_rec__mmap(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint16_t misc,
		 uint32_t pid, uint32_t tid, uint64_t addr, uint64_t len, uint64_t pgoff,
		 const char *filename);

struct tp_mmap2 {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	/* build_id_size != 0 selects the build-id form (misc MMAP_BUILD_ID) over maj/min/ino;
	 * host builds only: a device build (CONFIG_REC_RECORD) returns -TP_EINVAL */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	const uint8_t *build_id;
	uint8_t build_id_size;		/* <= 20 */
	uint32_t prot, flags;		/* PROT_*, MAP_* as the kernel reports them */
	const char *filename;
};

int tp_rec__mmap2(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint16_t misc,
		  const struct tp_mmap2 *m);

int tp_rec__fork(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t pid,
		 uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time);
int tp_rec__exit(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t pid,
		 uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time);

/* 8 bytes, no trailer: perf never gives user-type records a sample_id */
int tp_rec__finished_round(void *buf, size_t cap, const struct tp_rec_fmt *fmt);

/* PERF_RECORD_LOST (ring overflow: id of the event, records lost) */
int tp_rec__lost(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t id, uint64_t lost);
/* PERF_RECORD_LOST_SAMPLES */
int tp_rec__lost_samples(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t lost);

/* sample_type bits tp_rec__sample can encode */
#define TP_REC_SAMPLE_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			     PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
			     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)

struct tp_sample {
	uint64_t id;			/* IDENTIFIER and ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t period;
	const uint64_t *callchain;	/* with PERF_CONTEXT_* markers, as the kernel writes it */
	uint32_t nr_callchain;
	const void *raw;		/* copied as is: give it in the output byte order */
	uint32_t raw_size;
};

/* fmt->id_hdr_size is not used (samples carry their ids in the body); misc is the cpumode */
int tp_rec__sample(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t sample_type,
		   uint16_t misc, const struct tp_sample *s);

#endif
