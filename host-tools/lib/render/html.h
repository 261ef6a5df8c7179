/* SPDX-License-Identifier: MIT */
/* The one-file HTML report: every sample's stack (event, thread first) and time kept as a flame
 * tree and (node, time bucket) counts, shipped to the page as that aggregate, from which
 * its script draws the tables, call trees, flame graph and per-thread time strips. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_HTML_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/frames/frames.h"

struct tp_html;

/* 0 or -TP_ERR_NOMEM */
int tp_html__new(struct tp_html **out);
void tp_html__delete(struct tp_html *h);

/* one sample of event: its stack s (frames named as script --folded names them) under a
 * thread frame "comm tid" under an event frame, at time (ns; 0: none); c must outlive h (it
 * names the DSOs). 0 or -TP_ERR_NOMEM. */
int tp_html__add(struct tp_html *h, const struct tp_symcache *c, const struct tp_hsample *s,
		 const char *event, uint64_t time);

struct tp_html_conf {
	const char *title;
	const char *const *facts;	/* header lines: name, value, name, value ... */
	uint32_t nr_facts;		/* pairs */
	const char *sources;		/* where symbols came from: lines of text, or NULL */
	uint32_t nr_buckets;		/* of the time strips (0: 200) */
	double min_share;		/* frames under this share of all samples go into their
					 * caller, so the file stays small (0: 1/10000) */
};

/* the page to f: 0, -TP_ERR_NOMEM or -TP_ERR_IO */
int tp_html__write(struct tp_html *h, const struct tp_html_conf *conf, FILE *f);

#endif
