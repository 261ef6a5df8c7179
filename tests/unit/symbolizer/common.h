/* SPDX-License-Identifier: MIT */
/* Shared by the parts of test-symbolizer: the harness, the fixture facts, the setups. */
#ifndef TINYPERF_TESTS_UNIT_SYMBOLIZER_COMMON_H
#define TINYPERF_TESTS_UNIT_SYMBOLIZER_COMMON_H

#include <arpa/inet.h>
#include <dlfcn.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/lib/sym/kallsyms.h"
#include "host-tools/lib/sym/symbolizer.h"
#include "perfdata/texthash.h"

/* The test harness: one [OK] or [FAIL] line per case, the failure saying what was expected
 * and what came instead; the log the symbolizer wrote, to check its messages. */
static int n_passed, n_failed;

struct tcase {
	const char *name;
	bool failed;
};

static struct tcase case_begin(const char *name)
{
	return (struct tcase){ .name = name };
}

static void case_end(struct tcase *c)
{
	if (c->failed) {
		n_failed++;
		return;
	}
	n_passed++;
	printf("[OK] %s\n", c->name);
}

static bool expect_u64(struct tcase *c, const char *what, uint64_t exp, uint64_t got)
{
	if (c->failed || exp == got)
		return !c->failed;
	c->failed = true;
	printf("[FAIL] %s: %s: expected %" PRIu64 " (%#" PRIx64 "), got %" PRIu64 " (%#" PRIx64 ")\n",
	       c->name, what, exp, exp, got, got);
	return false;
}

#define EXPECT(c, what, exp, got) expect_u64((c), (what), (uint64_t)(exp), (uint64_t)(got))
#define EXPECT_TRUE(c, what, cond) expect_u64((c), (what), 1, !!(cond))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
