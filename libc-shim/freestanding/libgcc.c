/* SPDX-License-Identifier: MIT */
/* What libgcc.a expects from a C library: ARM's division-by-zero handler (__aeabi_idiv0,
 * __aeabi_ldiv0 in _dvmd_lnx.o) calls raise(SIGFPE). Linked only when something pulls it in.
 * This file is built without LTO (libgcc is not LTO code and would not find it otherwise), so
 * it makes the system calls itself rather than call sys_*(), which LTO may inline away. */
#include "arch/arch.h"
#include "arch/abi.h"

int raise(int sig);

__attribute__((used)) int raise(int sig)
{
	long tid = my_syscall0(TP_NR_gettid);

	return (int)my_syscall2(TP_NR_kill, tid, sig);
}
