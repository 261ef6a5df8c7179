/* SPDX-License-Identifier: MIT */
/* forkexec: process churn. Forks and execs itself N times (default 2000); each child burns
 * about 0.3 ms of CPU in child_work() and exits, so each lives for less than one 1 kHz
 * sampling period. At the end it prints the CPU time of the whole tree (itself and its
 * children), for checking how many samples a profiler caught against CPU time x frequency:
 *   forkexec-tree-cpu-ms: 612
 * usage: forkexec [N]   (forkexec --child runs one child) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void child_work(void)
{
	struct timespec a, b;
	unsigned long x = 1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005UL + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 300000);
	sink = x;
}

int main(int argc, char **argv)
{
	struct rusage ru, self;
	int n;

	if (argc > 1 && !strcmp(argv[1], "--child")) {
		child_work();
		return 0;
	}
	n = argc > 1 ? atoi(argv[1]) : 2000;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
			_exit(127);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	getrusage(RUSAGE_SELF, &self);
	printf("forkexec-tree-cpu-ms: %ld\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + self.ru_utime.tv_sec +
		self.ru_stime.tv_sec) * 1000L +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec + self.ru_utime.tv_usec +
		self.ru_stime.tv_usec) / 1000L);
	return 0;
}
