/* SPDX-License-Identifier: MIT */
/* The per-target facts of the host unwinder: perf_regs numbering (the kernel's uapi
 * asm/perf_regs.h of each arch) to DWARF numbering, word size, stack pointer, PC. */
#include <elf.h>
#include <string.h>

#include "host-tools/lib/unwind/internal.h"

/* perf_regs: x86 AX 0, BX 1, CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8, ..., R8-R15 16-23 */
#define X86_64_MAP { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8, \
		     -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 }
/* DWARF i386: 0 eax, 1 ecx, 2 edx, 3 ebx, 4 esp, 5 ebp, 6 esi, 7 edi, 8 eip */
#define I386_MAP { 0, 2, 3, 1, 7, 6, 4, 5, 8, \
		   -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
		   -1, -1, -1, -1, -1, -1 }
/* arm: perf R0-R15 = DWARF r0-r15 (13 sp, 14 lr, 15 pc) */
#define ARM_MAP { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 }
/* arm64: perf X0-X29, LR 30, SP 31, PC 32; DWARF x0-x30, 31 sp */
#define ARM64_MAP { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, \
		    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, -1 }
/* mips: perf PC 0, R1-R31 1-31 (no R0: it is always 0); DWARF 0-31 the GPRs */
#define MIPS_MAP { -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, \
		   20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, -1 }

static const struct tp_uwarch arches[] = {
	{ "x86_64", EM_X86_64, 8, 17, 7, 8, X86_64_MAP, false, false, false },
	{ "i386", EM_386, 4, 9, 4, 8, I386_MAP, false, false, false },
	{ "arm", EM_ARM, 4, 16, 13, 15, ARM_MAP, true, false, false },
	{ "arm-be", EM_ARM, 4, 16, 13, 15, ARM_MAP, true, false, true },
	{ "aarch64", EM_AARCH64, 8, 32, 31, 32, ARM64_MAP, false, false, false },
	{ "mipsel", EM_MIPS, 4, 32, 29, 0, MIPS_MAP, false, true, false },
	{ "mips", EM_MIPS, 4, 32, 29, 0, MIPS_MAP, false, true, true },
};

const struct tp_uwarch *tp_uwarch__of_elf(unsigned machine, unsigned elfclass, bool big_endian)
{
	unsigned want_class = machine == EM_X86_64 || machine == EM_AARCH64 ? ELFCLASS64 :
									      ELFCLASS32;

	if (elfclass != want_class)
		return NULL;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].machine == machine && arches[i].big_endian == big_endian)
			return &arches[i];
	return NULL;
}

const char *tp_uwarch__name(const struct tp_uwarch *a)
{
	return a ? a->name : "?";
}

const struct tp_uwarch *tp_uwarch__of_uname(const char *machine, bool abi64)
{
	if (!machine)
		return NULL;
	if (!strcmp(machine, "x86_64") || !strcmp(machine, "amd64"))
		return &arches[abi64 ? 0 : 1];
	if (machine[0] == 'i' && !strcmp(machine + 2, "86"))
		return &arches[1];
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"))
		return &arches[abi64 ? 4 : 2];
	if (!strncmp(machine, "arm", 3))
		return &arches[strstr(machine, "b") ? 3 : 2];
	if (!strncmp(machine, "mips", 4) && !abi64)
		return &arches[strstr(machine, "el") ? 5 : 6];
	return NULL;
}

bool tp_uwarch__same_regs(const struct tp_uwarch *a, const struct tp_uwarch *b)
{
	return a->machine == b->machine && a->word == b->word;
}
