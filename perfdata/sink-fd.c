/* SPDX-License-Identifier: MIT */
/* File-descriptor sink: short writes and EINTR are retried here so the writer never sees them. */
#include "libc-shim/shim.h"
#include "perfdata/sink.h"

static int fd_write(struct tp_sink *s, const void *buf, size_t len)
{
	return (int)tp_write_all(((struct tp_sink_fd *)s)->fd, buf, len);
}

static int fd_pwrite(struct tp_sink *s, const void *buf, size_t len, uint64_t off)
{
	int fd = ((struct tp_sink_fd *)s)->fd;
	const char *p = buf;

	while (len) {
		long n = sys_pwrite(fd, p, len, off);

		if (n == -TP_EINTR)
			continue;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -TP_EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

TP_NOINLINE void tp_sink_fd__init(struct tp_sink_fd *s, int fd, bool seekable)
{
	s->sink.write = fd_write;
	s->sink.pwrite = seekable ? fd_pwrite : NULL;
	s->fd = fd;
}
