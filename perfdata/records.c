/* SPDX-License-Identifier: MIT */
/* Record encoders: compute the size, then append the fields through tp_fbuf (byte order). */
#include "libc-shim/shim.h"
#include "perfdata/fbuf.h"
#include "perfdata/records.h"

#define REC_MAX 0xffff		/* header.size is a u16 */

uint16_t tp_id_hdr_size(uint64_t sample_type)
{
	static const uint64_t fields = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				       PERF_SAMPLE_IDENTIFIER;

	return (uint16_t)(8 * tp_popcount(sample_type & fields));
}

/* Start a record of `size` bytes; 0 or the error the encoder returns. */
static int begin(struct tp_fbuf *f, void *buf, size_t cap, const struct tp_rec_fmt *fmt,
		 size_t size, uint32_t type, uint16_t misc)
{
	if (size > REC_MAX)
		return -TP_E2BIG;
	if (size > cap)
		return -TP_ENOSPC;
	tp_fbuf__init(f, buf, cap, fmt->swap);
	tp_fbuf__header(f, type, misc, (uint16_t)size);
	return 0;
}

static int end(struct tp_fbuf *f, const struct tp_rec_fmt *fmt)
{
	if (fmt)
		tp_fbuf__zero(f, fmt->id_hdr_size);
	return f->err ? f->err : (int)f->len;
}

/* struct tp_mmap2 lays pid ... ino_generation out as MMAP2 does, prot and flags too: without
 * byte swapping they are copied as they are */
_Static_assert(offsetof(struct tp_mmap2, addr) == 8 && offsetof(struct tp_mmap2, maj) == 32 &&
	       offsetof(struct tp_mmap2, ino_generation) == 48 &&
	       offsetof(struct tp_mmap2, flags) == offsetof(struct tp_mmap2, prot) + 4,
	       "struct tp_mmap2 is not laid out as the record");

/* COMM, MMAP and MMAP2 share their layout: pid, tid, then for the mappings addr, len and pgoff,
 * for MMAP2 the file's identity, prot and flags; the name last. One encoder for the three
 * (COMM reads only m's pid and tid, MMAP those and addr, len, pgoff). */
static int named(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t type,
		 uint16_t misc, const struct tp_mmap2 *m, const char *s)
{
	struct tp_fbuf f;
	size_t len = strlen(s), padded = TP_ALIGN(len + 1, (size_t)8);
	/* the body up to prot (MMAP2) or the name */
	bool mmap2 = type == PERF_RECORD_MMAP2;
	size_t fixed = mmap2 ? 56 : type == PERF_RECORD_MMAP ? 32 : 8;
	uint8_t *p;
	int err;

	err = begin(&f, buf, cap, fmt, 8 + fixed + (mmap2 ? 8 : 0) + padded + fmt->id_hdr_size,
		    type, misc);
	if (err)
		return err;
	if (!tp_fbuf__swaps(&f) && !(!IS_ENABLED(CONFIG_REC_RECORD) && mmap2 && m->build_id_size)) {
		tp_fbuf__bytes(&f, m, fixed);
		if (mmap2)
			tp_fbuf__bytes(&f, &m->prot, 8);
	} else {
		tp_fbuf__u32(&f, m->pid);
		tp_fbuf__u32(&f, m->tid);
		if (type != PERF_RECORD_COMM) {
			tp_fbuf__u64(&f, m->addr);
			tp_fbuf__u64(&f, m->len);
			tp_fbuf__u64(&f, m->pgoff);
		}
		if (mmap2) {
			if (m->build_id_size) {
				/* u8 size, u8 reserved, u16 reserved, u8 id[20]: bytes, no byte order */
				p = tp_fbuf__zero(&f, 24);
				if (p) {
					p[0] = m->build_id_size;
					memcpy(p + 4, m->build_id, m->build_id_size);
				}
			} else {
				tp_fbuf__u32(&f, m->maj);
				tp_fbuf__u32(&f, m->min);
				tp_fbuf__u64(&f, m->ino);
				tp_fbuf__u64(&f, m->ino_generation);
			}
			tp_fbuf__u32(&f, m->prot);
			tp_fbuf__u32(&f, m->flags);
		}
	}
	/* NUL-terminated, zero-padded to 8, as the kernel lays out comm and filename */
	p = tp_fbuf__zero(&f, padded);
	if (p)
		memcpy(p, s, len);
	return end(&f, fmt);
}

int tp_rec__comm(void *buf, size_t cap, const struct tp_rec_fmt *fmt,
		 uint32_t pid, uint32_t tid, const char *comm, bool exec)
{
	struct tp_mmap2 m;

	m.pid = pid;	/* all COMM reads */
	m.tid = tid;
	return named(buf, cap, fmt, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, &m,
		     comm);
}

int tp_rec__mmap(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint16_t misc,
		 uint32_t pid, uint32_t tid, uint64_t addr, uint64_t len, uint64_t pgoff,
		 const char *filename)
{
	struct tp_mmap2 m;

	m.pid = pid;	/* all MMAP reads */
	m.tid = tid;
	m.addr = addr;
	m.len = len;
	m.pgoff = pgoff;
	return named(buf, cap, fmt, PERF_RECORD_MMAP, misc, &m, filename);
}

int tp_rec__mmap2(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint16_t misc,
		  const struct tp_mmap2 *m)
{
	/* the build-id form is the host's (recv, tests): the recorder reads /proc/PID/maps,
	 * which has no build-ids, so a device build (CONFIG_REC_RECORD) refuses it */
	if (m->build_id_size > (IS_ENABLED(CONFIG_REC_RECORD) ? 0 : 20))
		return -TP_EINVAL;
	if (m->build_id_size)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	return named(buf, cap, fmt, PERF_RECORD_MMAP2, misc, m, m->filename);
}

static int task(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t type,
		uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time)
{
	struct tp_fbuf f;
	int err = begin(&f, buf, cap, fmt, 8 + 16 + 8 + (size_t)fmt->id_hdr_size, type, 0);

	if (err)
		return err;
	tp_fbuf__u32(&f, pid);
	tp_fbuf__u32(&f, ppid);
	tp_fbuf__u32(&f, tid);
	tp_fbuf__u32(&f, ptid);
	tp_fbuf__u64(&f, time);
	return end(&f, fmt);
}

int tp_rec__fork(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t pid,
		 uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time)
{
	return task(buf, cap, fmt, PERF_RECORD_FORK, pid, ppid, tid, ptid, time);
}

int tp_rec__exit(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint32_t pid,
		 uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time)
{
	return task(buf, cap, fmt, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time);
}

int tp_rec__finished_round(void *buf, size_t cap, const struct tp_rec_fmt *fmt)
{
	struct tp_fbuf f;
	int err = begin(&f, buf, cap, fmt, 8, PERF_RECORD_FINISHED_ROUND, 0);

	return err ? err : end(&f, NULL);
}

int tp_rec__lost(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t id, uint64_t lost)
{
	struct tp_fbuf f;
	int err = begin(&f, buf, cap, fmt, 8 + 16 + (size_t)fmt->id_hdr_size, PERF_RECORD_LOST, 0);

	if (err)
		return err;
	tp_fbuf__u64(&f, id);
	tp_fbuf__u64(&f, lost);
	return end(&f, fmt);
}

int tp_rec__lost_samples(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t lost)
{
	struct tp_fbuf f;
	int err = begin(&f, buf, cap, fmt, 8 + 8 + (size_t)fmt->id_hdr_size,
			PERF_RECORD_LOST_SAMPLES, 0);

	if (err)
		return err;
	tp_fbuf__u64(&f, lost);
	return end(&f, fmt);
}

/* RAW: u32 size then data, padded so the u32 and the data end on 8 bytes; size counts the pad */
static size_t raw_size(uint32_t n)
{
	return TP_ALIGN((size_t)n + 4, (size_t)8) - 4;
}

int tp_rec__sample(void *buf, size_t cap, const struct tp_rec_fmt *fmt, uint64_t sample_type,
		   uint16_t misc, const struct tp_sample *s)
{
	struct tp_fbuf f;
	uint64_t t = sample_type;
	size_t size = 8;
	int err;

	if (t & ~TP_REC_SAMPLE_TYPES)
		return -TP_EINVAL;
	if (s->nr_callchain > REC_MAX / 8 || s->raw_size > REC_MAX)
		return -TP_E2BIG;	/* before the size arithmetic, which could wrap on 32-bit */
	size += 8 * (size_t)tp_popcount(t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						      PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						      PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
						      PERF_SAMPLE_PERIOD));
	if (t & PERF_SAMPLE_CALLCHAIN)
		size += 8 + 8 * (size_t)s->nr_callchain;
	if (t & PERF_SAMPLE_RAW)
		size += 4 + raw_size(s->raw_size);
	err = begin(&f, buf, cap, fmt, size, PERF_RECORD_SAMPLE, misc);
	if (err)
		return err;

	/* the kernel's order (perf_output_sample) */
	if (t & PERF_SAMPLE_IDENTIFIER)
		tp_fbuf__u64(&f, s->id);
	if (t & PERF_SAMPLE_IP)
		tp_fbuf__u64(&f, s->ip);
	if (t & PERF_SAMPLE_TID) {
		tp_fbuf__u32(&f, s->pid);
		tp_fbuf__u32(&f, s->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		tp_fbuf__u64(&f, s->time);
	if (t & PERF_SAMPLE_ID)
		tp_fbuf__u64(&f, s->id);
	if (t & PERF_SAMPLE_CPU) {
		tp_fbuf__u32(&f, s->cpu);
		tp_fbuf__u32(&f, 0);
	}
	if (t & PERF_SAMPLE_PERIOD)
		tp_fbuf__u64(&f, s->period);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		tp_fbuf__u64(&f, s->nr_callchain);
		tp_fbuf__u64_array(&f, s->callchain, s->nr_callchain);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint8_t *p;

		tp_fbuf__u32(&f, (uint32_t)raw_size(s->raw_size));
		p = tp_fbuf__zero(&f, raw_size(s->raw_size));
		if (p && s->raw_size)
			memcpy(p, s->raw, s->raw_size);
	}
	return end(&f, NULL);
}
