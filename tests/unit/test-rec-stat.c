/* SPDX-License-Identifier: MIT */
/* tests for stat -r's spread (recorder/stat/spread.c) and how print.c shows it, on the host:
 * the '( +- x.xx% )' suffix of a count and of the elapsed time against perf stat's own formula
 * (the standard error of the mean over the mean, in doubles, printed when it is not 0).
 * Prints [OK]/[FAIL] per case and "test-rec-stat: N passed, N failed". */
#define _GNU_SOURCE
#define CONFIG_REC_STAT_EXTRA 1
#include <math.h>
#include <unistd.h>
#include "tests/unit/rec-test.h"
#include "recorder/stat/print.c"
#include "recorder/stat/spread.c"

/* perf 6.1: update_stats() per run, then rel_stddev_stats(stddev_stats(), avg_stats()),
 * "  ( +-%6.2f%% )" when that is not 0, "" otherwise */
static void perf_suffix(const uint64_t *x, unsigned n, char *buf, size_t size)
{
	double mean = 0, m2 = 0, pct = 0;

	for (unsigned i = 0; i < n; i++) {	/* Welford, as perf's update_stats */
		double d = (double)x[i] - mean;

		mean += d / (i + 1);
		m2 += d * ((double)x[i] - mean);
	}
	if (mean)
		pct = 100.0 * sqrt(m2 / (n - 1) / n) / mean;
	if (pct)
		snprintf(buf, size, "  ( +-%6.2f%% )", pct);
	else
		buf[0] = '\0';
}

/* what one of our printers wrote to stderr, through a pipe */
static void capture(void (*fn)(struct pr *, const void *), const struct stat *s, const void *arg,
		    char *buf, size_t size)
{
	struct pr p = { .s = s, .sep = " " };
	int fd[2], saved = dup(2);
	ssize_t k;

	if (saved < 0 || pipe(fd) || dup2(fd[1], 2) != 2)
		abort();
	fn(&p, arg);
	if (dup2(saved, 2) != 2)
		abort();
	close(saved);
	close(fd[1]);
	k = read(fd[0], buf, size - 1);
	buf[k > 0 ? k : 0] = '\0';
	close(fd[0]);
}

static void count_noise(struct pr *p, const void *v)
{
	noise(p, v);
}

static void wall_footer(struct pr *p, const void *unused)
{
	(void)unused;
	footer(p);
}

static void check_counts(const char *name, const uint64_t *x, unsigned n)
{
	struct stat s = { .o.repeat = n };
	struct stat_val v = { 0 };
	char ours[128], perfs[64];
	uint64_t sd;

	v.val = stat_spread(x, n, 1, &v.noise, &sd);
	capture(count_noise, &s, &v, ours, sizeof(ours));
	perf_suffix(x, n, perfs, sizeof(perfs));
	check(name, !strcmp(ours, perfs), "ours '%s', perf's formula '%s'", ours, perfs);
}

static void test_counts(void)
{
	static const uint64_t same[] = { 812, 812, 812 }, zero[] = { 0, 0, 0 },
		tiny[] = { 1000000, 1000001, 1000000 }, small[] = { 20000, 20001, 20000, 20001 },
		some[] = { 100, 110, 90 }, big[] = { 1000000000000ULL, 1010000000000ULL, 990000000000ULL },
		ten[] = { 5031, 5120, 4988, 5007, 5230, 5100, 4999, 5012, 5066, 5043 };

	check_counts("-r: equal counts, no suffix", same, 3);
	check_counts("-r: zero counts, no suffix", zero, 3);
	check_counts("-r: a spread under 0.005 % is '+-  0.00%', as perf prints it", tiny, 3);
	check_counts("-r: 20000/20001 is '+-  0.00%' too", small, 4);
	check_counts("-r: 100/110/90", some, 3);
	check_counts("-r: counts of 10^12", big, 3);
	check_counts("-r: ten runs", ten, 10);
}

/* the elapsed line's suffix: what follows "time elapsed" */
static void check_wall(const char *name, const uint64_t *ns, unsigned n)
{
	struct stat s = { .o.repeat = n };
	char ours[256], perfs[64];
	const char *tail;

	s.wall_ns = stat_spread(ns, n, 1, &s.wall_noise, &s.wall_sd_ns);
	capture(wall_footer, &s, NULL, ours, sizeof(ours));
	perf_suffix(ns, n, perfs, sizeof(perfs));
	strcat(perfs, "\n\n");
	tail = strstr(ours, "time elapsed");
	tail = tail ? tail + strlen("time elapsed") : "(no elapsed line)";
	check(name, !strcmp(tail, perfs), "ours '%s', perf's formula '%s'", tail, perfs);
}

static void test_wall(void)
{
	static const uint64_t same[] = { 2000000000, 2000000000, 2000000000 },
		tiny[] = { 1000000000, 1000000100, 1000000000 },
		some[] = { 1003000000, 1001000000, 1010000000 };

	check_wall("-r: equal elapsed times, no suffix", same, 3);
	check_wall("-r: elapsed times 100 ns apart: '+-  0.00%'", tiny, 3);
	check_wall("-r: elapsed times ms apart", some, 3);
}

int main(void)
{
	test_counts();
	test_wall();
	printf("test-rec-stat: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
