/* SPDX-License-Identifier: MIT */
/* Buffered output to a file descriptor. Errors are sticky: the first one is kept in ->err
 * (as -errno) and later writes are dropped, so callers check once, at flush time. */
#ifndef TINYPERF_LIBC_SHIM_OUT_H
#define TINYPERF_LIBC_SHIM_OUT_H

#include "libc-shim/types.h"

struct tp_out {
	int fd;
	int err;            /* 0 or the first -errno */
	size_t len;         /* bytes buffered */
	size_t cap;         /* size of buf */
	uint64_t written;   /* bytes handed to write(2) so far */
	char *buf;
};

void tp_out__init(struct tp_out *o, int fd, char *buf, size_t cap);
void tp_out__write(struct tp_out *o, const void *data, size_t len);
void tp_out__puts(struct tp_out *o, const char *s);
void tp_out__printf(struct tp_out *o, const char *fmt, ...) TP_PRINTF(2, 3);
/* returns 0 or the sticky -errno */
int tp_out__flush(struct tp_out *o);

/* write all of buf, retrying on EINTR and short writes; 0 or -errno */
long tp_write_all(int fd, const void *buf, size_t len);
/* unbuffered formatted print to an fd (for messages); returns 0 or -errno */
int tp_dprintf(int fd, const char *fmt, ...) TP_PRINTF(2, 3);

#endif
