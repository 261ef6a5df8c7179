/* SPDX-License-Identifier: MIT */
/* Finding (or mounting) tracefs, and reading tracepoint ids and formats from it. */
#ifndef TINYPERF_RECORDER_EVENTS_TRACEFS_H
#define TINYPERF_RECORDER_EVENTS_TRACEFS_H

#include "libc-shim/types.h"

/* the tracing directory ("/sys/kernel/tracing" or "/sys/kernel/debug/tracing"), mounting
 * tracefs (or debugfs) when neither is mounted; NULL if tracing is unavailable */
const char *tracefs__dir(void);
/* unmounts what tracefs__dir() mounted (a mount found in place stays); main() calls it when a
 * command returns, on success and on error alike */
void tracefs__release(void);
/* the id of tracepoint sys:name, or -errno */
long tracefs__event_id(const char *sys, const char *name);
/* calls cb for each event of sys whose name matches glob ('*' and '?'); returns the number of
 * matches, -errno, or the first negative value cb returned (the walk stops there) */
long tracefs__glob(const char *sys, const char *glob,
		   int (*cb)(void *ctx, const char *sys, const char *name), void *ctx);
bool tp_glob_match(const char *glob, const char *s);

#endif
