/* SPDX-License-Identifier: MIT */
/* A 32-bit (i386, static musl) workload for tests/report/vdso32.sh: calls clock_gettime,
 * which musl takes to the vdso, for SECONDS; with OUT, first writes its own vdso image there
 * (the same kernel gives every 32-bit process the same image: the test's peer for names).
 *   vdso32-wl MILLISECONDS [OUT] */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long hex(const char *s)
{
	unsigned long v = 0;

	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			v = v * 16 + (unsigned long)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			v = v * 16 + (unsigned long)(*s - 'a' + 10);
		else
			return v;
	}
}

static int dump_vdso(const char *out)
{
	static char buf[1 << 16];
	int fd = open("/proc/self/maps", O_RDONLY), n = 0, r;
	char *p;

	if (fd < 0)
		return 1;
	while (n < (int)sizeof(buf) - 1 && (r = (int)read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	p = strstr(buf, "[vdso]");
	if (!p)
		return 1;
	while (p > buf && p[-1] != '\n')
		p--;
	unsigned long start = hex(p), end = hex(strchr(p, '-') + 1);

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, (void *)start, end - start) != (ssize_t)(end - start))
		return 1;
	return close(fd);
}

int main(int argc, char **argv)
{
	struct timespec t0, t;
	volatile unsigned long sink = 0;
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 500;

	if (argc > 2 && dump_vdso(argv[2]))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
		sink += (unsigned long)t.tv_nsec;
	} while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L < ms);
	return (int)(sink & 0);
}
