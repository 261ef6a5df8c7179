/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/live/: what `tinyperf top` shows, from records as a stream delivers them. */
/* Layer live: may use common/, data/, session/, sym/, agg/, frames/, recv/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_LIVE_LIVE_H
#define TINYPERF_HOST_TOOLS_LIB_LIVE_LIVE_H

/*
 *   tp_live_win  the decaying window: samples per (comm, DSO, symbol); at each tick every
 *                weight is multiplied by `keep` and the tick's new samples are added, so a
 *                function that stopped running fades out in a few refreshes (keep 0.5: to
 *                1/8 in three) while one that keeps running converges to its rate
 *   tp_live      records in (tp_recv_conf.on_record), a tick per refresh: the samples that
 *                came since the last tick are symbolized (reader, session, symcache over
 *                the stream's thread and map records kept so far) and go into the window
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

struct tp_symcache_conf;

/* a row whose weight fell under this is forgotten (its total with it) */
#define TP_LIVE_MIN_WEIGHT	0.01

struct tp_live_key {
	const char *comm, *dso, *sym;	/* copied */
	bool kernel;
};

struct tp_live_row {
	const char *comm, *dso, *sym;
	bool kernel;
	double weight;			/* samples in the window, decayed */
	uint64_t last;			/* samples in the last tick */
	uint64_t total;			/* samples since the row appeared */
};

enum tp_live_sort {
	TP_LIVE_BY_WEIGHT,		/* hottest first (ties: by symbol) */
	TP_LIVE_BY_TOTAL,		/* most samples since the start */
	TP_LIVE_BY_SYMBOL,
	TP_LIVE_BY_DSO,			/* then by weight */
	TP_LIVE_BY_COMM,		/* then by weight */
	TP_LIVE_NR_SORTS
};

struct tp_live_filter {
	const char *comm;		/* a substring of the comm, or NULL/"" for all */
	const char *dso;		/* a substring of the DSO's path */
	bool hide_kernel;
};

struct tp_live_win;

/* keep: the share of its weight a row keeps at each tick, 0 < keep < 1. 0 or -TP_ERR_* */
int tp_live_win__new(struct tp_live_win **out, double keep);
void tp_live_win__delete(struct tp_live_win *w);
/* n samples into the tick in progress: 0 or -TP_ERR_NOMEM */
int tp_live_win__add(struct tp_live_win *w, const struct tp_live_key *k, uint64_t n);
/* close the tick: decay, add, forget rows under TP_LIVE_MIN_WEIGHT */
void tp_live_win__tick(struct tp_live_win *w);
/* The rows that pass f (NULL: all), sorted; *sum gets their weight. The array is the
 * window's, valid until the next add or tick. 0 or -TP_ERR_NOMEM. */
int tp_live_win__view(struct tp_live_win *w, const struct tp_live_filter *f,
		      enum tp_live_sort by, const struct tp_live_row *const **rows, size_t *n,
		      double *sum);
const char *tp_live_sort_name(enum tp_live_sort by);

struct tp_live_conf {
	/* frames/frames.h's (not included here: a command that includes recv/ too would
	 * meet two struct tp_frame); it and its strings must outlive the tp_live */
	const struct tp_symcache_conf *sym;
	double keep;			/* the window's; 0: 0.5 */
};

struct tp_live_stats {
	uint64_t samples;		/* received, all streams */
	uint64_t tick_samples;		/* received during the last tick */
	uint64_t lost;			/* samples the recorder said it lost (LOST, LOST_SAMPLES) */
	uint64_t streams;		/* streams begun (tp_live__restart) */
	uint64_t state_bytes;		/* thread and map records held for symbolizing */
	int error;			/* the last tick's error, or 0 */
};

struct tp_live;

int tp_live__new(struct tp_live **out, const struct tp_live_conf *conf);
void tp_live__delete(struct tp_live *l);
/* one whole record of the stream, in its byte order (for tp_recv_conf.on_record); attrs
 * after other records begin a new stream (tp_live__restart) */
void tp_live__record(struct tp_live *l, const uint8_t *rec, size_t size, bool swapped);
/* a new stream begins: the old one's threads and maps are forgotten, not the window */
void tp_live__restart(struct tp_live *l);
/* symbolize the samples since the last tick into the window, and tick it: 0 or -TP_ERR_*
 * (the samples are dropped then; the next tick tries again with the next ones) */
int tp_live__tick(struct tp_live *l);
struct tp_live_win *tp_live__window(struct tp_live *l);
const struct tp_live_stats *tp_live__stats(const struct tp_live *l);

#endif
