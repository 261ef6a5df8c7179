/* SPDX-License-Identifier: MIT */
/* Reading small files (/proc, /sys), streaming large ones line by line (/proc/kallsyms,
 * /proc/PID/maps) and walking directories, all with a caller-supplied buffer. */
#ifndef TINYPERF_LIBC_SHIM_FILE_H
#define TINYPERF_LIBC_SHIM_FILE_H

#include "libc-shim/types.h"

/* Read up to size-1 bytes of path into buf and NUL-terminate; returns bytes read or -errno. */
long tp_read_file(const char *path, char *buf, size_t size);
/* tp_read_file without one trailing '\n' (a one-line /proc or /sys value); the length left */
long tp_read_line(const char *path, char *buf, size_t size);

struct tp_lines {
	int fd;
	int err;          /* 0 or -errno after a failed read */
	size_t start, end, cap;
	char *buf;
	bool eof;         /* no more reads: end of file, or err set */
	bool skipping;    /* inside an over-long line: drop bytes up to its '\n' */
};

/* open path for line reading; returns 0 or -errno */
int tp_lines__open(struct tp_lines *l, const char *path, char *buf, size_t cap);
void tp_lines__init_fd(struct tp_lines *l, int fd, char *buf, size_t cap);
/* Next line without its '\n', NUL-terminated in place; NULL at end of file or on error.
 * Lines longer than cap-1 are returned cut to cap-1 bytes and the rest is skipped. */
char *tp_lines__next(struct tp_lines *l);
void tp_lines__close(struct tp_lines *l);

/* A directory's entries through getdents64 into a caller's buffer, which must be 8-byte
 * aligned (the kernel lays its records out on 8-byte boundaries from the start). */
struct tp_dir {
	int fd;
	char *buf;
	size_t cap;
	long len, pos;	/* len < 0 after a failed read: its -errno */
};

/* open path as a directory (close-on-exec); 0 or -errno */
int tp_dir__open(struct tp_dir *d, const char *path, void *buf, size_t cap);
/* the next entry's name ("." and ".." too); NULL at the end, after a failed read (d->len holds
 * its -errno) or at a malformed record. The caller closes d->fd. */
const char *tp_dir__next(struct tp_dir *d);

#endif
