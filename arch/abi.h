/* SPDX-License-Identifier: MIT */
/* Kernel ABI constants, all TP_-prefixed so they never clash with a libc header in hosted
 * builds: syscall numbers TP_NR_<name>, errno TP_E*, signals TP_SIG*, and the flags sys_*()
 * take (TP_O_*, TP_MAP_*, TP_SOCK_*, TP_TC*, ...). They are the values the kernel uses, which
 * are also the values every Linux libc passes through, so the hosted backend forwards them
 * unchanged (tests/arch/abi-check.c compares each with the libc's).
 * The per-arch file defines its syscall numbers and whatever differs from asm-generic;
 * arch/generic/abi.h fills in the rest. */
#ifndef TINYPERF_ARCH_ABI_H
#define TINYPERF_ARCH_ABI_H

#if defined(__x86_64__)
#include "arch/x86_64/abi.h"
#elif defined(__i386__)
#include "arch/i386/abi.h"
#elif defined(__aarch64__)
#include "arch/aarch64/abi.h"
#elif defined(__arm__)
#include "arch/arm/abi.h"
#elif defined(__mips__) && defined(_ABIO32)
#include "arch/mips/abi.h"
#else
#error Unsupported architecture: tinyperf supports x86_64, i386, arm (v7), aarch64 and mips o32
#endif

#include "arch/generic/abi.h"

#endif
