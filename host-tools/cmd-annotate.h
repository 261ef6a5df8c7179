/* SPDX-License-Identifier: MIT */
/* tinyperf annotate, shared by its two files: cmd-annotate.c (options, the walk) and
 * cmd-annotate-print.c (each symbol's listing). CLI code. */
#ifndef TINYPERF_HOST_TOOLS_CMD_ANNOTATE_H
#define TINYPERF_HOST_TOOLS_CMD_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/lib/annotate/annotate.h"

struct annotate {
	struct cmd_sym cs;
	struct cmd_input ci;
	struct tp_annhits hits;
	bool named;			/* SYMBOL or --symbol given */
	bool print_line, no_source;
	double percent_limit;
	uint64_t *unresolved;		/* by DSO id: the weight of samples in no symbol */
	uint32_t nr_unresolved, cap_unresolved;
};

/* every symbol in turn, hottest first: 0, or 1 when a symbol was not annotated (its line
 * printed) or nothing was */
int annotate__print(struct annotate *an, const char *path);

#endif
