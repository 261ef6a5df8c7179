/* SPDX-License-Identifier: MIT */
/* The overwritable ring (--overwrite): read while paused, newest record first.
 *
 * The event has write_backward set and the ring is mapped read-only, so there is no data_tail:
 * the kernel never waits for us and overwrites the oldest records. It writes each record below
 * the previous one and publishes it by moving data_head *down* (smp_wmb between the two, as for
 * a forward ring). We read only while the ring is paused (PERF_EVENT_IOC_PAUSE_OUTPUT 1 on
 * its fd; records produced meanwhile are dropped and counted by the kernel in the next
 * PERF_RECORD_LOST), so nothing moves under us:
 *
 *   head = load_acquire(&page->data_head)   records at and above head are visible after this
 *   ... read [head, end) upward: newest to oldest ...
 *   (no tail store: the mapping is read-only; prev = head remembers where this snapshot began)
 *
 * The barriers per arch are those of ring.c (arch/<arch>/arch.h). end is the previous
 * snapshot's head (records already written), unless the ring wrapped since then: the valid
 * extent is found by walking headers from head, stopping at a zero-size header (space the
 * kernel never wrote) or before the record that would pass one ring size from head (its
 * start was overwritten). A record straddling the ring's end is copied to the bounce buffer
 * for ->record() and written in two pieces. */
#include "libc-shim/shim.h"
#include "arch/arch.h"
#include "recorder/events/ring.h"

int ring__pause(struct ring *r, bool on)
{
	long e = sys_ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, on ? 1 : 0);

	return e < 0 ? (int)e : 0;
}

/* end of the valid records from head: the previous snapshot's head, or after a wrap the last
 * whole record within one ring size */
static uint64_t valid_end(const struct ring *r, uint64_t head)
{
	uint64_t mask = r->size - 1, evt = head, last = 0;

	if (r->prev - head <= r->size)
		return r->prev;
	for (;;) {
		const struct perf_event_header *h;

		if (evt - head >= r->size) {
			if (evt - head > r->size)
				evt -= last;
			return evt;
		}
		h = (const void *)(r->data + (evt & mask));
		if (h->size < sizeof(*h) || (h->size & 7))
			return evt;
		last = h->size;
		evt += h->size;
	}
}

long ring__read_backward(struct ring *r, const struct ring_ops *ops)
{
	uint64_t head, end, pos;
	bool bad;
	int err;

	if (!r->page)
		return 0;
	head = arch_load_acquire_u64(&r->page->data_head);
	end = valid_end(r, head);
	if (r->prev - head > r->size)
		r->overruns++;		/* wrapped since the last snapshot: the oldest are gone */
	/* a record that cannot be parsed ends the walk: the rest of this ring is lost */
	err = ring__walk(r, head, end, ops, &pos, &bad);
	r->prev = head;
	return err ? err : (long)(pos - head);
}
