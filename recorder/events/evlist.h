/* SPDX-License-Identifier: MIT */
/* The open events: one fd per (event, task, cpu), one ring per CPU (the other fds of a CPU
 * send their records to it with PERF_EVENT_IOC_SET_OUTPUT). */
#ifndef TINYPERF_RECORDER_EVENTS_EVLIST_H
#define TINYPERF_RECORDER_EVENTS_EVLIST_H

#include "libc-shim/types.h"
#include "recorder/events/events.h"
#include "recorder/events/ring.h"

#define REC_MAX_CPUS 256
#define REC_MAX_TASKS 1024

/* things evlist__open changed on its own, for the command to mention */
enum {
	EVL_FELL_BACK_CPU_CLOCK = 1,    /* no hardware PMU: cycles -> cpu-clock */
	EVL_EXCLUDED_KERNEL = 2,        /* perf_event_paranoid >= 2: user space only */
};

struct evlist {
	const int *cpus;
	unsigned nr_cpus;
	int *fds;                       /* [event][task][cpu], -1 where the task was gone */
	size_t nr_fds;
	unsigned nr_rings;
	unsigned notes;                 /* EVL_* */
	bool backward;                  /* --overwrite: read-only write_backward rings */
	struct ring rings[REC_MAX_CPUS];	/* last: the fields above stay near (armv7, MIPS) */
};

/* how evlist__open takes an event that does not open: EVL_QUIET_PERM leaves EACCES and
 * EPERM unprinted (the caller has another way to try); EVL_MAY_LACK marks an event this
 * kernel or CPU lacks (evsel.unsupported, its fds -1) and goes on, as perf stat does */
enum { EVL_QUIET_PERM = 1, EVL_MAY_LACK = 2 };

/* Open every event. 0, or -errno after printing why, what to do included (rec_fail), with
 * nothing left open or mapped. */
int evlist__open(struct evlist *el, struct evlist_spec *spec, const int *tasks,
		 unsigned nr_tasks, const int *cpus, unsigned nr_cpus, unsigned how);
/* why e did not open on task (-1: every task), as one line (rec_fail): what to do, and
 * for EACCES/EPERM perf_event_paranoid's value and the setting that allows it */
void evlist__explain(const struct evsel *e, long err, int task);
/* map one ring of pages data pages per CPU; 0, or -errno after printing why (rec_fail) */
int evlist__mmap(struct evlist *el, unsigned pages);
void evlist__enable(struct evlist *el, bool on);
void evlist__close(struct evlist *el);
/* after evlist__close, when the events are done with: the fd table and the events' ids */
void evlist__free(struct evlist *el);
/* the kernel's page size (rings are counted in pages) */
size_t tp_page_size(void);

#endif
