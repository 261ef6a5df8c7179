/* SPDX-License-Identifier: MIT */
/* perf.data writer: file and pipe mode framing around the caller's records and features. */
#include "libc-shim/shim.h"
#include "perfdata/fbuf.h"
#include "perfdata/records.h"
#include "perfdata/writer.h"

/* stack buffer for the pieces the writer builds itself: fits one attr entry or a pipe
 * HEADER_ATTR record head; id arrays and section tables go out in chunks of it */
#define CHUNK 256

/* FEAT_OPR in perf's feat_ops[]: the features perf itself sends as HEADER_FEATURE records in
 * pipe mode. BUILD_ID and TRACING_DATA have records of their own. */
#define PIPE_FEATS ((1ULL << HEADER_HOSTNAME) | (1ULL << HEADER_OSRELEASE) |		\
		    (1ULL << HEADER_VERSION) | (1ULL << HEADER_ARCH) |			\
		    (1ULL << HEADER_NRCPUS) | (1ULL << HEADER_CPUDESC) |		\
		    (1ULL << HEADER_CPUID) | (1ULL << HEADER_TOTAL_MEM) |		\
		    (1ULL << HEADER_CMDLINE) | (1ULL << HEADER_EVENT_DESC) |		\
		    (1ULL << HEADER_CPU_TOPOLOGY) | (1ULL << HEADER_NUMA_TOPOLOGY) |	\
		    (1ULL << HEADER_PMU_MAPPINGS) | (1ULL << HEADER_GROUP_DESC) |	\
		    (1ULL << HEADER_SAMPLE_TIME) | (1ULL << HEADER_MEM_TOPOLOGY) |	\
		    (1ULL << HEADER_CLOCKID) | (1ULL << HEADER_BPF_PROG_INFO) |		\
		    (1ULL << HEADER_BPF_BTF) | (1ULL << HEADER_COMPRESSED) |		\
		    (1ULL << HEADER_CPU_PMU_CAPS) | (1ULL << HEADER_CLOCK_DATA) |	\
		    (1ULL << HEADER_PMU_CAPS) | (1ULL << HEADER_CPU_DOMAIN_INFO))
/* tested as one 32-bit word of ids 1..32: no 64-bit shift on 32-bit targets */
_Static_assert(!(PIPE_FEATS & 1) && !(PIPE_FEATS >> 33), "PIPE_FEATS past id 32");

/* whether w writes the other byte order: never in a device build, as tp_fbuf__swaps() */
#define swaps(w) (!IS_ENABLED(CONFIG_REC_RECORD) && (w)->swap)

/* buf holds only add()'s records: when they cannot be written, the data section ends before
 * them, so a salvaged header counts only records that reached the sink whole */
int tp_writer__flush(struct tp_writer *w)
{
	uint32_t n = w->buf_len;
	int err;

	if (w->err || !n)
		return w->err;
	w->buf_len = 0;
	err = w->sink->write(w->sink, w->buf, n);
	if (err) {
		w->err = err;
		w->data_size -= n;
	}
	return err;
}

static int put(struct tp_writer *w, const void *p, size_t n)
{
	int err;

	if (!n || tp_writer__flush(w))	/* buf's bytes first */
		return w->err;
	err = w->sink->write(w->sink, p, n);
	if (err) {
		w->err = err;
		return err;
	}
	w->pos += n;
	return 0;
}

static int put_fbuf(struct tp_writer *w, const struct tp_fbuf *f)
{
	return f->err ? f->err : put(w, f->buf, f->len);
}

static int put_zeros(struct tp_writer *w, size_t n)
{
	static const uint8_t zeros[8];

	return put(w, zeros, n);	/* callers pad to 8 at most */
}

static int put_ids(struct tp_writer *w, const uint64_t *ids, uint32_t nr)
{
	uint8_t mem[CHUNK];
	struct tp_fbuf f;

	if (!swaps(w))	/* as they are (the array is in memory: 8 * nr fits) */
		return put(w, ids, 8 * (size_t)nr);
	while (nr) {
		uint32_t k = TP_MIN(nr, (uint32_t)(CHUNK / 8));
		int err;

		tp_writer__fbuf(w, &f, mem, sizeof(mem));
		tp_fbuf__u64_array(&f, ids, k);
		err = put_fbuf(w, &f);
		if (err)
			return err;
		ids += k;
		nr -= k;
	}
	return 0;
}

static void file_section(struct tp_fbuf *f, uint64_t offset, uint64_t size)
{
	const uint64_t sec[] = { offset, size };

	tp_fbuf__u64_array(f, sec, 2);
}

/* The file header. Until close() it says "no features", which is also what lets perf read a
 * file whose end never got written. */
static void file_header(const struct tp_writer *w, struct tp_fbuf *f,
			const uint64_t feats[HEADER_FEAT_BITS / 64])
{
	uint64_t entry = w->attr_size + sizeof(struct perf_file_section);
	const uint64_t head[] = {
		PERF_MAGIC2, sizeof(struct perf_file_header), entry,
		w->attrs_offset, w->nr_attrs * entry,		/* attrs */
		w->data_offset, w->data_size,			/* data */
	};

	tp_fbuf__u64_array(f, head, TP_ARRAY_SIZE(head));
	tp_fbuf__zero(f, sizeof(struct perf_file_section));	/* event_types */
	if (feats)
		tp_fbuf__u64_array(f, feats, HEADER_FEAT_BITS / 64);
	else
		tp_fbuf__zero(f, HEADER_FEAT_BITS / 8);
}

static int rewrite_header(struct tp_writer *w, const uint64_t feats[HEADER_FEAT_BITS / 64])
{
	uint8_t mem[sizeof(struct perf_file_header)];
	struct tp_fbuf f;
	int err;

	if (tp_writer__flush(w))	/* the header counts only what is in the file */
		return w->err;
	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	file_header(w, &f, feats);
	if (f.err)
		return f.err;
	err = w->sink->pwrite(w->sink, f.buf, f.len, 0);
	if (err)
		w->err = err;
	return err;
}

/* ids_size: the bytes of all the id arrays, which come first */
static int open_file(struct tp_writer *w, const struct tp_writer_attr *attrs, uint32_t nr,
		     uint64_t ids_size)
{
	uint8_t mem[CHUNK];
	struct tp_fbuf f;
	uint64_t ids_offset = sizeof(struct perf_file_header);

	w->attrs_offset = ids_offset + ids_size;
	w->data_offset = w->attrs_offset +
			 (uint64_t)nr * (w->attr_size + sizeof(struct perf_file_section));

	/* f never overflows mem (an attr is at most 136 bytes): the sink error, sticky (put()
	 * writes nothing more after it), is the only one */
	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	file_header(w, &f, NULL);
	put_fbuf(w, &f);
	for (uint32_t i = 0; i < nr; i++)
		put_ids(w, attrs[i].ids, attrs[i].nr_ids);
	for (uint32_t i = 0; i < nr; i++) {
		tp_fbuf__reset(&f);
		tp_fbuf__attr(&f, attrs[i].attr, w->attr_size);
		file_section(&f, ids_offset, 8 * (uint64_t)attrs[i].nr_ids);
		ids_offset += 8 * (uint64_t)attrs[i].nr_ids;
		put_fbuf(w, &f);
	}
	return w->err;
}

static int open_pipe(struct tp_writer *w, const struct tp_writer_attr *attrs, uint32_t nr)
{
	static const uint64_t pipe_head[] = { PERF_MAGIC2, sizeof(struct perf_pipe_file_header) };
	uint8_t mem[CHUNK];
	struct tp_fbuf f;
	int err;

	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	if (swaps(w)) {
		tp_fbuf__u64_array(&f, pipe_head, TP_ARRAY_SIZE(pipe_head));
		err = put_fbuf(w, &f);
	} else {
		err = put(w, pipe_head, sizeof(pipe_head));
	}
	for (uint32_t i = 0; i < nr && !err; i++) {
		tp_fbuf__reset(&f);
		tp_fbuf__header(&f, PERF_RECORD_HEADER_ATTR, 0,
				(uint16_t)(8 + w->attr_size + 8 * attrs[i].nr_ids));
		tp_fbuf__attr(&f, attrs[i].attr, w->attr_size);
		err = put_fbuf(w, &f);
		if (!err)
			err = put_ids(w, attrs[i].ids, attrs[i].nr_ids);
	}
	return err;
}

int tp_writer__open(struct tp_writer *w, struct tp_sink *sink, enum tp_writer_mode mode,
		    bool swap, const struct tp_writer_attr *attrs, uint32_t nr_attrs,
		    uint32_t attr_size)
{
	uint64_t ids_size = 0;
	bool too_big = false;

	memset(w, 0, sizeof(*w));
	w->sink = sink;
	w->mode = mode;
	w->swap = swap;
	w->attr_size = attr_size;
	w->nr_attrs = nr_attrs;
	w->pipe_end_feature = TP_PIPE_END_FEATURE;

	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > sizeof(struct perf_event_attr) ||
	    attr_size % 8 || !sink || !sink->write || (nr_attrs && !attrs))
		return -TP_EINVAL;
	/* one walk: the checks, the file's id bytes, whether a pipe's HEADER_ATTR record would
	 * outgrow its u16 size (checked before writing any: a stream cannot be taken back) */
	for (uint32_t i = 0; i < nr_attrs; i++) {
		if (!attrs[i].attr || (attrs[i].nr_ids && !attrs[i].ids))
			return -TP_EINVAL;
		ids_size += 8 * (uint64_t)attrs[i].nr_ids;
		too_big |= attrs[i].nr_ids > (0xffff - 8 - attr_size) / 8;
	}
	if (mode == TP_WRITER_FILE)
		return sink->pwrite ? open_file(w, attrs, nr_attrs, ids_size) : -TP_EINVAL;
	if (mode == TP_WRITER_PIPE)
		return too_big ? -TP_E2BIG : open_pipe(w, attrs, nr_attrs);
	return -TP_EINVAL;
}

int tp_writer__add(struct tp_writer *w, const void *records, size_t len)
{
	int err;

	if (w->closed)
		return -TP_EINVAL;
	if (len < w->buf_cap && !w->err) {
		if (len > w->buf_cap - w->buf_len && tp_writer__flush(w))
			return w->err;
		memcpy(w->buf + w->buf_len, records, len);
		w->buf_len += (uint32_t)len;
		w->pos += len;
		w->data_size += len;
		return 0;
	}
	err = put(w, records, len);
	if (!err)
		w->data_size += len;
	return err;
}

int tp_writer__finished_round(struct tp_writer *w)
{
	static const struct perf_event_header round = {
		PERF_RECORD_FINISHED_ROUND, 0, sizeof(round)
	};
	struct tp_rec_fmt fmt = { .swap = w->swap };
	uint8_t rec[8];
	int len;

	if (!swaps(w))	/* in native order it is a constant */
		return tp_writer__add(w, &round, sizeof(round));
	len = tp_rec__finished_round(rec, sizeof(rec), &fmt);
	return len < 0 ? len : tp_writer__add(w, rec, (size_t)len);
}

int tp_writer__salvage(struct tp_writer *w)
{
	int err = w->err;

	if (w->closed || w->mode != TP_WRITER_FILE)
		return err;
	w->err = 0;
	err = rewrite_header(w, NULL);
	if (!w->err)
		w->err = err;
	return err;
}

int tp_writer__checkpoint(struct tp_writer *w)
{
	if (w->closed)
		return -TP_EINVAL;
	if (w->mode != TP_WRITER_FILE)
		return w->err;
	return rewrite_header(w, NULL);
}

static bool feat_valid(uint32_t id)
{
	return id > HEADER_RESERVED && id < HEADER_FEAT_BITS;
}

static bool test_bit(const uint64_t *map, uint32_t id)
{
	return *tp_bit_byte(map, id) & TP_BIT_MASK(id);
}

static void set_bit(uint64_t *map, uint32_t id)
{
	*tp_bit_byte(map, id) |= TP_BIT_MASK(id);
}

/* a pipe record: the head built in f, n bytes of p, zeros up to padded. The sink error is
 * sticky (put() returns it and writes nothing more), so one test at the end does. */
static int put_record(struct tp_writer *w, const struct tp_fbuf *f, const void *p, size_t n,
		      size_t padded)
{
	put_fbuf(w, f);
	put(w, p, n);
	return put_zeros(w, padded - n);
}

/* HEADER_TRACING_DATA: {header (size 12); u32 size} then the blob padded to 8, outside
 * header.size, which is how perf's pipe reader expects it */
static int pipe_tracing_data(struct tp_writer *w, const struct tp_feat *ft)
{
	uint8_t mem[16];
	struct tp_fbuf f;
	size_t padded = TP_ALIGN(ft->size, (size_t)8);

	if (ft->size > UINT32_MAX - 8)
		return -TP_E2BIG;
	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	tp_fbuf__header(&f, PERF_RECORD_HEADER_TRACING_DATA, 0,
			sizeof(struct perf_record_header_tracing_data));
	tp_fbuf__u32(&f, (uint32_t)padded);
	return put_record(w, &f, ft->data, ft->size, padded);
}

/* HEADER_FEATURE: {header; u64 feat_id} + the section bytes, padded to 8 so the records
 * after it stay aligned (perf's feature readers stop at the payload's own end) */
static int pipe_feature(struct tp_writer *w, const struct tp_feat *ft)
{
	uint8_t mem[sizeof(struct perf_record_header_feature)];
	const size_t most = (0xffff - sizeof(mem)) & ~(size_t)7;
	const uint8_t *p = ft->data;
	size_t left = ft->size;
	int err = 0;

	if (left > most && ft->id < TP_FEAT_FIRST)
		return -TP_E2BIG;
	/* tinyperf's own: in parts (TP_FEATURE_MISC_MORE) */
	do {
		size_t n = TP_MIN(left, most), padded = TP_ALIGN(n, (size_t)8);
		struct tp_fbuf f;

		tp_writer__fbuf(w, &f, mem, sizeof(mem));
		tp_fbuf__header(&f, PERF_RECORD_HEADER_FEATURE, n < left ? TP_FEATURE_MISC_MORE : 0,
				(uint16_t)(sizeof(mem) + padded));
		tp_fbuf__u64(&f, ft->id);
		err = put_record(w, &f, p, n, padded);
		p += n;
		left -= n;
	} while (!err && left);
	return err;
}

static int pipe_send(struct tp_writer *w, const struct tp_feat *ft)
{
	if (ft->id == HEADER_BUILD_ID)		/* the payload is HEADER_BUILD_ID records */
		return put(w, ft->data, ft->size);
	if (ft->id == HEADER_TRACING_DATA)
		return pipe_tracing_data(w, ft);
	if ((ft->id - 1 < 32 && ((uint32_t)(PIPE_FEATS >> 1) >> (ft->id - 1) & 1)) ||
	    (ft->id >= TP_FEAT_FIRST && w->pipe_private))
		return pipe_feature(w, ft);
	return 0;	/* perf does not expect it in a pipe: leave it out */
}

int tp_writer__pipe_features(struct tp_writer *w, const struct tp_feat *feats, unsigned nr)
{
	if (w->closed)
		return -TP_EINVAL;
	if (w->mode != TP_WRITER_PIPE)
		return w->err;
	for (unsigned i = 0; i < nr; i++) {
		int err;

		if (!feat_valid(feats[i].id))
			return -TP_EINVAL;
		if (test_bit(w->pipe_sent, feats[i].id))
			continue;
		err = pipe_send(w, &feats[i]);
		if (err)
			return err;
		set_bit(w->pipe_sent, feats[i].id);
	}
	return w->err;
}

static int close_pipe(struct tp_writer *w, const struct tp_feat *feats, unsigned nr)
{
	uint8_t mem[sizeof(struct perf_record_header_feature)];
	struct tp_fbuf f;
	int err = tp_writer__pipe_features(w, feats, nr);

	if (err || !w->pipe_end_feature)
		return err;
	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	tp_fbuf__header(&f, PERF_RECORD_HEADER_FEATURE, 0, sizeof(mem));
	tp_fbuf__u64(&f, w->pipe_end_feature);
	return put_fbuf(w, &f);
}

static const struct tp_feat *find_feat(const struct tp_feat *feats, unsigned nr, uint32_t id)
{
	for (unsigned i = 0; i < nr; i++)
		if (feats[i].id == id)
			return &feats[i];
	return NULL;
}

/* the caller's feature, or the writer's own empty hostname standing in for a missing one */
static TP_NOINLINE const struct tp_feat *feat_at(const struct tp_feat *feats, unsigned nr,
				     const struct tp_feat *host, uint32_t id)
{
	return id == HEADER_HOSTNAME && host->size ? host : find_feat(feats, nr, id);
}

static int close_file(struct tp_writer *w, const struct tp_feat *feats, unsigned nr)
{
	uint64_t map[HEADER_FEAT_BITS / 64] = { 0 };
	uint8_t host_mem[4 + PERF_HEADER_STRING_ALIGN], mem[CHUNK];
	struct tp_feat host = { .id = HEADER_HOSTNAME, .data = host_mem };
	struct tp_fbuf f;
	uint64_t offset;
	unsigned nr_sec = nr;	/* the ids are distinct, or close() fails */
	int err = 0;

	for (unsigned i = 0; i < nr; i++) {
		if (!feat_valid(feats[i].id) || test_bit(map, feats[i].id))
			return -TP_EINVAL;
		set_bit(map, feats[i].id);
	}
	if (!test_bit(map, HEADER_HOSTNAME)) {
		tp_writer__fbuf(w, &f, host_mem, sizeof(host_mem));
		tp_fbuf__string(&f, "");
		host.size = f.len;
		set_bit(map, HEADER_HOSTNAME);
		nr_sec++;
	}

	/* table (ascending ids) right after the data, payloads after the table */
	offset = w->pos + (uint64_t)nr_sec * sizeof(struct perf_file_section);
	tp_writer__fbuf(w, &f, mem, sizeof(mem));
	/* pass 0: the table, in chunks of mem; pass 1: the payloads */
	for (int pass = 0; pass < 2 && !err; pass++) {
		for (uint32_t id = 1; id < HEADER_FEAT_BITS && !err; id++) {
			const struct tp_feat *ft = feat_at(feats, nr, &host, id);

			if (!ft)
				continue;
			if (pass) {
				err = put(w, ft->data, ft->size);
				continue;
			}
			if (f.len == sizeof(mem)) {	/* a multiple of the entry size */
				err = put_fbuf(w, &f);
				tp_fbuf__reset(&f);
			}
			file_section(&f, offset, ft->size);
			offset += ft->size;
		}
		if (!err)
			err = put_fbuf(w, &f);
		tp_fbuf__reset(&f);	/* pass 1 puts nothing through it */
	}
	return err ? err : rewrite_header(w, map);
}

int tp_writer__close(struct tp_writer *w, const struct tp_feat *feats, unsigned nr)
{
	int err;

	if (w->closed)
		return -TP_EINVAL;
	if (nr && !feats)
		return -TP_EINVAL;
	err = w->mode == TP_WRITER_FILE ? close_file(w, feats, nr) : close_pipe(w, feats, nr);
	if (!err)
		w->closed = true;
	return err;
}
