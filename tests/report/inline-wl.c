/* SPDX-License-Identifier: MIT */
/* inline-wl: a hot loop in a function that is always inlined (step) into a noinline caller
 * (walk), itself called from main: built with -g -O2, a profile with source lines and
 * inlined frames must show step (inlined) inside walk, at this file's lines.
 * usage: inline-wl [SECONDS] (default 1) */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long step(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

__attribute__((noinline)) unsigned long walk(unsigned long x)
{
	for (int i = 0; i < 100; i++)
		x = step(x) ^ (x >> 7);
	return x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	unsigned long x = 1;

	while (now() < end)
		x = walk(x);
	sink = x;
	return 0;
}
