/* SPDX-License-Identifier: MIT */
/* Whole small files, line-by-line reading and directory walks with a caller's buffer (file.h). */
#include "libc-shim/file.h"
#include "libc-shim/str.h"
#include "libc-shim/sys.h"

static long read_retry(int fd, void *buf, size_t len)
{
	long n;

	do
		n = sys_read(fd, buf, len);
	while (n == -TP_EINTR);
	return n;
}

long tp_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	long fd, n = 0;

	if (!size)
		return -TP_EINVAL;
	fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	/* /proc files come in pieces: read until EOF or full */
	while (len < size - 1 && (n = read_retry(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	sys_close(fd);
	buf[len] = '\0';
	return n < 0 ? n : (long)len;
}

long tp_read_line(const char *path, char *buf, size_t size)
{
	long n = tp_read_file(path, buf, size);

	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

void tp_lines__init_fd(struct tp_lines *l, int fd, char *buf, size_t cap)
{
	l->fd = fd;
	l->err = 0;
	l->start = l->end = 0;
	l->cap = cap;
	l->buf = buf;
	l->eof = false;
	l->skipping = false;
}

int tp_lines__open(struct tp_lines *l, const char *path, char *buf, size_t cap)
{
	long fd;

	if (cap < 2)
		return -TP_EINVAL;
	fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0);
	if (fd < 0)
		return (int)fd;
	tp_lines__init_fd(l, (int)fd, buf, cap);
	return 0;
}

/* buf[start, end) holds unread bytes; end never passes cap - 1, keeping room for a NUL */
char *tp_lines__next(struct tp_lines *l)
{
	for (;;) {
		char *line = l->buf + l->start;
		char *nl = memchr(line, '\n', l->end - l->start);
		long n;

		if (nl) {
			l->start = nl + 1 - l->buf;
			if (l->skipping) {
				l->skipping = false;
				continue;
			}
			*nl = '\0';
			return line;
		}
		if (l->skipping) {
			l->start = l->end = 0;
		} else if (l->eof) {
			if (l->start == l->end)
				return NULL;
			l->buf[l->end] = '\0';	/* a last line without '\n' */
			l->start = l->end;
			return line;
		} else if (l->start == 0 && l->end == l->cap - 1) {
			/* no '\n' in a full buffer: hand out the cut line, drop the rest of it */
			l->buf[l->end] = '\0';
			l->start = l->end = 0;
			l->skipping = true;
			return line;
		} else if (l->start) {
			memmove(l->buf, line, l->end - l->start);
			l->end -= l->start;
			l->start = 0;
		}
		if (l->eof)
			return NULL;
		n = read_retry(l->fd, l->buf + l->end, l->cap - 1 - l->end);
		if (n > 0) {
			l->end += n;
		} else {
			l->eof = true;	/* end of file, or a failed read: no more reads either way */
			l->err = (int)n;
		}
	}
}

void tp_lines__close(struct tp_lines *l)
{
	if (l->fd >= 0)
		sys_close(l->fd);
	l->fd = -1;
}

/* a call, not inlined at its sites (synth.c's four, tracefs.c's) */
TP_NOINLINE int tp_dir__open(struct tp_dir *d, const char *path, void *buf, size_t cap)
{
	long fd = sys_open(path, TP_O_RDONLY | TP_O_DIRECTORY | TP_O_CLOEXEC, 0);

	d->fd = (int)fd;
	d->buf = buf;
	d->cap = cap;
	d->len = d->pos = 0;
	return fd < 0 ? (int)fd : 0;
}

const char *tp_dir__next(struct tp_dir *d)
{
	/* struct linux_dirent64: u64 ino; s64 off; u16 reclen; u8 type; char name[] */
	const char *r;
	uint16_t reclen;

	if (d->pos >= d->len) {
		d->len = sys_getdents64(d->fd, d->buf, d->cap);
		d->pos = 0;
		if (d->len <= 0)
			return NULL;
	}
	r = d->buf + d->pos;
	reclen = *(const uint16_t *)(const void *)(r + 16);
	if (reclen < 20 || reclen > d->len - d->pos)
		return NULL;
	d->pos += reclen;
	return r + 19;
}
