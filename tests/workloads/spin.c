/* SPDX-License-Identifier: MIT */
/* spin: two threads each running a fixed integer loop through two noinline functions
 * (mid -> leaf), so a profile must put leaf on top and mid right under it.
 * usage: spin [SECONDS] [exit-main]   (default 2 s; exit-main: the main thread calls
 * pthread_exit once the other runs, leaving a zombie leader with no maps of its own) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

__attribute__((noinline)) unsigned long mid(unsigned long x)
{
	return leaf(x) ^ (x >> 7);
}

static double seconds;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg;
	double end = now() + seconds;

	while (now() < end)
		for (int i = 0; i < 100; i++)
			x = mid(x);
	sink = x;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	seconds = argc > 1 ? atof(argv[1]) : 2.0;
	pthread_create(&t, NULL, worker, (void *)1UL);
	if (argc > 2 && !strcmp(argv[2], "exit-main"))
		pthread_exit(NULL);
	worker((void *)2UL);
	pthread_join(t, NULL);
	return 0;
}
