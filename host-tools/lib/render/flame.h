/* SPDX-License-Identifier: MIT */
/* A flame graph's tree: stacks of named frames (root first) merged by name, with the weight
 * of the samples through each frame, and for a differential graph the baseline's weight too.
 * Names are bytes as the symbolizer gave them; the SVG writer escapes them. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_FLAME_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/frames/frames.h"

enum tp_fkind {
	TP_FK_USER,
	TP_FK_KERNEL,
	TP_FK_COMM,		/* the thread's name at the bottom of its stacks */
	TP_FK_ROOT,
	TP_FK_EVENT,		/* the event above the threads (the HTML report's) */
};

struct tp_flame;

/* 0 or -TP_ERR_NOMEM */
int tp_flame__new(struct tp_flame **out);
void tp_flame__delete(struct tp_flame *fl);

/* One stack of nr frames, outermost first, under the root: names[i] of kinds[i] (enum
 * tp_fkind). old: the weight counts for the baseline of a --diff, not for the widths.
 * 0, -TP_ERR_INVAL (no frames) or -TP_ERR_NOMEM. */
int tp_flame__add(struct tp_flame *fl, const char *const *names, const uint8_t *kinds,
		  uint32_t nr, uint64_t weight, bool old);

/* Every call path of h (kept with tp_hconf.paths and the comm key), as a stack led by its
 * comm and named as script --folded names frames: the symbol, else "[dso basename]", else
 * "[unknown]". 0 or -TP_ERR_NOMEM. */
int tp_flame__add_hist(struct tp_flame *fl, struct tp_hist *h, const struct tp_symcache *c,
		       bool old);

uint64_t tp_flame__total(const struct tp_flame *fl, bool old);

struct tp_svgconf {
	const char *title;	/* NULL: "Flame Graph" */
	const char *subtitle;	/* a line under it (the input), or NULL */
	double width;		/* of the picture in pixels; 0: 1200 */
	double minwidth;	/* frames narrower than this many pixels are left out */
	bool inverted;		/* icicle: the root on top, callees below */
	bool diff;		/* colour by the change from the baseline (tp_flame__add old) */
};

/* The whole picture to f: 0, or -TP_ERR_IO when writing failed, -TP_ERR_NOMEM. An empty
 * tree gives a valid picture that says there were no samples. */
int tp_flame__write_svg(const struct tp_flame *fl, const struct tp_svgconf *conf, FILE *f);

#endif
