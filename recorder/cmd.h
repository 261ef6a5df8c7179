/* The device commands: one cmd-*.c each, dispatched from main.c's table. */
#ifndef TINYPERF_RECORDER_CMD_H
#define TINYPERF_RECORDER_CMD_H

struct tp_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* build facts for --version and the recording's VERSION feature */
const char *tp_build_arch(void);
const char *tp_build_libc(void);

#endif
