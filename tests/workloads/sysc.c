/* SPDX-License-Identifier: MIT */
/* sysc: getppid() through syscall(2) in a loop: about half user, half kernel time.
 * usage: sysc [SECONDS] (default 2) */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) long do_syscalls(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += syscall(SYS_getppid);
	return s;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	struct timespec a, b;
	volatile long sink = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		sink += do_syscalls(10000);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < seconds);
	return sink == 42;
}
