/* SPDX-License-Identifier: MIT */
/* tests for the recorder's arena and DSO hit tracking (recorder/base/arena.c,
 * recorder/track/{dsos,track}.c) on the host: synthetic FORK/EXIT/COMM_EXEC/MMAP2/SAMPLE
 * records, the process-tree following, and bounded state through 100k process lives.
 * Prints [OK]/[FAIL] per case and "test-rec-track: N passed, N failed". */
#define _GNU_SOURCE
#include "tests/unit/rec-test.h"
#include "recorder/base/arena.h"

static void test_arena(void)
{
	struct arena a;
	uint8_t *p, *q;
	bool zero = true;

	arena__init(&a, 0);
	p = arena__get(&a, 24);
	memset(p, 0xaa, 24);
	arena__put(&a, p, 24);
	q = arena__get(&a, 30);	/* same 32-byte class */
	for (int i = 0; i < 32; i++)
		zero &= q[i] == 0;
	check("arena: a freed block is reused, zeroed", p == q && zero && a.used == 32,
	      "expected the same block, zeroed, 32 B used; got %p/%p zero=%d used=%zu",
	      (void *)p, (void *)q, zero, a.used);
	p = arena__alloc(&a, 100000);
	q = arena__alloc(&a, 3);
	check("arena: large and small allocations", p && q && !((uintptr_t)q & 7) &&
	      a.used == 32 + 100000 + 8, "got %p %p used %zu", (void *)p, (void *)q, a.used);
	check("arena: oversized get refused", !arena__get(&a, ARENA_MAX_GET + 1), "got a block");
	arena__release(&a);
	check("arena: release unmaps all", a.mapped == 0 && a.used == 0, "mapped %zu used %zu",
	      a.mapped, a.used);
	arena__init(&a, 2 * ARENA_CHUNK);
	int n = 0;
	while (arena__alloc(&a, 4096) && n < 1000)
		n++;
	check("arena: limit holds", a.mapped <= 2 * ARENA_CHUNK && n > 16 && n < 40,
	      "mapped %zu after %d pages", a.mapped, n);
	arena__release(&a);
}


/* ---- synthetic process life: fork, exec, mmap, exit ---- */

static void test_lifecycle(void)
{
	struct arena a;
	struct track t;
	uint64_t u;

	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	track__add_id(&t, 7, TYPE);
	mmap2(&t, 1000, 0x400000, 0x100000, 1, "/fake/a");
	mmap2(&t, 1000, 0x600000, 0x100000, 2, "/fake/c");
	task(&t, PERF_RECORD_FORK, 1001, 1000, 1001);
	sample(&t, PERF_RECORD_MISC_USER, 1001, 0x400100, NULL, 0);
	check("track: a forked child inherits its parent's maps", has_line(hits(&t), "u /fake/a"),
	      "hits:\n%s", hitbuf);
	exec_comm(&t, 1001, "b");
	u = t.stats.unresolved;
	sample(&t, PERF_RECORD_MISC_USER, 1001, 0x400100, NULL, 0);
	check("track: exec empties the maps", t.stats.unresolved == u + 1,
	      "expected one more unresolved, got %llu -> %llu", (unsigned long long)u,
	      (unsigned long long)t.stats.unresolved);
	mmap2(&t, 1001, 0x400000, 0x10000, 3, "/fake/b");
	sample(&t, PERF_RECORD_MISC_USER, 1001, 0x400100, NULL, 0);
	check("track: the MMAP2 after exec counts", has_line(hits(&t), "u /fake/b") &&
	      !has_line(hitbuf, "u /fake/c"), "hits:\n%s", hitbuf);

	/* overlapping maps split as mmap would */
	mmap2(&t, 1000, 0x800000, 0x100000, 4, "/fake/d");
	mmap2(&t, 1000, 0x840000, 0x10000, 5, "/fake/e");
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0x845000, NULL, 0);
	bool e = has_line(hits(&t), "u /fake/e"), d = has_line(hitbuf, "u /fake/d");
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0x860000, NULL, 0);
	check("track: an inner mapping splits the outer one",
	      e && !d && has_line(hits(&t), "u /fake/d"), "hits:\n%s", hitbuf);
	mmap2(&t, 1000, 0xa00000, 0x10000, 6, "/fake/p");
	mmap2(&t, 1000, 0xa08000, 0x10000, 7, "/fake/q");
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0xa09000, NULL, 0);
	check("track: a mapping over the end of another trims it",
	      has_line(hits(&t), "u /fake/q") && !has_line(hitbuf, "u /fake/p"), "hits:\n%s",
	      hitbuf);

	/* callchain: kernel and user parts, markers switching */
	uint64_t cc[] = { PERF_CONTEXT_USER, 0x400010, 0x600010, PERF_CONTEXT_KERNEL, 0x1234 };
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0x400000, cc, 5);
	check("track: callchain entries hit their DSOs", has_line(hits(&t), "u /fake/c"),
	      "hits:\n%s", hitbuf);

	/* exit: gone after two rounds, still there for late samples before */
	task(&t, PERF_RECORD_EXIT, 1001, 1000, 1001);
	u = t.stats.unresolved;
	round_end(&t);
	sample(&t, PERF_RECORD_MISC_USER, 1001, 0x400100, NULL, 0);
	round_end(&t);
	sample(&t, PERF_RECORD_MISC_USER, 1001, 0x400100, NULL, 0);
	check("track: an exited process resolves until two rounds later",
	      t.stats.unresolved == u + 1 && t.nr_procs == 1,
	      "expected 1 more unresolved and 1 process, got +%llu and %u",
	      (unsigned long long)(t.stats.unresolved - u), t.nr_procs);

	/* a sample read before its library's MMAP2 (that went to another CPU's ring, read
	 * later): resolved at the end of the round or of the next one, not after */
	u = t.stats.late;
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0xc00100, NULL, 0);
	round_end(&t);
	mmap2(&t, 1000, 0xc00000, 0x10000, 8, "/fake/late");
	round_end(&t);
	check("track: a sample read before its MMAP2 hits it at the next round's end",
	      t.stats.late == u + 1 && has_line(hits(&t), "u /fake/late"), "late +%llu, hits:\n%s",
	      (unsigned long long)(t.stats.late - u), hitbuf);
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0xd00100, NULL, 0);
	round_end(&t);
	round_end(&t);
	mmap2(&t, 1000, 0xd00000, 0x10000, 9, "/fake/never");
	check("track: ... but not two rounds later", !has_line(hits(&t), "u /fake/never"),
	      "hits:\n%s", hitbuf);
	/* a child's sample read before its FORK: resolved through the parent's maps */
	mmap2(&t, 1000, 0xe00000, 0x10000, 10, "/fake/forked");
	sample(&t, PERF_RECORD_MISC_USER, 1002, 0xe00100, NULL, 0);
	task(&t, PERF_RECORD_FORK, 1002, 1000, 1002);
	check("track: a sample read before its process's FORK hits at the end",
	      has_line(hits(&t), "u /fake/forked"), "hits:\n%s", hitbuf);

	/* build-id from MMAP2 */
	uint8_t id[20] = { 1, 2, 3 };
	struct tp_mmap2 m = { .pid = 1000, .tid = 1000, .addr = 0x900000, .len = 0x1000,
			      .build_id = id, .build_id_size = 20, .prot = 5, .flags = 2,
			      .filename = "/fake/f" };
	feed(&t, tp_rec__mmap2(rb, sizeof(rb), &fmt, PERF_RECORD_MISC_USER, &m));
	sample(&t, PERF_RECORD_MISC_USER, 1000, 0x900010, NULL, 0);
	check("track: a build-id from MMAP2 is passed on", has_line(hits(&t), "u /fake/f +id"),
	      "hits:\n%s", hitbuf);

	/* malformed records are refused, not followed */
	struct perf_event_header hb = { PERF_RECORD_MMAP2, 0, 16 };
	check("track: a short record is refused", track__record(&t, &hb) == -TP_EINVAL,
	      "accepted");
	uint64_t cc2[] = { 1, 2 };
	int len = tp_rec__sample(rb, sizeof(rb), &fmt, TYPE, PERF_RECORD_MISC_USER,
				 &(struct tp_sample){ .id = 7, .callchain = cc2, .nr_callchain = 2 });
	((uint64_t *)((uint8_t *)rb + len))[-3] = 1000;	/* nr beyond the record */
	check("track: a callchain longer than its record is refused",
	      feed(&t, len) == -TP_EINVAL, "accepted");
	track__mark_all(&t);
	check("track: --buildid-all marks every DSO", has_line(hits(&t), "u /fake/b") &&
	      has_line(hitbuf, "u /fake/d"), "hits:\n%s", hitbuf);
	arena__release(&a);
}

static void test_ids(void)
{
	const uint64_t t2 = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	struct arena a;
	struct track t;
	struct tp_sample s = { .id = 9, .ip = 0x400010, .pid = 1000 };

	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	check("track: sample_type with READ refused",
	      track__add_id(&t, 1, TYPE | PERF_SAMPLE_READ) == -TP_EINVAL, "accepted");
	track__add_id(&t, 7, TYPE);
	check("track: mixed sample_types without IDENTIFIER refused",
	      track__add_id(&t, 8, PERF_SAMPLE_IP | PERF_SAMPLE_TID) == -TP_EINVAL, "accepted");
	track__add_id(&t, 9, t2);
	mmap2(&t, 1000, 0x400000, 0x1000, 1, "/fake/x");
	feed(&t, tp_rec__sample(rb, sizeof(rb), &fmt, t2, PERF_RECORD_MISC_USER, &s));
	check("track: a sample of the second attr is found by its IDENTIFIER",
	      has_line(hits(&t), "u /fake/x") && t.stats.bad == 0, "bad %llu, hits:\n%s",
	      (unsigned long long)t.stats.bad, hitbuf);
	s.id = 10;
	check("track: an unknown id is counted bad",
	      feed(&t, tp_rec__sample(rb, sizeof(rb), &fmt, t2, 2, &s)) == -TP_EINVAL &&
	      t.stats.bad == 1, "bad %llu", (unsigned long long)t.stats.bad);
	arena__release(&a);
}

static void test_tree(void)
{
	struct arena a;
	struct track t;

	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	track__set_root(&t, 2000);
	task(&t, PERF_RECORD_FORK, 2001, 2000, 2001);
	task(&t, PERF_RECORD_FORK, 2002, 2001, 2002);
	task(&t, PERF_RECORD_FORK, 2000, 2000, 2003);	/* a thread */
	mmap2(&t, 3000, 0x400000, 0x1000, 1, "/fake/other");
	task(&t, PERF_RECORD_FORK, 3001, 3000, 3001);
	check("tree: root, child, grandchild are members; others not",
	      track__in_tree(&t, 2000) && track__in_tree(&t, 2001) && track__in_tree(&t, 2002) &&
	      !track__in_tree(&t, 3000) && !track__in_tree(&t, 3001) && !track__in_tree(&t, 4),
	      "membership 2000..2002: %d %d %d, 3000/3001/4: %d %d %d", track__in_tree(&t, 2000),
	      track__in_tree(&t, 2001), track__in_tree(&t, 2002), track__in_tree(&t, 3000),
	      track__in_tree(&t, 3001), track__in_tree(&t, 4));
	task(&t, PERF_RECORD_EXIT, 2001, 2000, 2001);
	round_end(&t);
	round_end(&t);
	check("tree: an exited member leaves, its child stays",
	      !track__in_tree(&t, 2001) && track__in_tree(&t, 2002), "2001 %d, 2002 %d",
	      track__in_tree(&t, 2001), track__in_tree(&t, 2002));
	arena__release(&a);
}

/* ---- bounded state through process churn ---- */

static void churn(struct track *t, uint32_t n, bool rounds)
{
	static const char *const libs[] = { "/bin/sh", "/lib/libc.so.6", "/lib/ld.so" };

	for (uint32_t i = 0; i < n; i++) {
		uint32_t pid = 100000 + i % 30000;	/* pids get reused */

		task(t, PERF_RECORD_FORK, pid, 1, pid);
		exec_comm(t, pid, "true");
		for (int j = 0; j < 3; j++)
			mmap2(t, pid, 0x400000 + j * 0x100000, 0x80000, (uint64_t)j + 1, libs[j]);
		uint64_t cc[] = { PERF_CONTEXT_USER, 0x500010, 0x600010 };
		sample(t, PERF_RECORD_MISC_USER, pid, 0x400010, cc, 3);
		task(t, PERF_RECORD_EXIT, pid, 1, pid);
		if (rounds && i % 200 == 99)
			round_end(t);	/* as a record */
		else if (rounds && i % 200 == 199)
			track__end_round(t);
	}
}

static void test_bounded(void)
{
	struct arena a;
	struct track t;
	size_t used0, mapped0, mapped1;

	arena__init(&a, 64 << 20);
	track__init(&t, &a, NULL);
	track__add_id(&t, 7, TYPE);
	for (uint64_t j = 0; j < 10; j++)
		mmap2(&t, 1, 0x10000000 + j * 0x100000, 0x1000, j + 10, "/sbin/init");
	churn(&t, 2000, true);
	round_end(&t);
	round_end(&t);
	used0 = a.used;
	mapped0 = a.mapped;
	double t0 = now();
	churn(&t, 100000, true);
	double t1 = now();
	round_end(&t);
	round_end(&t);
	check("bounded: 100k processes created and exited leave the same usage",
	      a.used == used0 && a.mapped == mapped0 && t.nr_procs == 1,
	      "expected used %zu mapped %zu and 1 process, got used %zu mapped %zu, %u processes",
	      used0, mapped0, a.used, a.mapped, t.nr_procs);
	check("bounded: the hit set is right after the churn",
	      has_line(hits(&t), "u /bin/sh") && has_line(hitbuf, "u /lib/libc.so.6") &&
	      has_line(hitbuf, "u /lib/ld.so") && !has_line(hitbuf, "u /sbin/init") &&
	      t.stats.unresolved == 0, "unresolved %llu, hits:\n%s",
	      (unsigned long long)t.stats.unresolved, hitbuf);
	printf("       (100k process lives, 700k records: %.0f ns/record)\n",
	       (t1 - t0) * 1e9 / 700000);

	/* no FINISHED_ROUND at all: exited processes pile up to the limit, then make room */
	churn(&t, 50000, false);
	mapped1 = a.mapped;
	churn(&t, 50000, false);
	check("bounded: without rounds the process table stays at its limit",
	      a.mapped == mapped1 && t.nr_procs <= t.lim.max_procs && t.stats.procs_evicted > 0,
	      "mapped %zu -> %zu, %u processes, %llu evicted", mapped1, a.mapped, t.nr_procs,
	      (unsigned long long)t.stats.procs_evicted);
	arena__release(&a);

	/* small limits: maps and DSOs past them are counted, never a crash */
	struct track_limits lim = { .max_procs = 4, .max_maps = 4, .max_dsos = 8 };
	arena__init(&a, 0);
	track__init(&t, &a, &lim);
	track__add_id(&t, 7, TYPE);
	for (uint32_t j = 0; j < 8; j++)
		mmap2(&t, 5, 0x400000 + j * 0x1000, 0x1000, j + 1, "/fake/m");
	char name[32];
	for (uint32_t j = 0; j < 40; j++) {
		snprintf(name, sizeof(name), "/fake/u%u", j);
		mmap2(&t, 6 + j, 0x400000, 0x1000, 1, name);
		sample(&t, PERF_RECORD_MISC_USER, 6 + j, 0x400000, NULL, 0);
	}
	check("bounded: limits on maps, DSOs and processes are counted",
	      t.stats.maps_dropped == 4 && t.stats.dsos_dropped > 0 && t.nr_procs <= 4 &&
	      t.stats.procs_evicted > 0, "maps dropped %llu, dsos dropped %llu, procs %u",
	      (unsigned long long)t.stats.maps_dropped, (unsigned long long)t.stats.dsos_dropped,
	      t.nr_procs);
	arena__release(&a);

	/* a full DSO table reuses only slots nothing maps: the two pieces of a split mapping
	 * both hold their file */
	lim = (struct track_limits){ .max_dsos = 3 };
	arena__init(&a, 0);
	track__init(&t, &a, &lim);
	track__add_id(&t, 7, TYPE);
	mmap2(&t, 5, 0x800000, 0x100000, 1, "/fake/d");
	mmap2(&t, 5, 0x840000, 0x10000, 2, "/fake/e");	/* d: [80,84) e [84,85) d [85,90) */
	mmap2(&t, 5, 0x850000, 0xb0000, 3, "/fake/g");	/* replaces d's right piece */
	mmap2(&t, 6, 0x400000, 0x1000, 4, "/fake/h");	/* table full: no free slot */
	sample(&t, PERF_RECORD_MISC_USER, 5, 0x800010, NULL, 0);
	check("bounded: a full DSO table keeps files still mapped",
	      !strcmp(hits(&t), "u /fake/d\n") && t.stats.dsos_dropped == 1,
	      "expected only /fake/d hit and 1 dropped, got %llu dropped, hits:\n%s",
	      (unsigned long long)t.stats.dsos_dropped, hitbuf);
	arena__release(&a);
}

/* flight-recorder snapshots: each forgets the processes and re-learns the live ones; a
 * system whose binaries keep changing (a new file every snapshot) and whose processes churn
 * reaches a steady footprint after the first snapshots */
static void test_snapshots(void)
{
	struct arena a;
	struct track t;
	size_t mapped10 = 0;
	char name[48];

	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	track__add_id(&t, 7, TYPE);
	for (uint32_t s = 0; s < 300; s++) {
		track__forget_procs(&t);
		for (uint32_t p = 0; p < 50 + s % 7; p++) {	/* live processes, some new */
			uint32_t pid = 1000 + (p + s * 3) % 30000;

			snprintf(name, sizeof(name), "/usr/bin/tool%u", p % 5);
			mmap2(&t, pid, 0x400000, 0x10000, 1 + p % 5, name);
			snprintf(name, sizeof(name), "/tmp/build/prog-%u", s);	/* a new file */
			mmap2(&t, pid, 0x800000, 0x10000, 100 + s, name);
			sample(&t, PERF_RECORD_MISC_USER, pid, 0x800010, NULL, 0);
		}
		track__end_round(&t);
		track__reset_hits(&t);
		if (s == 10)
			mapped10 = a.mapped;
	}
	check("snapshots: forgetting processes and unused files keeps the footprint flat",
	      a.mapped == mapped10 && t.nr_procs == 50 + 299 % 7 && t.dsos.nr <= 8 &&
	      t.stats.dsos_dropped == 0,
	      "mapped %zu after 10 snapshots, %zu after 300; %u processes, %u DSO slots, %llu "
	      "dropped", mapped10, a.mapped, t.nr_procs, t.dsos.nr,
	      (unsigned long long)t.stats.dsos_dropped);
	arena__release(&a);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	fmt.id_hdr_size = tp_id_hdr_size(TYPE);
	test_arena();
	test_lifecycle();
	test_ids();
	test_tree();
	test_bounded();
	test_snapshots();
	printf("test-rec-track: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
