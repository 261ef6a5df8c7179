/* SPDX-License-Identifier: MIT */
/* --coalesce: samples alike (same event, cpumode, pid, tid, ip and callchain) seen within a
 * flush interval become one SAMPLE record whose period is their sum, so a 1 kHz callchain
 * profile fits a 115200-baud line. The output is standard perf.data: perf report gives the
 * same percentages (it weighs samples by period). What is lost: the time of each merged
 * sample (the merged one carries the first one's) and its CPU (the first one's too).
 *
 * Samples with fields it cannot re-encode (RAW tracepoint data, READ, registers...) are left
 * alone. When coalescing, the coalescer writes the FINISHED_ROUND records (after each flush),
 * so that perf never sees a merged sample after a round that ended past its time.
 * Memory: a fixed table from the arena (COALESCE_ENTRIES keys, COALESCE_KEY_WORDS words of
 * callchains); when it fills, it is flushed early. */
#ifndef TINYPERF_RECORDER_OUT_COALESCE_H
#define TINYPERF_RECORDER_OUT_COALESCE_H

#include "libc-shim/types.h"
#include "include/tinyperf/perf_event.h"
#include "recorder/base/arena.h"

#define COALESCE_ENTRIES	4096
#define COALESCE_KEY_WORDS	(64 * 1024)	/* 512 KiB of keys */
#define COALESCE_MAX_IDS	256
#define COALESCE_DEFAULT_MS	1000

struct coalesce_entry;

struct coalesce {
	/* where merged samples go (the writer) */
	int (*write)(void *ctx, const void *buf, size_t len);
	void *ctx;
	uint32_t interval_ms;
	int64_t next_flush_ms;
	uint64_t sample_type;		/* of every event, unless mixed */
	bool mixed;
	uint32_t nr_ids;
	struct { uint64_t id, sample_type; } ids[COALESCE_MAX_IDS];
	uint32_t *buckets;
	struct coalesce_entry *e;
	uint32_t nr;
	uint64_t *keys;
	size_t keys_used;
	uint8_t *out;			/* one encoded sample */
	uint64_t samples_in, records_out, flushes;
};

/* 0 or -TP_ENOMEM */
int coalesce__init(struct coalesce *c, struct arena *a, uint32_t interval_ms,
		   int (*write)(void *ctx, const void *buf, size_t len), void *ctx);
/* the sample_type of event id (every event of the recording) */
void coalesce__add_id(struct coalesce *c, uint64_t id, uint64_t sample_type);
/* a SAMPLE record from a ring: true when taken (merged later), false to write it as is */
bool coalesce__add(struct coalesce *c, const struct perf_event_header *h);
/* ms until the next flush is due, at least 1 */
int coalesce__timeout(const struct coalesce *c, int64_t now_ms);
/* flush if the interval is over (or force): merged samples, then FINISHED_ROUND.
 * 0 or the first error of write(). */
int coalesce__tick(struct coalesce *c, int64_t now_ms, bool force);

#endif
