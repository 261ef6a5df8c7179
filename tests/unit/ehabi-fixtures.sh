#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the EHABI unwinder's real-table fixtures in OUTDIR (run by test-ehabi): one small static
# ARMv7 program, compiled -O2 in ARM and in Thumb-2 mode with -funwind-tables -fexceptions and
# stripped of .eh_frame/.debug_frame so that only .ARM.exidx/.ARM.extab remain, then run under
# qemu-arm. At its deepest call it saves its registers, copies its stack up to main's frame and
# prints them with the return address and SP that every function on the way reported itself
# (__builtin_return_address(0), the SP at its call): the unwinder must reproduce that chain.
#   ehabi-fixtures.sh OUTDIR      writes OUTDIR/{arm,thumb} (ELF) and OUTDIR/{arm,thumb}.out
set -eu
out=$1
mkdir -p "$out"
cd "$out"
cc=${ARM_CC:-arm-linux-gnueabihf-gcc}
qemu=${QEMU_ARM:-$(command -v qemu-arm || command -v qemu-arm-static || :)}
[ -n "$qemu" ] || { echo "ehabi-fixtures: no qemu-arm (Debian package qemu-user-static)" >&2; exit 1; }

cat > prog.c <<'PROG'
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#define NOINLINE __attribute__((noinline))

/* r0-r15 as they are at the call of capture(): r14 is the return address into deep() */
uint32_t cap_regs[16];
void capture(void);
__asm__(".text\n.arm\n.align 2\n.globl capture\n.type capture, %function\ncapture:\n"
	"ldr ip, =cap_regs\nstmia ip, {r0-r11}\nstr sp, [ip, #52]\nstr lr, [ip, #56]\n"
	"str lr, [ip, #60]\nbx lr\n.ltorg\n.size capture, .-capture\n");

static struct { uint32_t ra, sp; } frames[32];
static int nframes;
static uint32_t stack_copy[1024], stack_hi;
volatile int sink;
volatile double dsink = 1.5;

static inline uint32_t get_sp(void)
{
	uint32_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

/* what the caller of each function is told: recorded right before it calls down */
NOINLINE void note(void *ra, uint32_t sp)
{
	frames[nframes].ra = (uint32_t)(uintptr_t)ra;
	frames[nframes++].sp = sp;
}

NOINLINE int deep(int x)
{
	capture();
	note(__builtin_return_address(0), cap_regs[13]);
	memcpy(stack_copy, (void *)(uintptr_t)cap_regs[13], stack_hi - cap_regs[13]);
	return x + sink;
}

NOINLINE int rec(int n)
{
	int r;

	note(__builtin_return_address(0), get_sp());
	r = n ? rec(n - 1) : deep(n);
	sink += r;	/* no tail-recursion-to-loop: each level keeps its frame */
	return r + n;
}

NOINLINE int f_vla(int n)
{
	volatile char *p = alloca(n);

	p[0] = 1;
	note(__builtin_return_address(0), get_sp());
	return rec(3) + p[0];
}

static void cleanup_fn(int *p) { sink += *p; }

/* a cleanup and -fexceptions: a generic-model entry (__gcc_personality_v0) */
NOINLINE int f_clean(int n)
{
	int c __attribute__((cleanup(cleanup_fn))) = n;

	note(__builtin_return_address(0), get_sp());
	return f_vla(n + 8) + c;
}

NOINLINE int f_regs(int a, int b, int c, int d)
{
	int e = a * b + sink, f = c * d - sink, g = a ^ d, h = b + c, i = a - d, j = c | b;
	int k = a * d + sink, l = b * c - sink, r;

	note(__builtin_return_address(0), get_sp());
	r = f_clean(a);
	return r + e * f + g * h + i * j + k * l + e / (f | 1) + g / (h | 1) + a + b + c + d;
}

NOINLINE int f_big(int n)
{
	volatile char buf[1500];

	buf[n] = (char)n;
	note(__builtin_return_address(0), get_sp());
	return f_regs(n, n + 1, n + 2, n + 3) + buf[n];
}

NOINLINE double f_vfp(double x)
{
	double a = x * dsink, b = a + dsink, c = b * a, d = c - dsink, e = d * b, f = e + a;
	double r;

	note(__builtin_return_address(0), get_sp());
	r = f_big((int)x);
	return r + a * b + c * d + e * f + a / b + c / d + e / f;
}

int main(void)
{
	volatile char mark = 0;
	double r;

	/* 1 KiB above main's frame (libc's start frames), but below the file name string at the
	 * top of the stack (with an empty environment the stack ends sooner) */
	stack_hi = (uint32_t)(uintptr_t)&mark + 1024;
	if (stack_hi > (uint32_t)getauxval(AT_EXECFN))
		stack_hi = (uint32_t)getauxval(AT_EXECFN);
	stack_hi &= ~3u;
	note(__builtin_return_address(0), get_sp());
	r = f_vfp(5.0 + mark);
	printf("regs");
	for (int i = 0; i < 16; i++)
		printf(" %08x", (unsigned)cap_regs[i]);
	printf("\nstack %08x %u\n", (unsigned)cap_regs[13], (unsigned)(stack_hi - cap_regs[13]) / 4);
	for (uint32_t i = 0; i < (stack_hi - cap_regs[13]) / 4; i++)
		printf("%08x\n", (unsigned)stack_copy[i]);
	for (int i = 0; i < nframes; i++)
		printf("frame %08x %08x\n", (unsigned)frames[i].ra, (unsigned)frames[i].sp);
	return r > 0 ? 0 : 1;
}
PROG

for mode in arm thumb; do
	"$cc" -O2 -m"$mode" -funwind-tables -fexceptions -static -o "$mode" prog.c
	arm-linux-gnueabihf-objcopy --remove-section .eh_frame --remove-section .debug_frame \
		--remove-section .eh_frame_hdr "$mode" 2>/dev/null || true
	"$qemu" "./$mode" > "$mode.out"
done
