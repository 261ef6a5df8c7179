/* SPDX-License-Identifier: MIT */
/* Workload with a known profile: hot_a does three times the work of hot_b, so a profile of
 * it is ~75% hot_a, ~25% hot_b. The peer test also uses its symbols as sample targets.
 * Build with -O2 -g; argv[1] scales the run time (default 1). */
#include <stdlib.h>

/* noinline + the asm barrier keep both functions and their loops in the binary */
__attribute__((noinline)) unsigned long hot_a(unsigned long n)
{
	unsigned long x = 0;

	for (unsigned long i = 0; i < 3 * n; i++) {
		x = x * 6364136223846793005UL + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long hot_b(unsigned long n)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < n; i++) {
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
	return (int)(sum & 1);
}
