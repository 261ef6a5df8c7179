/* SPDX-License-Identifier: MIT */
/* The library's one way out for messages. */
#include <stdarg.h>
#include <stdio.h>

#include "host-tools/lib/common/log.h"

void tp_log__msg(const struct tp_log *log, enum tp_log_level level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!log || !log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log->fn(log->ctx, level, buf);
}
