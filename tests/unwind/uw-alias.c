/* SPDX-License-Identifier: MIT */
/* A workload of tests/unwind: spends its time in libc functions that share their address with
 * aliases (_pthread_cleanup_push/pop: two symbol versions and two local names each, the ones
 * pthread_join calls), so that the report names which alias perf's rules choose. */
#include <pthread.h>
#include <stdlib.h>

/* glibc's deprecated entry points, declared by pthread.h only for compilers without cleanup
 * attributes */
void _pthread_cleanup_push(struct _pthread_cleanup_buffer *buf, void (*fn)(void *), void *arg);
void _pthread_cleanup_pop(struct _pthread_cleanup_buffer *buf, int execute);

static void nothing(void *arg)
{
	(void)arg;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;

	for (long i = 0; i < n; i++) {
		struct _pthread_cleanup_buffer buf;

		_pthread_cleanup_push(&buf, nothing, NULL);
		_pthread_cleanup_pop(&buf, 0);
	}
	return 0;
}
