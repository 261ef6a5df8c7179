/* SPDX-License-Identifier: MIT */
/* The host library's one error space: TP codes above every errno value, tp_strerror() for
 * both (strerror's text, the table's, or "unknown error N") and tp_error_hint()'s hints. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "host-tools/lib/common/error.h"
#include "tests/unit/check.h"

static bool expect_str(struct tcase *c, const char *what, const char *exp, const char *got)
{
	if (c->failed)
		return false;
	if (got && !strcmp(exp, got))
		return true;
	c->failed = true;
	printf("[FAIL] %s: %s: expected \"%s\", got %s%s%s\n", c->name, what, exp,
	       got ? "\"" : "", got ? got : "NULL", got ? "\"" : "");
	return false;
}

static void test_numbers(void)
{
	struct tcase c = case_begin("TP codes from TP_ERR_START (4096) up, each with a message");
	char what[64];

	EXPECT(&c, "TP_ERR_START", 4096, TP_ERR_START);
	for (int e = TP_ERR_NOMEM; e < TP_ERR_MAX && !c.failed; e++) {
		snprintf(what, sizeof(what), "code %d", e);
		EXPECT_TRUE(&c, what, e >= TP_ERR_START);
		EXPECT_TRUE(&c, what, strncmp(tp_strerror(-e), "unknown error", 13) != 0);
	}
	case_end(&c);

	/* below TP_ERR_START every number is strerror's: no errno value is taken by the table */
	c = case_begin("no errno value collides with a TP code");
	for (int e = 1; e < TP_ERR_START && !c.failed; e++) {
		char exp[256];

		snprintf(exp, sizeof(exp), "%s", strerror(e));
		snprintf(what, sizeof(what), "tp_strerror(-%d)", e);
		expect_str(&c, what, exp, tp_strerror(-e));
	}
	case_end(&c);
}

static void test_messages(void)
{
	struct tcase c = case_begin("tp_strerror: errno values as strerror says them");
	char exp[256];

	snprintf(exp, sizeof(exp), "%s", strerror(ENOENT));
	expect_str(&c, "-ENOENT", exp, tp_strerror(-ENOENT));
	expect_str(&c, "ENOENT (positive)", exp, tp_strerror(ENOENT));
	snprintf(exp, sizeof(exp), "%s", strerror(ENOSPC));
	expect_str(&c, "-ENOSPC", exp, tp_strerror(-ENOSPC));
	case_end(&c);

	c = case_begin("tp_strerror: TP codes from the table");
	expect_str(&c, "-TP_ERR_BAD_MAGIC", "not a perf.data file (bad magic)",
		   tp_strerror(-TP_ERR_BAD_MAGIC));
	expect_str(&c, "TP_ERR_BAD_MAGIC (positive)", "not a perf.data file (bad magic)",
		   tp_strerror(TP_ERR_BAD_MAGIC));
	expect_str(&c, "-TP_ERR_NOMEM", "out of memory", tp_strerror(-TP_ERR_NOMEM));
	expect_str(&c, "-TP_ERR_STOPPED", "stopped by the caller", tp_strerror(-TP_ERR_STOPPED));
	case_end(&c);

	c = case_begin("tp_strerror: unknown codes say their number");
	snprintf(exp, sizeof(exp), "unknown error %d", TP_ERR_MAX + 7);
	expect_str(&c, "past the table", exp, tp_strerror(-(TP_ERR_MAX + 7)));
	expect_str(&c, "TP_ERR_START itself", "unknown error 4096", tp_strerror(-TP_ERR_START));
	/* its magnitude does not fit a long: no overflow (UBSan would stop here) */
	snprintf(exp, sizeof(exp), "unknown error %lu", (unsigned long)LONG_MAX + 1);
	expect_str(&c, "LONG_MIN", exp, tp_strerror(LONG_MIN));
	case_end(&c);
}

static void test_hints(void)
{
	static const long with[] = { ENOENT, EACCES, EPERM, ENOSPC, EISDIR, ENOMEM,
				     TP_ERR_NOMEM, TP_ERR_BAD_MAGIC, TP_ERR_COMPRESSED, TP_ERR_IO };
	static const long without[] = { 0, EINTR, EAGAIN, TP_ERR_STOPPED, TP_ERR_MAX + 1 };
	struct tcase c = case_begin("tp_error_hint: one for ENOENT, EACCES, EPERM, ENOSPC, EISDIR "
				    "and TP codes, else NULL");
	char what[64];

	for (size_t i = 0; i < ARRAY_SIZE(with); i++) {
		snprintf(what, sizeof(what), "a hint for %ld", with[i]);
		EXPECT_TRUE(&c, what, tp_error_hint(-with[i]) && *tp_error_hint(-with[i]));
		snprintf(what, sizeof(what), "the same for +%ld", with[i]);
		EXPECT_TRUE(&c, what, tp_error_hint(with[i]) == tp_error_hint(-with[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(without); i++) {
		snprintf(what, sizeof(what), "no hint for %ld", without[i]);
		EXPECT_TRUE(&c, what, !tp_error_hint(-without[i]));
	}
	expect_str(&c, "ENOENT", "check the path", tp_error_hint(-ENOENT));
	expect_str(&c, "ENOSPC", "free some disk space", tp_error_hint(-ENOSPC));
	case_end(&c);
}

int main(void)
{
	test_numbers();
	test_messages();
	test_hints();
	return check_summary("test-error");
}
