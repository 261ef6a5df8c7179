/* SPDX-License-Identifier: MIT */
/* aarch64: raw syscalls, barriers and _start for the freestanding backend.
 *
 * Syscall ABI (Linux arm64):
 *   number     x8
 *   arguments  x0, x1, x2, x3, x4, x5
 *   trap       svc #0
 *   clobbers   memory; the kernel preserves every register but x0
 *   result     x0: >= 0, or -errno in [-4095, -1]
 *   64-bit args: one register.
 * Syscall table: asm-generic, without the legacy calls (no open, fork, poll, pipe, dup2,
 * mkdir, rename, unlink, readlink): sys_* use the *at forms, ppoll, pipe2, dup3, clone.
 * Entry: sp points at argc and is 16-byte aligned, as the AAPCS64 requires.
 * Barriers: dmb ish / ishld / ishst; acquire/release are ldar / stlr (what perf uses).
 * Signals: the kernel returns through the vDSO sigreturn trampoline; no restorer needed. */
#ifndef TINYPERF_ARCH_AARCH64_ARCH_H
#define TINYPERF_ARCH_AARCH64_ARCH_H

#include <stdint.h>
#include "arch/abi.h"

#define ARCH_NAME "aarch64"
#define ARCH_UNAME_MACHINES "aarch64"

#define my_syscall0(n) ({						\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0");				\
	__asm__ volatile("svc #0" : "=r"(_x0) : "r"(_x8) : "memory", "cc"); \
	_x0; })
#define my_syscall1(n, a) ({						\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	__asm__ volatile("svc #0" : "+r"(_x0) : "r"(_x8) : "memory", "cc"); \
	_x0; })
#define my_syscall2(n, a, b) ({						\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	register long _x1 __asm__("x1") = (long)(b);			\
	__asm__ volatile("svc #0" : "+r"(_x0) : "r"(_x8), "r"(_x1)	\
			 : "memory", "cc");				\
	_x0; })
#define my_syscall3(n, a, b, c) ({					\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	register long _x1 __asm__("x1") = (long)(b);			\
	register long _x2 __asm__("x2") = (long)(c);			\
	__asm__ volatile("svc #0" : "+r"(_x0) : "r"(_x8), "r"(_x1), "r"(_x2) \
			 : "memory", "cc");				\
	_x0; })
#define my_syscall4(n, a, b, c, d) ({					\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	register long _x1 __asm__("x1") = (long)(b);			\
	register long _x2 __asm__("x2") = (long)(c);			\
	register long _x3 __asm__("x3") = (long)(d);			\
	__asm__ volatile("svc #0" : "+r"(_x0)				\
			 : "r"(_x8), "r"(_x1), "r"(_x2), "r"(_x3)	\
			 : "memory", "cc");				\
	_x0; })
#define my_syscall5(n, a, b, c, d, e) ({				\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	register long _x1 __asm__("x1") = (long)(b);			\
	register long _x2 __asm__("x2") = (long)(c);			\
	register long _x3 __asm__("x3") = (long)(d);			\
	register long _x4 __asm__("x4") = (long)(e);			\
	__asm__ volatile("svc #0" : "+r"(_x0)				\
			 : "r"(_x8), "r"(_x1), "r"(_x2), "r"(_x3), "r"(_x4) \
			 : "memory", "cc");				\
	_x0; })
#define my_syscall6(n, a, b, c, d, e, f) ({				\
	register long _x8 __asm__("x8") = (long)(n);			\
	register long _x0 __asm__("x0") = (long)(a);			\
	register long _x1 __asm__("x1") = (long)(b);			\
	register long _x2 __asm__("x2") = (long)(c);			\
	register long _x3 __asm__("x3") = (long)(d);			\
	register long _x4 __asm__("x4") = (long)(e);			\
	register long _x5 __asm__("x5") = (long)(f);			\
	__asm__ volatile("svc #0" : "+r"(_x0)				\
			 : "r"(_x8), "r"(_x1), "r"(_x2), "r"(_x3), "r"(_x4), "r"(_x5) \
			 : "memory", "cc");				\
	_x0; })

#define ARCH_SYSCALL_ARG64(x) ((long)(x))
#define ARCH_SYSCALL_PAD64

static inline void arch_mb(void)  { __asm__ volatile("dmb ish" ::: "memory"); }
static inline void arch_rmb(void) { __asm__ volatile("dmb ishld" ::: "memory"); }
static inline void arch_wmb(void) { __asm__ volatile("dmb ishst" ::: "memory"); }
#define arch_mb arch_mb
#define arch_rmb arch_rmb
#define arch_wmb arch_wmb

static inline uint64_t arch_load_acquire_u64(const volatile uint64_t *p)
{
	uint64_t v;

	__asm__ volatile("ldar %0, %1" : "=r"(v) : "Q"(*p) : "memory");
	return v;
}
static inline void arch_store_release_u64(volatile uint64_t *p, uint64_t v)
{
	__asm__ volatile("stlr %1, %0" : "=Q"(*p) : "r"(v) : "memory");
}
#define arch_load_acquire_u64 arch_load_acquire_u64
#define arch_store_release_u64 arch_store_release_u64

/* rt_sigaction's struct sigaction (arm64 defines SA_RESTORER, so the field exists) */
struct arch_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask[1];
};
#define ARCH_SIGSET_BYTES 8
static inline void arch_sigaction_set(struct arch_sigaction *sa, void (*h)(int),
				      unsigned long flags)
{
	sa->handler = h;
	sa->flags = flags;
	sa->restorer = 0;
	sa->mask[0] = 0;
}

/* fp and lr = 0 end unwinding; x0 = sp (already 16-byte aligned, re-aligned anyway) */
#define ARCH_START_ASM __asm__(						\
	".pushsection .text._start,\"ax\",%progbits\n"			\
	".global _start\n"						\
	".type _start,%function\n"					\
	"_start:\n"							\
	"	mov x29, #0\n"						\
	"	mov x30, #0\n"						\
	"	mov x0, sp\n"						\
	"	and x1, x0, #-16\n"					\
	"	mov sp, x1\n"						\
	"	bl tp_start_c\n"					\
	"	brk #0\n"						\
	".size _start, .-_start\n"					\
	".popsection\n");

#endif
