/* SPDX-License-Identifier: MIT */
/* Minimal test harness for host unit tests: one [OK] or [FAIL] line per case, the failure
 * saying what was expected and what came instead, and a summary line from check_summary(). */
#ifndef TINYPERF_TESTS_CHECK_H
#define TINYPERF_TESTS_CHECK_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct tcase {
	const char *name;
	bool failed;
};

static int check_passed, check_failed;

static inline struct tcase case_begin(const char *name)
{
	return (struct tcase){ .name = name };
}

/* only the first failure of a case is reported: later ones usually follow from it */
static inline bool expect_u64(struct tcase *c, const char *what, uint64_t exp, uint64_t got)
{
	if (c->failed)
		return false;
	if (exp == got)
		return true;
	c->failed = true;
	printf("[FAIL] %s: %s: expected %" PRIu64 " (%#" PRIx64 "), got %" PRIu64 " (%#" PRIx64 ")\n",
	       c->name, what, exp, exp, got, got);
	return false;
}

static inline bool expect_mem(struct tcase *c, const char *what, const void *exp,
			      const void *got, size_t n)
{
	const uint8_t *e = exp, *g = got;

	if (c->failed)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (e[i] != g[i]) {
			c->failed = true;
			printf("[FAIL] %s: %s: expected byte %zu = %#04x, got %#04x\n",
			       c->name, what, i, e[i], g[i]);
			return false;
		}
	}
	return true;
}

#define EXPECT(c, what, exp, got) expect_u64((c), (what), (uint64_t)(exp), (uint64_t)(got))
#define EXPECT_TRUE(c, what, cond) expect_u64((c), (what), 1, !!(cond))

static inline void case_end(struct tcase *c)
{
	if (c->failed) {
		check_failed++;
		return;
	}
	check_passed++;
	printf("[OK] %s\n", c->name);
}

/* prints "<prog>: N passed, N failed"; returns the exit status */
static inline int check_summary(const char *prog)
{
	printf("%s: %d passed, %d failed\n", prog, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
