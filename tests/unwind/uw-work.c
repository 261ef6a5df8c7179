/* SPDX-License-Identifier: MIT */
/* The workload of tests/unwind: built -O2 without frame pointers, as a PIE, it spends its time
 * in a leaf reached through a 48-deep recursion, in a shared library, in a second thread and
 * in a signal handler, so that every sample's user stack needs unwinding tables. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "uw-lib.h"

static volatile unsigned long sink;
static volatile int stop;

__attribute__((noinline)) static unsigned long spin(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = (x ^ (x << 13)) * 0x9e3779b97f4a7c15ul;
	return x;
}

__attribute__((noinline)) static unsigned long recurse(int depth, unsigned long x)
{
	/* read after the call: every level keeps a frame (no loop, no tail call) */
	volatile unsigned long keep = x;

	if (!depth)
		return spin(x, 20000);
	return recurse(depth - 1, x + (unsigned long)depth) ^ keep;
}

__attribute__((noinline)) static void on_alarm(int sig)
{
	sink += spin((unsigned long)sig, 500000);
}

__attribute__((noinline)) static void *thread_main(void *arg)
{
	unsigned long x = (unsigned long)arg;

	while (!stop)
		x = uw_lib_work(x, 50000);
	sink += x;
	return NULL;
}

__attribute__((noinline)) static void main_loop(double secs)
{
	struct timeval t0, t;
	unsigned long x = 1;

	gettimeofday(&t0, NULL);
	do {
		x += recurse(48, x);
		x += uw_lib_work(x, 20000);
		gettimeofday(&t, NULL);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_usec - t0.tv_usec) / 1e6 < secs);
	sink += x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } };
	pthread_t th;

	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	if (pthread_create(&th, NULL, thread_main, (void *)7ul))
		return 1;
	main_loop(secs);
	stop = 1;
	pthread_join(th, NULL);
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	printf("%lu\n", sink);
	return 0;
}
