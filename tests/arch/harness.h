/* SPDX-License-Identifier: MIT */
/* The arch-test harness: one "[OK] name" or "[FAIL] name: expected X, got Y" line per case.
 * Implemented in arch-test.c; shim-test.c uses it too. */
#ifndef TINYPERF_TESTS_ARCH_HARNESS_H
#define TINYPERF_TESTS_ARCH_HARNESS_H

#include "libc-shim/shim.h"

void check_ok(const char *name, const char *note);
void check_fail(const char *name, const char *fmt, ...) TP_PRINTF(2, 3);
bool check_eq(const char *name, long long got, long long exp);
bool check_true(const char *name, bool cond, const char *what, long long got);
bool check_str(const char *name, const char *got, const char *exp);

/* a sys_* result that is an error (mmap addresses may be "negative" on 32-bit) */
static inline bool is_err(long r)
{
	return r < 0 && r >= -4095;
}

#define EQ(name, got, exp) check_eq(name, (long long)(got), (long long)(exp))
#define TRUE(name, cond, got) check_true(name, (cond), #cond, (long long)(got))

/* what main() found out, for the test files */
struct test_env {
	bool emulated;		/* perf_event_open said ENOSYS: qemu-user or a kernel without perf */
	long page_size;
	char tmpdir[64];	/* scratch directory, removed at the end; "" if it could not be made */
};

void sleep_ms(long ms);
int64_t now_ns(void);

/* sys-test.c: the sys_* wrappers */
void test_sys(const struct test_env *env);
/* shim-test.c: strings, fmt, parse, out, file, strerror */
void test_shim(const struct test_env *env);

#endif
