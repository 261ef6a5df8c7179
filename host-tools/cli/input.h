/* SPDX-License-Identifier: MIT */
/* What the perf.data-reading commands share: -i parsing, opening the input with a reader,
 * printing the library's warnings and errors as "tinyperf: CMD: FILE: ...", and the exit
 * status (1 when anything was skipped or cut short). CLI code: it prints. */
#ifndef TINYPERF_HOST_TOOLS_CLI_INPUT_H
#define TINYPERF_HOST_TOOLS_CLI_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "host-tools/lib/data/data.h"
#include "host-tools/lib/common/common.h"

struct cmd_input {
	const char *cmd;		/* "dump" */
	const char *path;		/* as given; "-" is stdin */
	const char *name;		/* for messages: path, or "stdin" */
	struct tp_input in;
	struct tp_reader *r;
	struct tp_log log;
	char last_error[512];		/* detail of the last TP_LOG_ERROR */
	unsigned long nr_warnings;
};

/* open path and make a reader: 0, or 1 after printing the error line */
int cmd_input__open(struct cmd_input *ci, const char *cmd, const char *path);
void cmd_input__close(struct cmd_input *ci);
/* print "tinyperf: CMD: FILE: <what is wrong>: <what to do>" for err; returns 1 */
int cmd_input__fail(struct cmd_input *ci, int err);
/* the end of any command's error line for a library error err (-errno or -TP_ERR_*): detail
 * (what the library logged) or else tp_strerror(err), then ": <what to do>" when err has a
 * hint. Written to buf, returned. */
const char *cmd_error_text(char *buf, size_t size, const char *detail, int err);
/* after the walk: a summary line on stderr if records were skipped or the file is truncated;
 * returns the exit status (0 or 1) */
int cmd_input__finish(struct cmd_input *ci);

/* getopt_long() (optstring starting with ':') returned c, '?' or ':': print what is wrong and
 * the usage on stderr; returns 2, the exit status of a bad invocation */
int cmd_usage_error(const char *cmd, int c, char **argv, void (*usage)(FILE *f));
/* The options of a command that takes only "-i FILE" and "-h": sets *path (default left
 * as is). Returns -1 to go on, else the exit status (0 after --help, 2 on a usage error). */
int cmd_input__parse_only_i(const char *cmd, int argc, char **argv, void (*usage)(FILE *f),
			    const char **path);

#endif
