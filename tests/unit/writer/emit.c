/* SPDX-License-Identifier: MIT */
/* `test-writer --emit OUT ...`: a synthetic recording of a real ELF for Linux perf to read
 * (tests/unit/writer-peer.sh). One cpu-clock event, FORK/COMM/MMAP2 of the helper, a kernel
 * MMAP, samples at the helper's hot_a/hot_b, rounds, a checkpoint, EXIT, and the features a
 * recorder writes, all through perfdata/ and a tp_sink_fd, as the recorder will.
 *
 *   --emit OUT [--pipe] [--swap] [--attr-size N] [--checkpoint-after N] [--abort-after N]
 *   --elf PATH --map START,LEN,PGOFF --build-id HEX
 *   --hot-a ADDR,SIZE --hot-b ADDR,SIZE [--samples A,B]
 *
 * --abort-after N stops after N samples without closing, as if the recorder were killed.
 * Prints "checkpoint_size=N checkpoint_samples=N" (file mode) and "samples=N". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common.h"

#define PID 4242

struct emit_opts {
	const char *out, *elf;
	bool pipe, swap;
	uint32_t attr_size;
	unsigned checkpoint_after, abort_after;
	uint64_t map[3];		/* start, len, pgoff */
	uint64_t hot_a[2], hot_b[2];	/* addr, size */
	unsigned nr_a, nr_b;
	uint8_t build_id[20];
	uint8_t build_id_size;
};

static int parse_u64s(const char *s, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *end;

		v[i] = strtoull(s, &end, 0);
		if (end == s || (i < n - 1 ? *end != ',' : *end != '\0'))
			return -1;
		s = end + 1;
	}
	return 0;
}

static int parse_hex(const char *s, uint8_t *out, uint8_t *size)
{
	size_t n = strlen(s);

	if (n == 0 || n % 2 || n > 40)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	*size = (uint8_t)(n / 2);
	return 0;
}

static int parse_args(int argc, char **argv, struct emit_opts *o)
{
	uint64_t counts[2] = { 300, 100 }, v[1];
	bool have_map = false, have_a = false, have_b = false;

	memset(o, 0, sizeof(*o));
	o->attr_size = PERF_ATTR_SIZE_VER5;
	o->checkpoint_after = 200;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		int err = 0;

		if (!strcmp(a, "--pipe")) {
			o->pipe = true;
			continue;
		}
		if (!strcmp(a, "--swap")) {
			o->swap = true;
			continue;
		}
		if (!val)
			return -1;
		i++;
		if (!strcmp(a, "--emit"))
			o->out = val;
		else if (!strcmp(a, "--elf"))
			o->elf = val;
		else if (!strcmp(a, "--map"))
			err = parse_u64s(val, o->map, 3), have_map = true;
		else if (!strcmp(a, "--hot-a"))
			err = parse_u64s(val, o->hot_a, 2), have_a = true;
		else if (!strcmp(a, "--hot-b"))
			err = parse_u64s(val, o->hot_b, 2), have_b = true;
		else if (!strcmp(a, "--samples"))
			err = parse_u64s(val, counts, 2);
		else if (!strcmp(a, "--build-id"))
			err = parse_hex(val, o->build_id, &o->build_id_size);
		else if (!strcmp(a, "--attr-size"))
			err = parse_u64s(val, v, 1), o->attr_size = (uint32_t)v[0];
		else if (!strcmp(a, "--checkpoint-after"))
			err = parse_u64s(val, v, 1), o->checkpoint_after = (unsigned)v[0];
		else if (!strcmp(a, "--abort-after"))
			err = parse_u64s(val, v, 1), o->abort_after = (unsigned)v[0];
		else
			return -1;
		if (err)
			return -1;
	}
	o->nr_a = (unsigned)counts[0];
	o->nr_b = (unsigned)counts[1];
	if (!o->out || !o->elf || !have_map || !have_a || !have_b || !o->build_id_size ||
	    !o->hot_a[1] || !o->hot_b[1])
		return -1;
	return 0;
}

/* encode one record into buf, hand it to the writer */
#define EMIT(w, buf, expr) do {							\
		int len_ = (expr);						\
		err = len_ < 0 ? len_ : tp_writer__add((w), (buf), (size_t)len_);	\
		if (err)							\
			goto out;						\
	} while (0)

static int emit(const struct emit_opts *o, struct tp_writer *w, uint8_t *fmem, size_t fcap)
{
	struct perf_event_attr attr;
	static const uint64_t ids[] = { 7 };
	struct tp_writer_attr wa = { &attr, "cpu-clock", ids, 1 };
	struct tp_sink_fd sink;
	struct tp_rec_fmt fmt;
	struct tp_feat feats[16];
	unsigned nr = 0, total = o->nr_a + o->nr_b;
	uint64_t t0 = 1000000000ULL, t = t0;
	const char *argv[] = { "tinyperf", "record", "--", o->elf };
	struct utsname uts;
	struct tp_fbuf f;
	uint8_t rec[512];
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = o->attr_size;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_INHERIT | PERF_ATTR_FLAG_MMAP |
		     PERF_ATTR_FLAG_COMM | PERF_ATTR_FLAG_EXCLUDE_HV |
		     PERF_ATTR_FLAG_ENABLE_ON_EXEC | PERF_ATTR_FLAG_SAMPLE_ID_ALL |
		     PERF_ATTR_FLAG_MMAP2 | PERF_ATTR_FLAG_COMM_EXEC;
	fmt = (struct tp_rec_fmt){ .id_hdr_size = tp_id_hdr_size(attr.sample_type),
				   .swap = o->swap };

	fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	tp_sink_fd__init(&sink, fd, !o->pipe);
	err = tp_writer__open(w, &sink.sink, o->pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, o->swap,
			      &wa, 1, o->attr_size);
	if (err)
		goto out;

	/* what a recorder knows at the start */
	if (uname(&uts))
		strcpy(uts.machine, "x86_64");
	tp_writer__fbuf(w, &f, fmem, fcap);
	err = tp_feat__string(&f, &feats[nr++], HEADER_HOSTNAME, "tinyperf-peer");
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_OSRELEASE, "6.1.0-tinyperf");
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_VERSION, "tinyperf-test");
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_ARCH, uts.machine);
	err = err ? err : tp_feat__nrcpus(&f, &feats[nr++], 1, 1);
	err = err ? err : tp_feat__string(&f, &feats[nr++], HEADER_CPUDESC, "tinyperf test cpu");
	err = err ? err : tp_feat__total_mem(&f, &feats[nr++], 1048576);
	err = err ? err : tp_feat__cmdline(&f, &feats[nr++], 4, argv);
	err = err ? err : tp_feat__event_desc(&f, &feats[nr++], &wa, 1, o->attr_size);
	err = err ? err : tp_writer__pipe_features(w, feats, nr);
	if (err)
		goto out;

	/* what synthesis would find: the task, the kernel map, the helper's text */
	{
		struct tp_mmap2 m = {
			.pid = PID, .tid = PID, .addr = o->map[0], .len = o->map[1],
			.pgoff = o->map[2], .maj = 8, .min = 1, .ino = 1234, .prot = 5, .flags = 2,
			.filename = o->elf,
		};

		if (o->pipe) {	/* the build-id form, as attr.build_id=1 kernels write it */
			m.build_id = o->build_id;
			m.build_id_size = o->build_id_size;
		}
		EMIT(w, rec, tp_rec__fork(rec, sizeof(rec), &fmt, PID, 1, PID, 1, 0));
		EMIT(w, rec, tp_rec__comm(rec, sizeof(rec), &fmt, PID, PID, "tp-peer-helper", true));
		EMIT(w, rec, tp_rec__mmap(rec, sizeof(rec), &fmt, PERF_RECORD_MISC_KERNEL,
					  (uint32_t)-1, 0, 0xffffffff81000000ULL, 0x1000000,
					  0xffffffff81000000ULL, "[kernel.kallsyms]_text"));
		EMIT(w, rec, tp_rec__mmap2(rec, sizeof(rec), &fmt, PERF_RECORD_MISC_USER, &m));
		err = tp_writer__finished_round(w);
		if (err)
			goto out;
	}

	for (unsigned i = 0; i < total; i++) {
		bool in_b = (uint64_t)(i + 1) * o->nr_b / total > (uint64_t)i * o->nr_b / total;
		const uint64_t *fn = in_b ? o->hot_b : o->hot_a;
		struct tp_sample s = { .ip = fn[0] + (i * 4u) % fn[1], .pid = PID, .tid = PID,
				       .time = t, .period = 1000000 };

		EMIT(w, rec, tp_rec__sample(rec, sizeof(rec), &fmt, attr.sample_type,
					    PERF_RECORD_MISC_USER, &s));
		t += 1000000;
		if ((i + 1) % 50 == 0 && (err = tp_writer__finished_round(w)))
			goto out;
		if (!o->pipe && i + 1 == o->checkpoint_after) {
			err = tp_writer__checkpoint(w);
			if (err)
				goto out;
			printf("checkpoint_size=%llu checkpoint_samples=%u\n",
			       (unsigned long long)w->pos, i + 1);
		}
		if (i + 1 == o->abort_after) {
			printf("aborted after %u samples\n", i + 1);
			goto out;
		}
	}
	EMIT(w, rec, tp_rec__exit(rec, sizeof(rec), &fmt, PID, 1, PID, 1, t));
	err = tp_writer__finished_round(w);
	if (err)
		goto out;

	/* what is known at the end */
	{
		struct tp_build_id b = { PERF_RECORD_MISC_USER, o->build_id, o->build_id_size,
					 o->elf };
		static const char info[] = "tool\0tinyperf-test\0";

		err = tp_feat__sample_time(&f, &feats[nr++], t0, t - 1000000);
		err = err ? err : tp_feat__build_id(&f, &feats[nr++], &b, 1);
		tp_feat__blob(&feats[nr++], TP_FEAT_RECORD_INFO, info, sizeof(info));
		err = err ? err : tp_writer__close(w, feats, nr);
	}
	printf("samples=%u\n", total);
out:
	close(fd);
	return err;
}

static int writer_emit_main(int argc, char **argv)
{
	static uint8_t fmem[8192];
	struct emit_opts o;
	struct tp_writer w;
	int err;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: %s --emit OUT [--pipe] [--swap] [--attr-size N] "
			"[--checkpoint-after N] [--abort-after N] --elf PATH --map START,LEN,PGOFF --build-id HEX "
			"--hot-a ADDR,SIZE --hot-b ADDR,SIZE [--samples A,B]\n", argv[0]);
		return 2;
	}
	err = emit(&o, &w, fmem, sizeof(fmem));
	if (err) {
		fprintf(stderr, "%s: writing %s failed: %d\n", argv[0], o.out, err);
		return 1;
	}
	return 0;
}
