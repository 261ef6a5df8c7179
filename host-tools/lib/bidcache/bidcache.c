/* SPDX-License-Identifier: MIT */
/* The build-id cache's layout and its single-entry operations: add a file to an identity's
 * entry, find it, remove the entry. Listing and eviction are in bidcache/list.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/bidcache/internal.h"
#include "host-tools/lib/common/common.h"
#include "libc-shim/parse.h"

static const char *const kind_names[TP_BID_NR] = {
	[TP_BID_ELF] = "elf", [TP_BID_DEBUG] = "debug", [TP_BID_KALLSYMS] = "kallsyms",
	[TP_BID_VDSO] = "vdso",
};

const char *tp_bidkind_name(enum tp_bidkind kind)
{
	return kind < TP_BID_NR ? kind_names[kind] : "?";
}

/* ---- keys and paths ---- */

int tp_bidkey__str(const struct tp_bidkey *k, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";

	if (!k->build_id_len) {
		int n = snprintf(buf, size, "text-%016llx", (unsigned long long)k->text_hash);

		return n < 0 || (size_t)n >= size ? -1 : 0;
	}
	if (k->build_id_len > TP_BIDKEY_MAX || size < 2 * k->build_id_len + 1)
		return -1;
	for (size_t i = 0; i < k->build_id_len; i++) {
		buf[2 * i] = hex[k->build_id[i] >> 4];
		buf[2 * i + 1] = hex[k->build_id[i] & 15];
	}
	buf[2 * k->build_id_len] = '\0';
	return 0;
}

int tp_bidkey__parse(struct tp_bidkey *k, const char *s)
{
	size_t n;

	memset(k, 0, sizeof(*k));
	if (!strncmp(s, "text-", 5)) {
		s += 5;
		if (strlen(s) != 16)
			return -TP_ERR_INVAL;
		for (size_t i = 0; i < 16; i++) {
			int v = tp_hexval(s[i]);

			if (v < 0)
				return -TP_ERR_INVAL;
			k->text_hash = k->text_hash << 4 | (uint64_t)v;
		}
		return k->text_hash ? 0 : -TP_ERR_INVAL;
	}
	n = strlen(s);
	if (n < 2 || n % 2 || n > 2 * TP_BIDKEY_MAX)
		return -TP_ERR_INVAL;
	for (size_t i = 0; i < n; i += 2) {
		int hi = tp_hexval(s[i]), lo = tp_hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -TP_ERR_INVAL;
		k->build_id[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	k->build_id_len = n / 2;
	return 0;
}

void tp_bidkey__trim(struct tp_bidkey *k)
{
	/* perf's records without a size pad 16- and 8-byte ids to 20 bytes with zeros; a SHA1
	 * is cut only if it ends in four zero bytes (one in four billion), and then the
	 * symbolizer still accepts the file (it compares with the padding) */
	if (k->build_id_len != 20)
		return;
	while (k->build_id_len > 8 && !k->build_id[k->build_id_len - 1] &&
	       !k->build_id[k->build_id_len - 2] && !k->build_id[k->build_id_len - 3] &&
	       !k->build_id[k->build_id_len - 4])
		k->build_id_len -= 4;
}

void tp_bidkey__of(struct tp_bidkey *k, const uint8_t *build_id, size_t len, uint64_t text_hash)
{
	memset(k, 0, sizeof(*k));
	if (len) {
		memcpy(k->build_id, build_id, len);
		k->build_id_len = len;
		tp_bidkey__trim(k);
	} else {
		k->text_hash = text_hash;
	}
}

bool tp_bidcache_name_ok(const char *name)
{
	static const char *const own[] = { "/.build-id", "/.text-hash", "/.tinyperf" };
	const char *p;

	if (!strcmp(name, "[kernel.kallsyms]") || !strcmp(name, "[vdso]"))
		return true;
	if (name[0] != '/' || strlen(name) > PATH_MAX / 2)
		return false;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		size_t n = strlen(own[i]);

		if (!strncmp(name, own[i], n) && (name[n] == '/' || !name[n]))
			return false;
	}
	for (p = name; *p; ) {
		size_t n;

		p++;			/* the '/' */
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
	}
	return true;
}

int tp_bidcache_link_rel(char *buf, size_t size, const struct tp_bidkey *k)
{
	char id[TP_BIDKEY_STR];
	const char *h = id;
	int n;

	if (tp_bidkey__str(k, id, sizeof(id)))
		return -1;
	if (!k->build_id_len)
		h += 5;		/* "text-" */
	n = snprintf(buf, size, "%s/%.2s/%s", k->build_id_len ? ".build-id" : ".text-hash", h,
		     h + 2);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int tp_bidcache_entry_rel(char *buf, size_t size, const char *name, const struct tp_bidkey *k)
{
	char id[TP_BIDKEY_STR];
	int n;

	if (tp_bidkey__str(k, id, sizeof(id)))
		return -1;
	if (!tp_bidcache_name_ok(name))
		name = "[unnamed]";
	n = snprintf(buf, size, "%s/%s", name[0] == '/' ? name + 1 : name, id);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int tp_bidcache_path(char *buf, size_t size, const char *dir, const struct tp_bidkey *k,
		     enum tp_bidkind kind)
{
	char rel[TP_BIDKEY_STR + 32];

	if (tp_bidcache_link_rel(rel, sizeof(rel), k))
		return -1;
	return tp_path_fmt(buf, size, "%s/%s/%s", dir, rel, tp_bidkind_name(kind));
}

/* ---- the cache object ---- */

int bidcache__fail(struct tp_bidcache *c, int err, const char *what, const char *path)
{
	tp_log__error(&c->log, "%s %s: %s", what, path, tp_strerror(err));
	return err;
}

int tp_bidcache__open(struct tp_bidcache **out, const char *dir, const struct tp_log *log)
{
	struct tp_bidcache *c = calloc(1, sizeof(*c));
	char lock[PATH_MAX];
	int err;

	*out = NULL;
	if (!c)
		return -TP_ERR_NOMEM;
	c->lock_fd = -1;
	if (log)
		c->log = *log;
	err = tp_fs__mkdirs(dir);
	if (err) {
		err = bidcache__fail(c, err, "cannot create the cache directory", dir);
		goto out_free;
	}
	if (!realpath(dir, c->dir)) {
		err = bidcache__fail(c, -errno, "cannot resolve", dir);
		goto out_free;
	}
	c->dir_len = strlen(c->dir);
	err = tp_path_fmt(lock, sizeof(lock), "%s/.tinyperf/lock", c->dir) ? -ENAMETOOLONG : 0;
	if (!err) {
		*strrchr(lock, '/') = '\0';
		err = tp_fs__mkdirs(lock);
		lock[strlen(lock)] = '/';
	}
	if (err) {
		err = bidcache__fail(c, err, "cannot create", lock);
		goto out_free;
	}
	c->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (c->lock_fd < 0) {
		err = bidcache__fail(c, -errno, "cannot open", lock);
		goto out_free;
	}
	*out = c;
	return 0;

out_free:
	free(c);
	return err;
}

void tp_bidcache__close(struct tp_bidcache *c)
{
	if (!c)
		return;
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c);
}

const char *tp_bidcache__dir(const struct tp_bidcache *c)
{
	return c->dir;
}

void bidcache__lock(struct tp_bidcache *c, bool exclusive)
{
	while (flock(c->lock_fd, exclusive ? LOCK_EX : LOCK_SH) && errno == EINTR)
		;
}

void bidcache__unlock(struct tp_bidcache *c)
{
	flock(c->lock_fd, LOCK_UN);
}

/* Where k's entry is: 1 with its directory (or old-style file, *is_file) in path, 0 if the
 * index has none (or only a dangling link: *link_kind says what the index link is). The
 * directory must be inside the cache: a link pointing elsewhere counts as none. */
int bidcache__entry(struct tp_bidcache *c, const struct tp_bidkey *k, char *path, size_t size,
		    bool *is_file, bool *link_exists)
{
	char link[PATH_MAX], rel[TP_BIDKEY_STR + 32], resolved[PATH_MAX];
	struct stat st;

	*is_file = false;
	*link_exists = false;
	if (tp_bidcache_link_rel(rel, sizeof(rel), k) ||
	    tp_path_fmt(link, sizeof(link), "%s/%s", c->dir, rel))
		return 0;
	if (lstat(link, &st))
		return 0;
	*link_exists = true;
	if (!realpath(link, resolved) || stat(resolved, &st))
		return 0;
	if (strncmp(resolved, c->dir, c->dir_len) || resolved[c->dir_len] != '/')
		return 0;
	*is_file = S_ISREG(st.st_mode);
	if (!*is_file && !S_ISDIR(st.st_mode))
		return 0;
	return !tp_path_fmt(path, size, "%s", resolved);
}

/* now as the last use of a file: atime only, mtime says when it was written */
static void touch(const char *path)
{
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };

	utimensat(AT_FDCWD, path, ts, 0);
}

struct buf_ctx {
	const void *buf;
	size_t len;
};

static int buf_fill(void *ctx, int fd)
{
	struct buf_ctx *b = ctx;

	return tp_fs__write_all(fd, b->buf, b->len);
}

static int add(struct tp_bidcache *c, const struct tp_bidkey *k, const char *name,
	       enum tp_bidkind kind, const char *src, const struct buf_ctx *mem, bool allow_link,
	       bool replace, enum tp_bidres *res)
{
	char entry[PATH_MAX], dst[PATH_MAX], rel[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	bool is_file, link_exists, linked = false, new_link = false;
	struct stat st;
	int err;

	if (kind >= TP_BID_NR || (!k->build_id_len && !k->text_hash)) {
		tp_log__error(&c->log, "cannot add %s: it has neither a build-id nor a text hash",
			      src ? src : name);
		return -TP_ERR_INVAL;
	}
	if (!bidcache__entry(c, k, entry, sizeof(entry), &is_file, &link_exists)) {
		if (tp_bidcache_entry_rel(rel, sizeof(rel), name, k) ||
		    tp_path_fmt(entry, sizeof(entry), "%s/%s", c->dir, rel))
			return bidcache__fail(c, -ENAMETOOLONG, "cannot add", name);
		new_link = true;
	} else if (is_file) {
		/* perf's old layout: the link is the binary. Keep it as this entry's elf. */
		if (kind == TP_BID_ELF) {
			touch(entry);
			*res = TP_BIDRES_PRESENT;
			return 0;
		}
		if (tp_bidcache_entry_rel(rel, sizeof(rel), name, k) ||
		    tp_path_fmt(target, sizeof(target), "%s/%s/elf", c->dir, rel))
			return bidcache__fail(c, -ENAMETOOLONG, "cannot add", name);
		err = tp_fs__link_or_copy(entry, target, true, NULL);
		if (err)
			return bidcache__fail(c, err, "cannot move the old-style entry", entry);
		if (tp_path_fmt(entry, sizeof(entry), "%s/%s", c->dir, rel))
			return bidcache__fail(c, -ENAMETOOLONG, "cannot add", name);
		new_link = true;
	}
	if (tp_path_fmt(dst, sizeof(dst), "%s/%s", entry, tp_bidkind_name(kind)))
		return bidcache__fail(c, -ENAMETOOLONG, "cannot add", entry);
	if (!replace && !stat(dst, &st) && S_ISREG(st.st_mode)) {
		touch(dst);
		*res = TP_BIDRES_PRESENT;
	} else {
		err = mem ? tp_fs__write_atomic(dst, 0644, buf_fill, (void *)mem)
			  : tp_fs__link_or_copy(src, dst, allow_link, &linked);
		if (err)
			return bidcache__fail(c, err, "cannot write", dst);
		if (linked)
			touch(dst);	/* a link keeps the original's times */
		*res = linked ? TP_BIDRES_LINKED : TP_BIDRES_COPIED;
	}
	if (!new_link)
		return 0;
	if (tp_bidcache_link_rel(rel, sizeof(rel), k) ||
	    tp_path_fmt(link, sizeof(link), "%s/%s", c->dir, rel) ||
	    tp_path_fmt(target, sizeof(target), "../..%s", entry + c->dir_len))
		return bidcache__fail(c, -ENAMETOOLONG, "cannot index", entry);
	err = tp_fs__symlink_atomic(target, link);
	return err ? bidcache__fail(c, err, "cannot create the index link", link) : 0;
}

/* perf record caches the binary as it ran, often stripped: a copy of the same identity that
 * names more (tp_elf_richness) than the entry's elf and its debug file joins the entry as its
 * debug file, perf's layout, so that perf and the symbolizer both use it */
static bool richer_than_cached(struct tp_bidcache *c, const struct tp_bidkey *k, const char *src)
{
	char elf[PATH_MAX], debug[PATH_MAX];
	enum tp_elf_richness r;

	if (!tp_bidcache__find(c, k, TP_BID_ELF, elf, sizeof(elf)))
		return false;
	r = tp_elf_file_richness(src);
	return r > tp_elf_file_richness(elf) &&
	       (!tp_bidcache__find(c, k, TP_BID_DEBUG, debug, sizeof(debug)) ||
		r > tp_elf_file_richness(debug));
}

int tp_bidcache__add(struct tp_bidcache *c, const struct tp_bidkey *k, const char *name,
		     enum tp_bidkind *kind, const char *src, bool allow_link, enum tp_bidres *res)
{
	bool upgrade;
	int err;

	bidcache__lock(c, false);
	upgrade = *kind == TP_BID_ELF && richer_than_cached(c, k, src);
	if (upgrade)
		*kind = TP_BID_DEBUG;
	err = add(c, k, name, *kind, src, NULL, allow_link, upgrade, res);
	bidcache__unlock(c);
	return err;
}

int tp_bidcache__add_buf(struct tp_bidcache *c, const struct tp_bidkey *k, const char *name,
			 enum tp_bidkind kind, const void *buf, size_t len, enum tp_bidres *res)
{
	struct buf_ctx mem = { buf, len };
	int err;

	bidcache__lock(c, false);
	err = add(c, k, name, kind, NULL, &mem, false, false, res);
	bidcache__unlock(c);
	return err;
}

int tp_bidcache__find(struct tp_bidcache *c, const struct tp_bidkey *k, enum tp_bidkind kind,
		      char *path, size_t size)
{
	char entry[PATH_MAX];
	bool is_file, link_exists;
	struct stat st;

	if (!bidcache__entry(c, k, entry, sizeof(entry), &is_file, &link_exists))
		return 0;
	if (is_file)
		return kind == TP_BID_ELF && !tp_path_fmt(path, size, "%s", entry);
	if (tp_path_fmt(path, size, "%s/%s", entry, tp_bidkind_name(kind)))
		return 0;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int bidcache__remove_locked(struct tp_bidcache *c, const struct tp_bidkey *k)
{
	char link[PATH_MAX], rel[TP_BIDKEY_STR + 32], entry[PATH_MAX];
	bool is_file, link_exists;
	int found, err;

	found = bidcache__entry(c, k, entry, sizeof(entry), &is_file, &link_exists);
	if (!link_exists)
		return 0;
	if (tp_bidcache_link_rel(rel, sizeof(rel), k) ||
	    tp_path_fmt(link, sizeof(link), "%s/%s", c->dir, rel))
		return 0;
	/* the index first: a reader never finds a half-removed entry */
	err = tp_fs__remove_tree(link);
	if (err)
		return bidcache__fail(c, err, "cannot remove", link);
	tp_fs__prune_dirs(link, c->dir);
	if (!found)
		return 1;
	err = tp_fs__remove_tree(entry);
	if (err)
		return bidcache__fail(c, err, "cannot remove", entry);
	tp_fs__prune_dirs(entry, c->dir);
	return 1;
}

int tp_bidcache__remove(struct tp_bidcache *c, const struct tp_bidkey *k)
{
	int r;

	bidcache__lock(c, true);
	r = bidcache__remove_locked(c, k);
	bidcache__unlock(c);
	return r;
}
