/* SPDX-License-Identifier: MIT */
/* Buffered output to a file descriptor with a sticky error (out.h), plus the unbuffered
 * helpers tp_write_all and tp_dprintf. */
#include "libc-shim/out.h"
#include "libc-shim/fmt.h"
#include "libc-shim/str.h"
#include "libc-shim/sys.h"

long tp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		long n = sys_write(fd, p, len);

		if (n == -TP_EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)	/* no progress and no error: do not spin */
			return -TP_EIO;
		p += n;
		len -= n;
	}
	return 0;
}

TP_NOINLINE void tp_out__init(struct tp_out *o, int fd, char *buf, size_t cap)
{
	o->fd = fd;
	o->err = 0;
	o->len = 0;
	o->cap = cap;
	o->written = 0;
	o->buf = buf;
}

static void out_direct(struct tp_out *o, const void *data, size_t len)
{
	long ret = tp_write_all(o->fd, data, len);

	if (ret < 0)
		o->err = (int)ret;
	else
		o->written += len;
}

int tp_out__flush(struct tp_out *o)
{
	if (!o->err && o->len)
		out_direct(o, o->buf, o->len);
	o->len = 0;
	return o->err;
}

void tp_out__write(struct tp_out *o, const void *data, size_t len)
{
	if (o->err)
		return;
	if (len > o->cap - o->len) {
		tp_out__flush(o);
		if (o->err)
			return;
		if (len >= o->cap) {	/* would not fit even when empty: skip the copy */
			out_direct(o, data, len);
			return;
		}
	}
	memcpy(o->buf + o->len, data, len);
	o->len += len;
}

void tp_out__puts(struct tp_out *o, const char *s)
{
	tp_out__write(o, s, strlen(s));
}

static void out_emit(void *ctx, const char *s, size_t n)
{
	tp_out__write(ctx, s, n);
}

ARCH_VARARGS_GPR void tp_out__printf(struct tp_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_vformat(out_emit, o, fmt, ap);
	va_end(ap);
}

ARCH_VARARGS_GPR int tp_dprintf(int fd, const char *fmt, ...)
{
	char buf[256];
	struct tp_out o;
	va_list ap;

	tp_out__init(&o, fd, buf, sizeof(buf));
	va_start(ap, fmt);
	tp_vformat(out_emit, &o, fmt, ap);
	va_end(ap);
	return tp_out__flush(&o);
}
