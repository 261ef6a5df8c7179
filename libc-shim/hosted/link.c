/* SPDX-License-Identifier: MIT */
/* sys_linkat/sys_symlinkat for the hosted backend: the C library's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libc-shim/link.h"

long sys_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
		int flags)
{
	return linkat(olddirfd, oldpath, newdirfd, newpath, flags) ? -errno : 0;
}

long sys_symlinkat(const char *target, int newdirfd, const char *linkpath)
{
	return symlinkat(target, newdirfd, linkpath) ? -errno : 0;
}
