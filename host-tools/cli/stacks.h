/* SPDX-License-Identifier: MIT */
/* What the commands that draw or export whole stacks share (flamegraph, pprof, report
 * --html): one recording walked with the report's filters and -e into a hist of call paths
 * per comm, one sample counting one, as script --folded counts them; or per event and
 * thread, weighted by their periods; or each sample to a hook. And their option loop and output
 * file. CLI code: it prints. */
#ifndef TINYPERF_HOST_TOOLS_CLI_STACKS_H
#define TINYPERF_HOST_TOOLS_CLI_STACKS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"

struct cmd_stacks {
	struct cmd_sym cs;		/* its options set before cmd_stacks__collect() */
	bool per_event;			/* set before too: a hist per event, not h */
	const char *event;		/* and -e: only this event's samples (NULL: all) */
	bool *event_ok;			/* by attr index, from event */
	uint32_t nr_attrs;
	/* or, set before: every kept sample to this instead (its time 0 if it has none) */
	int (*on_stack)(void *ctx, const struct tp_hsample *hs, const struct tp_attr *a,
			uint64_t time);
	void *ctx;
	uint64_t lost_samples, lost_events;	/* as the recording reports them */
	struct cmd_input ci;
	struct tp_hist *h;		/* keyed by comm, with paths */
	/* per_event: by attr index, keyed by comm, pid and tid, the samples weighted by their
	 * period (a path's samples are its nodes' count; NULL for an event without samples) */
	struct cmd_stacks_event {
		struct tp_hist *periods;
	} *events;
	size_t nr_events;
	uint64_t first_time, last_time;	/* of the samples kept that have one */
	struct tp_chain ch;
	struct tp_frame one;
	uint64_t period;		/* the sample's being added */
	uint64_t kept;			/* samples that passed the filters */
	int status;			/* the exit status so far (1: something was skipped) */
};

void cmd_stacks__init(struct cmd_stacks *st);
/* Open path and walk it into st->h: 0, or the exit status (1) after printing the error;
 * a truncated or damaged input keeps what could be read and sets st->status. */
int cmd_stacks__collect(struct cmd_stacks *st, const char *cmd, const char *path);
void cmd_stacks__close(struct cmd_stacks *st);

/* After cmd_stacks__collect(): a note when no sample was kept ("the WHAT is empty"), then
 * cmd_stacks__write(); the exit status (st->status if the file was written) */
int cmd_stacks__emit(struct cmd_stacks *st, const char *cmd, const char *what,
		     const char *path, int (*write)(void *ctx, FILE *f), void *ctx);

/* getopt_long() over argv with opts (short options -i -o -e -h -k), each handed to
 * option(ctx, c, argv), which returns -1 to go on or an exit status: that status, or -1
 * when all were taken (optind is then at the first argument that is no option) */
int cmd_stacks__options(int argc, char **argv, const struct option *opts,
			int (*option)(void *ctx, int c, char **argv), void *ctx);

/* Write the output file path ("-": stdout) with write(ctx, f), which returns 0 or a negative
 * TP_ERR_*: 0, or 1 after printing what went wrong and what to do. */
int cmd_stacks__write(const char *cmd, const char *path, int (*write)(void *ctx, FILE *f),
		      void *ctx);

#endif
