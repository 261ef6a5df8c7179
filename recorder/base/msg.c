/* SPDX-License-Identifier: MIT */
/* The recorder's messages on stderr (msg.h). */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"

static const char *command = "record";

void rec_msg__command(const char *name)
{
	command = name;
}

void rec_msg(bool quiet, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (quiet)
		return;
	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	tp_write_all(2, buf, (size_t)n);
}

ARCH_VARARGS_GPR int rec_fail(const char *fmt, ...)
{
	static char buf[512];	/* not on the stack: x86's va_list save area then sits within
				 * one-byte offsets of the stack pointer */
	va_list ap;

	va_start(ap, fmt);
	tp_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tp_dprintf(2, "tinyperf: %s: %s\n", command, buf);
	return 1;
}

void rec_usage_fail(const char *what)
{
	rec_fail("%s", what);
	tp_dprintf(2, "see 'tinyperf %s --help'\n", command);
}
