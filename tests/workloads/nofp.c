/* SPDX-License-Identifier: MIT */
/* nofp: a fixed call chain for call-graph tests, built without frame pointers (build.sh):
 * main -> run -> descend x DEPTH (recursion) -> leaf, a hot loop, until it has used SECS of
 * CPU time (so a loaded machine still gets the samples a test counts on, only later).
 * Every call is followed by work on its result, so none becomes a jump (tail call) and every
 * frame stays on the stack for an unwinder to find.
 * usage: nofp [SECS [DEPTH]]   (defaults 1 s, depth 8) */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	unsigned long x = sink;

	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long descend(unsigned long n, int depth)
{
	unsigned long r = depth > 0 ? descend(n, depth - 1) : leaf(n);

	__asm__ volatile("" : "+r"(r));
	return r + (unsigned long)depth;
}

__attribute__((noinline)) unsigned long run(double secs, int depth)
{
	struct timespec t0, t;
	unsigned long acc = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		acc += descend(200000, depth);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return acc;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	int depth = argc > 2 ? atoi(argv[2]) : 8;

	sink = run(secs, depth < 0 ? 0 : depth > 1000 ? 1000 : depth);
	return 0;
}
