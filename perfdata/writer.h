/* SPDX-License-Identifier: MIT */
/* The perf.data writer, shared by the device recorder and the host `recv`. Its calls follow the
 * file: attrs (open) -> records (add, finished_round, checkpoint) -> features (close).
 *
 *   FILE: header (data.size 0) | ids | attrs | records ... | feature table | payloads,
 *         the header rewritten in place by checkpoint() and close() (the sink needs pwrite).
 *   PIPE: pipe header | HEADER_ATTR records | records and HEADER_FEATURE/BUILD_ID/TRACING_DATA
 *         records | terminator; written strictly in order, for stdout, sockets and serial.
 *
 * No allocation: every buffer is the caller's or a small one on the stack. Every call returns
 * 0 or -errno. A failed sink write leaves the output unusable, so that error is sticky: every
 * later call returns it.
 *
 * `swap` produces the other byte order: everything the writer generates (header, ids, attrs,
 * feature payloads built with tp_fbuf, HEADER_* records) is swapped; the records given to
 * tp_writer__add() are written as they are, since they normally come from a foreign device
 * already in its byte order. */
#ifndef TINYPERF_PERFDATA_WRITER_H
#define TINYPERF_PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/tinyperf/perf_data.h"
#include "perfdata/fbuf.h"
#include "perfdata/sink.h"

enum tp_writer_mode {
	TP_WRITER_FILE,
	TP_WRITER_PIPE,
};

/* one event: the attr it was opened with (native byte order), its name for EVENT_DESC
 * ("cpu-clock"), and the ids the kernel gave its fds (PERF_EVENT_IOC_ID) */
struct tp_writer_attr {
	const struct perf_event_attr *attr;
	const char *name;
	const uint64_t *ids;
	uint32_t nr_ids;
};

/* one feature section: payload bytes already in the output byte order (see features.h) */
struct tp_feat {
	uint32_t id;			/* HEADER_* or TP_FEAT_* */
	const void *data;
	size_t size;
};

/* The feat_id of the pipe-mode end marker. perf report takes exactly its own
 * HEADER_LAST_FEATURE there and fails on any other id at or past it ("wrong feature ID"), so
 * the marker can only suit one generation of readers: 32 is perf 6.1's (verified) and that of
 * the releases around it; the spec's 33 (after CPU_DOMAIN_INFO) is only the newest perf's.
 * 0 leaves the marker out, which every perf accepts (it only ends --header-only early). */
#define TP_PIPE_END_FEATURE	32

struct tp_writer {
	struct tp_sink *sink;
	enum tp_writer_mode mode;
	bool swap;
	bool closed;
	int err;			/* sticky sink error */
	uint32_t attr_size;		/* on-disk perf_event_attr size */
	uint32_t nr_attrs;
	uint64_t attrs_offset;		/* FILE */
	uint64_t data_offset;		/* FILE: where the records start */
	uint64_t data_size;		/* bytes given to add() and finished_round() */
	uint64_t pos;			/* bytes written to the sink so far, buf's included */
	/* Optional, set after open (NULL: every add() goes straight to the sink): add() gathers
	 * records shorter than buf_cap here and writes them in one go when the next would not
	 * fit, before anything else goes out, at tp_writer__flush() and before every header
	 * rewrite, so a checkpoint never counts bytes still here. A recorder making thousands of
	 * small state records pays a write() per buffer, not per record. */
	uint8_t *buf;
	uint32_t buf_cap, buf_len;
	/* PIPE: features already sent, so close() can be given the full list again */
	uint64_t pipe_sent[HEADER_FEAT_BITS / 64];
	/* PIPE settings, may be changed between open and close */
	uint32_t pipe_end_feature;	/* end marker feat_id, TP_PIPE_END_FEATURE; 0: none */
	bool pipe_private;		/* send TP_FEAT_* too (only tinyperf reads them; Linux
					 * perf report rejects them), default false */
};

/* attr_size: bytes of each attr to store, PERF_ATTR_SIZE_VER0..VER8. In a file, the smallest
 * that covers the fields in use keeps older readers happy (perf 6.1 rejects 136 as "a more
 * recent ABI"). In a pipe, perf 6.1 looks for the HEADER_ATTR ids at its own sizeof (128) and
 * reads a shorter attr's ids as its tail fields: harmless for one event without
 * PERF_SAMPLE_ID/IDENTIFIER, otherwise use 128 for such readers.
 * attrs[] is only read during the call. FILE mode needs a sink with pwrite, positioned at the
 * start of an empty file. */
int tp_writer__open(struct tp_writer *w, struct tp_sink *sink, enum tp_writer_mode mode,
		    bool swap, const struct tp_writer_attr *attrs, uint32_t nr_attrs,
		    uint32_t attr_size);

/* whole records (perf_event_header-prefixed), appended verbatim to the data section */
int tp_writer__add(struct tp_writer *w, const void *records, size_t len);

/* write out what add() gathered in buf (nothing to do without one): the caller's bound on
 * how long records stay in memory, e.g. before it waits for more */
int tp_writer__flush(struct tp_writer *w);

/* a PERF_RECORD_FINISHED_ROUND: nothing before it is reordered with anything after it */
int tp_writer__finished_round(struct tp_writer *w);

/* FILE: rewrite the header with the current data size and no features, so a file cut short
 * (SIGKILL, power loss) still reads up to here. PIPE: nothing to do. */
int tp_writer__checkpoint(struct tp_writer *w);

/* FILE, after a sink error (ENOSPC, EIO): rewrite the header over the records written whole
 * before the error, so the file reads up to there; the header lies in space already written,
 * so this usually succeeds on a full disk. The sticky error stays. 0 or -errno. */
int tp_writer__salvage(struct tp_writer *w);

/* PIPE: send these features now (perf reads them wherever they come), e.g. hostname and arch
 * at the start. FILE: nothing to do: features follow the data, give them all to close().
 * Either way close() may be given the same features again; PIPE skips those already sent. */
int tp_writer__pipe_features(struct tp_writer *w, const struct tp_feat *feats, unsigned nr);

/* FILE: feature table and payloads after the data (HOSTNAME is always present: perf needs it
 * to read the bitmap of a foreign-endian file; an empty one is written if none is given),
 * then the final header. PIPE: the features not sent yet and the end marker.
 * Features ids must be distinct, 1..255. */
int tp_writer__close(struct tp_writer *w, const struct tp_feat *feats, unsigned nr);

/* a tp_fbuf producing payloads in this writer's byte order */
static inline void tp_writer__fbuf(const struct tp_writer *w, struct tp_fbuf *f, void *buf,
				   size_t cap)
{
	tp_fbuf__init(f, buf, cap, w->swap);
}

#endif
