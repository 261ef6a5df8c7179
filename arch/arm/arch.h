/* SPDX-License-Identifier: MIT */
/* arm (ARMv7-A EABI, ARM or Thumb-2): raw syscalls, barriers, _start and the signal restorer.
 *
 * Syscall ABI (Linux ARM EABI):
 *   number     r7
 *   arguments  r0, r1, r2, r3, r4, r5
 *   trap       svc #0
 *   clobbers   memory; the kernel preserves every register but r0
 *   result     r0: >= 0, or -errno in [-4095, -1]
 *   64-bit args: a register pair starting at an even register (r0/r1, r2/r3, r4/r5), so an
 *              odd slot is skipped with a pad; the lower-addressed word (the low word on
 *              little-endian) goes in the lower register.
 * Thumb-2 (Debian armhf's default) uses r7 as the frame pointer, which gcc refuses as an asm
 * operand, so every syscall saves r7 in ip, loads the number, traps and restores r7. The same
 * sequence is correct in ARM mode, so there is only one.
 * Entry: sp points at argc; AAPCS wants 8-byte alignment at calls (we give 16).
 * Barriers: `dmb ish` (ARMv7). Never the kuser helpers at 0xffff0fa0: hardened kernels
 * (CONFIG_KUSER_HELPERS=n) do not map them. ARMv6 falls back to the CP15 barrier.
 * Signals: SA_RESTORER with an rt_sigreturn stub, SA_SIGINFO always set (rt frame). */
#ifndef TINYPERF_ARCH_ARM_ARCH_H
#define TINYPERF_ARCH_ARM_ARCH_H

#include <stdint.h>
#include "arch/abi.h"

#define ARCH_NAME "arm"
/* armv7l natively; armv8l or aarch64 for a 32-bit process on a 64-bit kernel */
#define ARCH_UNAME_MACHINES "armv7 armv8 armv6 aarch64"

/* no divide instruction before ARMv7-A's integer-divide extension (Cortex-A8/A9): 32-bit
 * division is an EABI helper call, which libc-shim/common/div64.c provides small */
#ifndef __ARM_ARCH_EXT_IDIV__
#define ARCH_SOFT_DIV32 1
#endif

#define ARCH_SVC_ASM "mov ip, r7\n\tmov r7, %[nr]\n\tsvc #0\n\tmov r7, ip"

#define my_syscall0(n) ({						\
	register long _r0 __asm__("r0");				\
	__asm__ volatile(ARCH_SVC_ASM : "=r"(_r0)			\
			 : [nr]"r"((long)(n)) : "ip", "memory", "cc");	\
	_r0; })
#define my_syscall1(n, a) ({						\
	register long _r0 __asm__("r0") = (long)(a);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)) : "ip", "memory", "cc");	\
	_r0; })
#define my_syscall2(n, a, b) ({						\
	register long _r0 __asm__("r0") = (long)(a);			\
	register long _r1 __asm__("r1") = (long)(b);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)), "r"(_r1)		\
			 : "ip", "memory", "cc");			\
	_r0; })
#define my_syscall3(n, a, b, c) ({					\
	register long _r0 __asm__("r0") = (long)(a);			\
	register long _r1 __asm__("r1") = (long)(b);			\
	register long _r2 __asm__("r2") = (long)(c);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)), "r"(_r1), "r"(_r2)	\
			 : "ip", "memory", "cc");			\
	_r0; })
#define my_syscall4(n, a, b, c, d) ({					\
	register long _r0 __asm__("r0") = (long)(a);			\
	register long _r1 __asm__("r1") = (long)(b);			\
	register long _r2 __asm__("r2") = (long)(c);			\
	register long _r3 __asm__("r3") = (long)(d);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)), "r"(_r1), "r"(_r2), "r"(_r3) \
			 : "ip", "memory", "cc");			\
	_r0; })
#define my_syscall5(n, a, b, c, d, e) ({				\
	register long _r0 __asm__("r0") = (long)(a);			\
	register long _r1 __asm__("r1") = (long)(b);			\
	register long _r2 __asm__("r2") = (long)(c);			\
	register long _r3 __asm__("r3") = (long)(d);			\
	register long _r4 __asm__("r4") = (long)(e);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)), "r"(_r1), "r"(_r2), "r"(_r3), "r"(_r4) \
			 : "ip", "memory", "cc");			\
	_r0; })
#define my_syscall6(n, a, b, c, d, e, f) ({				\
	register long _r0 __asm__("r0") = (long)(a);			\
	register long _r1 __asm__("r1") = (long)(b);			\
	register long _r2 __asm__("r2") = (long)(c);			\
	register long _r3 __asm__("r3") = (long)(d);			\
	register long _r4 __asm__("r4") = (long)(e);			\
	register long _r5 __asm__("r5") = (long)(f);			\
	__asm__ volatile(ARCH_SVC_ASM : "+r"(_r0)			\
			 : [nr]"r"((long)(n)), "r"(_r1), "r"(_r2), "r"(_r3), \
			   "r"(_r4), "r"(_r5)				\
			 : "ip", "memory", "cc");			\
	_r0; })

/* a 64-bit argument as a register pair in memory order; PAD64 skips the odd slot before it */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARCH_SYSCALL_ARG64(x) \
	((long)(uint32_t)((uint64_t)(x) >> 32)), ((long)(uint32_t)(uint64_t)(x))
#else
#define ARCH_SYSCALL_ARG64(x) \
	((long)(uint32_t)(uint64_t)(x)), ((long)(uint32_t)((uint64_t)(x) >> 32))
#endif
#define ARCH_SYSCALL_PAD64 0,

#if __ARM_ARCH >= 7
static inline void arch_mb(void)  { __asm__ volatile("dmb ish" ::: "memory"); }
static inline void arch_wmb(void) { __asm__ volatile("dmb ishst" ::: "memory"); }
#elif __ARM_ARCH == 6
static inline void arch_mb(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c10, 5" : : "r"(0) : "memory");
}
#define arch_wmb arch_mb
#else
#error "tinyperf needs ARMv6 or later for SMP-safe barriers"
#endif
#define arch_mb arch_mb
#define arch_rmb arch_mb
#ifndef arch_wmb
#define arch_wmb arch_wmb
#endif

/* rt_sigaction's struct sigaction */
struct arch_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask[2];
};
#define ARCH_SIGSET_BYTES 8
void arch_sigreturn(void);
static inline void arch_sigaction_set(struct arch_sigaction *sa, void (*h)(int),
				      unsigned long flags)
{
	sa->handler = h;
	sa->flags = flags | TP_SA_RESTORER | TP_SA_SIGINFO;
	sa->restorer = arch_sigreturn;
	sa->mask[0] = sa->mask[1] = 0;
}

/* The stubs below assemble in the instruction set gcc is using; in Thumb mode the symbol
 * must be marked so its address carries the Thumb bit the kernel and bl rely on. */
#ifdef __thumb__
#define ARCH_ASM_FUNC(name) ".thumb_func\n" ".type " name ",%function\n" name ":\n"
#else
#define ARCH_ASM_FUNC(name) ".type " name ",%function\n" name ":\n"
#endif

/* rt_sigreturn (173) */
#define ARCH_SIGRESTORER_ASM __asm__(					\
	".pushsection .text.arch_sigreturn,\"ax\",%progbits\n"		\
	".global arch_sigreturn\n"					\
	ARCH_ASM_FUNC("arch_sigreturn")					\
	"	mov r7, #173\n"						\
	"	svc #0\n"						\
	".size arch_sigreturn, .-arch_sigreturn\n"			\
	".popsection\n");

/* fp and lr = 0 end unwinding; r0 = sp; sp aligned to 16 */
#define ARCH_START_ASM __asm__(						\
	".pushsection .text._start,\"ax\",%progbits\n"			\
	".global _start\n"						\
	ARCH_ASM_FUNC("_start")						\
	"	mov r0, sp\n"						\
	"	mov r1, r0\n"						\
	"	bic r1, r1, #15\n"					\
	"	mov sp, r1\n"						\
	"	mov r1, #0\n"						\
	"	mov fp, r1\n"						\
	"	mov lr, r1\n"						\
	"	bl tp_start_c\n"					\
	"	udf #0\n"						\
	".size _start, .-_start\n"					\
	".popsection\n");

#endif
