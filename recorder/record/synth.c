/* SPDX-License-Identifier: MIT */
/* Records for the tasks, mappings and kernel that exist before recording starts (synth.h). */
#include "libc-shim/shim.h"
#include "recorder/record/synth.h"

/* the scratch memory, carved up: a record, a line of /proc text, two getdents buffers (the
 * /proc walk and a /proc/PID/task walk inside it) */
#define REC_CAP		4352	/* MMAP2 with a 4 KiB path and the largest sample_id */
#define LINE_CAP	4352
#define TASK_DENTS	3072
#define PROC_DENTS	(SYNTH_SCRATCH_MIN - 8 - REC_CAP - LINE_CAP - TASK_DENTS)

/* every entry point starts here: the scratch aligned once, in place (again it stays) */
static int setup(struct synth *s)
{
	s->scratch = (char *)TP_ALIGN((uintptr_t)s->scratch, (uintptr_t)8);
	return s->scratch_size < SYNTH_SCRATCH_MIN ? -TP_EINVAL : 0;
}

#define LINE_BUF(s)	((s)->scratch + REC_CAP)
#define TASK_BUF(s)	(LINE_BUF(s) + LINE_CAP)
#define PROC_BUF(s)	(TASK_BUF(s) + TASK_DENTS)

static int emit(struct synth *s, int len)
{
	return len < 0 ? len : s->emit(s->ctx, s->scratch, (size_t)len);
}

/* the process vanished while we read it, or is not ours to read (perf skips both) */
#define GONE_MASK (1ul << TP_ENOENT | 1ul << TP_ESRCH | 1ul << TP_EACCES | 1ul << TP_EPERM)
_Static_assert(TP_ENOENT < 32 && TP_ESRCH < 32 && TP_EACCES < 32 && TP_EPERM < 32,
	       "gone() tests a 32-bit mask");

static bool gone(long err)
{
	/* one bit test instead of four compares (err > 0 wraps past 31: never gone) */
	unsigned long e = (unsigned long)-err;

	return e < 32 && (GONE_MASK >> e & 1);
}

/* ---- numeric entries of a /proc directory, streamed with getdents64 ---- */

/* next entry whose name is a number, 0 at the end (a failed read ends the walk too: the
 * directory of an exiting process disappears under us) */
static uint32_t dir_next(struct tp_dir *d)
{
	const char *name;
	unsigned n;

	while ((name = tp_dir__next(d)))
		if (!tp_parse_uint(name, &n) && n)
			return n;
	return 0;
}

/* ---- one process ---- */

/* *other: a thread of pid other than its leader, 0 if none */
static int comms(struct synth *s, uint32_t pid, uint32_t *other)
{
	char path[48], comm[32];
	struct tp_dir d;
	uint32_t tid;
	int err;

	tp_snprintf(path, sizeof(path), "/proc/%u/task", pid);
	err = tp_dir__open(&d, path, TASK_BUF(s), TASK_DENTS);
	if (err)
		return gone(err) ? 0 : err;
	while ((tid = dir_next(&d))) {
		tp_snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
		if (tp_read_line(path, comm, sizeof(comm)) < 0)
			continue;	/* the thread exited */
		*other = tid != pid && !*other ? tid : *other;
		err = emit(s, tp_rec__comm(s->scratch, REC_CAP, s->fmt, pid, tid, comm, false));
		if (err)
			break;
	}
	sys_close(d.fd);
	return err;
}

/* "start-end perms offset maj:min inode   name" -> MMAP2; 1 if the line is not wanted */
static int maps_line(struct synth *s, uint32_t pid, const char *p)
{
	/* start, end, offset, maj, min in hex, then the inode in decimal; each number is followed
	 * by its separator here, the perms (5 characters with their space) come after end */
	static const char sep[] = "-  : ";
	struct tp_mmap2 m = { .pid = pid, .tid = pid };
	uint16_t misc = PERF_RECORD_MISC_USER;
	const char *perm = NULL;
	uint64_t v[6];

	for (unsigned i = 0; i < 6; i++) {
		if (i == 2) {
			if (strnlen(p, 5) < 5 || p[4] != ' ')
				return 1;
			perm = p;
			p += 5;
		}
		if (tp_parse_u64_prefix(&p, i < 5 ? 16 : 10, &v[i]) || (i < 5 && *p++ != sep[i]))
			return 1;
	}
	if (perm[2] != 'x') {
		if (!s->data || perm[0] != 'r')
			return 1;
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	m.prot = (perm[0] == 'r' ? TP_PROT_READ : 0) | (perm[1] == 'w' ? TP_PROT_WRITE : 0) |
		 (perm[2] == 'x' ? TP_PROT_EXEC : 0);
	m.flags = perm[3] == 's' ? TP_MAP_SHARED : TP_MAP_PRIVATE;
	while (*p == ' ' || *p == '\t')
		p++;
	m.addr = v[0];
	m.len = v[1] - v[0];
	m.pgoff = v[2];
	m.maj = (uint32_t)v[3];
	m.min = (uint32_t)v[4];
	m.ino = v[5];
	m.filename = *p ? p : "//anon";
	return emit(s, tp_rec__mmap2(s->scratch, REC_CAP, s->fmt, misc, &m));
}

/* the mappings of pid as thread tid sees them; *none: no line at all */
static int maps(struct synth *s, uint32_t pid, uint32_t tid, bool *none)
{
	char path[48], *line;
	struct tp_lines l;
	int err;

	tp_snprintf(path, sizeof(path), "/proc/%u/task/%u/maps", pid, tid);
	err = tp_lines__open(&l, path, LINE_BUF(s), LINE_CAP);
	if (err)
		return gone(err) ? 0 : err;
	while ((line = tp_lines__next(&l)) && (*none = false, err = maps_line(s, pid, line)) >= 0)
		;
	tp_lines__close(&l);
	if (err > 0)
		err = 0;
	/* a read error other than the process going away is worth reporting */
	return err ? err : gone(l.err) ? 0 : l.err;
}

int synth__task(struct synth *s, uint32_t pid)
{
	uint32_t other = 0;
	bool none = true;
	int err;

	err = setup(s);
	if (err)
		return err;
	err = comms(s, pid, &other);
	if (!err)
		err = maps(s, pid, pid, &none);
	/* a leader that called pthread_exit has no mm and shows no maps, while its threads run
	 * on in them (Linux perf loses them): a thread's view of the same mm */
	if (!err && none && other)
		err = maps(s, pid, other, &none);
	return err;
}

int synth__all_tasks(struct synth *s)
{
	struct tp_dir d;
	uint32_t pid;
	int err;

	err = setup(s);
	if (err)
		return err;
	err = tp_dir__open(&d, "/proc", PROC_BUF(s), PROC_DENTS);
	if (err)
		return err;
	while ((pid = dir_next(&d)) && !(err = synth__task(s, pid)))
		;
	sys_close(d.fd);
	return err;
}

/* the parent of pid from /proc/PID/stat ("pid (comm) S ppid ..."), 0 if unknown; the comm
 * may hold ')' and spaces, the last ')' ends it */
static uint32_t ppid_of(uint32_t pid)
{
	char path[32], buf[64];
	const char *p;
	uint64_t v;
	long n;

	tp_snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	/* the last ')' from the end (the file holds no NUL) */
	for (n = tp_read_file(path, buf, sizeof(buf)); n > 0 && buf[n - 1] != ')'; n--)
		;
	if (n <= 0 || strnlen(p = buf + n - 1, 4) < 4)
		return 0;
	p += 4;
	return tp_parse_u64_prefix(&p, 10, &v) || v > 0xffffffffu ? 0 : (uint32_t)v;
}

/* the tree below root through /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN), breadth
 * first: a few reads instead of one per process on the system. -TP_ENOENT when root's own
 * file is missing, -TP_E2BIG past the queue: the caller scans /proc instead. */
static int tree_children(struct synth *s, uint32_t root)
{
	uint32_t q[128], n = 0, tid;
	char path[64];
	struct tp_dir d;
	int err = 0;

	q[n++] = root;
	for (uint32_t i = 0; i < n && !err; i++) {
		if (i && (err = synth__task(s, q[i])))
			break;
		tp_snprintf(path, sizeof(path), "/proc/%u/task", q[i]);
		if (tp_dir__open(&d, path, PROC_BUF(s), PROC_DENTS))
			continue;	/* gone */
		while (!err && (tid = dir_next(&d))) {
			const char *p = LINE_BUF(s);
			uint64_t v;
			long len;

			tp_snprintf(path, sizeof(path), "/proc/%u/task/%u/children", q[i], tid);
			len = tp_read_file(path, LINE_BUF(s), LINE_CAP);
			if (len < 0 && !i && tid == root)
				err = -TP_ENOENT;
			while (len > 0 && !err && !tp_parse_u64_prefix(&p, 10, &v)) {
				if (n == TP_ARRAY_SIZE(q))
					err = -TP_E2BIG;
				else
					q[n++] = (uint32_t)v;
				while (*p == ' ')
					p++;
			}
		}
		sys_close(d.fd);
	}
	return err;
}

int synth__tree(struct synth *s, uint32_t root)
{
	struct tp_dir d;
	uint32_t pid, up;
	int err = synth__task(s, root);

	if (err)
		return err;
	err = tree_children(s, root);
	if (err != -TP_ENOENT && err != -TP_E2BIG)
		return err;
	/* records already emitted for part of the tree come again: harmless duplicates */
	err = tp_dir__open(&d, "/proc", PROC_BUF(s), PROC_DENTS);
	if (err)
		return err;
	while (!err && (pid = dir_next(&d))) {
		/* up the ancestry; 64 levels is deeper than any real tree */
		for (unsigned depth = 0, p = pid; p > 1 && p != root && depth < 64; depth++) {
			up = ppid_of(p);
			if (up == root)
				err = synth__task(s, pid);
			p = up == root ? 0 : up;
		}
	}
	sys_close(d.fd);
	return err;
}

/* ---- the kernel ---- */

/* the n-th space-separated field of line (0-based), NULL if there are fewer */
static const char *nth(const char *p, unsigned n)
{
	for (; n; n--) {
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		while (*p == ' ')
			p++;
	}
	return p;
}

/* one /proc/modules line: "name size refs deps state 0xaddr [taint]" */
static bool module(const char *line, uint64_t *start, uint64_t *size)
{
	const char *p = nth(line, 1), *a = nth(line, 5);

	return p && a && !tp_parse_u64_prefix(&p, 10, size) && !tp_parse_u64_prefix(&a, 0, start) &&
	       *start;
}

/* an MMAP of the kernel or a module (pid -1, tid 0), named fmt with n, name for its "%.*s"
 * (a negative n prints all of name) */
static int kernel_mmap(struct synth *s, const char *fmt, int n, const char *name,
		       uint64_t start, uint64_t len, uint64_t pgoff)
{
	char buf[72];

	tp_snprintf(buf, sizeof(buf), fmt, n, name);
	return emit(s, tp_rec__mmap(s->scratch, REC_CAP, s->fmt, PERF_RECORD_MISC_KERNEL,
				    (uint32_t)-1, 0, start, len, pgoff, buf));
}

/* one pass over /proc/modules: with end, the lowest module start above the kernel text (what
 * perf clips the kernel map to; *end stays as it was without one), else an MMAP per module */
static int modules(struct synth *s, struct synth_kernel *k, uint64_t *end)
{
	uint64_t start, size;
	struct tp_lines l;
	char *line;
	int err = 0;

	if (tp_lines__open(&l, "/proc/modules", LINE_BUF(s), LINE_CAP))
		return 0;	/* a kernel without modules */
	while (!err && (line = tp_lines__next(&l))) {
		if (!module(line, &start, &size))
			continue;
		if (end) {
			if (start > k->text && start < *end)
				*end = start;
			continue;
		}
		err = kernel_mmap(s, "[%.*s]", (int)(strchr(line, ' ') - line), line, start, size, 0);
		k->nr_modules += !err;
	}
	tp_lines__close(&l);
	return err;
}

int synth__kernel(struct synth *s, struct synth_kernel *k)
{
	uint64_t addr, end = ~0ULL;
	struct tp_lines l;
	unsigned n = 0;
	char *line;
	int err;

	memset(k, 0, sizeof(*k));
	err = setup(s);
	if (err)
		return err;
	err = tp_lines__open(&l, "/proc/kallsyms", LINE_BUF(s), LINE_CAP);
	if (err)
		return err;
	/* "ffffffff81000000 T _text"; perf's reference symbol is _text, else _stext */
	while ((line = tp_lines__next(&l)) && n++ < KALLSYMS_MAX_LINES) {
		const char *p = line;

		if (tp_parse_u64_prefix(&p, 16, &addr) || p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		if (!strcmp(p + 3, "_text")) {
			k->ref = "_text";
			k->text = addr;
			break;
		}
		if (!strcmp(p + 3, "_stext")) {
			k->ref = "_stext";
			k->text = addr;
		} else if (k->ref && addr > k->text) {
			break;	/* sorted by address: _text would have come by now */
		}
	}
	tp_lines__close(&l);
	if (!k->ref)
		return -TP_ENOENT;
	k->kptr_restrict = k->paranoid = -1;
	if (!k->text) {
		char v[16];
		int64_t u;

		k->hidden = true;
		if (tp_read_line("/proc/sys/kernel/kptr_restrict", v, sizeof(v)) > 0 &&
		    !tp_parse_s64(v, 10, &u))
			k->kptr_restrict = (int)u;
		if (tp_read_line("/proc/sys/kernel/perf_event_paranoid", v, sizeof(v)) > 0 &&
		    !tp_parse_s64(v, 10, &u))
			k->paranoid = (int)u;
	} else {
		modules(s, k, &end);
	}
	err = kernel_mmap(s, "[kernel.kallsyms]%.*s", -1, k->ref, k->text, end - k->text, k->text);
	return err || k->hidden ? err : modules(s, k, NULL);
}
