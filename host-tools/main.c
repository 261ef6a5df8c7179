/* SPDX-License-Identifier: MIT */
/* tinyperf on the host: the command table. Each command is one cmd-*.c file; the library in
 * host-tools/lib/ does the work and never prints or exits. */
#include <stdio.h>
#include <string.h>

#include "host-tools/cmd.h"

static const struct host_cmd commands[] = {
	{ "help", cmd_help, "show this help" },
	{ "version", cmd_version, "show the version" },
	{ "report", cmd_report, "show where the samples went (like perf report --stdio)" },
	{ "annotate", cmd_annotate, "per-instruction samples of the hottest symbols (like perf annotate)" },
	{ "script", cmd_script, "print every sample, or folded stacks (like perf script)" },
	{ "dump", cmd_dump, "print every record of a perf.data, raw and decoded" },
	{ "header", cmd_header, "print a perf.data's feature sections (hostname, events ...)" },
	{ "buildid-list", cmd_buildid_list, "list the build-ids of the DSOs in a perf.data" },
	{ "buildid-cache", cmd_buildid_cache, "keep the binaries that ran by build-id (perf's ~/.debug)" },
	{ "archive", cmd_archive, "pack a recording with the binaries it hit; --unpack on another host" },
	{ "flamegraph", cmd_flamegraph, "draw the stacks as an interactive SVG flame graph" },
	{ "pprof", cmd_pprof, "export the stacks as a pprof profile (go tool pprof, Pyroscope)" },
	{ "diff", cmd_diff, "per-symbol differences between two recordings (two builds)" },
	{ "recv", cmd_recv, "receive recordings streamed over TCP or a serial line" },
	{ "top", cmd_top, "the hottest functions of a device that streams, live (like perf top)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf [--version] [--help] COMMAND [ARGS]\n\n"
		   "tinyperf %s: the host side of tinyperf.\n\nCommands:\n", TP_VERSION);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'tinyperf COMMAND --help' for a command's options.\n");
}

int cmd_help(int argc, char **argv)
{
	(void)argc; (void)argv;
	usage(stdout);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	(void)argc; (void)argv;
	printf("tinyperf %s (host tools)\n", TP_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	else if (!strcmp(name, "--version") || !strcmp(name, "-V"))
		name = "version";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "tinyperf: '%s' is not a tinyperf command: see 'tinyperf --help'\n", name);
	return 2;
}
