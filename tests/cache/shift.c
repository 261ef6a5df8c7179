/* SPDX-License-Identifier: MIT */
/* Two builds of one program for tinyperf diff: -DVARIANT=1 spends 3/4 of its time in hot_a
 * and 1/4 in hot_b; -DVARIANT=2 the reverse, with a function added in front so every
 * address moves. -DPAD=N adds N KiB of data (distinct files for the cache-size tests).
 * argv[1] scales the run time (default 1). Build with -O2 -g -fno-omit-frame-pointer. */
#include <stdlib.h>

#ifndef VARIANT
#define VARIANT 1
#endif
#define A_WORK (VARIANT == 1 ? 3 : 1)
#define B_WORK (VARIANT == 1 ? 1 : 3)

#ifdef PAD
const volatile char pad[PAD * 1024] = { 1 };
#endif

#if VARIANT == 2
__attribute__((noinline)) unsigned long moved_in_front(unsigned long n)
{
	unsigned long x = n;

	for (int i = 0; i < 64; i++) {
		x = x * 31 + (unsigned long)i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
#endif

__attribute__((noinline)) unsigned long hot_a(unsigned long n)
{
	unsigned long x = 0;

	for (unsigned long i = 0; i < A_WORK * n; i++) {
		x = x * 6364136223846793005UL + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long hot_b(unsigned long n)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < B_WORK * n; i++) {
		x = x * 2862933555777941757UL + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	unsigned long sum = 0;

	for (unsigned long r = 0; r < 100 * scale; r++)
		sum += hot_a(1000000) + hot_b(1000000);
#if VARIANT == 2
	sum += moved_in_front(sum);
#endif
#ifdef PAD
	sum += pad[0];
#endif
	return (int)(sum & 1);
}
