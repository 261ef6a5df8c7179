/* SPDX-License-Identifier: MIT */
/* tinyperf on the device: the command table and the top-level options.
 * Each command lives in its own cmd-*.c; this file only dispatches. */
#include "libc-shim/shim.h"
#include "recorder/cmd.h"
#include "recorder/pack/unpack.h"
#include "recorder/events/tracefs.h"

static const struct tp_cmd commands[] = {
	{ "record", IS_ENABLED(CONFIG_REC_RECORD) ? cmd_record : NULL,
	  "record a profile into perf.data" },
	{ "stat", IS_ENABLED(CONFIG_REC_STAT) ? cmd_stat : NULL,
	  "count events while a command runs, as perf stat" },
	{ "list", IS_ENABLED(CONFIG_REC_LIST) ? cmd_list : NULL,
	  "list the events this device can record" },
	{ "help", cmd_help, "show this help" },
	{ "version", cmd_version, "show the version and build configuration" },
};

static void usage(int fd)
{
	tp_dprintf(fd, "usage: tinyperf [--version] [--help] COMMAND [ARGS]\n\n"
		       "tinyperf " TP_VERSION ": the device side of tinyperf (%s, %s).\n\nCommands:\n",
		   tp_build_arch(), tp_build_libc());
	for (size_t i = 0; i < TP_ARRAY_SIZE(commands); i++)
		if (commands[i].fn)
			tp_dprintf(fd, "  %-10s %s\n", commands[i].name, commands[i].summary);
	tp_dprintf(fd, "\nSee 'tinyperf COMMAND --help' for a command's options.\n"
		       "Reports are made on the host: 'tinyperf report' from 'make host'.\n");
}

int cmd_help(int argc, char **argv)
{
	(void)argc; (void)argv;
	usage(1);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	(void)argc; (void)argv;
	tp_dprintf(1, "tinyperf " TP_VERSION " (%s, %s)\n", tp_build_arch(), tp_build_libc());
	return 0;
}

/* Packed (recorder/pack/unpack.c), this program was unpacked into a memory file, run as
 * /proc/self/fd/N, or into $DIR/.tinyperf-unpacked-PID, which is this process's to remove.
 * Exec named the process after that file: take the name it was started by, as exec would. */
static void packed_start(const char *argv0)
{
	const char *fn = (const char *)tp_getauxval(TP_AT_EXECFN), *base;
	char mine[40];
	size_t n, m;

	if (argv0) {
		base = strrchr(argv0, '/');
		sys_prctl(TP_PR_SET_NAME, (unsigned long)(base ? base + 1 : argv0), 0, 0, 0);
	}
	if (!fn)
		return;
	m = (size_t)tp_snprintf(mine, sizeof(mine), TP_UNPACKED_NAME "%d", (int)sys_getpid());
	n = strlen(fn);
	if (n > m && !strcmp(fn + n - m, mine))
		sys_unlinkat(TP_AT_FDCWD, fn, 0);
}

int main(int argc, char **argv, char **envp)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	(void)envp;
	if (IS_ENABLED(CONFIG_REC_PACK))
		packed_start(argv[0]);
	if (!name) {
		usage(2);
		return 2;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	else if (!strcmp(name, "--version") || !strcmp(name, "-V"))
		name = "version";
	for (size_t i = 0; i < TP_ARRAY_SIZE(commands); i++)
		if (commands[i].fn && !strcmp(name, commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);

			if (IS_ENABLED(CONFIG_REC_TRACEPOINTS))
				tracefs__release();	/* leave tracefs as we found it */
			return rc;
		}
	tp_dprintf(2, "tinyperf: '%s' is not a tinyperf command: see 'tinyperf --help'\n", name);
	return 2;
}
