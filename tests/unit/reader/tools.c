/* SPDX-License-Identifier: MIT */
/* test-reader's tool modes, for the scripts:
 *   --swap IN OUT [--pipe]   IN rewritten in the other byte order (file, or pipe with --pipe)
 *                            through the reader and perfdata/'s writer and encoders: the
 *                            records tinyperf encodes (MMAP, MMAP2, COMM, FORK, EXIT, LOST,
 *                            LOST_SAMPLES, FINISHED_ROUND, samples of TP_REC_SAMPLE_TYPES)
 *                            with their sample_id trailers, and the features it writes.
 *                            Raw sample payloads are copied unchanged, so tracepoint files
 *                            do not convert. Prints "converted=N dropped=N" on stdout.
 *   --emit-seeds DIR         small valid recordings for the fuzz and broken-file corpora. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/data/input.h"

/* the sample_id trailer of ev, in the output order, over the last bytes of rec */
static void put_trailer(uint8_t *rec, int len, const struct tp_event *ev, bool swap)
{
	uint64_t t = ev->attr ? ev->attr->attr.sample_type : 0;
	uint8_t *p;

	if (!ev->attr || !ev->attr->id_hdr_size)
		return;
	p = rec + len - ev->attr->id_hdr_size;
	if (t & PERF_SAMPLE_TID)
		put32(p, ev->sid.pid, swap), put32(p + 4, ev->sid.tid, swap), p += 8;
	if (t & PERF_SAMPLE_TIME)
		put64(p, ev->sid.time, swap), p += 8;
	if (t & PERF_SAMPLE_ID)
		put64(p, ev->sid.id, swap), p += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		put64(p, ev->sid.stream_id, swap), p += 8;
	if (t & PERF_SAMPLE_CPU)
		put32(p, ev->sid.cpu, swap), put32(p + 4, 0, swap), p += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		put64(p, ev->sid.id, swap);
}

/* one record re-encoded; 0 if it is one we do not convert */
static int encode(uint8_t *buf, size_t cap, const struct tp_event *ev, bool swap)
{
	struct tp_rec_fmt fmt = { ev->attr ? ev->attr->id_hdr_size : 0, swap };
	const struct tp_ev_mmap *mm = &ev->u.mmap;
	const struct tp_ev_task *t = &ev->u.task;
	int len;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
		len = tp_rec__mmap(buf, cap, &fmt, ev->misc, mm->pid, mm->tid, mm->start, mm->len,
				   mm->pgoff, mm->filename);
		break;
	case PERF_RECORD_MMAP2: {
		struct tp_mmap2 m2 = { mm->pid, mm->tid, mm->start, mm->len, mm->pgoff, mm->maj,
				       mm->min, mm->ino, mm->ino_generation, mm->build_id,
				       mm->build_id_size, mm->prot, mm->flags, mm->filename };

		len = tp_rec__mmap2(buf, cap, &fmt, ev->misc & ~PERF_RECORD_MISC_MMAP_BUILD_ID, &m2);
		break;
	}
	case PERF_RECORD_COMM:
		len = tp_rec__comm(buf, cap, &fmt, ev->u.comm.pid, ev->u.comm.tid, ev->u.comm.comm,
				   ev->u.comm.exec);
		break;
	case PERF_RECORD_FORK:
		len = tp_rec__fork(buf, cap, &fmt, t->pid, t->ppid, t->tid, t->ptid, t->time);
		break;
	case PERF_RECORD_EXIT:
		len = tp_rec__exit(buf, cap, &fmt, t->pid, t->ppid, t->tid, t->ptid, t->time);
		break;
	case PERF_RECORD_LOST:
		len = tp_rec__lost(buf, cap, &fmt, ev->u.lost.id, ev->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		len = tp_rec__lost_samples(buf, cap, &fmt, ev->u.lost.lost);
		break;
	case PERF_RECORD_SAMPLE: {
		const struct tp_ev_sample *s = &ev->u.sample;
		struct tp_sample o = { ev->sid.id, s->ip, ev->sid.pid, ev->sid.tid, ev->sid.time,
				       ev->sid.cpu, s->period, s->callchain,
				       (uint32_t)s->callchain_nr, s->raw, s->raw_size };

		if (ev->attr->attr.sample_type & ~TP_REC_SAMPLE_TYPES)
			return 0;
		return tp_rec__sample(buf, cap, &fmt, ev->attr->attr.sample_type, ev->misc, &o);
	}
	default:
		return 0;
	}
	if (len > 0)
		put_trailer(buf, len, ev, swap);
	return len;
}

static int swap_features(struct tp_writer *w, const struct tp_reader *r, struct tp_feat *feats,
			 unsigned *nr, uint8_t *mem, size_t cap, struct tp_writer_attr *wa,
			 uint32_t nr_attrs, uint32_t attr_size, struct tp_build_id *bids)
{
	const struct tp_features *f = tp_reader__features(r);
	static const uint32_t strings[] = { HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION,
					    HEADER_ARCH, HEADER_CPUDESC, HEADER_CPUID };
	const char *values[] = { f->hostname, f->osrelease, f->version, f->arch, f->cpudesc,
				 f->cpuid };
	struct tp_fbuf fb;
	int err = 0;

	tp_writer__fbuf(w, &fb, mem, cap);
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++)
		if (!err && tp_features__has(f, strings[i]))
			err = tp_feat__string(&fb, &feats[(*nr)++], strings[i], values[i]);
	if (!err && tp_features__has(f, HEADER_NRCPUS))
		err = tp_feat__nrcpus(&fb, &feats[(*nr)++], f->nr_cpus_avail, f->nr_cpus_online);
	if (!err && tp_features__has(f, HEADER_TOTAL_MEM))
		err = tp_feat__total_mem(&fb, &feats[(*nr)++], f->total_mem_kb);
	if (!err && tp_features__has(f, HEADER_CMDLINE))
		err = tp_feat__cmdline(&fb, &feats[(*nr)++], f->cmdline.nr, f->cmdline.v);
	if (!err)
		err = tp_feat__event_desc(&fb, &feats[(*nr)++], wa, nr_attrs, attr_size);
	if (!err && tp_features__has(f, HEADER_SAMPLE_TIME))
		err = tp_feat__sample_time(&fb, &feats[(*nr)++], f->first_sample_time,
					   f->last_sample_time);
	for (size_t i = 0; i < f->nr_build_ids; i++)
		bids[i] = (struct tp_build_id){ f->build_ids[i].misc, f->build_ids[i].id,
						f->build_ids[i].size, f->build_ids[i].filename };
	if (!err && f->nr_build_ids)
		err = tp_feat__build_id(&fb, &feats[(*nr)++], bids, (uint32_t)f->nr_build_ids);
	return err;
}

static int swap_file(const char *in_path, const char *out_path, bool pipe)
{
	struct tp_writer_attr wa[64];
	struct tp_build_id *bids = NULL;
	struct tp_reader *r = NULL;
	struct tp_feat feats[16];
	static uint8_t fmem[1 << 20], rec[1 << 16];
	unsigned long converted = 0, dropped = 0;
	struct tp_sink_fd sink;
	uint32_t nr_attrs, attr_size;
	struct tp_input in;
	struct tp_writer w;
	struct tp_event ev;
	unsigned nr = 0;
	bool swap;
	int fd = -1, err, rc;

	err = tp_input__open(&in, in_path, NULL);
	if (!err)
		err = tp_reader__new(&r, in.buf, in.len, NULL);
	if (err) {
		fprintf(stderr, "test-reader: --swap: cannot read %s: %s\n", in_path,
			tp_strerror(err));
		return 1;
	}
	/* pipe input: attrs and features come with the records */
	while (tp_reader__info(r)->pipe && tp_reader__next(r, &ev) > 0)
		;
	tp_reader__rewind(r);
	swap = !tp_reader__info(r)->swapped;
	nr_attrs = tp_reader__nr_attrs(r);
	attr_size = tp_reader__attr(r, 0) ? tp_reader__attr(r, 0)->file_size : 0;
	if (!nr_attrs || nr_attrs > ARRAY_SIZE(wa) || attr_size > PERF_ATTR_SIZE_VER8)
		attr_size = PERF_ATTR_SIZE_VER8;
	for (uint32_t i = 0; i < nr_attrs && i < ARRAY_SIZE(wa); i++) {
		const struct tp_attr *a = tp_reader__attr(r, i);

		wa[i] = (struct tp_writer_attr){ &a->attr, a->name ? a->name : "event", a->ids,
						 a->nr_ids };
	}
	bids = calloc(tp_reader__features(r)->nr_build_ids + 1, sizeof(*bids));
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || !bids) {
		fprintf(stderr, "test-reader: --swap: cannot create %s\n", out_path);
		err = -1;
		goto out;
	}
	tp_sink_fd__init(&sink, fd, !pipe);
	err = tp_writer__open(&w, &sink.sink, pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, swap, wa,
			      nr_attrs, attr_size);
	while (!err && (rc = tp_reader__next(r, &ev)) > 0) {
		int len;

		if (ev.type == PERF_RECORD_FINISHED_ROUND) {
			err = tp_writer__finished_round(&w);
			continue;
		}
		len = encode(rec, sizeof(rec), &ev, swap);
		if (len <= 0) {
			dropped++;
			continue;
		}
		err = tp_writer__add(&w, rec, (size_t)len);
		converted++;
	}
	if (!err)
		err = swap_features(&w, r, feats, &nr, fmem, sizeof(fmem), wa, nr_attrs, attr_size,
				    bids);
	if (!err)
		err = tp_writer__close(&w, feats, nr);
	if (err)
		fprintf(stderr, "test-reader: --swap: writing %s failed (%d)\n", out_path, err);
	else
		printf("converted=%lu dropped=%lu\n", converted, dropped);
out:
	if (fd >= 0)
		close(fd);
	free(bids);
	tp_reader__delete(r);
	tp_input__close(&in);
	return err ? 1 : 0;
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "test-reader: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static int emit_seeds(const char *dir)
{
	const uint16_t one = 1;
	bool host_le = *(const uint8_t *)&one == 1;
	int rc = 0;

	for (int k = 0; k < 4; k++) {
		struct rec_opts o = { k & 2 ? TP_WRITER_PIPE : TP_WRITER_FILE, k & 1, 0 };
		char name[64];
		struct mem m;

		snprintf(name, sizeof(name), "%s-%s.data", k & 2 ? "pipe" : "file",
			 host_le != (k & 1) ? "le" : "be");
		if (std_recording(&m, &o))
			rc = 1;
		else
			rc |= write_file(dir, name, m.buf, m.len);
		free(m.buf);
	}
	for (int swap = 0; swap < 2; swap++) {
		struct perf_event_attr a = simple_attr();
		struct mem rec, m;

		a.sample_type = ALL_SAMPLE;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
				PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.sample_regs_user = 0x5;
		a.sample_regs_intr = 0x3;
		a.branch_sample_type = 1ULL << 17;
		mem_init(&rec, false);
		all_fields_sample(&rec, swap);
		hand_file(&m, swap, &a, PERF_ATTR_SIZE_VER8, 0, rec.buf, rec.len, BITMAP_U64);
		rc |= write_file(dir, host_le != swap ? "all-fields-le.data" : "all-fields-be.data",
				 m.buf, m.len);
		free(rec.buf);
		free(m.buf);
	}
	return rc;
}

static int tool_main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "--swap"))
		return swap_file(argv[2], argv[3], argc > 4 && !strcmp(argv[4], "--pipe"));
	if (argc == 3 && !strcmp(argv[1], "--emit-seeds"))
		return emit_seeds(argv[2]);
	fprintf(stderr, "usage: test-reader [--swap IN OUT [--pipe] | --emit-seeds DIR]\n");
	return 2;
}
