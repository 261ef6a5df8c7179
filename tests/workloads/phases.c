/* SPDX-License-Identifier: MIT */
/* phases: a workload whose hot function changes every PHASE ms (default 3000): funcA, funcB,
 * funcC in turn, for SECS seconds (default 60). At each change it writes the active
 * function's name to FILE (if given), so a test knows what a snapshot should show on top.
 * With "child" last, the phases run in a forked child (no exec) and the parent only waits:
 * the hot code is then in a process the recorder learns of only through its FORK.
 * usage: phases [SECS [PHASE_MS [FILE [child]]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* noinline + the asm barrier keep three distinct hot loops in the binary */
#define PHASE_FN(name, mul)						\
	__attribute__((noinline)) void name(void)			\
	{								\
		unsigned long x = sink;					\
		for (unsigned long i = 0; i < 200000; i++) {		\
			x = x * (mul) + i;				\
			__asm__ volatile("" : "+r"(x));			\
		}							\
		sink = x;						\
	}
PHASE_FN(funcA, 6364136223846793005UL)
PHASE_FN(funcB, 2862933555777941757UL)
PHASE_FN(funcC, 3935559000370003845UL)

int main(int argc, char **argv)
{
	static void (*const fn[3])(void) = { funcA, funcB, funcC };
	static const char *const names[3] = { "funcA", "funcB", "funcC" };
	double secs = argc > 1 ? atof(argv[1]) : 60;
	double phase = (argc > 2 ? atof(argv[2]) : 3000) / 1000;
	const char *file = argc > 3 ? argv[3] : NULL;
	double t0 = now(), t;
	int cur = -1;

	if (argc > 4 && !strcmp(argv[4], "child")) {
		pid_t p = fork();

		if (p > 0) {
			int st;

			waitpid(p, &st, 0);
			return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
		}
		if (p < 0)
			return 1;
	}
	while ((t = now()) - t0 < secs) {
		int p = (int)((t - t0) / phase) % 3;

		if (p != cur) {
			cur = p;
			if (file) {
				FILE *f = fopen(file, "w");

				if (f) {
					fprintf(f, "%s %.3f\n", names[p], t);
					fclose(f);
				}
			}
		}
		fn[p]();
	}
	return 0;
}
