/* SPDX-License-Identifier: MIT */
/* Unit tests for the host library's reader and session (host-tools/lib/): the standard
 * recording in every mode and byte order and every attr size (reader/basic.c); hand-laid
 * layouts the writer never makes (reader/layout.c); corrupt and truncated input
 * (reader/bad.c); the session's ordering, threads, maps and DSOs (reader/session.c).
 *
 * Two tool modes for the scripts (reader/tools.c):
 *   test-reader --swap IN OUT [--pipe]   rewrite a perf.data in the other byte order
 *   test-reader --emit-seeds DIR         write the small valid recordings of the corpora
 *
 * Built by `make HOST_SANITIZE=1 host-tests` like every tests/unit/test-*.c. */
#define _POSIX_C_SOURCE 200809L

#include "reader/common.h"
#include "reader/basic.c"
#include "reader/layout.c"
#include "reader/bad.c"
#include "reader/session.c"
#include "reader/tools.c"

int main(int argc, char **argv)
{
	if (argc > 1)
		return tool_main(argc, argv);
	test_variants();
	test_attr_sizes();
	test_layouts();
	test_bad();
	test_session();
	return check_summary("test-reader");
}
