/* tests for the recorder's arena, /proc synthesis, DSO hit tracking, process-tree following,
 * build-ids and machine facts (recorder/{arena,synth,track,buildid,sysinfo}.c), on the host:
 * this process and children it forks are the subjects, checked against /proc, readelf and
 * strip. Prints [OK]/[FAIL] per case and "test-rec-track: N passed, N failed". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "perfdata/texthash.h"
#include "recorder/arena.h"
#include "recorder/buildid.h"
#include "recorder/synth.h"
#include "recorder/sysinfo.h"
#include "recorder/track.h"

static int passed, failed;

static void check(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("[OK] %s\n", name);
		passed++;
		return;
	}
	printf("[FAIL] %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

/* ---- records: a sample_type with callchains and a sample_id trailer, like the command's ---- */

#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
static struct tp_rec_fmt fmt;
static uint64_t rb[1024];	/* one encoded record */

static int feed(struct track *t, int len)
{
	if (len < 0) {
		printf("encoder failed: %d\n", len);
		exit(2);
	}
	return track__record(t, (const struct perf_event_header *)rb);
}

static int sample(struct track *t, uint16_t mode, uint32_t pid, uint64_t ip,
		  const uint64_t *cc, uint32_t ncc)
{
	struct tp_sample s = { .id = 7, .ip = ip, .pid = pid, .tid = pid, .period = 1,
			       .callchain = cc, .nr_callchain = ncc };

	return feed(t, tp_rec__sample(rb, sizeof(rb), &fmt, TYPE, mode, &s));
}

static void mmap2(struct track *t, uint32_t pid, uint64_t addr, uint64_t len, uint64_t ino,
		  const char *name)
{
	struct tp_mmap2 m = { .pid = pid, .tid = pid, .addr = addr, .len = len, .maj = 8,
			      .ino = ino, .prot = 5, .flags = 2, .filename = name };

	feed(t, tp_rec__mmap2(rb, sizeof(rb), &fmt, PERF_RECORD_MISC_USER, &m));
}

static void task(struct track *t, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid)
{
	feed(t, type == PERF_RECORD_FORK ? tp_rec__fork(rb, sizeof(rb), &fmt, pid, ppid, tid, ppid, 0)
					 : tp_rec__exit(rb, sizeof(rb), &fmt, pid, ppid, tid, ppid, 0));
}

static void exec_comm(struct track *t, uint32_t pid, const char *comm)
{
	feed(t, tp_rec__comm(rb, sizeof(rb), &fmt, pid, pid, comm, true));
}

static void round_end(struct track *t)
{
	feed(t, tp_rec__finished_round(rb, sizeof(rb), &fmt));
}

/* the hit DSOs as "K path" lines (K: u user, k kernel, m module; +id when known) */
static char hitbuf[1 << 16];

static int hit_cb(void *ctx, const char *path, enum track_kind kind, const uint8_t *id,
		  uint8_t idlen)
{
	size_t n = strlen(hitbuf);

	(void)ctx;
	snprintf(hitbuf + n, sizeof(hitbuf) - n, "%c %s%s\n", "ukm"[kind], path,
		 id ? (idlen == 20 ? " +id" : " +short-id") : "");
	return 0;
}

static const char *hits(struct track *t)
{
	hitbuf[0] = '\0';
	track__for_each_hit_dso(t, hit_cb, NULL);
	return hitbuf;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* ---- synthesized records, collected ---- */

static uint8_t out[1 << 22];
static size_t out_len;

static int collect(void *ctx, const void *rec, size_t len)
{
	(void)ctx;
	if (out_len + len > sizeof(out))
		return -TP_ENOSPC;
	memcpy(out + out_len, rec, len);
	out_len += len;
	return 0;
}

static char scratch[SYNTH_SCRATCH_MIN + 3];

static struct synth synth_for(bool data)
{
	out_len = 0;
	/* deliberately misaligned scratch: synth must cope */
	return (struct synth){ collect, NULL, &fmt, scratch + 3, SYNTH_SCRATCH_MIN, data };
}

#define FOR_EACH_REC(h) \
	for (struct perf_event_header *h = (void *)out; (uint8_t *)h < out + out_len; \
	     h = (void *)((uint8_t *)h + h->size))

struct mmap2_view {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, gen;
	uint32_t prot, flags;
	char name[];
};

static void feed_out(struct track *t)
{
	FOR_EACH_REC(h)
		track__record(t, h);
}

/* ---- helpers on the host side ---- */

static int run(const char *cmd, char *buf, size_t cap)
{
	FILE *f = popen(cmd, "r");
	size_t n = 0;

	if (!f)
		return -1;
	if (buf) {
		n = fread(buf, 1, cap - 1, f);
		buf[n] = '\0';
	} else {
		while (fgetc(f) != EOF)
			;
	}
	return pclose(f);
}

static void hex(const uint8_t *id, unsigned len, char *s)
{
	for (unsigned i = 0; i < len; i++)
		sprintf(s + 2 * i, "%02x", id[i]);
	s[2 * len] = '\0';
}

/* "Build ID: <hex>" of readelf -n, "" if none */
static void readelf_id(const char *path, char *id)
{
	char cmd[512], buf[8192], *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	id[0] = '\0';
	if (run(cmd, buf, sizeof(buf)) == 0 && (p = strstr(buf, "Build ID: ")))
		sscanf(p + 10, "%64[0-9a-f]", id);
}

static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ================================================================================== */

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

/* ---- synthesis of this process ---- */

static volatile int stop_thread;

static void *worker(void *arg)
{
	(void)arg;
	while (!stop_thread)
		usleep(1000);
	return NULL;
}

static void test_synth_self(struct track *t)
{
	char exe[4096] = "", line[8192], comm[64] = "", tcomm[64];
	unsigned exec_maps = 0, data_maps = 0, mmaps = 0, comms = 0, found_exe = 0, vdso = 0;
	unsigned data_mmaps = 0;
	struct synth s;
	struct stat st;
	pthread_t th;
	FILE *f;
	int err;

	readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	stat(exe, &st);
	f = fopen("/proc/self/comm", "r");
	fgets(comm, sizeof(comm), f);
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	pthread_create(&th, NULL, worker, NULL);
	pthread_setname_np(th, "tp-worker");

	s = synth_for(false);
	err = synth__task(&s, (uint32_t)getpid());
	f = fopen("/proc/self/maps", "r");
	while (fgets(line, sizeof(line), f)) {
		char perms[8];

		sscanf(line, "%*x-%*x %7s", perms);
		exec_maps += perms[2] == 'x';
		data_maps += perms[2] != 'x' && perms[0] == 'r';
	}
	fclose(f);
	tcomm[0] = '\0';
	FOR_EACH_REC(h) {
		if (h->type == PERF_RECORD_COMM) {
			uint32_t *v = (uint32_t *)(h + 1);

			comms++;
			if (v[1] == (uint32_t)getpid() && strcmp((char *)(v + 2), comm))
				comms += 100;	/* wrong name */
			if (v[1] != (uint32_t)getpid())
				snprintf(tcomm, sizeof(tcomm), "%s", (char *)(v + 2));
		} else if (h->type == PERF_RECORD_MMAP2) {
			struct mmap2_view *m = (void *)(h + 1);

			mmaps++;
			if (!strcmp(m->name, exe) && m->ino == st.st_ino &&
			    m->maj == major(st.st_dev) && m->min == minor(st.st_dev) &&
			    (m->prot & TP_PROT_EXEC) && m->flags == TP_MAP_PRIVATE &&
			    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER)
				found_exe++;
			vdso += !strcmp(m->name, "[vdso]");
		}
	}
	check("synth: task of this process", err == 0, "expected 0, got %d", err);
	check("synth: one COMM per thread with its name",
	      comms == 2 && !strcmp(tcomm, "tp-worker"),
	      "expected 2 COMMs (\"%s\", \"tp-worker\"), got %u, thread \"%s\"", comm, comms, tcomm);
	check("synth: an MMAP2 per executable mapping", mmaps == exec_maps,
	      "expected %u, got %u", exec_maps, mmaps);
	check("synth: the executable's MMAP2 (path, dev, ino, prot, flags)", found_exe >= 1,
	      "no MMAP2 for %s with ino %lu", exe, (unsigned long)st.st_ino);
	check("synth: [vdso] included", vdso == 1, "expected 1 [vdso], got %u", vdso);
	feed_out(t);

	s = synth_for(true);
	synth__task(&s, (uint32_t)getpid());
	mmaps = 0;
	FOR_EACH_REC(h)
		if (h->type == PERF_RECORD_MMAP2) {
			mmaps++;
			data_mmaps += !!(h->misc & PERF_RECORD_MISC_MMAP_DATA);
		}
	/* the maps may have changed a little in between (stdio buffers): compare loosely */
	check("synth: --data adds readable data mappings with MMAP_DATA",
	      data_mmaps >= data_maps / 2 && mmaps >= exec_maps + data_mmaps - 2,
	      "expected about %u data maps, got %u of %u", data_maps, data_mmaps, mmaps);

	stop_thread = 1;
	pthread_join(th, NULL);

	s = synth_for(false);
	err = synth__task(&s, 999999999);
	check("synth: a vanished process is skipped silently", err == 0 && out_len == 0,
	      "expected 0 and no records, got %d and %zu bytes", err, out_len);
	s.scratch_size = 100;
	check("synth: small scratch refused", synth__task(&s, 1) == -TP_EINVAL, "accepted");
}

/* ---- a forked child with known mappings ---- */

static void test_synth_child(struct track *t)
{
	char path[] = "/tmp/tp-test-map-XXXXXX", page[4096];
	int fd = mkstemp(path), to_parent[2], to_child[2];
	uint64_t addrs[2];
	unsigned found = 0;
	struct stat st;
	pid_t child;
	struct synth s;
	int err;

	memset(page, 0x90, sizeof(page));
	for (int i = 0; i < 4; i++)
		write(fd, page, sizeof(page));
	fstat(fd, &st);
	pipe(to_parent);
	pipe(to_child);
	child = fork();
	if (child == 0) {
		char c;
		void *a = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 4096);
		void *b = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 3 * 4096);

		addrs[0] = (uintptr_t)a;
		addrs[1] = (uintptr_t)b;
		write(to_parent[1], addrs, sizeof(addrs));
		read(to_child[0], &c, 1);
		_exit(0);
	}
	read(to_parent[0], addrs, sizeof(addrs));
	s = synth_for(false);
	err = synth__task(&s, (uint32_t)child);
	FOR_EACH_REC(h) {
		struct mmap2_view *m = (void *)(h + 1);

		if (h->type != PERF_RECORD_MMAP2 || strcmp(m->name, path))
			continue;
		if (m->pid == (uint32_t)child && m->tid == (uint32_t)child && m->ino == st.st_ino &&
		    m->prot == (TP_PROT_READ | TP_PROT_EXEC) &&
		    ((m->addr == addrs[0] && m->len == 8192 && m->pgoff == 4096 &&
		      m->flags == TP_MAP_PRIVATE) ||
		     (m->addr == addrs[1] && m->len == 4096 && m->pgoff == 3 * 4096 &&
		      m->flags == TP_MAP_SHARED)))
			found++;
	}
	check("synth: forked child's private and shared exec mappings", err == 0 && found == 2,
	      "expected 2 exact MMAP2s of %s, got %u (err %d)", path, found, err);
	feed_out(t);
	sample(t, PERF_RECORD_MISC_USER, (uint32_t)child, addrs[0] + 100, NULL, 0);
	char want[256];
	snprintf(want, sizeof(want), "u %s", path);
	check("track: sample in the child's mapping hits the file", has_line(hits(t), want),
	      "expected \"%s\" among:\n%s", want, hitbuf);
	write(to_child[1], "x", 1);
	waitpid(child, NULL, 0);
	close(fd);
	unlink(path);
}

/* ---- the kernel ---- */

static void test_synth_kernel(struct track *t)
{
	uint64_t text = 0, addr, mod_lo = ~0ULL;
	char line[512], type, name[256];
	unsigned nmod = 0;
	struct synth_kernel k;
	struct synth s;
	double t0, t1, t2;
	FILE *f;
	int err;

	t0 = now();
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) == 3 && !strcmp(name, "_text"))
			text = addr;
	if (f)
		fclose(f);
	t1 = now();
	s = synth_for(false);
	err = synth__kernel(&s, &k);
	t2 = now();
	f = fopen("/proc/modules", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a = 0;

		if (sscanf(line, "%*s %*u %*s %*s %*s %llx", &a) == 1 && a) {
			nmod++;
			if (a > text && a < mod_lo)
				mod_lo = a;
		}
	}
	if (f)
		fclose(f);

	struct perf_event_header *h = (void *)out;
	struct { uint32_t pid, tid; uint64_t addr, len, pgoff; char name[]; } *m = (void *)(h + 1);
	check("kernel: finds _text as /proc/kallsyms has it", err == 0 && text && k.text == text &&
	      !k.hidden && !strcmp(k.ref, "_text"),
	      "expected _text 0x%llx visible, got err %d text 0x%llx hidden %d",
	      (unsigned long long)text, err, (unsigned long long)k.text, k.hidden);
	check("kernel: MMAP [kernel.kallsyms]_text, pid -1, pgoff = start = _text, end at the first "
	      "module or ~0",
	      out_len && h->type == PERF_RECORD_MMAP && h->misc == PERF_RECORD_MISC_KERNEL &&
	      m->pid == (uint32_t)-1 && m->tid == 0 && !strcmp(m->name, "[kernel.kallsyms]_text") &&
	      m->pgoff == text && m->addr == text && m->len == mod_lo - text,
	      "got type %u misc %u pid %d name %s addr 0x%llx len 0x%llx pgoff 0x%llx",
	      h->type, h->misc, (int)m->pid, m->name, (unsigned long long)m->addr,
	      (unsigned long long)m->len, (unsigned long long)m->pgoff);
	check("kernel: one MMAP per module", k.nr_modules == nmod,
	      "expected %u, got %u", nmod, k.nr_modules);
	printf("       (kallsyms: whole file read %.1f ms, synth__kernel %.2f ms)\n",
	       (t1 - t0) * 1e3, (t2 - t1) * 1e3);
	check("kernel: stops early in kallsyms", t2 - t1 < (t1 - t0) / 2,
	      "took %.2f ms against %.2f ms for the whole file", (t2 - t1) * 1e3, (t1 - t0) * 1e3);
	feed_out(t);
	uint64_t cc[] = { PERF_CONTEXT_KERNEL, text + 0x100, text + 0x200 };
	sample(t, PERF_RECORD_MISC_KERNEL, 1, text + 0x80, cc, 3);
	check("track: kernel sample hits [kernel.kallsyms]",
	      has_line(hits(t), "k [kernel.kallsyms]"), "hits:\n%s", hitbuf);
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
		if (rounds && i % 100 == 99)
			round_end(t);
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

/* ---- build-ids ---- */

static void test_buildid(void)
{
	char want[80], got[80] = "", cmd[1024], dir[] = "/tmp/tp-test-bid-XXXXXX";
	uint8_t id[20];
	uint8_t len = 0;
	int err;

	readelf_id("/bin/ls", want);
	err = buildid__from_file("/bin/ls", id, &len);
	if (!err)
		hex(id, len, got);
	check("buildid: /bin/ls as readelf -n says", !err && want[0] && !strcmp(want, got),
	      "expected %s, got %s (err %d)", want, got, err);

	mkdtemp(dir);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf 'int main(void){return 0;}\\n' > x.c && "
		 "cc -O1 -g -Wl,--build-id=none -o none x.c && cp none none.stripped && "
		 "strip none.stripped && cc -Wl,--build-id=md5 -o md5 x.c", dir);
	if (run(cmd, NULL, 0) == 0) {
		char p1[128], p2[128], p3[128];
		uint64_t h1 = 0, h2 = 0;

		snprintf(p1, sizeof(p1), "%s/none", dir);
		snprintf(p2, sizeof(p2), "%s/none.stripped", dir);
		snprintf(p3, sizeof(p3), "%s/md5", dir);
		err = buildid__from_file(p1, id, &len);
		check("buildid: a binary built with --build-id=none has none", err == -TP_ENODATA,
		      "expected -ENODATA, got %d", err);
		int e1 = buildid__text_hash(p1, &h1), e2 = buildid__text_hash(p2, &h2);
		check("buildid: its text hash survives strip", !e1 && !e2 && h1 == h2 && h1,
		      "got %d/%d 0x%llx vs 0x%llx", e1, e2, (unsigned long long)h1,
		      (unsigned long long)h2);
		readelf_id(p3, want);
		err = buildid__from_file(p3, id, &len);
		hex(id, err ? 0 : len, got);
		check("buildid: a 16-byte md5 build-id", !err && len == 16 && !strcmp(want, got),
		      "expected %s, got %s (err %d)", want, got, err);
	} else {
		check("buildid: cc builds the no-build-id test binary", false, "cc failed");
	}

	/* ELF32 and big-endian, when cross compilers are at hand */
	static const char *const cross[] = { "mips-linux-gnu-gcc", "arm-linux-gnueabihf-gcc" };
	for (unsigned i = 0; i < 2; i++) {
		char bin[160], name[96];

		if (!have(cross[i])) {
			printf("[SKIP] buildid: %s ELF (no %s)\n", cross[i], cross[i]);
			continue;
		}
		snprintf(bin, sizeof(bin), "%s/x-%u", dir, i);
		snprintf(cmd, sizeof(cmd), "printf 'void _start(void){for(;;);}\\n' > %s.c && "
			 "%s -nostdlib -static -Wl,--build-id -o %s %s.c 2>/dev/null",
			 bin, cross[i], bin, bin);
		run(cmd, NULL, 0);
		readelf_id(bin, want);
		err = buildid__from_file(bin, id, &len);
		hex(id, err ? 0 : len, got);
		snprintf(name, sizeof(name), "buildid: %s ELF32%s", cross[i], i ? "" : " big-endian");
		check(name, !err && want[0] && !strcmp(want, got), "expected %s, got %s (err %d)",
		      want, got, err);
	}

	/* not ELF, truncated ELF: refused without a crash */
	char junk[160];
	snprintf(junk, sizeof(junk), "%s/junk", dir);
	snprintf(cmd, sizeof(cmd), "head -c 100 /bin/ls > %s", junk);
	run(cmd, NULL, 0);
	err = buildid__from_file(junk, id, &len);
	int e2 = buildid__from_file("/proc/self/status", id, &len);
	check("buildid: truncated ELF and text refused", err == -TP_ENOEXEC && e2 == -TP_ENOEXEC,
	      "got %d and %d", err, e2);
	check("buildid: missing file gives its errno",
	      buildid__from_file("/nonexistent", id, &len) == -TP_ENOENT, "other error");

	/* the kernel: the NT_GNU_BUILD_ID note in /sys/kernel/notes, found by its bytes */
	uint8_t notes[4096];
	static const uint8_t pat[] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	int fd = open("/sys/kernel/notes", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, notes, sizeof(notes)) : -1;
	uint8_t *p = n > 0 ? memmem(notes, (size_t)n, pat, sizeof(pat)) : NULL;
	if (fd >= 0)
		close(fd);
	want[0] = '\0';
	if (p)
		hex(p + sizeof(pat), 20, want);
	err = buildid__kernel(id, &len);
	hex(id, err ? 0 : len, got);
	check("buildid: the kernel's from /sys/kernel/notes", p && !err && !strcmp(want, got),
	      "expected %s, got %s (err %d)", want, got, err);
	check("buildid: an absent module", buildid__module("[tp-no-such]", id, &len) == -TP_ENOENT,
	      "found one");

	/* the vdso: dump it from memory, ask readelf */
	char vpath[160], line[512];
	unsigned long lo = 0, hi = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]"))
			sscanf(line, "%lx-%lx", &lo, &hi);
	fclose(f);
	snprintf(vpath, sizeof(vpath), "%s/vdso.so", dir);
	fd = open(vpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(fd, (void *)lo, hi - lo);
	close(fd);
	readelf_id(vpath, want);
	err = buildid__vdso(id, &len);
	hex(id, err ? 0 : len, got);
	check("buildid: [vdso] from memory matches readelf on its dump",
	      lo && !err && want[0] && !strcmp(want, got), "expected %s, got %s (err %d)", want,
	      got, err);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd, NULL, 0);
}

/* ---- machine facts ---- */

static void test_sysinfo(void)
{
	uint64_t mask[2], kb = 0;
	unsigned top = 0;
	uint32_t avail = 0, online = 0;
	char desc[256] = "", want[256] = "";
	int n;

	n = cpulist__parse("0-3,8\n", mask, 128, &top);
	check("cpulist: 0-3,8", n == 5 && top == 9 && mask[0] == 0x10f && mask[1] == 0,
	      "got %d cpus, top %u, mask %llx", n, top, (unsigned long long)mask[0]);
	n = cpulist__parse("64,1-1,64", mask, 128, &top);
	check("cpulist: second word and duplicates", n == 2 && mask[1] == 1 && mask[0] == 2,
	      "got %d, %llx %llx", n, (unsigned long long)mask[0], (unsigned long long)mask[1]);
	check("cpulist: empty list", cpulist__parse("", mask, 128, &top) == 0 && top == 0,
	      "not empty");
	check("cpulist: bad syntax", cpulist__parse("3-1", mask, 128, NULL) == -TP_EINVAL &&
	      cpulist__parse("1,,2", mask, 128, NULL) == -TP_EINVAL &&
	      cpulist__parse("0-3,", mask, 128, NULL) == -TP_EINVAL &&
	      cpulist__parse("x", NULL, 0, NULL) == -TP_EINVAL, "accepted");
	check("cpulist: out of range", cpulist__parse("128", mask, 128, NULL) == -TP_ERANGE,
	      "accepted");

	n = sysinfo__nrcpus(&avail, &online);
	check("sysinfo: nrcpus", !n && online == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN) &&
	      avail >= online, "expected online %ld, got %d: avail %u online %u",
	      sysconf(_SC_NPROCESSORS_ONLN), n, avail, online);
	n = sysinfo__mem_total_kb(&kb);
	uint64_t want_kb = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	check("sysinfo: MemTotal", !n && kb == want_kb, "expected %llu kB, got %llu (%d)",
	      (unsigned long long)want_kb, (unsigned long long)kb, n);
	n = sysinfo__cpudesc(desc, sizeof(desc));
	run("sed -n 's/^model name[[:space:]]*: *//p;s/^cpu model[[:space:]]*: *//p' /proc/cpuinfo"
	    " | head -1 | tr -s ' \\t' ' ' | sed 's/ *$//' | tr -d '\\n'", want, sizeof(want));
	check("sysinfo: cpu description", !n && want[0] && !strcmp(desc, want),
	      "expected \"%s\", got \"%s\" (%d)", want, desc, n);
}

int main(void)
{
	struct arena a;
	struct track t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fmt.id_hdr_size = tp_id_hdr_size(TYPE);
	test_arena();

	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	track__add_id(&t, 7, TYPE);
	test_synth_self(&t);
	sample(&t, PERF_RECORD_MISC_USER, (uint32_t)getpid(), (uint64_t)(uintptr_t)&test_arena,
	       NULL, 0);
	char exe[4096] = "u ";
	readlink("/proc/self/exe", exe + 2, sizeof(exe) - 3);
	check("track: a sample in this program hits its executable", has_line(hits(&t), exe),
	      "expected \"%s\" among:\n%s", exe, hitbuf);
	test_synth_child(&t);
	test_synth_kernel(&t);
	check("track: nothing malformed among synthesized records", t.stats.bad == 0,
	      "bad %llu", (unsigned long long)t.stats.bad);
	arena__release(&a);

	test_lifecycle();
	test_ids();
	test_tree();
	test_bounded();
	test_buildid();
	test_sysinfo();

	printf("test-rec-track: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
