/* SPDX-License-Identifier: MIT */
/* Atomic file placement for the build-id cache and the unpacker: temp name + rename. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/common/error.h"
#include "host-tools/lib/common/fsutil.h"
#include "host-tools/lib/common/grow.h"

int tp_fs__mkdirs(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);
	struct stat st;

	if (n == 0 || n >= sizeof(buf))
		return n ? -ENAMETOOLONG : -EINVAL;
	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	return stat(path, &st) ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int mkparent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return 0;
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return tp_fs__mkdirs(dir);
}

int tp_fs__tmpname(char *buf, size_t size, const char *final)
{
	static unsigned long seq;
	const char *slash = strrchr(final, '/');
	int dlen = slash ? (int)(slash - final) + 1 : 0;
	int n;

	/* the sequence number only needs to be unique within this process */
	n = snprintf(buf, size, "%.*s.%s.tmp.%ld.%lu", dlen, final, slash ? slash + 1 : final,
		     (long)getpid(), __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int tp_fs__write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* rename tmp over dst. rename() of two links to one inode does nothing: drop tmp then. */
static int commit(const char *tmp, const char *dst)
{
	int err = rename(tmp, dst) ? -errno : 0;

	unlink(tmp);
	return err;
}

int tp_fs__write_atomic(const char *dst, mode_t mode, int (*fill)(void *ctx, int fd),
			void *ctx)
{
	char tmp[PATH_MAX];
	int fd, err;

	err = mkparent(dst);
	if (!err)
		err = tp_fs__tmpname(tmp, sizeof(tmp), dst);
	if (err)
		return err;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0)
		return -errno;
	err = fill(ctx, fd);
	/* complete on disk before it gets its name: a crash leaves a temp file, never a
	 * truncated cache entry */
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		return commit(tmp, dst);
	unlink(tmp);
	return err;
}

struct copy_ctx {
	int in;
};

static int copy_fill(void *ctx, int fd)
{
	struct copy_ctx *c = ctx;
	char buf[1 << 16];
	ssize_t n;

	/* copy_file_range lets the filesystem share or clone blocks where it can */
	for (;;) {
		n = copy_file_range(c->in, NULL, fd, NULL, 1 << 30, 0);
		if (n > 0)
			continue;
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		break;
	}
	if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)
		return -errno;
	/* fall back from wherever copy_file_range stopped */
	while ((n = read(c->in, buf, sizeof(buf))) != 0) {
		int err;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		err = tp_fs__write_all(fd, buf, (size_t)n);
		if (err)
			return err;
	}
	return 0;
}

int tp_fs__link_or_copy(const char *src, const char *dst, bool allow_link, bool *linked)
{
	struct copy_ctx c;
	char tmp[PATH_MAX];
	struct stat st;
	int err;

	if (linked)
		*linked = false;
	err = mkparent(dst);
	if (err)
		return err;
	if (allow_link) {
		err = tp_fs__tmpname(tmp, sizeof(tmp), dst);
		if (err)
			return err;
		if (!linkat(AT_FDCWD, src, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW)) {
			err = commit(tmp, dst);
			if (!err && linked)
				*linked = true;
			return err;
		}
		/* EXDEV, EPERM (protected_hardlinks, a filesystem without links), EMLINK: copy */
		if (errno == ENOENT || errno == ENAMETOOLONG)
			return -errno;
	}
	c.in = tp_fs__open_regular(src, &st);
	if (c.in < 0)
		return c.in;
	err = tp_fs__write_atomic(dst, (st.st_mode & 0777) | 0400, copy_fill, &c);
	close(c.in);
	return err;
}

int tp_fs__symlink_atomic(const char *target, const char *linkpath)
{
	char tmp[PATH_MAX];
	int err = mkparent(linkpath);

	if (!err)
		err = tp_fs__tmpname(tmp, sizeof(tmp), linkpath);
	if (err)
		return err;
	if (symlink(target, tmp))
		return -errno;
	return commit(tmp, linkpath);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP ? rmdir(path) : unlink(path))
		return errno == ENOENT ? 0 : -errno;
	return 0;
}

int tp_fs__remove_tree(const char *path)
{
	struct stat st;
	int r;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) && errno != ENOENT ? -errno : 0;
	r = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return r < 0 ? r : r > 0 ? -EIO : 0;
}

void tp_fs__prune_dirs(const char *path, const char *root)
{
	char buf[PATH_MAX];
	size_t rlen = strlen(root);
	char *slash;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return;
	while (strlen(buf) > rlen && !strncmp(buf, root, rlen) && buf[rlen] == '/') {
		if (rmdir(buf) && errno != ENOENT)
			return;
		slash = strrchr(buf, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}

int tp_fs__open_regular(const char *path, struct stat *st)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err;

	if (fd < 0) {
		err = -errno;	/* a UNIX socket: ENXIO, said as what it is */
		return err == -ENXIO && !stat(path, &sb) && !S_ISREG(sb.st_mode) ?
		       -TP_ERR_NOT_REGULAR : err;
	}
	if (fstat(fd, &sb)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);	/* a directory is not a hostile file: perf's .build-id/xx/… are */
		return S_ISDIR(sb.st_mode) ? -EISDIR : -TP_ERR_NOT_REGULAR;
	}
	if (st)
		*st = sb;
	return fd;
}

int tp_fs__read_all(const char *path, uint8_t **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	int fd = tp_fs__open_regular(path, NULL);
	ssize_t r;

	*out = NULL;
	*len = 0;
	if (!buf || fd < 0) {
		int err = fd < 0 ? fd : -ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return err;
	}
	for (;;) {
		if (TP_GROW(buf, cap, n + 1, 0)) {	/* room for a read */
			free(buf);
			close(fd);
			return -ENOMEM;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (r < 0) {
		int err = -errno;

		free(buf);
		close(fd);
		return err;
	}
	close(fd);
	*out = buf;
	*len = n;
	return 0;
}
