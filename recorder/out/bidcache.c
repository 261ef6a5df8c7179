/* SPDX-License-Identifier: MIT */
/* The device side of the build-id cache: each hit DSO's file is hard-linked (or copied) to
 * <dir>/<path>/<id>/elf and indexed by <dir>/.build-id/xx/yyyy -> ../../<path>/<id>, the
 * kernel's /proc/kallsyms copied to <dir>/[kernel.kallsyms]/<id>/kallsyms, the [vdso] image
 * written to <dir>/[vdso]/<id>/vdso; binaries without a build-id go under their text hash
 * (<path>/text-<hash>/elf, .text-hash/xx/yyyy). Every file is written under a temporary
 * name and renamed, so a host reading the directory meanwhile never sees half a file. On a
 * filesystem without symlinks the index entry is a directory holding the file (perf reads
 * that as well). Runs once, after the recording, so it costs nothing while recording. */
#include "libc-shim/shim.h"
#include "libc-shim/link.h"
#include "recorder/out/bidcache.h"

#define PATHLEN 4096

static struct {
	char entry[PATHLEN], dst[PATHLEN], tmp[PATHLEN], link[PATHLEN], target[PATHLEN];
	char rel[PATHLEN], err_path[256];
	char line[512];
	uint8_t buf[16384];
} g;

static void hex(char *out, const uint8_t *id, unsigned n)
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

/* absolute, without ".", ".." or empty components, outside the cache's own directories */
static bool name_ok(const char *name)
{
	const char *p = name;

	if (name[0] != '/' || tp_startswith(name, "/.build-id") ||
	    tp_startswith(name, "/.text-hash") || tp_startswith(name, "/.tinyperf"))
		return false;
	while (*p) {
		const char *c = ++p;

		while (*p && *p != '/')
			p++;
		if (p == c || (p - c == 1 && c[0] == '.') ||
		    (p - c == 2 && c[0] == '.' && c[1] == '.'))
			return false;
	}
	return true;
}

/* mkdir -p of path's directory part */
static int mkparent(char *path)
{
	for (char *p = path + 1; *p; p++) {
		long r;

		if (*p != '/')
			continue;
		*p = '\0';
		r = sys_mkdirat(TP_AT_FDCWD, path, 0755);
		*p = '/';
		if (r < 0 && r != -TP_EEXIST)
			return (int)r;
	}
	return 0;
}

static bool exists(const char *path)
{
	long fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0);

	if (fd < 0)
		return false;
	sys_close((int)fd);
	return true;
}

static int tmpname(const char *final)
{
	const char *slash = strrchr(final, '/');
	int dlen = slash ? (int)(slash - final) + 1 : 0;

	return tp_snprintf(g.tmp, sizeof(g.tmp), "%.*s.%s.tmp.%ld", dlen, final,
			   slash ? slash + 1 : final, sys_getpid()) >= (int)sizeof(g.tmp) ?
	       -TP_ENAMETOOLONG : 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		long w = sys_write(fd, p, n);

		if (w == -TP_EINTR)
			continue;
		if (w <= 0)
			return w ? (int)w : -TP_EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* dst gets src's content (a file path; hard-linked if may_link and the filesystem lets) or
 * mem[0..len): through g.tmp and a rename */
static int place(const char *src, bool may_link, const void *mem, size_t len, char *dst,
		 bool *linked)
{
	long in = -1, out, r = 0;
	int err = mkparent(dst);

	*linked = false;
	if (!err)
		err = tmpname(dst);
	if (err)
		return err;
	if (src && may_link &&
	    sys_linkat(TP_AT_FDCWD, src, TP_AT_FDCWD, g.tmp, TP_AT_SYMLINK_FOLLOW) == 0) {
		*linked = true;
		goto out_rename;
	}
	if (src) {
		in = sys_open(src, TP_O_RDONLY | TP_O_CLOEXEC, 0);
		if (in < 0)
			return (int)in;
	}
	out = sys_open(g.tmp, TP_O_WRONLY | TP_O_CREAT | TP_O_EXCL | TP_O_CLOEXEC, 0644);
	if (out < 0) {
		if (in >= 0)
			sys_close((int)in);
		return (int)out;
	}
	if (src) {
		while ((r = sys_read((int)in, g.buf, sizeof(g.buf))) > 0 || r == -TP_EINTR)
			if (r > 0 && (err = write_all((int)out, g.buf, (size_t)r)))
				break;
		if (!err && r < 0)
			err = (int)r;
		sys_close((int)in);
	} else {
		err = write_all((int)out, mem, len);
	}
	if (!err)
		err = (int)sys_fsync((int)out);
	sys_close((int)out);
	if (err) {
		sys_unlinkat(TP_AT_FDCWD, g.tmp, 0);
		return err;
	}
out_rename:
	r = sys_renameat(TP_AT_FDCWD, g.tmp, TP_AT_FDCWD, dst);
	sys_unlinkat(TP_AT_FDCWD, g.tmp, 0);	/* left if both named one inode */
	return (int)r;
}

/* the index link g.link -> ../../<g.rel>. Without symlinks (vfat; a freestanding build on
 * an arch whose abi.h lacks the number) the index entry becomes a directory holding the
 * file: g.dst moves there, and the later files of this run go there directly. */
static int index_entry(struct rec_bidcache *bc, const char *file)
{
	int err;

	if (exists(g.link))
		return 0;
	if (tp_snprintf(g.target, sizeof(g.target), "../../%s", g.rel) >= (int)sizeof(g.target))
		return -TP_ENAMETOOLONG;
	err = mkparent(g.link);
	if (!err)
		err = tmpname(g.link);
	if (err)
		return err;
	err = (int)sys_symlinkat(g.target, TP_AT_FDCWD, g.tmp);
	if (!err) {
		err = (int)sys_renameat(TP_AT_FDCWD, g.tmp, TP_AT_FDCWD, g.link);
		if (err)
			sys_unlinkat(TP_AT_FDCWD, g.tmp, 0);
		return err;
	}
	if (err != -TP_ENOSYS && err != -TP_EPERM && err != -TP_EOPNOTSUPP)
		return err;
	bc->no_symlinks = true;
	if (tp_snprintf(g.entry, sizeof(g.entry), "%s/%s", g.link, file) >= (int)sizeof(g.entry))
		return -TP_ENAMETOOLONG;
	err = mkparent(g.entry);
	if (!err)
		err = (int)sys_renameat(TP_AT_FDCWD, g.dst, TP_AT_FDCWD, g.entry);
	if (!err) {
		*strrchr(g.dst, '/') = '\0';	/* the named entry, now empty */
		sys_unlinkat(TP_AT_FDCWD, g.dst, TP_AT_REMOVEDIR);
	}
	return err;
}

/* the [vdso] mapping of this process, from /proc/self/maps */
static bool vdso_range(uint64_t *start, uint64_t *end)
{
	struct tp_lines l;
	const char *s;
	char *line;
	bool found = false;

	if (tp_lines__open(&l, "/proc/self/maps", g.line, sizeof(g.line)))
		return false;
	while (!found && (line = tp_lines__next(&l))) {
		size_t n = strlen(line);

		s = line;
		found = n > 6 && !strcmp(line + n - 6, "[vdso]") &&
			!tp_parse_u64_prefix(&s, 16, start) && *s++ == '-' &&
			!tp_parse_u64_prefix(&s, 16, end) && *end > *start;
	}
	tp_lines__close(&l);
	return found;
}

static void count(struct rec_bidcache *bc, int err, const char *what)
{
	if (!err)
		return;
	bc->failed++;
	if (!bc->first_err) {
		bc->first_err = err;
		tp_strlcpy(g.err_path, what, sizeof(g.err_path));
		bc->first_path = g.err_path;
	}
}

void rec_bidcache__add(struct rec_bidcache *bc, const char *path, enum track_kind kind,
		       const uint8_t *id, uint8_t id_len, uint64_t text_hash)
{
	char ids[2 * 20 + 8];
	const char *name = path, *file = "elf", *src = path, *top = ".build-id";
	uint64_t start = 0, end = 0;
	bool linked;
	int err;

	if (kind == TRACK_MODULE || id_len > 20)
		return;
	if (kind == TRACK_KERNEL) {
		name = "[kernel.kallsyms]";
		file = "kallsyms";
		src = "/proc/kallsyms";
	} else if (!strcmp(path, "[vdso]")) {
		file = "vdso";
		src = NULL;
		if (!vdso_range(&start, &end))
			return;
	} else if (path[0] != '/' || path[1] == '/') {
		return;		/* //anon and friends */
	}
	if (id_len) {
		hex(ids, id, id_len);
	} else if (text_hash && kind == TRACK_USER && src) {
		tp_snprintf(ids, sizeof(ids), "%016llx", (unsigned long long)text_hash);
		top = ".text-hash";
	} else {
		return;
	}
	if (!name_ok(name) && name[0] != '[')
		name = "[unnamed]";
	if (tp_snprintf(g.rel, sizeof(g.rel), "%s/%s%s", name[0] == '/' ? name + 1 : name,
			id_len ? "" : "text-", ids) >= (int)sizeof(g.rel) ||
	    tp_snprintf(g.link, sizeof(g.link), "%s/%s/%.2s/%s", bc->dir, top, ids, ids + 2) >=
	    (int)sizeof(g.link) ||
	    (bc->no_symlinks ? tp_snprintf(g.dst, sizeof(g.dst), "%s/%s", g.link, file) :
	     tp_snprintf(g.dst, sizeof(g.dst), "%s/%s/%s", bc->dir, g.rel, file)) >=
	    (int)sizeof(g.dst)) {
		count(bc, -TP_ENAMETOOLONG, path);
		return;
	}
	if (exists(g.dst)) {
		bc->present++;
	} else {
		/* a link to /proc/kallsyms would be no snapshot: copied; the vdso from memory */
		err = place(src, kind != TRACK_KERNEL, (const void *)(uintptr_t)start,
			    (size_t)(end - start), g.dst, &linked);
		count(bc, err, path);
		if (err)
			return;
		bc->added++;
		bc->linked += linked;
	}
	if (!bc->no_symlinks)
		count(bc, index_entry(bc, file), path);
}

void rec_bidcache__report(const struct rec_bidcache *bc, bool quiet)
{
	if (bc->failed)
		tp_dprintf(2, "tinyperf: record: --buildid-cache %s: %u file%s not cached, the first "
			   "(%s): %s\n", bc->dir, bc->failed, bc->failed == 1 ? "" : "s",
			   bc->first_path ? bc->first_path : "?", tp_strerror(bc->first_err));
	if (!quiet && (bc->added || bc->present))
		tp_dprintf(2, "[ tinyperf record: %u file%s cached in %s (%u hard link%s), %u "
			   "already there ]\n", bc->added, bc->added == 1 ? "" : "s", bc->dir,
			   bc->linked, bc->linked == 1 ? "" : "s", bc->present);
}
