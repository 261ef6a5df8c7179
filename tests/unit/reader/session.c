/* SPDX-License-Identifier: MIT */
/* The session over the standard recording: time order, threads, maps, DSOs, hits. */

struct seen {
	struct tp_session *s;
	uint64_t times[32];
	unsigned nr, samples;
	struct tp_loc loc[STD_SAMPLES];
	const char *comm[STD_SAMPLES];
	bool ordered;
};

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct seen *x = ctx;

	(void)t;
	if ((ev->sid_type & PERF_SAMPLE_TIME) && ev->sid.time && x->nr < ARRAY_SIZE(x->times)) {
		if (x->nr && ev->sid.time < x->times[x->nr - 1])
			x->ordered = false;
		x->times[x->nr++] = ev->sid.time;
	}
	return 0;
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct seen *x = ctx;

	(void)ev;
	if (x->samples < STD_SAMPLES) {
		x->loc[x->samples] = *loc;
		x->comm[x->samples] = t ? t->comm : NULL;
	}
	x->samples++;
	return 0;
}

static struct tp_dso *dso_named(struct tp_session *s, const char *name)
{
	for (size_t i = 0; i < tp_session__nr_dsos(s); i++)
		if (!strcmp(tp_session__dso(s, i)->name, name))
			return tp_session__dso(s, i);
	return NULL;
}

static void test_session_variant(bool swap, enum tp_writer_mode mode)
{
	struct rec_opts o = { mode, swap, 0 };
	const struct tp_session_ops ops = { on_event, on_sample };
	char name[128];
	struct seen x = { .ordered = true };
	struct tp_reader *r = NULL;
	struct logbuf l;
	struct tcase c;
	struct mem m;
	int err;

	snprintf(name, sizeof(name), "session: order, maps, fork/exec, DSOs, hits (%s, %s)",
		 mode == TP_WRITER_PIPE ? "pipe" : "file", swap ? "foreign order" : "native order");
	c = case_begin(name);
	err = std_recording(&m, &o);
	if (EXPECT(&c, "writer", 0, err))
		r = open_reader(m.buf, m.len, &l, &err);
	if (r && EXPECT(&c, "session__new", 0, tp_session__new(&x.s, r))) {
		struct tp_dso *prog, *kern;
		const char *ref;
		uint64_t addr;

		EXPECT(&c, "process", 0, tp_session__process(x.s, &ops, &x));
		EXPECT(&c, "second process refused", -TP_ERR_INVAL,
		       tp_session__process(x.s, &ops, &x));
		EXPECT_TRUE(&c, "delivered in time order", x.ordered);
		EXPECT(&c, "timed records", 9, x.nr);
		EXPECT(&c, "first time", 50, x.times[0]);
		EXPECT(&c, "second time", 100, x.times[1]);
		EXPECT(&c, "samples", STD_SAMPLES, x.samples);
		/* by time: 100 (prog+0x200), 200 (kernel), 300, 500 (child), 700 (after exec) */
		EXPECT(&c, "sample@100 file offset", MAP_PGOFF + 0x200, x.loc[0].addr);
		EXPECT_TRUE(&c, "sample@100 comm", x.comm[0] && !strcmp(x.comm[0], "prog"));
		EXPECT(&c, "sample@200 kernel address unchanged", KTEXT + 0x1000, x.loc[1].addr);
		EXPECT_TRUE(&c, "sample@200 in the kernel", x.loc[1].dso && x.loc[1].dso->kernel);
		EXPECT(&c, "sample@500 child inherits the map", MAP_PGOFF + 0x300, x.loc[3].addr);
		EXPECT_TRUE(&c, "sample@500 comm inherited", x.comm[3] && !strcmp(x.comm[3], "prog"));
		EXPECT_TRUE(&c, "sample@700 exec kept the map (as perf)", x.loc[4].map != NULL);
		EXPECT_TRUE(&c, "sample@700 comm after exec", x.comm[4] &&
			    !strcmp(x.comm[4], "other"));
		prog = dso_named(x.s, "/bin/prog");
		kern = dso_named(x.s, "[kernel.kallsyms]");
		if (EXPECT_TRUE(&c, "DSOs", prog && kern)) {
			EXPECT(&c, "prog hits (with the one after exec)", 4, prog->hits);
			EXPECT(&c, "kernel hits", 1, kern->hits);
			EXPECT(&c, "prog build-id size", 20, prog->build_id_size);
			expect_mem(&c, "prog build-id", prog_id, prog->build_id, 20);
			if (mode == TP_WRITER_FILE)
				expect_mem(&c, "kernel build-id", kern_id, kern->build_id, 20);
		}
		if (mode == TP_WRITER_FILE)
			EXPECT(&c, "text hash on its DSO", 0x1122334455667788ULL,
			       dso_named(x.s, "/lib/nobuildid.so") ?
			       dso_named(x.s, "/lib/nobuildid.so")->text_hash : 0);
		EXPECT_TRUE(&c, "kernel ref", tp_session__kernel_ref(x.s, &ref, &addr) &&
			    !strcmp(ref, "_text") && addr == KTEXT);
		EXPECT_TRUE(&c, "child exited", tp_session__thread(x.s, CHILD) &&
			    tp_session__thread(x.s, CHILD)->exited);
	}
	tp_session__delete(x.s);
	tp_reader__delete(r);
	free(m.buf);
	case_end(&c);
}

/* a new mapping over part of an old one keeps the old one's other parts */
static void test_overlap(void)
{
	struct tcase c = case_begin("session: an mmap over part of another splits it");
	struct tp_session_ops ops = { 0 };
	uint8_t recs[1024];
	struct tp_rec_fmt fmt = { 0, false };
	struct perf_event_attr a = simple_attr();
	const struct tp_writer_attr wa = { &a, "x", ids_b, 1 };
	struct tp_session *s = NULL;
	struct tp_reader *r = NULL;
	struct tp_writer w;
	struct logbuf l;
	struct tp_loc loc;
	struct mem m;
	size_t n = 0;
	int err;

	mem_init(&m, true);
	n += (size_t)tp_rec__mmap(recs + n, sizeof(recs) - n, &fmt, PERF_RECORD_MISC_USER, 7, 7,
				  0x10000, 0x3000, 0, "/lib/a");
	n += (size_t)tp_rec__mmap(recs + n, sizeof(recs) - n, &fmt, PERF_RECORD_MISC_USER, 7, 7,
				  0x11000, 0x1000, 0x5000, "/lib/b");
	err = tp_writer__open(&w, &m.sink, TP_WRITER_FILE, false, &wa, 1, PERF_ATTR_SIZE_VER5);
	err = err ? err : tp_writer__add(&w, recs, n);
	err = err ? err : tp_writer__close(&w, NULL, 0);
	if (EXPECT(&c, "writer", 0, err))
		r = open_reader(m.buf, m.len, &l, &err);
	if (r && EXPECT(&c, "session", 0, tp_session__new(&s, r)) &&
	    EXPECT(&c, "process", 0, tp_session__process(s, &ops, NULL))) {
		const struct tp_thread *t = tp_session__thread(s, 7);

		EXPECT_TRUE(&c, "left part", tp_session__resolve(s, t, PERF_RECORD_MISC_USER,
								   0x10800, &loc) &&
			    !strcmp(loc.dso->name, "/lib/a") && loc.addr == 0x800);
		EXPECT_TRUE(&c, "middle", tp_session__resolve(s, t, PERF_RECORD_MISC_USER,
							       0x11800, &loc) &&
			    !strcmp(loc.dso->name, "/lib/b") && loc.addr == 0x5800);
		EXPECT_TRUE(&c, "right part keeps its file offset",
			    tp_session__resolve(s, t, PERF_RECORD_MISC_USER, 0x12800, &loc) &&
			    !strcmp(loc.dso->name, "/lib/a") && loc.addr == 0x2800);
		EXPECT_TRUE(&c, "outside", !tp_session__resolve(s, t, PERF_RECORD_MISC_USER,
								 0x13000, &loc));
	}
	tp_session__delete(s);
	tp_reader__delete(r);
	free(m.buf);
	case_end(&c);
}

static void test_session(void)
{
	for (int k = 0; k < 4; k++)
		test_session_variant(k & 1, k & 2 ? TP_WRITER_PIPE : TP_WRITER_FILE);
	test_overlap();
}
