/* SPDX-License-Identifier: MIT */
/* tests for the recorder's /proc synthesis, build-ids and machine facts
 * (recorder/record/{synth,sysinfo}.c, recorder/track/buildid.c) on the host: this process
 * and a child it forks are the subjects, checked against /proc, readelf and strip, and
 * their records go through a struct track as the record command's do. Prints [OK]/[FAIL]
 * per case and "test-rec-synth: N passed, N failed". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "tests/unit/rec-test.h"
#include "recorder/base/arena.h"
#include "recorder/track/buildid.h"
#include "recorder/record/synth.h"
#include "recorder/record/sysinfo.h"

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

/* synth__tree: this process, a child and its child (no exec) are found through their
 * parents in /proc/PID/stat; our own parent is not part of the tree */
static void test_synth_tree(void)
{
	int p2c[2], c2p[2];
	pid_t kids[2] = { 0, 0 }, me = getpid();
	bool seen[3] = { false, false, false }, other = false;
	struct synth s;
	int err;

	if (pipe(p2c) || pipe(c2p))
		return;
	kids[0] = fork();
	if (kids[0] == 0) {
		pid_t g = fork();
		char c;

		if (g == 0) {
			read(p2c[0], &c, 1);
			_exit(0);
		}
		write(c2p[1], &g, sizeof(g));
		read(p2c[0], &c, 1);
		waitpid(g, NULL, 0);
		_exit(0);
	}
	read(c2p[0], &kids[1], sizeof(kids[1]));
	s = synth_for(false);
	err = synth__tree(&s, (uint32_t)me);
	FOR_EACH_REC(h) {
		uint32_t pid;

		if (h->type != PERF_RECORD_COMM)
			continue;
		memcpy(&pid, h + 1, 4);
		if (pid == (uint32_t)me)
			seen[0] = true;
		else if (pid == (uint32_t)kids[0])
			seen[1] = true;
		else if (pid == (uint32_t)kids[1])
			seen[2] = true;
		else
			other = true;
	}
	check("synth: tree = this process, its child and grandchild, nothing else",
	      !err && seen[0] && seen[1] && seen[2] && !other,
	      "err %d, self %d child %d grandchild %d, other processes %d", err, seen[0], seen[1],
	      seen[2], other);
	write(p2c[1], "xx", 2);
	waitpid(kids[0], NULL, 0);
	close(p2c[0]); close(p2c[1]); close(c2p[0]); close(c2p[1]);

	/* more children than the children-file walk queues: the /proc scan finds them all */
	enum { MANY = 140 };
	pid_t many[MANY];
	unsigned found = 0;
	int hold[2];

	if (pipe(hold))
		return;
	for (int i = 0; i < MANY; i++) {
		many[i] = fork();
		if (many[i] == 0) {
			char c;

			close(hold[1]);
			read(hold[0], &c, 1);
			_exit(0);
		}
	}
	s = synth_for(false);
	err = synth__tree(&s, (uint32_t)me);
	for (int i = 0; i < MANY; i++) {
		bool seen_i = false;

		FOR_EACH_REC(h) {
			uint32_t pid;

			memcpy(&pid, h + 1, 4);
			if (h->type == PERF_RECORD_COMM && pid == (uint32_t)many[i])
				seen_i = true;
		}
		found += seen_i;
	}
	close(hold[0]);
	close(hold[1]);
	for (int i = 0; i < MANY; i++)
		waitpid(many[i], NULL, 0);
	check("synth: a tree of 140 children (past the children-file queue) found whole",
	      !err && found == MANY, "err %d, %u of %d children", err, found, MANY);
}

/* ---- the kernel ---- */

static void test_synth_kernel(struct track *t)
{
	unsigned long long addr;
	uint64_t text = 0, mod_lo = ~0ULL;
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
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && !strcmp(name, "_text"))
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
	if (!text) {
		/* kptr_restrict hides the addresses here: then the map is [0, ~0), pgoff 0 */
		check("kernel: hidden addresses are reported, map [0, ~0)",
		      err == 0 && k.hidden && out_len && m->addr == 0 && m->len == ~0ULL &&
		      m->pgoff == 0, "got err %d hidden %d addr 0x%llx len 0x%llx", err, k.hidden,
		      (unsigned long long)m->addr, (unsigned long long)m->len);
		return;
	}
	check("kernel: finds _text as /proc/kallsyms has it", err == 0 && k.text == text &&
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

/* ---- build-ids ---- */

static void test_buildid(void)
{
	char want[80], got[80] = "", cmd[1024], dir[] = "/tmp/tp-test-bid-XXXXXX";
	uint8_t id[20];
	uint8_t len = 0;
	uint64_t h = 0;
	int err;

	readelf_id("/bin/ls", want);
	err = buildid__from_file("/bin/ls", id, &len, &h);
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
		err = buildid__from_file(p1, id, &len, &h1);
		check("buildid: a binary built with --build-id=none has none", err == -TP_ENODATA,
		      "expected -ENODATA, got %d", err);
		int e1 = err, e2 = buildid__from_file(p2, id, &len, &h2);
		check("buildid: its text hash survives strip", e2 == -TP_ENODATA && h1 == h2 && h1,
		      "got %d/%d 0x%llx vs 0x%llx", e1, e2, (unsigned long long)h1,
		      (unsigned long long)h2);
		readelf_id(p3, want);
		err = buildid__from_file(p3, id, &len, &h);
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
		err = buildid__from_file(bin, id, &len, &h);
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
	err = buildid__from_file(junk, id, &len, &h);
	int e2 = buildid__from_file("/proc/self/status", id, &len, &h);
	check("buildid: truncated ELF and text refused", err == -TP_ENOEXEC && e2 == -TP_ENOEXEC,
	      "got %d and %d", err, e2);
	check("buildid: missing file gives its errno",
	      buildid__from_file("/nonexistent", id, &len, &h) == -TP_ENOENT, "other error");

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
	struct sysinfo si;
	sysinfo(&si);
	uint64_t want_kb = (uint64_t)si.totalram * si.mem_unit / 1024;
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
	char exe[4096] = "u ";
	struct arena a;
	struct track t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fmt.id_hdr_size = tp_id_hdr_size(TYPE);
	arena__init(&a, 0);
	track__init(&t, &a, NULL);
	track__add_id(&t, 7, TYPE);
	test_synth_self(&t);
	sample(&t, PERF_RECORD_MISC_USER, (uint32_t)getpid(), (uint64_t)(uintptr_t)&test_buildid,
	       NULL, 0);
	readlink("/proc/self/exe", exe + 2, sizeof(exe) - 3);
	check("track: a sample in this program hits its executable", has_line(hits(&t), exe),
	      "expected \"%s\" among:\n%s", exe, hitbuf);
	test_synth_child(&t);
	test_synth_tree();
	test_synth_kernel(&t);
	check("track: nothing malformed among synthesized records", t.stats.bad == 0,
	      "bad %llu", (unsigned long long)t.stats.bad);
	arena__release(&a);
	test_buildid();
	test_sysinfo();
	printf("test-rec-synth: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
