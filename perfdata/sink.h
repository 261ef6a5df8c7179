/* SPDX-License-Identifier: MIT */
/* Where the writer's bytes go. A sink either takes all the bytes or fails: write() and
 * pwrite() return 0 or -errno, never a short count. Streams (pipes, sockets, serial lines)
 * have no pwrite and can only carry pipe-mode output. */
#ifndef TINYPERF_PERFDATA_SINK_H
#define TINYPERF_PERFDATA_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_sink {
	int (*write)(struct tp_sink *s, const void *buf, size_t len);
	/* at an absolute offset, leaving the write position alone; NULL for streams */
	int (*pwrite)(struct tp_sink *s, const void *buf, size_t len, uint64_t off);
};

/* a file descriptor: a regular file (seekable: write + pwrite) or a stream (write only) */
struct tp_sink_fd {
	struct tp_sink sink;
	int fd;
};

void tp_sink_fd__init(struct tp_sink_fd *s, int fd, bool seekable);

#endif
