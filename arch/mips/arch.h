/* SPDX-License-Identifier: MIT */
/* mips (o32, either endianness): raw syscalls, barriers and _start for the freestanding backend.
 *
 * Syscall ABI (Linux MIPS o32):
 *   number     v0 ($2), numbers start at 4000
 *   arguments  a0-a3 ($4-$7); arguments 5 and 6 on the stack at sp+16 and sp+20, above the
 *              16-byte argument save area the caller always reserves
 *   trap       syscall
 *   clobbers   at, v1, t0-t9, hi, lo, memory (older kernels did not preserve the t registers)
 *   result     v0, with a3 ($7) as an error flag: a3 != 0 means v0 holds a positive errno.
 *              my_syscallN() turns that into -errno, so callers see the same convention as on
 *              every other arch.
 *   64-bit args: a register pair starting at an even slot (a0/a1, a2/a3, sp+16/sp+20), so an
 *              odd slot is skipped with a pad; the lower-addressed word goes first (low word on
 *              mipsel, high word on big-endian mips).
 * The number is moved into v0 by the instruction right before `syscall`: kernels before
 * 2.6.36 restarted an interrupted syscall by re-executing that instruction.
 * The asm has no branches, so it is correct in both .set reorder and .set noreorder;
 * _start, which has a jump, sets noreorder itself and fills the delay slot.
 * Entry: sp points at argc. Freestanding builds use -mno-abicalls -fno-pic; _start loads $gp
 * from _gp (small data) and calls through t9 so abicalls code would find its gp too.
 * Barriers: `sync` for all three (perf's choice); no acquire/release instructions in MIPS32.
 * Signals: the kernel returns through its own sigreturn trampoline (vDSO), there is no
 * SA_RESTORER; struct sigaction has the flags first and a 128-bit mask. */
#ifndef TINYPERF_ARCH_MIPS_ARCH_H
#define TINYPERF_ARCH_MIPS_ARCH_H

#include <stdint.h>
#include "arch/abi.h"

#define ARCH_NAME "mips"
#define ARCH_UNAME_MACHINES "mips"
/* MIPS32 shifts 64-bit values through libgcc's __lshrdi3/__ashldi3 at -Os (Buildroot's
 * default): their abicalls objects beside the freestanding build's -mno-abicalls code make
 * ld warn, so libc-shim/common/div64.c provides them */
#define ARCH_SOFT_SHIFT64 1
/* CONFIG_ARCH_MIPS16_COLD: stat's functions as MIPS16e. An attribute, not -mips16 on their
 * objects: LTO would merge that flag into the whole partition's command line */
#ifdef CONFIG_ARCH_MIPS16_COLD
#define ARCH_COLD_CODE __attribute__((mips16))
#endif

#define ARCH_MIPS_CLOBBERS "memory", "$1", "$3", "$8", "$9", "$10", "$11", "$12", \
	"$13", "$14", "$15", "$24", "$25", "hi", "lo"

#define my_syscall0(n) ({						\
	register long _v0 __asm__("$2");				\
	register long _a3 __asm__("$7");				\
	__asm__ volatile("move $2, %[nr]\n\tsyscall"			\
			 : "=r"(_v0), "=r"(_a3) : [nr]"r"((long)(n))	\
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall1(n, a) ({						\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a3 __asm__("$7");				\
	__asm__ volatile("move $2, %[nr]\n\tsyscall"			\
			 : "=r"(_v0), "=r"(_a3) : [nr]"r"((long)(n)), "r"(_a0) \
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall2(n, a, b) ({						\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a1 __asm__("$5") = (long)(b);			\
	register long _a3 __asm__("$7");				\
	__asm__ volatile("move $2, %[nr]\n\tsyscall"			\
			 : "=r"(_v0), "=r"(_a3)				\
			 : [nr]"r"((long)(n)), "r"(_a0), "r"(_a1)	\
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall3(n, a, b, c) ({					\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a1 __asm__("$5") = (long)(b);			\
	register long _a2 __asm__("$6") = (long)(c);			\
	register long _a3 __asm__("$7");				\
	__asm__ volatile("move $2, %[nr]\n\tsyscall"			\
			 : "=r"(_v0), "=r"(_a3)				\
			 : [nr]"r"((long)(n)), "r"(_a0), "r"(_a1), "r"(_a2) \
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall4(n, a, b, c, d) ({					\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a1 __asm__("$5") = (long)(b);			\
	register long _a2 __asm__("$6") = (long)(c);			\
	register long _a3 __asm__("$7") = (long)(d);			\
	__asm__ volatile("move $2, %[nr]\n\tsyscall"			\
			 : "=r"(_v0), "+r"(_a3)				\
			 : [nr]"r"((long)(n)), "r"(_a0), "r"(_a1), "r"(_a2) \
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall5(n, a, b, c, d, e) ({				\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a1 __asm__("$5") = (long)(b);			\
	register long _a2 __asm__("$6") = (long)(c);			\
	register long _a3 __asm__("$7") = (long)(d);			\
	__asm__ volatile("addiu $sp, $sp, -32\n\t"			\
			 "sw %[a5], 16($sp)\n\t"			\
			 "move $2, %[nr]\n\t"				\
			 "syscall\n\t"					\
			 "addiu $sp, $sp, 32"				\
			 : "=r"(_v0), "+r"(_a3)				\
			 : [nr]"r"((long)(n)), "r"(_a0), "r"(_a1), "r"(_a2), \
			   [a5]"r"((long)(e))				\
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })
#define my_syscall6(n, a, b, c, d, e, f) ({				\
	register long _v0 __asm__("$2");				\
	register long _a0 __asm__("$4") = (long)(a);			\
	register long _a1 __asm__("$5") = (long)(b);			\
	register long _a2 __asm__("$6") = (long)(c);			\
	register long _a3 __asm__("$7") = (long)(d);			\
	__asm__ volatile("addiu $sp, $sp, -32\n\t"			\
			 "sw %[a5], 16($sp)\n\t"			\
			 "sw %[a6], 20($sp)\n\t"			\
			 "move $2, %[nr]\n\t"				\
			 "syscall\n\t"					\
			 "addiu $sp, $sp, 32"				\
			 : "=r"(_v0), "+r"(_a3)				\
			 : [nr]"r"((long)(n)), "r"(_a0), "r"(_a1), "r"(_a2), \
			   [a5]"r"((long)(e)), [a6]"r"((long)(f))	\
			 : ARCH_MIPS_CLOBBERS);				\
	_a3 ? -_v0 : _v0; })

/* a 64-bit argument as a register pair in memory order; PAD64 skips the odd slot before it */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARCH_SYSCALL_ARG64(x) \
	((long)(uint32_t)((uint64_t)(x) >> 32)), ((long)(uint32_t)(uint64_t)(x))
#else
#define ARCH_SYSCALL_ARG64(x) \
	((long)(uint32_t)(uint64_t)(x)), ((long)(uint32_t)((uint64_t)(x) >> 32))
#endif
#define ARCH_SYSCALL_PAD64 0,

static inline void arch_mb(void)
{
	__asm__ volatile(".set push\n\t.set mips2\n\tsync\n\t.set pop" ::: "memory");
}
#define arch_mb arch_mb
#define arch_rmb arch_mb
#define arch_wmb arch_mb

/* MIPS's own struct sigaction: flags first, then the handler, then a 128-signal mask */
struct arch_sigaction {
	unsigned int flags;
	void (*handler)(int);
	unsigned long mask[4];
};
#define ARCH_SIGSET_BYTES 16
static inline void arch_sigaction_set(struct arch_sigaction *sa, void (*h)(int),
				      unsigned long flags)
{
	sa->flags = (unsigned int)flags;
	sa->handler = h;
	sa->mask[0] = sa->mask[1] = sa->mask[2] = sa->mask[3] = 0;
}

/* ld's MIPS scripts enter at __start; both names are defined. a0 = sp, sp aligned to 8
 * with the 16-byte o32 argument area below it, gp = _gp, call through t9, fp = 0. */
#define ARCH_START_ASM __asm__(						\
	".pushsection .text._start,\"ax\",@progbits\n"			\
	".global _start\n"						\
	".global __start\n"						\
	".type _start,@function\n"					\
	".set push\n"							\
	".set noreorder\n"						\
	"_start:\n"							\
	"__start:\n"							\
	"	move $4, $sp\n"						\
	"	lui $28, %hi(_gp)\n"					\
	"	addiu $28, $28, %lo(_gp)\n"				\
	"	li $8, -8\n"						\
	"	and $sp, $sp, $8\n"					\
	"	addiu $sp, $sp, -16\n"					\
	"	move $30, $0\n"						\
	"	lui $25, %hi(tp_start_c)\n"				\
	"	addiu $25, $25, %lo(tp_start_c)\n"			\
	"	jalr $25\n"						\
	"	nop\n"							\
	"	break\n"						\
	".set pop\n"							\
	".size _start, .-_start\n"					\
	".popsection\n");

#endif
