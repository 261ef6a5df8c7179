/* aarch64 kernel ABI: asm-generic syscall numbers; open flags as on 32-bit arm. */
#ifndef TINYPERF_ARCH_AARCH64_ABI_H
#define TINYPERF_ARCH_AARCH64_ABI_H

#include "arch/generic/unistd.h"

#define TP_O_DIRECTORY	0040000
#define TP_O_NOFOLLOW	0100000
#define TP_O_DIRECT	0200000
#define TP_O_LARGEFILE	0400000

#endif
