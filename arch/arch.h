/* SPDX-License-Identifier: MIT */
/* Picks the arch file by compiler macro. Each arch file provides (and documents at its top):
 *   my_syscall0(nr) .. my_syscall6(nr, a1, .., a6) -> long, >= 0 or -errno (MIPS a3 flag
 *                                                     normalised inside the arch file)
 *   arch_mb(), arch_rmb(), arch_wmb()               full / load-load / store-store barriers
 *   arch_load_acquire_u64(p), arch_store_release_u64(p, v)
 *                                                     for the perf ring: data_head / data_tail
 *                                                     (optional: arch/barrier.h derives them)
 *   ARCH_SYSCALL_ARG64(x)                            how a 64-bit argument is passed (pread64..):
 *                                                     one register, or a register pair in order
 *   ARCH_SYSCALL_PAD64                               "0," where a pair must start at an even
 *                                                     slot (arm, mips), else empty; put it before
 *                                                     an ARCH_SYSCALL_ARG64 in an odd slot
 *   ARCH_START_ASM                                   _start for the freestanding backend:
 *                                                     hands the initial sp to tp_start_c()
 *   struct arch_sigaction, ARCH_SIGSET_BYTES,        rt_sigaction's kernel layout and mask size;
 *   arch_sigaction_set(sa, handler, flags)           fills it, adding SA_RESTORER where needed
 *   ARCH_SIGRESTORER_ASM                             the rt_sigreturn stub, on arches whose
 *                                                     kernel wants SA_RESTORER (x86, arm)
 *   ARCH_SYSCALL_WRAPPER                             (optional) attributes of the freestanding
 *                                                     sys_*() wrappers, e.g. noinline where an
 *                                                     inlined system call costs more than a call
 *   ARCH_VARARGS_GPR                                 (optional) attributes of a variadic function
 *                                                     that takes no floating-point arguments, where
 *                                                     its va_list prologue saves vector registers
 *   ARCH_COLD_CODE                                   (optional) attributes of code run once per
 *                                                     command, never while sampling (stat's),
 *                                                     where a denser ISA pays (MIPS16e)
 *   ARCH_NAME                                        "x86_64", "i386", "arm", "aarch64", "mips"
 *   ARCH_UNAME_MACHINES                              uname -m prefixes this ABI may run under
 * Kernel ABI constants (syscall numbers, errno, signals, flags) live in arch/abi.h. */
#ifndef TINYPERF_ARCH_ARCH_H
#define TINYPERF_ARCH_ARCH_H

#if defined(__x86_64__)
#include "arch/x86_64/arch.h"
#elif defined(__i386__)
#include "arch/i386/arch.h"
#elif defined(__aarch64__)
#include "arch/aarch64/arch.h"
#elif defined(__arm__)
#include "arch/arm/arch.h"
#elif defined(__mips__) && defined(_ABIO32)
#include "arch/mips/arch.h"
#else
#error Unsupported architecture: tinyperf supports x86_64, i386, arm (v7), aarch64 and mips o32
#endif

#include "arch/barrier.h"

#ifndef ARCH_SYSCALL_WRAPPER
#define ARCH_SYSCALL_WRAPPER
#endif
#ifndef ARCH_COLD_CODE
#define ARCH_COLD_CODE
#endif
#ifndef ARCH_VARARGS_GPR
#define ARCH_VARARGS_GPR
#endif

#endif
