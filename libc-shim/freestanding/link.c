/* SPDX-License-Identifier: MIT */
/* sys_linkat/sys_symlinkat for the freestanding backend: raw syscalls where arch/abi.h gives
 * their numbers, -TP_ENOSYS (the caller copies) where it does not yet. */
#include "libc-shim/errno.h"
#include "libc-shim/link.h"
#include "arch/arch.h"

long sys_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
		int flags)
{
#ifdef TP_NR_linkat
	return my_syscall5(TP_NR_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
#else
	(void)olddirfd; (void)oldpath; (void)newdirfd; (void)newpath; (void)flags;
	return -TP_ENOSYS;
#endif
}

long sys_symlinkat(const char *target, int newdirfd, const char *linkpath)
{
#ifdef TP_NR_symlinkat
	return my_syscall3(TP_NR_symlinkat, target, newdirfd, linkpath);
#else
	(void)target; (void)newdirfd; (void)linkpath;
	return -TP_ENOSYS;
#endif
}
