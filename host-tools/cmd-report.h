/* tinyperf report, shared by its two files: cmd-report.c (options, the walk) and
 * cmd-report-print.c (the table and the call graphs). CLI code. */
#ifndef TINYPERF_HOST_TOOLS_CMD_REPORT_H
#define TINYPERF_HOST_TOOLS_CMD_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/cmd-input.h"
#include "host-tools/cmd-sym.h"
#include "host-tools/lib/hist.h"

/* a sample of a thread not named yet: perf gives it the thread's first name, when it comes */
struct report_parked {
	struct tp_hist *h;
	struct tp_hsample s;		/* frames: an index into report.parked_frames */
	uint32_t first;
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
	char *prefix;			/* the graph's drawing prefix, grown as needed */
	size_t prefix_cap;
	int err;
};

/* the header, then a section per event with samples */
void report__print(struct report *rp);

#endif
