/* SPDX-License-Identifier: MIT */
/* The build-id cache as a whole: its entries (walked from the index links, so perf's entries
 * count too), their disk use and last use, and eviction by age or total size, least recently
 * used first (ccache's way: a size limit kept in the cache, applied after additions). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/bidcache/internal.h"
#include "host-tools/lib/common/common.h"

struct list {
	struct tp_bidentry *v;
	size_t n, cap;
	size_t dangling;
};

static int64_t newest(const struct stat *st)
{
	return st->st_atime > st->st_mtime ? (int64_t)st->st_atime : (int64_t)st->st_mtime;
}

static void account(struct tp_bidentry *e, const struct stat *st)
{
	e->bytes += (uint64_t)st->st_blocks * 512;
	if (st->st_nlink > 1)
		e->shared = true;
	if (newest(st) > e->last_used)
		e->last_used = newest(st);
}

/* the files of an entry directory: its kinds, bytes and last use */
static void scan_entry(struct tp_bidentry *e)
{
	DIR *d = opendir(e->dir);
	struct dirent *de;
	struct stat st;

	if (!d)
		return;
	if (!fstat(dirfd(d), &st) && st.st_mtime > e->last_used)
		e->last_used = st.st_mtime;	/* when a file last joined it */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		for (unsigned k = 0; k < TP_BID_NR; k++)
			if (!strcmp(de->d_name, tp_bidkind_name(k)))
				e->kinds |= 1u << k;
		account(e, &st);
	}
	closedir(d);
}

/* "../../usr/bin/foo/<id>" -> "/usr/bin/foo", "../../[kernel.kallsyms]/<id>" -> "[kernel...]" */
static char *name_of(const char *target)
{
	const char *p = target, *end = strrchr(target, '/');

	while (!strncmp(p, "../", 3))
		p += 3;
	if (!end || end <= p)
		return strdup("");
	if (*p == '[')
		return strndup(p, (size_t)(end - p));
	if (p > target)
		p--;		/* keep the '/' before the path */
	return strndup(p, (size_t)(end - p));
}

static int add_link(struct tp_bidcache *c, struct list *l, const char *top, const char *xx,
		    const char *rest)
{
	char id[TP_BIDKEY_STR + 8], link[PATH_MAX], target[PATH_MAX], entry[PATH_MAX];
	struct tp_bidentry *e;
	bool is_file, link_exists;
	struct stat st;
	ssize_t n;

	if (snprintf(id, sizeof(id), "%s%s%s", top[1] == 't' ? "text-" : "", xx, rest) >=
	    (int)sizeof(id))
		return 0;
	if (TP_GROW(l->v, l->cap, l->n + 1, 64))
		return -TP_ERR_NOMEM;
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	if (tp_bidkey__parse(&e->key, id))
		return 0;	/* not ours: leave it alone */
	if (!bidcache__entry(c, &e->key, entry, sizeof(entry), &is_file, &link_exists)) {
		l->dangling++;
		return 0;
	}
	n = tp_path_fmt(link, sizeof(link), "%s/%s/%s/%s", c->dir, top, xx, rest) ? -1 :
	    readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	e->name = name_of(target);
	e->dir = strdup(entry);
	if (!e->name || !e->dir) {
		free(e->name);
		free(e->dir);
		return -TP_ERR_NOMEM;
	}
	if (is_file) {
		if (!stat(entry, &st))
			account(e, &st);
		e->kinds = 1u << TP_BID_ELF;
	} else {
		scan_entry(e);
	}
	l->n++;
	return 0;
}

static int scan_top(struct tp_bidcache *c, struct list *l, const char *top)
{
	char path[PATH_MAX];
	struct dirent *de, *de2;
	DIR *d, *d2;
	int err = 0;

	if (tp_path_fmt(path, sizeof(path), "%s/%s", c->dir, top))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		d2 = tp_path_fmt(path, sizeof(path), "%s/%s/%s", c->dir, top, de->d_name) ? NULL :
		     opendir(path);
		if (!d2)
			continue;
		while (!err && (de2 = readdir(d2)))
			if (de2->d_name[0] != '.')
				err = add_link(c, l, top, de->d_name, de2->d_name);
		closedir(d2);
	}
	closedir(d);
	return err;
}

static int by_use_desc(const void *a, const void *b)
{
	const struct tp_bidentry *x = a, *y = b;

	if (x->last_used != y->last_used)
		return x->last_used > y->last_used ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static int list_locked(struct tp_bidcache *c, struct list *l)
{
	int err = scan_top(c, l, ".build-id");

	if (!err)
		err = scan_top(c, l, ".text-hash");
	if (err) {
		tp_bidentries__free(l->v, l->n);
		memset(l, 0, sizeof(*l));
		return err;
	}
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_use_desc);
	return 0;
}

int tp_bidcache__list(struct tp_bidcache *c, struct tp_bidentry **out, size_t *n)
{
	struct list l = { 0 };
	int err;

	bidcache__lock(c, false);
	err = list_locked(c, &l);
	bidcache__unlock(c);
	*out = l.v;
	*n = l.n;
	return err;
}

void tp_bidentries__free(struct tp_bidentry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].dir);
	}
	free(e);
}

/* drop index links that lead nowhere (an entry removed by hand, an interrupted removal) */
static void drop_dangling(struct tp_bidcache *c, const char *top)
{
	char path[PATH_MAX], link[PATH_MAX], resolved[PATH_MAX];
	struct dirent *de, *de2;
	DIR *d, *d2;
	struct stat st;

	if (tp_path_fmt(path, sizeof(path), "%s/%s", c->dir, top))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		d2 = tp_path_fmt(path, sizeof(path), "%s/%s/%s", c->dir, top, de->d_name) ? NULL :
		     opendir(path);
		if (!d2)
			continue;
		while ((de2 = readdir(d2))) {
			if (de2->d_name[0] == '.' ||
			    tp_path_fmt(link, sizeof(link), "%s/%s", path, de2->d_name))
				continue;
			if (!lstat(link, &st) && S_ISLNK(st.st_mode) && !realpath(link, resolved) &&
			    errno == ENOENT)
				unlink(link);
		}
		closedir(d2);
		tp_fs__prune_dirs(path, c->dir);
	}
	closedir(d);
}

static int evict(struct tp_bidcache *c, int64_t cutoff, uint64_t max_bytes,
		 struct tp_bidtrim *st)
{
	struct list l = { 0 };
	uint64_t total = 0;
	int err;

	memset(st, 0, sizeof(*st));
	bidcache__lock(c, true);
	err = list_locked(c, &l);
	if (err)
		goto out;
	if (l.dangling) {
		drop_dangling(c, ".build-id");
		drop_dangling(c, ".text-hash");
	}
	for (size_t i = 0; i < l.n; i++)
		total += l.v[i].bytes;
	/* least recently used last in the list: take from the end */
	for (size_t i = l.n; i-- > 0;) {
		struct tp_bidentry *e = &l.v[i];
		int r;

		if (e->last_used >= cutoff && total <= max_bytes)
			break;
		r = bidcache__remove_locked(c, &e->key);
		if (r < 0) {
			err = r;
			break;
		}
		st->removed++;
		st->freed += e->bytes;
		total -= e->bytes;
	}
	st->total = total;
out:
	bidcache__unlock(c);
	tp_bidentries__free(l.v, l.n);
	return err;
}

int tp_bidcache__purge_older(struct tp_bidcache *c, int64_t cutoff, struct tp_bidtrim *st)
{
	return evict(c, cutoff, UINT64_MAX, st);
}

int tp_bidcache__trim(struct tp_bidcache *c, uint64_t max_bytes, struct tp_bidtrim *st)
{
	return evict(c, INT64_MIN, max_bytes, st);
}

static int max_path(struct tp_bidcache *c, char *buf, size_t size)
{
	return tp_path_fmt(buf, size, "%s/.tinyperf/max-size", c->dir);
}

struct text {
	char s[32];
};

static int text_fill(void *ctx, int fd)
{
	struct text *t = ctx;

	return tp_fs__write_all(fd, t->s, strlen(t->s));
}

int tp_bidcache__set_max_size(struct tp_bidcache *c, uint64_t max_bytes)
{
	char path[PATH_MAX];
	struct text t;
	int err;

	if (max_path(c, path, sizeof(path)))
		return bidcache__fail(c, -ENAMETOOLONG, "cannot write", c->dir);
	if (!max_bytes)
		return unlink(path) && errno != ENOENT ? bidcache__fail(c, -errno, "cannot remove",
									path) : 0;
	snprintf(t.s, sizeof(t.s), "%" PRIu64 "\n", max_bytes);
	err = tp_fs__write_atomic(path, 0644, text_fill, &t);
	return err ? bidcache__fail(c, err, "cannot write", path) : 0;
}

uint64_t tp_bidcache__max_size(struct tp_bidcache *c)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	int fd;

	if (max_path(c, path, sizeof(path)))
		return 0;
	fd = tp_fs__open_regular(path, NULL);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}
