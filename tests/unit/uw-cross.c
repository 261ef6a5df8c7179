/* SPDX-License-Identifier: MIT */
/* A real stack for test-unwind on each target, run under qemu-user: leaf() reads its own
 * registers (PC, SP, return-address and frame registers) in one asm statement and copies the
 * stack above its SP; main writes "TPUW", the arch's 4 register values as little-endian u64 (pc, sp, ra,
 * fp) and 1024 bytes of stack (the top of a 32-bit qemu-user stack is near) to stdout.
 * Built -O2 without frame pointers by
 * unwind-fixtures.sh; test-unwind unwinds that stack through the binary's tables and expects
 * leaf, mid, top, main. */
#include <stdint.h>
#include <stdio.h>

#define STACK 1024

static volatile unsigned sink;
static uintptr_t regs[4];
static unsigned char stack[STACK];

__attribute__((noinline)) static void leaf(void)
{
	uintptr_t pc, sp, ra, fp;
#if defined(__x86_64__)
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov (%%rsp), %2\n\tmov %%rbp, %3"
			 : "=r"(pc), "=r"(sp), "=r"(ra), "=r"(fp));
#elif defined(__i386__)
	__asm__ volatile("call 1f\n1:\tpop %0\n\tmov %%esp, %1\n\tmov (%%esp), %2\n\tmov %%ebp, %3"
			 : "=r"(pc), "=r"(sp), "=r"(ra), "=r"(fp));
#elif defined(__aarch64__)
	__asm__ volatile("adr %0, .\n\tmov %1, sp\n\tmov %2, x30\n\tmov %3, x29"
			 : "=r"(pc), "=r"(sp), "=r"(ra), "=r"(fp));
#elif defined(__arm__)
	/* Thumb: r7 is the frame register; reading pc gives this instruction + 4 */
	__asm__ volatile("mov %0, pc\n\tmov %1, sp\n\tmov %2, lr\n\tmov %3, r7"
			 : "=r"(pc), "=r"(sp), "=r"(ra), "=r"(fp));
	pc |= 1;
#elif defined(__mips__)
	__asm__ volatile(".set push\n\t.set noreorder\n\tmove %2, $31\n\tbal 1f\n\tnop\n"
			 "1:\tmove %0, $31\n\tmove $31, %2\n\tmove %1, $sp\n\tmove %3, $30\n\t.set pop"
			 : "=&r"(pc), "=&r"(sp), "=&r"(ra), "=&r"(fp));
#else
#error no register capture for this target
#endif
	regs[0] = pc;
	regs[1] = sp;
	regs[2] = ra;
	regs[3] = fp;
	for (unsigned i = 0; i < STACK; i++)
		stack[i] = ((volatile unsigned char *)sp)[i];
}

__attribute__((noinline)) static unsigned mid(unsigned x)
{
	leaf();
	return x * 3 + sink;
}

__attribute__((noinline)) static unsigned top(unsigned x)
{
	unsigned r = mid(x + 1);

	return r * 5 + sink;
}

int main(void)
{
	unsigned char v[4 * 8];
	unsigned r = top(2);

	/* little-endian, whatever the target's byte order */
	for (int i = 0; i < 4 * 8; i++)
		v[i] = (unsigned char)((uint64_t)regs[i / 8] >> (8 * (i % 8)));
	fwrite("TPUW", 1, 4, stdout);
	fwrite(v, sizeof(v), 1, stdout);
	fwrite(stack, 1, STACK, stdout);
	return r == 0;
}
