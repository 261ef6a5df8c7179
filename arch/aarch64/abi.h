/* SPDX-License-Identifier: MIT */
/* aarch64 kernel ABI: asm-generic syscall numbers; open flags as on 32-bit arm. */
#ifndef TINYPERF_ARCH_AARCH64_ABI_H
#define TINYPERF_ARCH_AARCH64_ABI_H

#include "arch/generic/unistd.h"

#define TP_O_DIRECTORY	0040000
#define TP_O_NOFOLLOW	0100000
#define TP_O_DIRECT	0200000
#define TP_O_LARGEFILE	0400000

/* --call-graph dwarf: PERF_SAMPLE_REGS_USER's mask in asm/perf_regs.h's numbering: X0..X29,
 * LR, SP, PC (0-32); not VG (46, SVE only) */
#define TP_PERF_REGS_USER	0x1ffffffffULL

#endif
