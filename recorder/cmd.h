/* SPDX-License-Identifier: MIT */
/* The device commands, dispatched from main.c's table: each is declared by its folder
 * (record/cmd-record.c, stat/cmd-stat.c, events/cmd-list.c), help and version are main.c's own. */
#ifndef TINYPERF_RECORDER_CMD_H
#define TINYPERF_RECORDER_CMD_H

#include "recorder/base/build-info.h"
#include "recorder/events/events.h"
#include "recorder/record/record.h"
#include "recorder/stat/stat.h"

struct tp_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
