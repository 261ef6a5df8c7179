/* SPDX-License-Identifier: MIT */
/* Corrupt and truncated input: reported with offsets, skipped, the rest still read. */

struct std_file {
	struct mem m;
	bool swap;
	uint64_t data_off, data_size;
	uint64_t sample_off[STD_SAMPLES];	/* file offsets of the samples */
	uint64_t cmdline_off;			/* the CMDLINE section */
};

static int std_file(struct std_file *sf, bool swap, enum tp_writer_mode mode)
{
	struct rec_opts o = { mode, swap, 0 };
	struct tp_reader *r;
	struct tp_event ev;
	struct logbuf l;
	unsigned n = 0;
	int err = std_recording(&sf->m, &o);

	sf->swap = swap;
	if (err)
		return err;
	r = open_reader(sf->m.buf, sf->m.len, &l, &err);
	if (err)
		return err;
	sf->data_off = tp_reader__info(r)->data_offset;
	sf->data_size = tp_reader__info(r)->data_size;
	sf->cmdline_off = tp_reader__features(r)->sect[HEADER_CMDLINE].offset;
	while (tp_reader__next(r, &ev) > 0)
		if (ev.type == PERF_RECORD_SAMPLE && n < STD_SAMPLES)
			sf->sample_off[n++] = ev.offset;
	tp_reader__delete(r);
	return n == STD_SAMPLES ? 0 : -1;
}

/* read a damaged file: the error of tp_reader__new, else walk it */
struct outcome {
	int open_err;
	long records;
	unsigned samples;
	struct tp_reader_stats st;
	struct logbuf l;
};

static void read_it(const uint8_t *buf, size_t len, struct outcome *o)
{
	struct tp_reader *r = open_reader(buf, len, &o->l, &o->open_err);

	memset(&o->st, 0, sizeof(o->st));
	o->records = 0;
	o->samples = 0;
	if (!r)
		return;
	o->records = walk(r, &o->samples);
	o->st = *tp_reader__stats(r);
	/* a second walk must see the same records and report nothing new */
	{
		unsigned warnings = o->l.warnings, samples;

		tp_reader__rewind(r);
		if (walk(r, &samples) != o->records || samples != o->samples ||
		    o->l.warnings != warnings)
			o->records = -1000;
	}
	tp_reader__delete(r);
}

typedef void (*damage_fn)(struct std_file *sf, uint8_t *buf, size_t *len);

struct bad_case {
	const char *name;
	damage_fn damage;
	int open_err;		/* expected from tp_reader__new */
	int samples;		/* expected, -1: don't check */
	bool skipped, truncated, unfinished, bad_feature;
	const char *words;	/* in the warnings/errors */
};

static void d_size0(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put16(b + sf->sample_off[1] + 6, 0, sf->swap);
}

static void d_size_huge(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put16(b + sf->sample_off[1] + 6, 0xfff0, sf->swap);
}

static void d_type(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put32(b + sf->sample_off[1], 0x1234, sf->swap);
}

static void d_callchain(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;	/* IDENTIFIER IP TID TIME CPU PERIOD, then callchain nr at +56 */
	put64(b + sf->sample_off[1] + 56, 1000, sf->swap);
}

static void d_unknown_id(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put64(b + sf->sample_off[1] + 8, 999, sf->swap);
}

static void d_cut_data(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)b;
	*len = sf->sample_off[2] + 20;
}

/* a recorder killed before it finalised: data.size still 0, nothing after the records */
static void d_size_zero_header(struct std_file *sf, uint8_t *b, size_t *len)
{
	put64(b + 48, 0, sf->swap);
	*len = sf->data_off + sf->data_size;
}

static void d_zero_data(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	memset(b + sf->data_off, 0, sf->data_size);
}

static void d_short_header(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)sf, (void)b;
	*len = 50;
}

static void d_magic(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)sf, (void)len;
	b[0] ^= 0x20;
}

static void d_attr_size0(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put64(b + 16, 0, sf->swap);
}

static void d_attrs_offset(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put64(b + 24, 1ULL << 40, sf->swap);
}

static void d_data_offset(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put64(b + 40, ~0ULL - 7, sf->swap);
}

/* the feature table entry of CMDLINE (the 6th set bit: BUILD_ID HOSTNAME OSRELEASE ARCH
 * NRCPUS TOTAL_MEM CMDLINE -> index 6) pointing past the end */
static void d_feature_past_eof(struct std_file *sf, uint8_t *b, size_t *len)
{
	put64(b + sf->data_off + sf->data_size + 6 * 16, *len + 100, sf->swap);
}

static void d_cmdline_nr(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put32(b + sf->cmdline_off, 0x7fffffff, sf->swap);
}

static void d_cut_features(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)b;
	*len = sf->data_off + sf->data_size + 40;
}

static void d_compressed(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)len;
	put32(b + sf->sample_off[1], PERF_RECORD_COMPRESSED, sf->swap);
}

static const struct bad_case file_cases[] = {
	{ "record size 0", d_size0, 0, 4, .skipped = true, .words = "smaller than a record header" },
	{ "record size past the data end", d_size_huge, 0, 4, .skipped = true,
	  .words = "size runs past the end of the data" },
	{ "unknown record type", d_type, 0, 4, .skipped = true, .words = "unknown record type" },
	{ "sample callchain overruns its record", d_callchain, 0, 4, .skipped = true,
	  .words = "callchain runs past the record end" },
	{ "sample id of no event", d_unknown_id, 0, 4, .skipped = true,
	  .words = "sample id 999 matches no event" },
	{ "file cut inside the data", d_cut_data, 0, 2, .truncated = true,
	  .words = "the file is truncated" },
	{ "data size 0 in the header", d_size_zero_header, 0, STD_SAMPLES, .unfinished = true,
	  .words = "data size in the header is 0" },
	{ "data section all zeros", d_zero_data, 0, 0, .skipped = true,
	  .words = "no valid record up to the data end" },
	{ "file cut inside the header", d_short_header, -TP_ERR_SHORT_HEADER, -1,
	  .words = "header needs" },
	{ "bad magic", d_magic, -TP_ERR_BAD_MAGIC, -1, .words = NULL },
	{ "attr_size 0", d_attr_size0, -TP_ERR_BAD_ATTR, -1, .words = "attr_size is 0" },
	{ "attrs offset past the end", d_attrs_offset, -TP_ERR_SHORT_HEADER, -1,
	  .words = "attrs section" },
	{ "data offset absurd", d_data_offset, -TP_ERR_SHORT_HEADER, -1,
	  .words = "starts past the end" },
	{ "feature section past the end", d_feature_past_eof, 0, STD_SAMPLES,
	  .bad_feature = true, .words = "feature CMDLINE" },
	{ "huge count in a string list", d_cmdline_nr, 0, STD_SAMPLES, .bad_feature = true,
	  .words = "string list count runs past the section" },
	{ "file cut inside the feature table", d_cut_features, 0, STD_SAMPLES, .truncated = true,
	  .bad_feature = true, .words = "feature table" },
	{ "a COMPRESSED record", d_compressed, 0, -1, .words = "zstd-compressed" },
};

static void run_case(const struct bad_case *bc, bool swap, enum tp_writer_mode mode)
{
	char name[160];
	struct std_file sf;
	struct outcome o;
	struct tcase c;
	size_t len;

	snprintf(name, sizeof(name), "bad input, %s, %s: %s", mode == TP_WRITER_PIPE ? "pipe" :
		 "file", swap ? "foreign order" : "native order", bc->name);
	c = case_begin(name);
	if (EXPECT(&c, "standard file", 0, std_file(&sf, swap, mode))) {
		len = sf.m.len;
		bc->damage(&sf, sf.m.buf, &len);
		read_it(sf.m.buf, len, &o);
		EXPECT(&c, "open error", bc->open_err, o.open_err);
		if (bc->samples >= 0)
			EXPECT(&c, "samples", bc->samples, o.samples);
		if (!bc->open_err && bc->damage == d_compressed)
			EXPECT(&c, "walk error", -TP_ERR_COMPRESSED, o.records);
		else if (!bc->open_err)
			EXPECT_TRUE(&c, "second walk the same, nothing reported twice",
				    o.records >= 0);
		EXPECT(&c, "skipped", bc->skipped, o.st.nr_skipped > 0);
		EXPECT(&c, "truncated", bc->truncated, o.st.truncated);
		EXPECT(&c, "unfinished", bc->unfinished, o.st.unfinished);
		EXPECT(&c, "bad feature", bc->bad_feature, o.st.nr_bad_features > 0);
		if (bc->words && !has(&o.l, bc->words)) {
			c.failed = true;
			printf("[FAIL] %s: expected '%s' in the messages, got: %s\n", name, bc->words,
			       o.l.text);
		}
		if (bc->skipped && !has(&o.l, "offset 0x")) {
			c.failed = true;
			printf("[FAIL] %s: the warning names no offset: %s\n", name, o.l.text);
		}
	}
	free(sf.m.buf);
	case_end(&c);
}

/* pipe streams: the same record damage, and a stream cut short */
static void d_pipe_cut(struct std_file *sf, uint8_t *b, size_t *len)
{
	(void)b;
	*len = sf->sample_off[3] + 12;
}

static const struct bad_case pipe_cases[] = {
	{ "record size 0", d_size0, 0, 4, .skipped = true, .words = "smaller than a record header" },
	{ "unknown record type", d_type, 0, 4, .skipped = true, .words = "unknown record type" },
	{ "record size past the end, valid records after it", d_size_huge, 0, 4, .skipped = true,
	  .words = "size runs past the end of the data" },
	{ "sample id of no event", d_unknown_id, 0, 4, .skipped = true, .words = "matches no event" },
	{ "stream cut inside a record", d_pipe_cut, 0, 3, .truncated = true,
	  .words = "cut off by the end of the input" },
};

static void test_empty(void)
{
	struct tcase c = case_begin("bad input: empty, 10 bytes, PERFFILE v1");
	struct outcome o;

	read_it((const uint8_t *)"", 0, &o);
	EXPECT(&c, "empty", -TP_ERR_EMPTY, o.open_err);
	read_it((const uint8_t *)"PERFILE2\x10", 9, &o);
	EXPECT(&c, "9 bytes", -TP_ERR_SHORT_HEADER, o.open_err);
	read_it((const uint8_t *)"PERFFILE\x10\0\0\0\0\0\0\0", 16, &o);
	EXPECT(&c, "v1 magic", -TP_ERR_OLD_MAGIC, o.open_err);
	case_end(&c);
}

static void test_bad(void)
{
	test_empty();
	for (int swap = 0; swap < 2; swap++) {
		for (size_t i = 0; i < ARRAY_SIZE(file_cases); i++)
			run_case(&file_cases[i], swap, TP_WRITER_FILE);
		for (size_t i = 0; i < ARRAY_SIZE(pipe_cases); i++)
			run_case(&pipe_cases[i], swap, TP_WRITER_PIPE);
	}
}
