/* SPDX-License-Identifier: MIT */
/* The host commands: one cmd-*.c each, dispatched from main.c's table. */
#ifndef TINYPERF_HOST_TOOLS_CMD_H
#define TINYPERF_HOST_TOOLS_CMD_H

struct host_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_help(int argc, char **argv);
int cmd_recv(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_header(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif
