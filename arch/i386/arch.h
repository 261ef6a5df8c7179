/* SPDX-License-Identifier: MIT */
/* i386: raw syscalls, barriers, _start and the signal restorer for the freestanding backend.
 *
 * Syscall ABI (Linux i386, int $0x80):
 *   number     eax
 *   arguments  ebx, ecx, edx, esi, edi, ebp
 *   trap       int $0x80
 *   clobbers   memory, flags; every other register is preserved
 *   result     eax: >= 0, or -errno in [-4095, -1]
 *   64-bit args: two consecutive registers, low word first, no alignment padding.
 * ebp is the frame pointer or the sixth argument: my_syscall6 saves it, loads it inside the
 * asm, and passes the number and the sixth argument through memory pointed to by eax.
 * Entry: esp points at argc. gcc assumes esp % 16 == 0 at each call site.
 * Signals: SA_RESTORER with an rt_sigreturn stub; SA_SIGINFO is always set so the kernel
 * builds the rt frame that stub expects (the handler ignores the extra arguments).
 * Memory model: TSO, but perf's i386 barriers are `lock; addl $0,0(%esp)` for all three
 * (no SSE2 fences assumed). u64 ring heads are read hi-lo-hi by arch/barrier.h. */
#ifndef TINYPERF_ARCH_I386_ARCH_H
#define TINYPERF_ARCH_I386_ARCH_H

#include <stdint.h>
#include "arch/abi.h"

#define ARCH_NAME "i386"
/* the sys_*() wrappers stay calls: inlined (LTO), each system call's register setup and
 * ebx save cost more than the call (measured: -1.9 KiB stripped) */
#define ARCH_SYSCALL_WRAPPER __attribute__((noinline))
/* a 32-bit process on an x86_64 kernel sees x86_64 unless run under linux32 */
#define ARCH_UNAME_MACHINES "i386 i486 i586 i686 x86_64"

#define my_syscall0(n) ({						\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r) : : "memory", "cc");	\
	_r; })
#define my_syscall1(n, a) ({						\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r) : "b"((long)(a)) : "memory", "cc"); \
	_r; })
#define my_syscall2(n, a, b) ({						\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r)			\
			 : "b"((long)(a)), "c"((long)(b)) : "memory", "cc"); \
	_r; })
#define my_syscall3(n, a, b, c) ({					\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r)			\
			 : "b"((long)(a)), "c"((long)(b)), "d"((long)(c)) \
			 : "memory", "cc");				\
	_r; })
#define my_syscall4(n, a, b, c, d) ({					\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r)			\
			 : "b"((long)(a)), "c"((long)(b)), "d"((long)(c)), \
			   "S"((long)(d))				\
			 : "memory", "cc");				\
	_r; })
#define my_syscall5(n, a, b, c, d, e) ({				\
	long _r = (long)(n);						\
	__asm__ volatile("int $0x80" : "+a"(_r)			\
			 : "b"((long)(a)), "c"((long)(b)), "d"((long)(c)), \
			   "S"((long)(d)), "D"((long)(e))		\
			 : "memory", "cc");				\
	_r; })
/* _nf[0] = number, _nf[1] = sixth argument; eax points at them until the trap */
#define my_syscall6(n, a, b, c, d, e, f) ({				\
	long _nf[2] = { (long)(n), (long)(f) };			\
	long _r;							\
	__asm__ volatile("push %%ebp\n\t"				\
			 "mov 4(%%eax), %%ebp\n\t"			\
			 "mov (%%eax), %%eax\n\t"			\
			 "int $0x80\n\t"				\
			 "pop %%ebp"					\
			 : "=a"(_r)					\
			 : "0"((long)_nf), "b"((long)(a)), "c"((long)(b)),	\
			   "d"((long)(c)), "S"((long)(d)), "D"((long)(e)) \
			 : "memory", "cc");				\
	_r; })

/* a 64-bit argument: low word, then high word */
#define ARCH_SYSCALL_ARG64(x) \
	((long)(uint32_t)(uint64_t)(x)), ((long)(uint32_t)((uint64_t)(x) >> 32))
#define ARCH_SYSCALL_PAD64

static inline void arch_mb(void)
{
	__asm__ volatile("lock; addl $0,0(%%esp)" ::: "memory", "cc");
}
#define arch_mb arch_mb
#define arch_rmb arch_mb
#define arch_wmb arch_mb

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

/* rt_sigreturn (173) */
#define ARCH_SIGRESTORER_ASM __asm__(					\
	".pushsection .text.arch_sigreturn,\"ax\",@progbits\n"		\
	".global arch_sigreturn\n"					\
	".type arch_sigreturn,@function\n"				\
	"arch_sigreturn:\n"						\
	"	mov $173, %eax\n"					\
	"	int $0x80\n"						\
	"	hlt\n"							\
	".size arch_sigreturn, .-arch_sigreturn\n"			\
	".popsection\n");

/* ebp = 0 ends unwinding; align, then push sp as the only argument: esp % 16 == 0 at the call */
#define ARCH_START_ASM __asm__(						\
	".pushsection .text._start,\"ax\",@progbits\n"			\
	".global _start\n"						\
	".type _start,@function\n"					\
	"_start:\n"							\
	"	xor %ebp, %ebp\n"					\
	"	mov %esp, %eax\n"					\
	"	and $-16, %esp\n"					\
	"	sub $12, %esp\n"					\
	"	push %eax\n"						\
	"	call tp_start_c\n"					\
	"	hlt\n"							\
	".size _start, .-_start\n"					\
	".popsection\n");

#endif
