/* SPDX-License-Identifier: MIT */
/* The ring protocol, in one place.
 *
 * The kernel writes records, then publishes them by moving data_head (smp_wmb between the
 * two). We pair with that:
 *
 *   head = load_acquire(&page->data_head)   records below head are visible after this
 *   ... read records in [prev, head) ...
 *   store_release(&page->data_tail, head)   our reads complete before the kernel may reuse
 *                                           the space (a full barrier before the store)
 *
 * Per arch (arch/<arch>/arch.h): x86_64 and i386 are TSO, so acquire/release are compiler
 * barriers around plain accesses (i386 uses a locked add as its full barrier); aarch64 uses
 * ldar/stlr; armv7 uses dmb ish (never the kuser helpers, which hardened kernels remove);
 * MIPS uses sync. On 32-bit arches data_head is read hi-lo-hi (arch/barrier.h).
 *
 * Records are 8-byte aligned and the ring is a power of two, so a header never straddles the
 * end, but a record body may: such a record is copied to the bounce buffer for ->record(),
 * and written as two pieces. */
#include "libc-shim/shim.h"
#include "arch/arch.h"
#include "recorder/events/ring.h"

int ring__map(struct ring *r, int fd, unsigned pages, size_t page_size, bool writable)
{
	long addr;

	if (!pages || (pages & (pages - 1)))
		return -TP_EINVAL;
	memset(r, 0, sizeof(*r));
	r->map_len = (size_t)(pages + 1) * page_size;
	/* read-only for --overwrite: without a writable data_tail the kernel overwrites */
	addr = sys_mmap(NULL, r->map_len, TP_PROT_READ | (writable ? TP_PROT_WRITE : 0),
			TP_MAP_SHARED, fd, 0);
	if (addr < 0 && addr > -4096)
		return (int)addr;
	r->page = (volatile struct perf_event_mmap_page *)addr;
	r->data = (uint8_t *)addr + page_size;
	r->size = (uint64_t)pages * page_size;
	r->fd = fd;
	return 0;
}

void ring__unmap(struct ring *r)
{
	if (r->page)
		sys_munmap((void *)r->page, r->map_len);
	r->page = NULL;
}

bool ring__pending(struct ring *r)
{
	return r->page && arch_load_acquire_u64(&r->page->data_head) != r->prev;
}

/* kept records accumulate into one contiguous span of the mapping, written when it breaks */
struct span {
	const uint8_t *p;
	size_t len;
};

static int flush(struct span *s, const struct ring_ops *ops)
{
	int err = 0;

	if (s->len)
		err = ops->write(ops->ctx, s->p, s->len);
	s->len = 0;
	return err;
}

int ring__walk(struct ring *r, uint64_t start, uint64_t end, const struct ring_ops *ops,
	       uint64_t *pos_out, bool *bad)
{
	/* end - start is at most the ring's size (every caller checks), which is mapped
	 * memory: the walk counts in size_t, no 64-bit arithmetic on 32-bit targets */
	size_t len = (size_t)(end - start), done, mask = (size_t)r->size - 1;
	struct span span = { r->data, 0 };
	int err = 0;

	*bad = false;
	for (done = 0; done != len;) {
		size_t off = ((size_t)start + done) & mask;
		const struct perf_event_header *h = (const void *)(r->data + off);
		size_t size = h->size, first;

		if (size < sizeof(*h) || size > len - done) {
			*bad = true;
			break;
		}
		/* a record straddling the end is parsed from a copy and written as two pieces:
		 * the first may extend the span, the second starts the next one */
		first = TP_MIN(size, (size_t)r->size - off);
		if (first < size) {
			memcpy(ops->bounce, h, first);
			memcpy(ops->bounce + first, r->data, size - first);
		}
		if (ops->record(ops->ctx, first < size ? (const void *)ops->bounce : h)) {
			if (span.p + span.len != (const uint8_t *)h) {
				err = flush(&span, ops);
				span.p = (const uint8_t *)h;
			}
			span.len += first;
			if (!err && first < size) {
				err = flush(&span, ops);
				span.p = r->data;
				span.len = size - first;
			}
			if (err)
				break;
		}
		done += size;
	}
	if (!err)
		err = flush(&span, ops);
	*pos_out = start + done;
	return err;
}

long ring__read(struct ring *r, const struct ring_ops *ops)
{
	return r->page ? ring__read_to(r, ring__head(r), ops) : 0;
}

uint64_t ring__head(struct ring *r)
{
	return arch_load_acquire_u64(&r->page->data_head);
}

long ring__read_to(struct ring *r, uint64_t head, const struct ring_ops *ops)
{
	uint64_t pos;
	long consumed;
	bool bad;
	int err;

	if (!r->page)
		return 0;
	if (head - r->prev > r->size) {
		/* cannot happen with a writable tail unless the kernel and we disagree: count
		 * it and resynchronise rather than parse garbage */
		r->overruns++;
		r->prev = head;
		arch_store_release_u64(&r->page->data_tail, head);
		return 0;
	}
	err = ring__walk(r, r->prev, head, ops, &pos, &bad);
	if (bad) {
		/* a record we cannot parse: drop the rest of this batch, counted */
		r->overruns++;
		pos = head;
	}
	if (err)
		return err;
	arch_store_release_u64(&r->page->data_tail, pos);
	consumed = (long)(pos - r->prev);
	r->prev = pos;
	return consumed;
}
