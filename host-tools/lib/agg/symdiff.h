/* SPDX-License-Identifier: MIT */
/* Pairing the entries of two profiles by name, for a diff between two builds of a program:
 * a symbol keeps its name across builds while its address, size and the DSO's build-id
 * change, so entries match on (DSO name, symbol name) strings, never on addresses or ids.
 * Each side is aggregated on its own first (hist.h, with its own symbolizer). */
#ifndef TINYPERF_HOST_TOOLS_LIB_AGG_SYMDIFF_H
#define TINYPERF_HOST_TOOLS_LIB_AGG_SYMDIFF_H

#include <stddef.h>
#include <stdint.h>

/* one entry of one side; dso NULL when the diff is by symbol only. Equal keys are summed. */
struct tp_dentry {
	const char *dso;
	const char *sym;
	uint64_t weight;
	uint64_t samples;
	char level;			/* shown, not compared ('k' kernel, '.' user) */
};

struct tp_drow {
	const char *dso, *sym;		/* pointing into the sides' entries */
	char level;
	uint64_t weight[2];		/* baseline, new */
	uint64_t samples[2];
	double pct[2];			/* of each side's total */
	double delta;			/* pct[1] - pct[0], percentage points */
};

/* Rows for every key either side has, sorted by |delta| (largest shift first), then by the
 * baseline's weight, then by name. totals are the sides' total weights (hidden samples
 * included, as a report's percentages). 0 and *rows (free()), *n; or -TP_ERR_NOMEM. */
int tp_symdiff(const struct tp_dentry *old, size_t n_old, uint64_t total_old,
	       const struct tp_dentry *new, size_t n_new, uint64_t total_new,
	       struct tp_drow **rows, size_t *n);

#endif
