/* SPDX-License-Identifier: MIT */
/* Device-side unit tests, built for every target and run under qemu-user: the ring reader
 * against a simulated ring (a "kernel" writing records, wrap-around included) and the
 * perf.data writer into a memory sink (file and pipe framing), in the target's own byte order
 * and word size. One [OK]/[FAIL] line per case, then "test-dev: N passed, N failed". */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/features.h"
#include "perfdata/records.h"
#include "perfdata/writer.h"
#include "recorder/events/ring.h"

static unsigned passed, failed;

static void check(bool ok, const char *name, const char *fmt, ...) TP_PRINTF(3, 4);
static void check(bool ok, const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (ok) {
		passed++;
		tp_dprintf(1, "[OK] %s\n", name);
		return;
	}
	failed++;
	va_start(ap, fmt);
	tp_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tp_dprintf(1, "[FAIL] %s: %s\n", name, buf);
}

/* ---- simulated ring ---- */

#define PAGES 2
#define PAGE 4096

static uint64_t mem[(PAGES + 1) * PAGE / 8];
static uint8_t bounce[65536];
static uint8_t out[4 * PAGES * PAGE];
static size_t out_len;
static unsigned seen, kept_every;
static uint64_t expect_seq;
static bool order_ok = true;

/* the "kernel": append a record of size bytes carrying seq at the ring's head */
static void kwrite(struct ring *r, uint32_t size, uint64_t seq)
{
	volatile struct perf_event_mmap_page *pg = r->page;
	uint64_t head = pg->data_head;
	uint8_t rec[512];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)size };

	memset(rec, (int)(seq & 0xff), size);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &seq, 8);
	for (uint32_t i = 0; i < size; i++)
		r->data[(head + i) & (r->size - 1)] = rec[i];
	pg->data_head = head + size;
}

static bool on_rec(void *ctx, const struct perf_event_header *h)
{
	uint64_t seq;

	(void)ctx;
	memcpy(&seq, (const char *)h + 8, 8);
	if (seq != expect_seq)
		order_ok = false;
	expect_seq = seq + 1;
	for (unsigned i = 16; i < h->size; i++)
		if (((const uint8_t *)h)[i] != (uint8_t)(seq & 0xff))
			order_ok = false;
	seen++;
	return kept_every ? seq % kept_every == 0 : true;
}

static int on_write(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	if (out_len + len > sizeof(out))
		return -TP_ENOSPC;
	memcpy(out + out_len, buf, len);
	out_len += len;
	return 0;
}

/* walk the written bytes: records must be whole, in order, and exactly the kept ones */
static bool output_ok(unsigned want_records, unsigned every)
{
	size_t pos = 0;
	unsigned n = 0;
	uint64_t last = 0;

	while (pos + 16 <= out_len) {
		struct perf_event_header h;
		uint64_t seq;

		memcpy(&h, out + pos, sizeof(h));
		memcpy(&seq, out + pos + 8, 8);
		if (h.size < 16 || pos + h.size > out_len || (every && seq % every) ||
		    (n && seq <= last))
			return false;
		last = seq;
		pos += h.size;
		n++;
	}
	return pos == out_len && n == want_records;
}

static void test_ring(void)
{
	struct ring r;
	struct ring_ops ops = { on_rec, on_write, NULL, bounce };
	uint64_t seq = 0;
	unsigned total = 0, kept = 0;
	long got;

	memset(&r, 0, sizeof(r));
	r.page = (volatile struct perf_event_mmap_page *)mem;
	r.data = (uint8_t *)mem + PAGE;
	r.size = PAGES * PAGE;

	/* many passes of odd-sized records: the head wraps the ring several times and records
	 * straddle its end at varying offsets */
	for (unsigned pass = 0; pass < 40; pass++) {
		unsigned n = 5 + pass % 7;

		out_len = 0;
		seen = 0;
		kept_every = pass % 3 == 2 ? 3 : 0;
		kept = 0;
		for (unsigned i = 0; i < n; i++) {
			uint32_t size = 16 + 8 * ((pass * 7 + i * 13) % 60);

			kwrite(&r, size, seq);
			if (!kept_every || seq % kept_every == 0)
				kept++;
			seq++;
		}
		got = ring__read(&r, &ops);
		total += seen;
		if (seen != n || !output_ok(kept, kept_every) || got <= 0 ||
		    r.page->data_tail != r.page->data_head) {
			check(false, "ring: wrap-around pass", "pass %u: seen %u of %u, %zu bytes out, "
			      "tail %llu head %llu", pass, seen, n, out_len,
			      (unsigned long long)r.page->data_tail, (unsigned long long)r.page->data_head);
			return;
		}
	}
	check(order_ok, "ring: records in order with intact bodies (incl. straddlers)",
	      "a record came out of order or corrupted");
	check(r.page->data_head > 4 * r.size, "ring: head wrapped the ring several times",
	      "head only reached %llu", (unsigned long long)r.page->data_head);
	check(total == seq, "ring: every record seen once", "%u of %llu", total,
	      (unsigned long long)seq);
	got = ring__read(&r, &ops);
	check(got == 0, "ring: nothing pending after a full read", "read %ld", got);

	/* a write error leaves the tail alone so nothing is lost silently */
	kwrite(&r, 64, seq++);
	out_len = sizeof(out);
	got = ring__read(&r, &ops);
	check(got == -TP_ENOSPC && r.page->data_tail != r.page->data_head,
	      "ring: a failed write keeps the data unconsumed", "got %ld", got);
}

/* ---- simulated backward (--overwrite) ring ---- */

static uint64_t bk_next;	/* the seq the next record read must carry (newest first) */
static bool bk_ok = true;
static unsigned bk_seen;

/* the "kernel" of a write_backward ring: head moves down, the record goes at the new head */
static void kwrite_back(struct ring *r, uint32_t size, uint64_t seq)
{
	volatile struct perf_event_mmap_page *pg = r->page;
	uint64_t head = pg->data_head - size;
	uint8_t rec[512];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)size };

	memset(rec, (int)(seq & 0xff), size);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &seq, 8);
	for (uint32_t i = 0; i < size; i++)
		r->data[(head + i) & (r->size - 1)] = rec[i];
	pg->data_head = head;
}

static bool on_back(void *ctx, const struct perf_event_header *h)
{
	uint64_t seq;

	(void)ctx;
	memcpy(&seq, (const char *)h + 8, 8);
	if (seq != bk_next)
		bk_ok = false;
	bk_next = seq - 1;
	for (unsigned i = 16; i < h->size; i++)
		if (((const uint8_t *)h)[i] != (uint8_t)(seq & 0xff))
			bk_ok = false;
	bk_seen++;
	return true;
}

static uint32_t bk_size(uint64_t seq)
{
	return 16 + 8 * (uint32_t)((seq * 13) % 60);
}

static void test_ring_backward(void)
{
	struct ring r;
	struct ring_ops ops = { on_back, on_write, NULL, bounce };
	uint64_t seq = 1, bytes;
	unsigned want;
	long got;

	memset(mem, 0, sizeof(mem));
	memset(&r, 0, sizeof(r));
	r.page = (volatile struct perf_event_mmap_page *)mem;
	r.data = (uint8_t *)mem + PAGE;
	r.size = PAGES * PAGE;

	/* not wrapped: every record, newest first, stopping at never-written space */
	for (unsigned i = 0; i < 5; i++, seq++)
		kwrite_back(&r, bk_size(seq), seq);
	out_len = 0, bk_seen = 0, bk_next = seq - 1;
	got = ring__read_backward(&r, &ops);
	check(bk_ok && bk_seen == 5 && (uint64_t)got == out_len,
	      "ring-backward: first snapshot, newest first", "seen %u of 5, ok %d", bk_seen, bk_ok);

	/* the next snapshot stops at the previous one's head */
	for (unsigned i = 0; i < 3; i++, seq++)
		kwrite_back(&r, bk_size(seq), seq);
	out_len = 0, bk_seen = 0, bk_next = seq - 1;
	ring__read_backward(&r, &ops);
	check(bk_ok && bk_seen == 3, "ring-backward: second snapshot only the new records",
	      "seen %u of 3", bk_seen);

	/* wrapped several times: the newest records that fit whole in one ring size, the
	 * straddlers intact */
	for (unsigned i = 0; i < 400; i++, seq++)
		kwrite_back(&r, bk_size(seq), seq);
	want = 0;
	bytes = 0;
	for (uint64_t q = seq - 1; bytes + bk_size(q) <= r.size; q--, want++)
		bytes += bk_size(q);
	out_len = 0, bk_seen = 0, bk_next = seq - 1;
	got = ring__read_backward(&r, &ops);
	check(bk_ok && bk_seen == want && (uint64_t)got == bytes && out_len == bytes,
	      "ring-backward: wrapped ring read to its valid extent (incl. straddlers)",
	      "seen %u of %u, %ld bytes of %llu, ok %d", bk_seen, want, got,
	      (unsigned long long)bytes, bk_ok);
	check((uint64_t)0 - r.page->data_head > 4 * r.size, "ring-backward: head wrapped",
	      "head only %llu below 0", (unsigned long long)((uint64_t)0 - r.page->data_head));
	out_len = 0, bk_seen = 0;
	got = ring__read_backward(&r, &ops);
	check(got == 0 && bk_seen == 0, "ring-backward: nothing new after a snapshot",
	      "read %ld", got);
}

/* ---- writer into memory ---- */

static uint8_t wbuf[65536];
static size_t wlen;

static int mem_write(struct tp_sink *s, const void *buf, size_t len)
{
	(void)s;
	if (wlen + len > sizeof(wbuf))
		return -TP_ENOSPC;
	memcpy(wbuf + wlen, buf, len);
	wlen += len;
	return 0;
}

static int mem_pwrite(struct tp_sink *s, const void *buf, size_t len, uint64_t off)
{
	(void)s;
	if (off + len > sizeof(wbuf))
		return -TP_ENOSPC;
	memcpy(wbuf + off, buf, len);
	if (off + len > wlen)
		wlen = (size_t)(off + len);
	return 0;
}

static void test_writer(bool pipe)
{
	struct tp_sink sink = { mem_write, pipe ? NULL : mem_pwrite };
	struct perf_event_attr attr;
	uint64_t ids[2] = { 7, 8 };
	struct tp_writer_attr wa = { &attr, "cpu-clock", ids, 2 };
	struct tp_writer w;
	struct tp_rec_fmt fmt = { tp_id_hdr_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID), false };
	uint8_t rec[256];
	struct tp_feat f;
	int n, err;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = PERF_ATTR_SIZE_VER0;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.flags = PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	wlen = 0;
	err = tp_writer__open(&w, &sink, pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, false, &wa, 1,
			      PERF_ATTR_SIZE_VER0);
	n = tp_rec__comm(rec, sizeof(rec), &fmt, 42, 42, "workload", true);
	err = err ?: (n > 0 ? tp_writer__add(&w, rec, (size_t)n) : n);
	err = err ?: tp_writer__finished_round(&w);
	tp_feat__blob(&f, HEADER_HOSTNAME, "\x08\0\0\0board\0\0\0", 12);
	err = err ?: tp_writer__close(&w, &f, 1);
	if (pipe) {
		struct perf_pipe_file_header ph;

		memcpy(&ph, wbuf, sizeof(ph));
		check(!err && ph.magic == PERF_MAGIC2 && ph.size == 16,
		      "writer: pipe header in native byte order", "err %d, size %llu", err,
		      (unsigned long long)ph.size);
	} else {
		struct perf_file_header fh;

		memcpy(&fh, wbuf, sizeof(fh));
		check(!err && fh.magic == PERF_MAGIC2 && fh.size == sizeof(fh) &&
		      fh.attr_size == PERF_ATTR_SIZE_VER0 + 16 && fh.data.size == (uint64_t)n + 8 &&
		      (fh.adds_features[0] & (1u << HEADER_HOSTNAME)),
		      "writer: file header, data size and feature bit", "err %d, data.size %llu",
		      err, (unsigned long long)fh.data.size);
	}
}

int main(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	test_ring();
	test_ring_backward();
	test_writer(false);
	test_writer(true);
	tp_dprintf(1, "test-dev: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
