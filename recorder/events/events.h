/* SPDX-License-Identifier: MIT */
/* Event specifications ("-e cycles:u,sched:sched_switch/call-graph=no/") -> attr templates. */
#ifndef TINYPERF_RECORDER_EVENTS_EVENTS_H
#define TINYPERF_RECORDER_EVENTS_EVENTS_H

#include "libc-shim/types.h"
#include "include/tinyperf/perf_event.h"

#define REC_MAX_EVSELS 256

/* call graphs: none, frame-pointer callchains, or the user registers and a copy of the user
 * stack (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER) for the host to unwind */
enum { EVS_CG_NO, EVS_CG_FP, EVS_CG_DWARF };
/* the user stack copied per dwarf sample: the kernel takes multiples of 8 below 64 KiB;
 * the default, measured: the stacks of tests/workloads up to main on every target */
#define EVS_STACK_MAX		65528
#define EVS_STACK_DEFAULT	2048

struct evsel {
	struct perf_event_attr attr;
	char name[64];
	int8_t callgraph;       /* -1 follow -g/--call-graph, else an EVS_CG_ (call-graph=) */
	bool has_period;        /* period= or freq= given in the spec */
	uint16_t stack_size;    /* stack-size=N (dwarf), 0: --call-graph's or the default */
	bool is_default;        /* the implicit default event (may fall back to cpu-clock) */
	bool unsupported;       /* not opened: this kernel or CPU lacks it (EVL_MAY_LACK) */
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
/* --call-graph's "fp", "dwarf" or "dwarf,SIZE": EVS_CG_FP, or EVS_CG_DWARF with *stack set
 * to SIZE rounded up to 8 (left as it was without SIZE); -TP_EINVAL */
int events__call_graph(const char *s, uint16_t *stack);
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
