/* SPDX-License-Identifier: MIT */
/* How the host library talks: it never prints; it formats a message and hands it to the
 * callback the caller set (or drops it when there is none). */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_LOG_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_LOG_H

enum tp_log_level {
	TP_LOG_ERROR,	/* the detail of an error the call then returns */
	TP_LOG_WARN,	/* something was skipped or is missing; processing goes on */
	TP_LOG_INFO,
	TP_LOG_DEBUG,
};

struct tp_log {
	/* msg has no trailing newline */
	void (*fn)(void *ctx, enum tp_log_level level, const char *msg);
	void *ctx;
};

__attribute__((format(printf, 3, 4)))
void tp_log__msg(const struct tp_log *log, enum tp_log_level level, const char *fmt, ...);

#define tp_log__error(log, ...)	tp_log__msg(log, TP_LOG_ERROR, __VA_ARGS__)
#define tp_log__warn(log, ...)	tp_log__msg(log, TP_LOG_WARN, __VA_ARGS__)

#endif
