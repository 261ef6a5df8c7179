/* SPDX-License-Identifier: MIT */
/* host-tools/lib/live: the decaying window of `tinyperf top`: decay per tick, the steady
 * state of a constant rate, forgetting, filters, sort orders and many keys; and the feed: a
 * pipe stream of this test's own process (its functions as the hot code) given record by
 * record, symbolized once per tick, its samples counted once, a second stream after it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/frames/frames.h"
#include "host-tools/lib/live/live.h"
#include "perfdata/records.h"
#include "perfdata/sink.h"
#include "perfdata/writer.h"
#include "tests/unit/check.h"

static struct tp_live_key key(const char *comm, const char *dso, const char *sym, bool kernel)
{
	return (struct tp_live_key){ comm, dso, sym, kernel };
}

/* weight to 1/1000, as an integer for EXPECT */
static uint64_t milli(double w)
{
	return (uint64_t)llround(w * 1000);
}

static const struct tp_live_row *find(struct tp_live_win *w, const char *sym)
{
	const struct tp_live_row *const *rows;
	size_t n;
	double sum;

	if (tp_live_win__view(w, NULL, TP_LIVE_BY_WEIGHT, &rows, &n, &sum))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i]->sym, sym))
			return rows[i];
	return NULL;
}

static void test_decay(void)
{
	struct tcase c = case_begin("a tick halves the weight (keep 0.5) and adds the new samples");
	struct tp_live_key k = key("spin", "/bin/spin", "leaf", false);
	struct tp_live_win *w;
	const struct tp_live_row *r;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.5));
	EXPECT(&c, "add", 0, tp_live_win__add(w, &k, 100));
	tp_live_win__tick(w);
	r = find(w, "leaf");
	EXPECT_TRUE(&c, "row after the first tick", r);
	if (r) {
		EXPECT(&c, "weight after 1 tick", 100000, milli(r->weight));
		EXPECT(&c, "last", 100, r->last);
	}
	tp_live_win__tick(w);
	tp_live_win__tick(w);
	r = find(w, "leaf");
	if (EXPECT_TRUE(&c, "row after 3 ticks", r)) {
		EXPECT(&c, "weight after 3 ticks", 25000, milli(r->weight));
		EXPECT(&c, "last after idle ticks", 0, r->last);
		EXPECT(&c, "total", 100, r->total);
	}
	tp_live_win__delete(w);
	case_end(&c);
}

static void test_steady(void)
{
	struct tcase c = case_begin("a constant rate converges to rate / (1 - keep)");
	struct tp_live_key k = key("spin", "/bin/spin", "leaf", false);
	struct tp_live_win *w;
	const struct tp_live_row *r;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.75));
	for (int i = 0; i < 60; i++) {
		EXPECT(&c, "add", 0, tp_live_win__add(w, &k, 10));
		tp_live_win__tick(w);
	}
	r = find(w, "leaf");
	if (EXPECT_TRUE(&c, "row", r)) {
		EXPECT(&c, "weight (10 / 0.25)", 40000, milli(r->weight));
		EXPECT(&c, "total", 600, r->total);
	}
	tp_live_win__delete(w);
	case_end(&c);
}

static void test_forget(void)
{
	struct tcase c = case_begin("a row that stopped fades, is forgotten, and comes back new");
	struct tp_live_key a = key("spin", "/bin/spin", "leaf", false);
	struct tp_live_key b = key("spin", "/bin/spin", "mid", false);
	const struct tp_live_row *const *rows;
	struct tp_live_win *w;
	const struct tp_live_row *r;
	size_t n = 0;
	double sum;
	int ticks = 0;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.5));
	EXPECT(&c, "add a", 0, tp_live_win__add(w, &a, 1000));
	tp_live_win__tick(w);
	/* then only b: b overtakes a within two ticks, a is gone after 17 (1000/2^17 < 0.01) */
	do {
		EXPECT(&c, "add b", 0, tp_live_win__add(w, &b, 400));
		tp_live_win__tick(w);
		ticks++;
		EXPECT(&c, "view", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_WEIGHT, &rows, &n,
							 &sum));
		if (ticks == 2 && n)
			EXPECT_TRUE(&c, "b first after two ticks of b alone",
				    !strcmp(rows[0]->sym, "mid"));
	} while (n == 2 && ticks < 100);
	EXPECT(&c, "ticks until a is forgotten", 17, ticks);
	EXPECT(&c, "rows left", 1, n);
	EXPECT(&c, "add a again", 0, tp_live_win__add(w, &a, 3));
	tp_live_win__tick(w);
	r = find(w, "leaf");
	if (EXPECT_TRUE(&c, "a is back", r))
		EXPECT(&c, "its total starts again", 3, r->total);
	tp_live_win__delete(w);
	case_end(&c);
}

static void test_filter(void)
{
	struct tcase c = case_begin("filters by comm and DSO substring and without the kernel");
	struct tp_live_key k[] = {
		key("spin", "/bin/spin", "leaf", false),
		key("spin", "[kernel.kallsyms]", "clear_page", true),
		key("sshd", "/usr/lib/libc.so.6", "memcpy", false),
		key("sshd", "/usr/sbin/sshd", "main", false),
	};
	const struct tp_live_row *const *rows;
	struct tp_live_filter f = { 0 };
	struct tp_live_win *w;
	size_t n;
	double sum;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.5));
	for (size_t i = 0; i < ARRAY_SIZE(k); i++)
		EXPECT(&c, "add", 0, tp_live_win__add(w, &k[i], 10 * (i + 1)));
	tp_live_win__tick(w);
	f.comm = "ssh";
	EXPECT(&c, "view comm", 0, tp_live_win__view(w, &f, TP_LIVE_BY_WEIGHT, &rows, &n, &sum));
	EXPECT(&c, "rows of sshd", 2, n);
	EXPECT(&c, "their sum", 70000, milli(sum));
	if (n == 2)
		EXPECT_TRUE(&c, "main first", !strcmp(rows[0]->sym, "main"));
	f.comm = NULL;
	f.dso = "libc";
	EXPECT(&c, "view dso", 0, tp_live_win__view(w, &f, TP_LIVE_BY_WEIGHT, &rows, &n, &sum));
	EXPECT(&c, "rows of libc", 1, n);
	f.dso = "";
	f.hide_kernel = true;
	EXPECT(&c, "view user", 0, tp_live_win__view(w, &f, TP_LIVE_BY_WEIGHT, &rows, &n, &sum));
	EXPECT(&c, "rows without the kernel", 3, n);
	EXPECT(&c, "their sum", 80000, milli(sum));
	tp_live_win__delete(w);
	case_end(&c);
}

static void test_sorts(void)
{
	struct tcase c = case_begin("sorts by overhead, samples, symbol, DSO and comm");
	struct tp_live_key a = key("b-comm", "/lib/z.so", "alpha", false);
	struct tp_live_key b = key("a-comm", "/lib/y.so", "beta", false);
	const struct tp_live_row *const *rows;
	struct tp_live_win *w;
	size_t n;
	double sum;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.5));
	/* a: many samples long ago; b: fewer, recent */
	EXPECT(&c, "add a", 0, tp_live_win__add(w, &a, 100));
	tp_live_win__tick(w);
	tp_live_win__tick(w);
	tp_live_win__tick(w);
	EXPECT(&c, "add b", 0, tp_live_win__add(w, &b, 50));
	tp_live_win__tick(w);
	EXPECT(&c, "by weight", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_WEIGHT, &rows, &n, &sum));
	EXPECT_TRUE(&c, "beta hottest now", n == 2 && !strcmp(rows[0]->sym, "beta"));
	EXPECT(&c, "by total", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_TOTAL, &rows, &n, &sum));
	EXPECT_TRUE(&c, "alpha most samples", n == 2 && !strcmp(rows[0]->sym, "alpha"));
	EXPECT(&c, "by symbol", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_SYMBOL, &rows, &n, &sum));
	EXPECT_TRUE(&c, "alpha first by name", n == 2 && !strcmp(rows[0]->sym, "alpha"));
	EXPECT(&c, "by dso", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_DSO, &rows, &n, &sum));
	EXPECT_TRUE(&c, "y.so first", n == 2 && !strcmp(rows[0]->sym, "beta"));
	EXPECT(&c, "by comm", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_COMM, &rows, &n, &sum));
	EXPECT_TRUE(&c, "a-comm first", n == 2 && !strcmp(rows[0]->sym, "beta"));
	EXPECT(&c, "a bad order", -TP_ERR_INVAL,
	       tp_live_win__view(w, NULL, TP_LIVE_NR_SORTS, &rows, &n, &sum));
	EXPECT(&c, "keep 1 refused", -TP_ERR_INVAL, tp_live_win__new(&(struct tp_live_win *){ 0 },
								     1.0));
	EXPECT(&c, "keep 0 refused", -TP_ERR_INVAL, tp_live_win__new(&(struct tp_live_win *){ 0 },
								     0));
	tp_live_win__delete(w);
	case_end(&c);
}

static void test_many(void)
{
	struct tcase c = case_begin("5000 keys, half forgotten: the others keep their rows");
	const struct tp_live_row *const *rows;
	struct tp_live_win *w;
	char sym[32];
	size_t n = 0;
	double sum;

	EXPECT(&c, "new", 0, tp_live_win__new(&w, 0.5));
	for (int i = 0; i < 5000; i++) {
		struct tp_live_key k = key("c", "/d", sym, i & 1);

		snprintf(sym, sizeof(sym), "f%d", i);
		EXPECT(&c, "add", 0, tp_live_win__add(w, &k, 1));
	}
	tp_live_win__tick(w);
	/* the odd ones keep running, the even ones stop */
	for (int t = 0; t < 8; t++) {
		for (int i = 1; i < 5000; i += 2) {
			struct tp_live_key k = key("c", "/d", sym, true);

			snprintf(sym, sizeof(sym), "f%d", i);
			EXPECT(&c, "add again", 0, tp_live_win__add(w, &k, 1));
		}
		tp_live_win__tick(w);
	}
	EXPECT(&c, "view", 0, tp_live_win__view(w, NULL, TP_LIVE_BY_TOTAL, &rows, &n, &sum));
	EXPECT(&c, "rows left: the running ones, once each", 2500, n);
	if (n)
		EXPECT(&c, "their totals", 9, rows[n - 1]->total);
	tp_live_win__delete(w);
	case_end(&c);
}

/* ---- the feed ---- */

__attribute__((noinline)) int live_hot_function(int x);
__attribute__((noinline)) int live_hot_function(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int live_cold_function(int x);
__attribute__((noinline)) int live_cold_function(int x)
{
	return x * 5 + 2;
}

/* the stream in memory */
struct mem_sink {
	struct tp_sink sink;
	uint8_t buf[1 << 16];
	size_t len;
};

static int mem_write(struct tp_sink *s, const void *p, size_t n)
{
	struct mem_sink *m = (struct mem_sink *)s;

	if (n > sizeof(m->buf) - m->len)
		return -1;
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	return 0;
}

struct proc_map {
	uint64_t start, end, pgoff;
	char path[512];
};

/* the mapping of this program's code that holds addr */
static bool find_map(uint64_t addr, struct proc_map *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &s, &e, perms, &off, &pos) < 4)
			continue;
		if (addr < s || addr >= e)
			continue;
		while (line[pos] == ' ')
			pos++;
		line[strcspn(line, "\n")] = 0;
		*m = (struct proc_map){ s, e, off, "" };
		snprintf(m->path, sizeof(m->path), "%s", line + pos);
		found = m->path[0] == '/';
	}
	if (f)
		fclose(f);
	return found;
}

/* a pipe stream: attrs, COMM comm, the MMAP2 of m, hot samples at the hot function, cold at
 * the cold one, a LOST of lost; handed to l record by record */
static int stream(struct tp_live *l, const struct proc_map *m, const char *comm, int hot,
		  int cold, uint64_t lost, bool header)
{
	/* a task-clock event as the recorder opens it: the thread and map records carry a
	 * sample_id trailer (time 0: they sort before every sample) */
	uint64_t type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = PERF_ATTR_SIZE_VER5,
				     .config = PERF_COUNT_SW_TASK_CLOCK, .sample_freq = 999,
				     .sample_type = type,
				     .flags = PERF_ATTR_FLAG_FREQ | PERF_ATTR_FLAG_SAMPLE_ID_ALL };
	static const uint64_t ids[] = { 77 };
	const struct tp_writer_attr wa = { &a, "task-clock", ids, 1 };
	struct tp_rec_fmt fmt = { tp_id_hdr_size(type), false };
	static struct mem_sink ms;
	static uint8_t recs[1 << 15];
	static uint64_t time = 1000;
	struct tp_writer w;
	size_t n = 0, off;
	int r;

	ms = (struct mem_sink){ .sink = { .write = mem_write } };
	if (header) {
		r = tp_rec__comm(recs, sizeof(recs), &fmt, 4242, 4242, comm, false);
		n += r > 0 ? (size_t)r : 0;
		r = tp_rec__mmap2(recs + n, sizeof(recs) - n, &fmt, PERF_RECORD_MISC_USER,
				  &(struct tp_mmap2){ .pid = 4242, .tid = 4242, .addr = m->start,
						      .len = m->end - m->start, .pgoff = m->pgoff,
						      .prot = 5, .flags = 2, .filename = m->path });
		n += r > 0 ? (size_t)r : 0;
	}
	for (int i = 0; i < hot + cold; i++) {
		struct tp_sample smp = { .id = 77, .ip = (uintptr_t)(i < hot ?
					 live_hot_function : live_cold_function),
					 .pid = 4242, .tid = 4242, .time = time++, .cpu = 1,
					 .period = 1000 };

		r = tp_rec__sample(recs + n, sizeof(recs) - n, &fmt, a.sample_type,
				   PERF_RECORD_MISC_USER, &smp);
		n += r > 0 ? (size_t)r : 0;
	}
	if (lost) {
		r = tp_rec__lost(recs + n, sizeof(recs) - n, &fmt, 77, lost);
		n += r > 0 ? (size_t)r : 0;
	}
	if (header) {
		if (tp_writer__open(&w, &ms.sink, TP_WRITER_PIPE, false, &wa, 1,
				    PERF_ATTR_SIZE_VER5))
			return -1;
		off = 16;	/* the records after the pipe header */
	} else {
		off = 0;
	}
	if (mem_write(&ms.sink, recs, n))
		return -1;
	while (ms.len - off >= 8) {
		uint16_t size;

		memcpy(&size, ms.buf + off + 6, 2);
		if (size < 8 || size > ms.len - off)
			return -1;
		tp_live__record(l, ms.buf + off, size, false);
		off += size;
	}
	return 0;
}

static const struct tp_live_row *find_comm(struct tp_live *l, const char *comm, const char *sym)
{
	const struct tp_live_row *const *rows;
	size_t n;
	double sum;

	if (tp_live_win__view(tp_live__window(l), NULL, TP_LIVE_BY_WEIGHT, &rows, &n, &sum))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i]->sym, sym) && !strcmp(rows[i]->comm, comm))
			return rows[i];
	return NULL;
}

static void test_feed(void)
{
	struct tcase c = case_begin("the feed: symbolized per tick, each sample counted once");
	struct tp_symcache_conf sc = { .sym = { .buildid_dir = "", .offline = true } };
	struct tp_live_conf conf = { .sym = &sc, .keep = 0.5 };
	const struct tp_live_row *hot, *cold;
	struct tp_live *l = NULL;
	struct proc_map m;

	if (!EXPECT_TRUE(&c, "this program's code in /proc/self/maps",
			 find_map((uintptr_t)live_hot_function, &m)) ||
	    !EXPECT(&c, "new", 0, tp_live__new(&l, &conf)))
		goto out;
	EXPECT(&c, "stream", 0, stream(l, &m, "hotproc", 30, 10, 5, true));
	EXPECT(&c, "tick", 0, tp_live__tick(l));
	hot = find_comm(l, "hotproc", "live_hot_function");
	cold = find_comm(l, "hotproc", "live_cold_function");
	if (EXPECT_TRUE(&c, "the hot function by name, with its comm", hot) &&
	    EXPECT_TRUE(&c, "the cold function", cold)) {
		EXPECT(&c, "hot samples", 30, hot->last);
		EXPECT(&c, "cold samples", 10, cold->last);
		EXPECT_TRUE(&c, "the DSO is this program", !strcmp(hot->dso, m.path));
		EXPECT_TRUE(&c, "user code", !hot->kernel);
	}
	EXPECT(&c, "samples", 40, tp_live__stats(l)->samples);
	EXPECT(&c, "tick samples", 40, tp_live__stats(l)->tick_samples);
	EXPECT(&c, "lost", 5, tp_live__stats(l)->lost);
	/* more samples of the same stream: the maps are kept, the old samples are not */
	EXPECT(&c, "more", 0, stream(l, &m, NULL, 0, 20, 0, false));
	EXPECT(&c, "tick 2", 0, tp_live__tick(l));
	hot = find_comm(l, "hotproc", "live_hot_function");
	cold = find_comm(l, "hotproc", "live_cold_function");
	if (EXPECT_TRUE(&c, "rows after tick 2", hot && cold)) {
		EXPECT(&c, "hot: decayed, no new samples", 15000, milli(hot->weight));
		EXPECT(&c, "hot total: counted once", 30, hot->total);
		EXPECT(&c, "cold: 10 / 2 + 20", 25000, milli(cold->weight));
		EXPECT(&c, "cold, resolved with the kept maps", 20, cold->last);
	}
	/* a second recording on the same link: its attrs begin a new stream */
	EXPECT(&c, "second stream", 0, stream(l, &m, "again", 7, 0, 0, true));
	EXPECT(&c, "tick 3", 0, tp_live__tick(l));
	hot = find_comm(l, "again", "live_hot_function");
	if (EXPECT_TRUE(&c, "the second stream's comm", hot))
		EXPECT(&c, "its samples", 7, hot->last);
	EXPECT(&c, "streams begun", 1, tp_live__stats(l)->streams);
	EXPECT(&c, "no error", 0, tp_live__stats(l)->error);
out:
	tp_live__delete(l);
	case_end(&c);
}

int main(void)
{
	test_decay();
	test_steady();
	test_forget();
	test_filter();
	test_sorts();
	test_many();
	test_feed();
	return check_summary("test-live");
}
