/* Event specifications ("-e cycles:u,sched:sched_switch/call-graph=no/") -> attr templates. */
#ifndef TINYPERF_RECORDER_EVENTS_EVENTS_H
#define TINYPERF_RECORDER_EVENTS_EVENTS_H

#include "libc-shim/types.h"
#include "include/tinyperf/perf_event.h"

#define REC_MAX_EVSELS 256

struct evsel {
	struct perf_event_attr attr;
	char name[64];
	int8_t callgraph;       /* -1 follow -g, 0 call-graph=no, 1 call-graph=fp */
	bool has_period;        /* period= or freq= given in the spec */
	bool is_default;        /* the implicit default event (may fall back to cpu-clock) */
	uint64_t *ids;          /* one per fd, from PERF_EVENT_IOC_ID */
	unsigned nr_ids;
};

struct evlist_spec {
	struct evsel ev[REC_MAX_EVSELS];
	unsigned nr;
};

/* Parse one -e argument (a comma list) and append to l. 0, or -errno after printing why
 * (rec_fail: "unknown event 'foo': see 'tinyperf list'"). */
int events__parse(struct evlist_spec *l, const char *spec);
/* the event perf uses when none is given: cycles (falls back to cpu-clock without a PMU) */
void events__add_default(struct evlist_spec *l);
/* switch an event to cpu-clock, keeping its modifiers */
void events__fallback_cpu_clock(struct evsel *e);

/* the name table, also for 'tinyperf list': tp_nr_event_names names, NUL-separated, and the
 * code of each, PERF_TYPE_ << 4 | config */
extern const char tp_event_names[];
extern const uint8_t tp_event_codes[];
extern const unsigned tp_nr_event_names;

/* 'tinyperf list' (cmd-list.c) */
int cmd_list(int argc, char **argv);

#endif
