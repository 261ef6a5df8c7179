/* SPDX-License-Identifier: MIT */
/* The standard recording read back in every mode and byte order, and every attr size. */
#include "common.h"

static const char *variant_name(const struct rec_opts *o)
{
	static char name[96];

	snprintf(name, sizeof(name), "%s, %s byte order", o->mode == TP_WRITER_PIPE ? "pipe" : "file",
		 o->swap ? "foreign" : "native");
	return name;
}

/* attrs, names, ids and flags as written */
static void check_attrs(struct tcase *c, struct tp_reader *r)
{
	struct perf_event_attr want = std_attr(PERF_COUNT_SW_CPU_CLOCK);
	const struct tp_attr *a = tp_reader__attr(r, 0), *b = tp_reader__attr(r, 1);

	if (!EXPECT(c, "nr attrs", 2, tp_reader__nr_attrs(r)))
		return;
	EXPECT(c, "attr 0 sample_type", want.sample_type, a->attr.sample_type);
	EXPECT(c, "attr 0 flags (bitfield word, precise_ip 2)", want.flags, a->attr.flags);
	EXPECT(c, "attr 0 sample_period", 4000, a->attr.sample_period);
	EXPECT(c, "attr 1 config", PERF_COUNT_SW_TASK_CLOCK, b->attr.config);
	EXPECT(c, "attr 0 nr ids", 2, a->nr_ids);
	EXPECT(c, "attr 0 id 1", 11, a->ids[1]);
	EXPECT(c, "attr 1 id", 20, b->ids[0]);
	EXPECT(c, "attr 0 trailer size", 32, a->id_hdr_size);
	EXPECT_TRUE(c, "attr 0 named cpu-clock", a->name && !strcmp(a->name, "cpu-clock"));
	EXPECT_TRUE(c, "attr 1 named task-clock", b->name && !strcmp(b->name, "task-clock"));
	EXPECT(c, "attr by id 20", 1, tp_reader__attr_by_id(r, 20)->index);
}

static void check_features(struct tcase *c, const struct tp_features *f, bool pipe)
{
	EXPECT_TRUE(c, "hostname", f->hostname && !strcmp(f->hostname, "testhost"));
	EXPECT_TRUE(c, "os release", f->osrelease && !strcmp(f->osrelease, "6.1.0-test"));
	EXPECT_TRUE(c, "arch", f->arch && !strcmp(f->arch, "mips"));
	EXPECT(c, "nrcpus avail", 4, f->nr_cpus_avail);
	EXPECT(c, "nrcpus online", 2, f->nr_cpus_online);
	EXPECT(c, "total mem", 123456, f->total_mem_kb);
	EXPECT(c, "cmdline nr", 3, f->cmdline.nr);
	EXPECT_TRUE(c, "cmdline[2]", f->cmdline.nr == 3 && !strcmp(f->cmdline.v[2], "-g"));
	EXPECT(c, "event descs", 2, f->nr_events);
	EXPECT(c, "first sample time", 100, f->first_sample_time);
	EXPECT(c, "last sample time", 700, f->last_sample_time);
	if (pipe)	/* perf never sends BUILD_ID or private features in a pipe */
		return;
	EXPECT(c, "build-ids", 2, f->nr_build_ids);
	EXPECT_TRUE(c, "build-id 0 path", f->nr_build_ids == 2 &&
		    !strcmp(f->build_ids[0].filename, "/bin/prog"));
	if (f->nr_build_ids == 2)
		expect_mem(c, "build-id 1 bytes", kern_id, f->build_ids[1].id, 20);
	EXPECT(c, "text hashes", 1, f->nr_text_hashes);
	EXPECT_TRUE(c, "text hash", f->nr_text_hashes == 1 &&
		    f->text_hashes[0].hash == 0x1122334455667788ULL &&
		    !strcmp(f->text_hashes[0].filename, "/lib/nobuildid.so"));
	EXPECT_TRUE(c, "private record_info kept", tp_features__has(f, TP_FEAT_RECORD_INFO));
	EXPECT(c, "private record_info size", 10, f->sect[TP_FEAT_RECORD_INFO].size);
}

static void check_samples(struct tcase *c, struct tp_reader *r)
{
	struct tp_event ev;
	unsigned n = 0, samples = 0;
	int rc;

	while ((rc = tp_reader__next(r, &ev)) > 0) {
		n += ev.type < PERF_RECORD_USER_TYPE_START || ev.type == PERF_RECORD_FINISHED_ROUND;
		if (ev.type == PERF_RECORD_MMAP2) {
			EXPECT(c, "mmap2 start", MAP_START, ev.u.mmap.start);
			EXPECT(c, "mmap2 pgoff", MAP_PGOFF, ev.u.mmap.pgoff);
			EXPECT(c, "mmap2 build-id size", 20, ev.u.mmap.build_id_size);
			expect_mem(c, "mmap2 build-id", prog_id, ev.u.mmap.build_id, 20);
			EXPECT(c, "mmap2 trailer time", 50, ev.sid.time);
			EXPECT_TRUE(c, "mmap2 filename", !strcmp(ev.u.mmap.filename, "/bin/prog"));
		}
		if (ev.type == PERF_RECORD_COMM && ev.u.comm.exec)
			EXPECT(c, "comm exec trailer pid", CHILD, ev.sid.pid);
		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		if (samples == 0) {
			EXPECT(c, "sample 0 ip", MAP_START + 0x100, ev.u.sample.ip);
			EXPECT(c, "sample 0 time", 300, ev.sid.time);
			EXPECT(c, "sample 0 pid", PID, ev.sid.pid);
			EXPECT(c, "sample 0 cpu", 1, ev.sid.cpu);
			EXPECT(c, "sample 0 period", 4000, ev.u.sample.period);
			EXPECT(c, "sample 0 callchain nr", 3, ev.u.sample.callchain_nr);
			EXPECT(c, "sample 0 callchain[0]", PERF_CONTEXT_USER, ev.u.sample.callchain[0]);
			EXPECT(c, "sample 0 callchain[2]", MAP_START + 0x200, ev.u.sample.callchain[2]);
			EXPECT(c, "sample 0 attr", 0, ev.attr->index);
		}
		if (samples == 1)
			EXPECT(c, "sample 1 attr (id 20)", 1, ev.attr->index);
		if (samples == 2)
			EXPECT(c, "sample 2 cpumode", PERF_RECORD_MISC_KERNEL, ev.misc & 7);
		samples++;
	}
	EXPECT(c, "walk ends cleanly", 0, rc);
	EXPECT(c, "samples", STD_SAMPLES, samples);
	EXPECT(c, "kernel and round records", STD_RECORDS, n);
}

static void test_variant(const struct rec_opts *o)
{
	char name[128];
	struct tcase c;
	struct logbuf l;
	struct mem m;
	struct tp_reader *r;
	int err;

	snprintf(name, sizeof(name), "read the standard recording: %s", variant_name(o));
	c = case_begin(name);
	err = std_recording(&m, o);
	if (EXPECT(&c, "writer", 0, err)) {
		r = open_reader(m.buf, m.len, &l, &err);
		if (EXPECT(&c, "reader__new", 0, err)) {
			const struct tp_reader_info *in = tp_reader__info(r);

			EXPECT(&c, "pipe", o->mode == TP_WRITER_PIPE, in->pipe);
			EXPECT(&c, "swapped", o->swap, in->swapped);
			if (o->mode == TP_WRITER_FILE)
				check_attrs(&c, r);
			check_samples(&c, r);
			if (o->mode == TP_WRITER_PIPE)
				check_attrs(&c, r);
			check_features(&c, tp_reader__features(r), o->mode == TP_WRITER_PIPE);
			EXPECT(&c, "no errors", 0, tp_reader__had_errors(r));
			EXPECT(&c, "no warnings", 0, l.warnings);
			tp_reader__delete(r);
		}
	}
	free(m.buf);
	case_end(&c);
}

static void test_variants(void)
{
	for (int pipe = 0; pipe < 2; pipe++)
		for (int swap = 0; swap < 2; swap++) {
			struct rec_opts o = { pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, swap, 0 };

			test_variant(&o);
		}
}

/* every size perf has written, in both byte orders */
static void test_attr_sizes(void)
{
	static const uint32_t sizes[] = { PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1,
					  PERF_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER3,
					  PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
					  PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
					  PERF_ATTR_SIZE_VER8 };
	struct tcase c = case_begin("attr sizes VER0..VER8, both byte orders and modes");

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (int k = 0; k < 4; k++) {
			struct rec_opts o = { k & 1 ? TP_WRITER_PIPE : TP_WRITER_FILE, k & 2,
					      sizes[i] };
			struct tp_reader *r;
			unsigned samples;
			struct logbuf l;
			struct mem m;
			int err = std_recording(&m, &o);

			if (!EXPECT(&c, "writer", 0, err))
				break;
			r = open_reader(m.buf, m.len, &l, &err);
			if (EXPECT(&c, "reader__new", 0, err)) {
				EXPECT_TRUE(&c, "walk", walk(r, &samples) > 0);
				EXPECT(&c, "samples", STD_SAMPLES, samples);
				EXPECT(&c, "attr file size", sizes[i], tp_reader__attr(r, 0)->file_size);
				EXPECT(&c, "attr sample_type",
				       std_attr(0).sample_type, tp_reader__attr(r, 0)->attr.sample_type);
				EXPECT(&c, "no warnings", 0, l.warnings);
				tp_reader__delete(r);
			}
			free(m.buf);
		}
	}
	case_end(&c);
}
