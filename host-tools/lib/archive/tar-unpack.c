/* SPDX-License-Identifier: MIT */
/* Unpacking an archive into a build-id cache, refusing hostile ones before writing anything.
 *
 * Pass 1 reads every header and checks that each member stays in its tree (the cache for
 * .debug/..., the data directory for the recording): a relative path without "..", no member
 * under a symlink member, symlink targets of the form "../../name/..." whose ".." do not climb
 * above the tree, hard links to earlier files of the same tree, nothing but files,
 * directories and links. Because no member path crosses an archive symlink and targets only
 * climb before they descend, a link can only ever resolve inside the tree.
 * Pass 2 extracts, walking each path from the tree's directory with O_NOFOLLOW (a link
 * planted in the target by someone else is never written through) and making each file
 * appear whole (temp name + rename), so concurrent readers and writers are safe. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/archive/larc.h"
#include "host-tools/lib/common/common.h"

enum tree { TREE_CACHE, TREE_DATA };
enum kind { K_FILE, K_DIR, K_SYMLINK, K_HARDLINK };

struct member {
	char *name;			/* as in the archive, for messages */
	char *path;			/* normalized, relative to its tree */
	char *target;			/* symlink target, or hard link's member path */
	enum tree tree;
	enum kind kind;
};

struct unpack {
	const struct tp_unpack_conf *conf;
	const struct tp_log *log;
	struct member *m;
	size_t n, cap;
	bool perf_layout;
};

static int refuse(struct unpack *u, const char *name, const char *why)
{
	tp_log__error(u->log, "refusing the archive: member '%s' %s; nothing was written", name,
		      why);
	return -TP_ERR_INVAL;
}

/* "./a//b/./c" -> "a/b/c"; NULL for an absolute path, a ".." component or nothing at all */
static char *normalize(const char *p)
{
	char *out = malloc(strlen(p) + 1), *o = out;

	if (!out || p[0] == '/') {
		free(out);
		return NULL;
	}
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			free(out);
			return NULL;
		}
		if (n && !(n == 1 && p[0] == '.')) {
			if (o != out)
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n + (p[n] == '/');
	}
	*o = '\0';
	if (o == out) {
		free(out);
		return NULL;
	}
	return out;
}

static size_t depth_of_parent(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/';
	return d;
}

/* "../../a/b": leading ".." only, not more of them than the link's directory is deep */
static bool target_ok(const char *target, const char *link_path)
{
	size_t up = 0;
	const char *p = target;
	bool named = false;

	if (!*target || target[0] == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (named)
				return false;
			up++;
		} else if (n && !(n == 1 && p[0] == '.')) {
			named = true;
		}
		p += n + (p[n] == '/');
	}
	return named && up <= depth_of_parent(link_path);
}

static int add_member(struct unpack *u, const char *name, char *path, char *target, enum tree t,
		      enum kind k)
{
	char *copy = strdup(name);

	if (!copy || TP_GROW(u->m, u->cap, u->n + 1, 64)) {
		free(copy);
		return -TP_ERR_NOMEM;
	}
	u->m[u->n++] = (struct member){ copy, path, target, t, k };
	return 0;
}

static int by_tree_path(const void *a, const void *b)
{
	const struct member *x = *(const struct member *const *)a;
	const struct member *y = *(const struct member *const *)b;

	return x->tree != y->tree ? (int)x->tree - (int)y->tree : strcmp(x->path, y->path);
}

/* no member may sit under a symlink member: sorted, a link's descendants follow it */
static int check_under_links(struct unpack *u)
{
	struct member **v = malloc(u->n * sizeof(*v) + 1);
	int err = 0;

	if (!v)
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < u->n; i++)
		v[i] = &u->m[i];
	qsort(v, u->n, sizeof(*v), by_tree_path);
	for (size_t i = 0; i < u->n && !err; i++) {
		size_t n = strlen(v[i]->path);

		if (v[i]->kind != K_SYMLINK)
			continue;
		for (size_t j = i + 1; j < u->n && v[j]->tree == v[i]->tree &&
		     !strncmp(v[j]->path, v[i]->path, n); j++)
			if (v[j]->path[n] == '/')
				err = refuse(u, v[j]->name, "goes through a symlink member");
	}
	free(v);
	return err;
}

static int open_archive(struct archive **a, const char *path, const struct tp_log *log)
{
	*a = LA(archive_read_new)();
	if (!*a)
		return -TP_ERR_NOMEM;
	LA(archive_read_support_filter_all)(*a);
	LA(archive_read_support_format_tar)(*a);
	LA(archive_read_support_format_gnutar)(*a);
	if (LA(archive_read_open_filename)(*a, path, 1 << 16) != ARCHIVE_OK) {
		tp_log__error(log, "cannot open %s: %s", path, LA(archive_error_string)(*a));
		LA(archive_read_free)(*a);
		*a = NULL;
		return -TP_ERR_IO;
	}
	return 0;
}

static int check_one(struct unpack *u, struct archive_entry *e, bool *has_debug)
{
	const char *name = LA(archive_entry_pathname)(e), *hl = LA(archive_entry_hardlink)(e);
	const char *sl = LA(archive_entry_symlink)(e);
	mode_t type = LA(archive_entry_filetype)(e);
	char *path, *target = NULL;
	enum kind k;

	if (!name)
		return refuse(u, "?", "has no name");
	path = normalize(name);
	if (!path)
		return refuse(u, name, "has an absolute path or a '..' component");
	if (hl) {
		k = K_HARDLINK;
		target = normalize(hl);
		if (!target) {
			free(path);
			return refuse(u, name, "is a hard link to an absolute path or via '..'");
		}
	} else if (type == AE_IFREG) {
		k = K_FILE;
	} else if (type == AE_IFDIR) {
		k = K_DIR;
	} else if (type == AE_IFLNK && sl) {
		k = K_SYMLINK;
		target = strdup(sl);
		if (!target) {
			free(path);
			return -TP_ERR_NOMEM;
		}
	} else {
		free(path);
		return refuse(u, name, "is a device, fifo or socket");
	}
	if (!strcmp(path, ".debug") || !strncmp(path, ".debug/", 7))
		*has_debug = true;
	if (add_member(u, name, path, target, TREE_CACHE, k)) {
		free(path);
		free(target);
		return -TP_ERR_NOMEM;
	}
	return 0;
}

/* sort the members into trees once the layout is known, and check what depends on it */
static int classify(struct unpack *u, bool has_debug)
{
	const char *data = u->conf->data_dir ? u->conf->data_dir : ".";
	struct stat st;
	char buf[4096];

	u->perf_layout = !has_debug;
	for (size_t i = 0; i < u->n; i++) {
		struct member *m = &u->m[i];

		if (!u->perf_layout && !strncmp(m->path, ".debug", 6) &&
		    (!m->path[6] || m->path[6] == '/')) {
			const char *rest = m->path + 6 + (m->path[6] == '/');

			memmove(m->path, rest, strlen(rest) + 1);
			if (m->kind == K_HARDLINK) {
				if (strncmp(m->target, ".debug/", 7))
					return refuse(u, m->name, "is a hard link out of .debug/");
				memmove(m->target, m->target + 7, strlen(m->target + 7) + 1);
			}
		} else if (!u->perf_layout) {
			m->tree = TREE_DATA;
			if (m->kind != K_FILE || strchr(m->path, '/'))
				return refuse(u, m->name, "is outside .debug/ and not a "
					      "recording at the top of the archive");
			snprintf(buf, sizeof(buf), "%s/%s", data, m->path);
			if (!u->conf->force && !lstat(buf, &st))
				return refuse(u, m->name, "would replace an existing file (use "
					      "--force, or unpack elsewhere with --data-dir)");
		}
		if (m->kind == K_SYMLINK && !target_ok(m->target, m->path))
			return refuse(u, m->name, "is a symlink whose target leaves the "
				      "directory it is unpacked to (or is not of the form ../../name)");
		if (m->kind == K_HARDLINK) {
			bool found = false;

			for (size_t j = 0; j < i && !found; j++)
				found = u->m[j].kind == K_FILE && u->m[j].tree == m->tree &&
					!strcmp(u->m[j].path, m->target);
			if (!found)
				return refuse(u, m->name, "is a hard link to no earlier file of "
					      "the archive");
		}
	}
	return check_under_links(u);
}

/* the directory holding path (relative to root), made as needed, walked without following
 * links; *leaf points at the last component */
static int open_parent(int root, const char *path, const char **leaf)
{
	int fd = dup(root);
	const char *p = path;

	while (fd >= 0) {
		size_t n = strcspn(p, "/");
		char comp[256];
		int next;

		if (!p[n]) {
			*leaf = p;
			return fd;
		}
		if (n >= sizeof(comp)) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (mkdirat(fd, comp, 0755) && errno != EEXIST) {
			close(fd);
			return -1;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
		p += n + 1;
	}
	return -1;
}

static int copy_data(struct archive *a, int fd)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = LA(archive_read_data_block)(a, &buf, &len, &off)) == ARCHIVE_OK) {
		if (lseek(fd, off, SEEK_SET) < 0)
			return -errno;
		r = tp_fs__write_all(fd, buf, len);
		if (r)
			return r;
	}
	return r == ARCHIVE_EOF ? 0 : -TP_ERR_IO;	/* the archive's: archive_error_string() */
}

static int extract_one(struct unpack *u, struct archive *a, const struct member *m, int root,
		       struct tp_unpack_stats *st)
{
	char tmp[300];
	const char *leaf;
	int dir, fd, err = 0;

	if (!m->path[0])
		return 0;	/* ".debug" itself */
	dir = open_parent(root, m->path, &leaf);
	if (dir < 0)
		goto out_errno;
	if (m->kind == K_DIR) {
		if (mkdirat(dir, leaf, 0755) && errno != EEXIST)
			goto out_close;
		close(dir);
		return 0;
	}
	if (tp_fs__tmpname(tmp, sizeof(tmp), leaf)) {
		errno = ENAMETOOLONG;
		goto out_close;
	}
	if (m->kind == K_SYMLINK) {
		if (symlinkat(m->target, dir, tmp))
			goto out_close;
		st->links++;
	} else if (m->kind == K_HARDLINK) {
		const char *tleaf;
		int tdir = open_parent(root, m->target, &tleaf);

		if (tdir < 0)
			goto out_close;
		err = linkat(tdir, tleaf, dir, tmp, 0) ? -errno : 0;
		close(tdir);
		if (err) {
			errno = -err;
			goto out_close;
		}
		st->files++;
	} else {
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			goto out_close;
		err = copy_data(a, fd);
		if (!err && fsync(fd))
			err = -errno;
		close(fd);
		if (err) {
			unlinkat(dir, tmp, 0);
			tp_log__error(u->log, "cannot extract %s: %s", m->path, err == -TP_ERR_IO ?
				      LA(archive_error_string)(a) : tp_strerror(err));
			close(dir);
			return err;
		}
		if (m->tree == TREE_DATA)
			st->data_files++;
		else
			st->files++;
	}
	if (renameat(dir, tmp, dir, leaf)) {
		err = errno;
		unlinkat(dir, tmp, 0);
		errno = err;
		goto out_close;
	}
	unlinkat(dir, tmp, 0);	/* still there if both named one inode */
	close(dir);
	return 0;

out_close:
	err = errno;
	close(dir);
	errno = err;
out_errno:
	err = -errno;
	tp_log__error(u->log, "cannot extract %s: %s", m->path, tp_strerror(err));
	return err;
}

/* the fd, or -errno (logged) */
static int open_root(struct unpack *u, const char *dir)
{
	int err = tp_fs__mkdirs(dir), fd;

	if (err) {
		tp_log__error(u->log, "cannot create %s: %s", dir, tp_strerror(err));
		return err;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		tp_log__error(u->log, "cannot open %s: %s", dir, tp_strerror(fd));
	}
	return fd;
}

static int extract(struct unpack *u, const char *archive, struct tp_unpack_stats *st)
{
	struct archive *a;
	struct archive_entry *e;
	int roots[2] = { -1, -1 }, err, r;
	size_t i = 0;

	roots[TREE_CACHE] = open_root(u, u->conf->cache_dir);
	roots[TREE_DATA] = open_root(u, u->conf->data_dir ? u->conf->data_dir : ".");
	err = roots[0] < 0 ? roots[0] : roots[1] < 0 ? roots[1] : open_archive(&a, archive, u->log);
	if (err)
		goto out;
	/* the same members in the same order as pass 1 */
	while (!err && (r = LA(archive_read_next_header)(a, &e)) == ARCHIVE_OK && i < u->n) {
		err = extract_one(u, a, &u->m[i], roots[u->m[i].tree], st);
		if (!err && u->m[i].kind == K_FILE)
			st->bytes += (uint64_t)LA(archive_entry_size)(e);
		i++;
	}
	if (!err && i != u->n) {
		tp_log__error(u->log, "%s changed while it was unpacked", archive);
		err = -TP_ERR_IO;
	}
	LA(archive_read_free)(a);
out:
	for (int t = 0; t < 2; t++)
		if (roots[t] >= 0)
			close(roots[t]);
	return err;
}

int tp_archive__unpack(const char *archive, const struct tp_unpack_conf *conf,
		       struct tp_unpack_stats *st)
{
	struct unpack u = { .conf = conf, .log = &conf->log };
	struct archive_entry *e;
	struct archive *a;
	bool has_debug = false;
	int err, r;

	memset(st, 0, sizeof(*st));
	err = tp_larc__load(u.log);
	if (!err)
		err = open_archive(&a, archive, u.log);
	if (err)
		return err;
	while (!err && (r = LA(archive_read_next_header)(a, &e)) == ARCHIVE_OK)
		err = check_one(&u, e, &has_debug);
	if (!err && r != ARCHIVE_EOF) {
		tp_log__error(u.log, "%s: %s", archive, LA(archive_error_string)(a) ?
			      LA(archive_error_string)(a) : "not a tar archive");
		err = -TP_ERR_INVAL;
	}
	LA(archive_read_free)(a);
	if (!err && !u.n) {
		tp_log__error(u.log, "%s: the archive is empty", archive);
		err = -TP_ERR_INVAL;
	}
	if (!err)
		err = classify(&u, has_debug);
	st->perf_layout = u.perf_layout;
	if (!err)
		err = extract(&u, archive, st);
	for (size_t i = 0; i < u.n; i++) {
		free(u.m[i].name);
		free(u.m[i].path);
		free(u.m[i].target);
	}
	free(u.m);
	return err;
}
