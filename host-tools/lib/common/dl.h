/* SPDX-License-Identifier: MIT */
/* Shared libraries opened (dlopen) only by the commands that need them: libarchive, Capstone
 * and ncurses; the first two pull in a dozen more libraries (libxml2, ICU, libstdc++ ...)
 * whose loading and relocation would otherwise cost every run of every command, report and
 * script too. A library is opened with RTLD_GLOBAL and its functions are looked up in the
 * global scope, so an LD_PRELOAD interposer of one of them (tests/cache/nofilter.c) still
 * comes first. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_DL_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_DL_H

#include "host-tools/lib/common/log.h"

/* a function as looked up; called after a cast back to its own type (TP_DL_CALL) */
typedef void (*tp_dl_fn)(void);

/* unless fns[0] is set already, opens soname and looks up each of names[0..n) into fns[]: 0,
 * or -TP_ERR_IO with one line logged at TP_LOG_ERROR naming the library or the function
 * missing (fns[] left all NULL then) */
int tp_dl__load(const char *soname, const char *const *names, tp_dl_fn *fns, unsigned n,
		const struct tp_log *log);

/* a variable of a library tp_dl__load() opened (ncurses' stdscr, LINES ...): its address, or
 * NULL */
void *tp_dl__data(const char *name);

/* the function fn (declared by the library's header) from slot fns[idx], as its own type */
#define TP_DL_CALL(fns, idx, fn)	((__typeof__(fn) *)(fns)[idx])

#endif
