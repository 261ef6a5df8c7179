/* SPDX-License-Identifier: MIT */
/* tinyperf script, shared by its two files: cmd-script.c (options, the walk) and
 * cmd-script-print.c (the output, as perf script writes it, and --folded). CLI code. */
#ifndef TINYPERF_HOST_TOOLS_CMD_SCRIPT_H
#define TINYPERF_HOST_TOOLS_CMD_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/lib/trace/trace.h"

enum field {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_TIME = 1 << 3, F_CPU = 1 << 4,
	F_EVENT = 1 << 5, F_PERIOD = 1 << 6, F_IP = 1 << 7, F_SYM = 1 << 8, F_SYMOFF = 1 << 9,
	F_DSO = 1 << 10, F_TRACE = 1 << 11, F_SRCLINE = 1 << 12,
};

struct script_text;
struct script_arena;

struct script {
	struct cmd_sym cs;
	struct cmd_input ci;
	unsigned set, add, del;		/* -F: the fields, or what to add / take away */
	bool user_set, folded, no_graph, ns;
	struct tp_tracefmt *tf;
	struct tp_chain ch;
	struct tp_frame one;		/* where a sample hit, without its callchain */
	uint64_t one_off;
	uint64_t one_addr;		/* its address as tp_chain_at.addr has it */
	int name_width;
	struct tp_hist *folds;		/* --folded, --speedscope */
	const char *speedscope;		/* --speedscope FILE */
	char *out;			/* the output buffer */
	size_t len, cap;
	struct script_text *texts;	/* " sym+0x1a (dso)" of recent frames */
	struct script_arena *arena;	/* their strings */
	size_t arena_size;
	int err;
};

/* the fields printed for samples of attr a */
unsigned script__fields(const struct script *sc, const struct tp_attr *a);
/* one sample; chain: its callchain (sc->ch) is printed, else sc->one */
void script__print_sample(struct script *sc, const struct tp_event *ev, unsigned f,
			  const char *comm, bool chain);
/* --folded: the collapsed stacks of sc->folds, sorted; 0 or -TP_ERR_NOMEM */
int script__print_folded(struct script *sc);
void script__out_flush(struct script *sc);
void script__release(struct script *sc);

#endif
