/* SPDX-License-Identifier: MIT */
/* Links, for the recorder's build-id cache (recorder/out/bidcache.c): kept apart from sys.h
 * because no other recorder part needs them. Both return 0 or -errno; -TP_ENOSYS where the
 * freestanding backend has no syscall number for them (arch/<arch>/abi.h would define
 * TP_NR_linkat and TP_NR_symlinkat): callers then copy instead. */
#ifndef TINYPERF_LIBC_SHIM_LINK_H
#define TINYPERF_LIBC_SHIM_LINK_H

#include "libc-shim/types.h"

#define TP_AT_SYMLINK_FOLLOW	0x400	/* the same on every Linux arch */

long sys_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
		int flags);
long sys_symlinkat(const char *target, int newdirfd, const char *linkpath);

#endif
