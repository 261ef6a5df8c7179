/* SPDX-License-Identifier: MIT */
/* Unit tests for the symbolizer (host-tools/lib/sym*.c, kallsyms.c, debugpath.c) and
 * perfdata/texthash.c. symbolizer-fixtures.sh builds a small program for x86_64, ARM (Thumb),
 * big-endian MIPS and AArch64 and lays it out in every place the symbolizer searches; each
 * route must resolve the functions at the addresses nm gives for the unstripped file, and
 * every wrong file (rebuilt, other text hash, bad debuglink CRC) must be refused with a message
 * naming it and both identities, leaving addresses unresolved.
 * Set TP_SYMTEST_VERBOSE=1 to see the symbolizer's messages; TP_SYMTEST_KEEP=1 keeps the
 * fixtures. */
#define _GNU_SOURCE
#include "symbolizer/common.h"

/* the fixture root, the line numbers the fixture script found, the captured log */
static char fx[512];
static int facts[4];		/* L_INNER_FIRST, L_INNER_LAST, L_CALL_INNER, L_CALL_OUTER */
static char logbuf[32768];
static size_t loglen;

#include "symbolizer/util.c"
#include "symbolizer/cases.c"
#include "symbolizer/kernel.c"

int main(void)
{
	char cmd[2 * PATH_MAX], src[PATH_MAX], arch[32], line[64];
	FILE *f;
	pid_t server;
	int port = 20000 + (int)(getpid() % 20000), i;

	elf_version(EV_CURRENT);
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(fx, sizeof(fx), "/tmp/tp-symtest.XXXXXX");
	if (!mkdtemp(fx)) {
		printf("[FAIL] fixtures: mkdtemp: expected a directory, got none\n");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "sh %s/symbolizer-fixtures.sh %s", dirname(src), fx);
	if (system(cmd) != 0) {
		printf("[FAIL] fixtures: expected '%s' to succeed, got a failure\n", cmd);
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "%s/facts", fx);
	f = fopen(cmd, "r");
	for (i = 0; f && i < 4 && fgets(line, sizeof(line), f); i++)
		facts[i] = atoi(strchr(line, '=') ? strchr(line, '=') + 1 : "0");
	if (f)
		fclose(f);
	server = start_server(port);
	snprintf(cmd, sizeof(cmd), "%s/arches", fx);
	f = fopen(cmd, "r");
	while (f && fscanf(f, "%31s", arch) == 1) {
		test_arch(arch);
		if (server > 0)
			test_debuginfod(arch, port);
	}
	if (f)
		fclose(f);
	if (server > 0) {
		kill(server, SIGTERM);
		waitpid(server, NULL, 0);
	} else {
		printf("[FAIL] debuginfod: expected python3 -m http.server to listen on %d\n", port);
		n_failed++;
	}
	test_kallsyms();
	test_kallsyms_parse();
	test_kernel_search();
	if (!getenv("TP_SYMTEST_KEEP") && !n_failed) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", fx);
		if (system(cmd))
			printf("note: could not remove %s\n", fx);
	} else {
		printf("fixtures kept in %s\n", fx);
	}
	printf("test-symbolizer: %d passed, %d failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}

