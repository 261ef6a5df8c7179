/* SPDX-License-Identifier: MIT */
/* Filesystem steps the build-id cache and the archive unpacker share, each safe with other
 * writers at work in the same tree: a file appears whole or not at all (written or linked
 * under a temporary name in its directory, then renamed), a symlink is replaced atomically,
 * directories are made when missing. Every function returns 0 or -errno; none prints. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_FSUTIL_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* mkdir -p (mode 0755); existing directories are fine */
int tp_fs__mkdirs(const char *path);

/* "<dir of final>/.<base of final>.tmp.<pid>.<n>" into buf: a name no other writer uses */
int tp_fs__tmpname(char *buf, size_t size, const char *final);

/* dst becomes src's content: a hard link when allowed (and same filesystem), else a copy
 * (mode of src, at least u+r). Missing directories of dst are made. *linked says which
 * (may be NULL). An existing dst is replaced. */
int tp_fs__link_or_copy(const char *src, const char *dst, bool allow_link, bool *linked);

/* dst gets whatever fill() writes to fd (0 or -errno from fill); mode as for open(2) */
int tp_fs__write_atomic(const char *dst, mode_t mode, int (*fill)(void *ctx, int fd),
			void *ctx);

/* all of buf[0..len) to fd: 0 or -errno */
int tp_fs__write_all(int fd, const void *buf, size_t len);

/* linkpath becomes a symlink to target, replacing what was there (missing directories made) */
int tp_fs__symlink_atomic(const char *target, const char *linkpath);

/* remove path and everything under it (symlinks are removed, never followed); a missing
 * path is fine */
int tp_fs__remove_tree(const char *path);

/* rmdir path (if it is still there), then its parents while they are empty, stopping at
 * (not removing) root */
void tp_fs__prune_dirs(const char *path, const char *root);

struct stat;

/* path opened read-only if (and only if) it is a regular file: O_NONBLOCK so that a FIFO
 * cannot block the open, then fstat. Every path from a sysroot, debug dir, cache or
 * archive goes through here, so no FIFO, device or socket is ever read. The fd (close it),
 * or -errno (-EISDIR for a directory: perf's build-id cache has directories at paths that
 * were files in older layouts), or -TP_ERR_NOT_REGULAR; *st (may be NULL) is the file's
 * stat. */
int tp_fs__open_regular(const char *path, struct stat *st);

/* whole file into memory (for files whose size stat cannot tell, like /proc/kallsyms):
 * 0 and *buf (free() it), *len */
int tp_fs__read_all(const char *path, uint8_t **buf, size_t *len);

#endif
