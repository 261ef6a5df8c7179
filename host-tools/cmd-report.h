/* SPDX-License-Identifier: MIT */
/* tinyperf report, shared by its two files: cmd-report.c (options, the walk) and
 * cmd-report-print.c (the table and the call graphs). CLI code. */
#ifndef TINYPERF_HOST_TOOLS_CMD_REPORT_H
#define TINYPERF_HOST_TOOLS_CMD_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/common/common.h"

/* a sample of a thread not named yet: perf gives it the thread's first name, when it comes */
struct report_parked {
	struct tp_hist *h;
	struct tp_hsample s;		/* frames: an index into report.parked_frames */
	uint32_t first;
};

/* an address whose source line is known: (dso, addr) -> text id */
struct report_line_at {
	uint64_t addr;
	uint32_t dso;			/* bit 31: of an inlined frame */
	uint32_t id;
};

struct report {
	struct cmd_sym cs;
	struct cmd_input ci;
	struct tp_hconf keys;
	bool children, no_children, graph, quiet, show_nr, order_set;
	enum tp_cgorder order;
	double min_pct, percent_limit;
	bool min_pct_set;
	bool has_key[TP_HKEY_MAX];

	struct tp_hist **hists;		/* by attr index */
	bool *hist_paths;
	uint32_t nr_hists;
	struct tp_chain ch;
	struct tp_frame one;		/* the stack of a sample without paths */
	struct report_parked *parked;
	uint32_t nr_parked, cap_parked;
	struct tp_frame *parked_frames;
	uint32_t nr_parked_frames, cap_parked_frames;
	uint64_t lost_samples, lost_events, nr_lost;
	uint64_t nr_corrupt_chains;	/* samples left out, as perf does */
	bool lines;			/* frames carry source line ids (srcline key, --lines) */
	bool graph_lines;		/* graphs show "sym file:line" (--lines, -g srcline) */
	char **line_texts;		/* by id; [0] unused */
	uint32_t nr_line_texts, cap_line_texts;
	struct tp_htab line_text_idx;
	struct report_line_at *line_at;
	uint32_t nr_line_at, cap_line_at;
	struct tp_htab line_at_idx;
	char *prefix;			/* the graph's drawing prefix, grown as needed */
	size_t prefix_cap;
	int err;
};

/* cmd-report-lines.c: f->line for the frame at addr (off into its symbol), as perf's
 * srcline: 0 or -TP_ERR_NOMEM; the text of an id; freeing them */
int report__line(struct report *rp, struct tp_frame *f, uint64_t addr, uint64_t off);
const char *report__line_text(const struct report *rp, uint32_t id);
void report__lines_free(struct report *rp);

/* the header, then a section per event with samples */
void report__print(struct report *rp);

/* report --html FILE (cmd-report-html.c): its own options, the whole argv */
int cmd_report_html(int argc, char **argv);

#endif
