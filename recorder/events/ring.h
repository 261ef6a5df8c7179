/* SPDX-License-Identifier: MIT */
/* One perf mmap ring (1 control page + 2^n data pages), read forward. */
#ifndef TINYPERF_RECORDER_EVENTS_RING_H
#define TINYPERF_RECORDER_EVENTS_RING_H

#include "libc-shim/types.h"
#include "include/tinyperf/perf_event.h"

struct ring {
	volatile struct perf_event_mmap_page *page;
	uint8_t *data;
	uint64_t size;          /* data area bytes, a power of two */
	uint64_t prev;          /* everything before this was consumed (our data_tail) */
	size_t map_len;
	int fd;
	uint64_t overruns;      /* times the head ran more than a whole ring ahead of us */
};

/* What the reader does with each record: ->record() sees every record contiguous in memory
 * (straddlers are copied to a bounce buffer) and returns true to keep it; kept records go to
 * ->write() in the largest contiguous pieces the ring allows, straight from the mapping. */
struct ring_ops {
	bool (*record)(void *ctx, const struct perf_event_header *h);
	int (*write)(void *ctx, const void *buf, size_t len);
	void *ctx;
	uint8_t *bounce;        /* at least 64 KiB: the largest record */
};

/* map 1 + pages (a power of two) pages of fd, read-only for a write_backward ring;
 * 0 or -errno */
int ring__map(struct ring *r, int fd, unsigned pages, size_t page_size, bool writable);
void ring__unmap(struct ring *r);
/* true if the kernel has written something we have not read */
bool ring__pending(struct ring *r);
/* consume everything available; returns bytes consumed or the first -errno of ->write()
 * (the tail is then left where the failed write started, so nothing is skipped silently) */
long ring__read(struct ring *r, const struct ring_ops *ops);
/* the same in two steps: the head (load-acquire), then consume up to that head only */
uint64_t ring__head(struct ring *r);
long ring__read_to(struct ring *r, uint64_t head, const struct ring_ops *ops);
/* the record walk both directions share: [start, end) in ring positions, at most r->size
 * apart (the callers check it), records to ->record() and the kept ones to ->write();
 * *pos_out is where it stopped, *bad says a record there could not be parsed. 0 or the
 * first -errno of ->write(). */
int ring__walk(struct ring *r, uint64_t start, uint64_t end, const struct ring_ops *ops,
	       uint64_t *pos_out, bool *bad);

/* --overwrite (recorder/events/ring-backward.c): a write_backward ring mapped read-only; read it only
 * while paused, from the head to the previous read's head or the valid extent after a wrap,
 * newest record first. Returns bytes read or the first -errno of ->write(). */
int ring__pause(struct ring *r, bool on);
long ring__read_backward(struct ring *r, const struct ring_ops *ops);

#endif
