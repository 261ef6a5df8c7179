/* SPDX-License-Identifier: MIT */
/* x86_64: raw syscalls, barriers, _start and the signal restorer for the freestanding backend.
 *
 * Syscall ABI (Linux x86_64):
 *   number     rax
 *   arguments  rdi, rsi, rdx, r10, r8, r9  (r10, not rcx: `syscall` overwrites rcx)
 *   trap       syscall
 *   clobbers   rcx (return rip), r11 (rflags), memory; everything else is preserved
 *   result     rax: >= 0, or -errno in [-4095, -1]
 *   64-bit args: one register.
 * Entry: rsp points at argc, 16-byte aligned. A call must leave rsp % 16 == 8 on entry to the
 * callee, which `call` after an `and $-16` gives.
 * Signals: the kernel has no fallback trampoline; SA_RESTORER with an rt_sigreturn stub is
 * mandatory. Memory model: TSO, so acquire/release are plain accesses plus a compiler barrier. */
#ifndef TINYPERF_ARCH_X86_64_ARCH_H
#define TINYPERF_ARCH_X86_64_ARCH_H

#include <stdint.h>
#include "arch/abi.h"

#define ARCH_NAME "x86_64"
/* the sys_*() wrappers stay calls: inlined (LTO), each system call's register moves cost
 * more than the call (measured: -0.1 KiB stripped) */
#define ARCH_SYSCALL_WRAPPER __attribute__((noinline))
/* uname -m values a process of this ABI may see */
#define ARCH_UNAME_MACHINES "x86_64"
/* A variadic function's prologue stores xmm0-7 for va_arg (~76 bytes each), but tinyperf's
 * formatting takes no floating-point arguments: its variadic functions read only the general
 * registers (measured: -320 bytes stripped for tp_snprintf, tp_out__printf, tp_dprintf and
 * the recorder's rec_fail). GCC 11 and later only: older GCC and clang have no such target
 * attribute on x86. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define ARCH_VARARGS_GPR __attribute__((target("general-regs-only")))
#endif

#define my_syscall0(n) ({						\
	long _r = (long)(n);						\
	__asm__ volatile("syscall" : "+a"(_r) : : "rcx", "r11", "memory", "cc"); \
	_r; })
#define my_syscall1(n, a) ({						\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	__asm__ volatile("syscall" : "+a"(_r) : "r"(_a1)		\
			 : "rcx", "r11", "memory", "cc");		\
	_r; })
#define my_syscall2(n, a, b) ({						\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	register long _a2 __asm__("rsi") = (long)(b);			\
	__asm__ volatile("syscall" : "+a"(_r) : "r"(_a1), "r"(_a2)	\
			 : "rcx", "r11", "memory", "cc");		\
	_r; })
#define my_syscall3(n, a, b, c) ({					\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	register long _a2 __asm__("rsi") = (long)(b);			\
	register long _a3 __asm__("rdx") = (long)(c);			\
	__asm__ volatile("syscall" : "+a"(_r) : "r"(_a1), "r"(_a2), "r"(_a3) \
			 : "rcx", "r11", "memory", "cc");		\
	_r; })
#define my_syscall4(n, a, b, c, d) ({					\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	register long _a2 __asm__("rsi") = (long)(b);			\
	register long _a3 __asm__("rdx") = (long)(c);			\
	register long _a4 __asm__("r10") = (long)(d);			\
	__asm__ volatile("syscall" : "+a"(_r)				\
			 : "r"(_a1), "r"(_a2), "r"(_a3), "r"(_a4)	\
			 : "rcx", "r11", "memory", "cc");		\
	_r; })
#define my_syscall5(n, a, b, c, d, e) ({				\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	register long _a2 __asm__("rsi") = (long)(b);			\
	register long _a3 __asm__("rdx") = (long)(c);			\
	register long _a4 __asm__("r10") = (long)(d);			\
	register long _a5 __asm__("r8") = (long)(e);			\
	__asm__ volatile("syscall" : "+a"(_r)				\
			 : "r"(_a1), "r"(_a2), "r"(_a3), "r"(_a4), "r"(_a5) \
			 : "rcx", "r11", "memory", "cc");		\
	_r; })
#define my_syscall6(n, a, b, c, d, e, f) ({				\
	long _r = (long)(n);						\
	register long _a1 __asm__("rdi") = (long)(a);			\
	register long _a2 __asm__("rsi") = (long)(b);			\
	register long _a3 __asm__("rdx") = (long)(c);			\
	register long _a4 __asm__("r10") = (long)(d);			\
	register long _a5 __asm__("r8") = (long)(e);			\
	register long _a6 __asm__("r9") = (long)(f);			\
	__asm__ volatile("syscall" : "+a"(_r)				\
			 : "r"(_a1), "r"(_a2), "r"(_a3), "r"(_a4), "r"(_a5), "r"(_a6) \
			 : "rcx", "r11", "memory", "cc");		\
	_r; })

/* 64-bit syscall arguments fit one register */
#define ARCH_SYSCALL_ARG64(x) ((long)(x))
#define ARCH_SYSCALL_PAD64

/* TSO: only store->load needs a fence. perf uses the full fences for mb/rmb/wmb. */
static inline void arch_mb(void)  { __asm__ volatile("mfence" ::: "memory"); }
static inline void arch_rmb(void) { __asm__ volatile("lfence" ::: "memory"); }
static inline void arch_wmb(void) { __asm__ volatile("sfence" ::: "memory"); }
#define arch_mb arch_mb
#define arch_rmb arch_rmb
#define arch_wmb arch_wmb

static inline uint64_t arch_load_acquire_u64(const volatile uint64_t *p)
{
	uint64_t v = *p;

	__asm__ volatile("" ::: "memory");
	return v;
}
static inline void arch_store_release_u64(volatile uint64_t *p, uint64_t v)
{
	__asm__ volatile("" ::: "memory");
	*p = v;
}
#define arch_load_acquire_u64 arch_load_acquire_u64
#define arch_store_release_u64 arch_store_release_u64

/* rt_sigaction's struct sigaction */
struct arch_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask[1];
};
#define ARCH_SIGSET_BYTES 8
void arch_sigreturn(void);
static inline void arch_sigaction_set(struct arch_sigaction *sa, void (*h)(int),
				      unsigned long flags)
{
	sa->handler = h;
	sa->flags = flags | TP_SA_RESTORER;
	sa->restorer = arch_sigreturn;
	sa->mask[0] = 0;
}

/* handler returns into this: rt_sigreturn (15) */
#define ARCH_SIGRESTORER_ASM __asm__(					\
	".pushsection .text.arch_sigreturn,\"ax\",@progbits\n"		\
	".global arch_sigreturn\n"					\
	".type arch_sigreturn,@function\n"				\
	"arch_sigreturn:\n"						\
	"	mov $15, %eax\n"					\
	"	syscall\n"						\
	"	hlt\n"							\
	".size arch_sigreturn, .-arch_sigreturn\n"			\
	".popsection\n");

/* rbp = 0 ends frame-pointer unwinding; rdi = sp */
#define ARCH_START_ASM __asm__(						\
	".pushsection .text._start,\"ax\",@progbits\n"			\
	".global _start\n"						\
	".type _start,@function\n"					\
	"_start:\n"							\
	"	xor %ebp, %ebp\n"					\
	"	mov %rsp, %rdi\n"					\
	"	and $-16, %rsp\n"					\
	"	call tp_start_c\n"					\
	"	hlt\n"							\
	".size _start, .-_start\n"					\
	".popsection\n");

#endif
