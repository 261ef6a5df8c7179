/* What the commands that draw or export whole stacks share (flamegraph, and the exporters
 * after it): one recording walked with the report's filters into a hist of call paths per
 * comm, one sample counting one, as script --folded counts them. CLI code: it prints. */
#ifndef TINYPERF_HOST_TOOLS_CLI_STACKS_H
#define TINYPERF_HOST_TOOLS_CLI_STACKS_H

#include <stdint.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"

struct cmd_stacks {
	struct cmd_sym cs;		/* its options set before cmd_stacks__collect() */
	struct cmd_input ci;
	struct tp_hist *h;		/* keyed by comm, with paths */
	struct tp_chain ch;
	struct tp_frame one;
	uint64_t kept;			/* samples that passed the filters */
	int status;			/* the exit status so far (1: something was skipped) */
};

void cmd_stacks__init(struct cmd_stacks *st);
/* Open path and walk it into st->h: 0, or the exit status (1) after printing the error;
 * a truncated or damaged input keeps what could be read and sets st->status. */
int cmd_stacks__collect(struct cmd_stacks *st, const char *cmd, const char *path);
void cmd_stacks__close(struct cmd_stacks *st);

#endif
