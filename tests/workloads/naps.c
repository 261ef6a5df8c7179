/* SPDX-License-Identifier: MIT */
/* naps: N sleeps of 1 ms, then a fixed amount of integer work, so that counting tools can be
 * compared on a busy machine: each sleep is one voluntary context switch (the work between
 * them is too short to be preempted often), and the CPU time of the work does not depend on
 * how long the machine makes it wait.
 * usage: naps [N [MILLIONS]]   (default 200 sleeps, 200 million multiply-adds) */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	unsigned long m = argc > 2 ? strtoul(argv[2], NULL, 10) : 200;
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < n; i++)
		nanosleep(&ms, NULL);
	sink = work(m * 1000000);
	return 0;
}
