/* SPDX-License-Identifier: MIT */
/* 'tinyperf stat': counting events, printed as perf stat prints them. opts.c parses the
 * options, cmd-stat.c opens, runs and reads the counters, print.c lays out the lines (fixed
 * point: no floating point in the recorder). Functions returning int give 0, or an exit
 * status after printing a one-line error. All of it is ARCH_COLD_CODE: run once per command. */
#ifndef TINYPERF_RECORDER_STAT_STAT_H
#define TINYPERF_RECORDER_STAT_STAT_H

#include "arch/arch.h"
#include "libc-shim/types.h"
#include "recorder/events/events.h"
#include "recorder/record/opts.h"

#define STAT_EXIT_USAGE 129	/* perf's for a bad option or event */
/* -I, -r, -x, -A (CONFIG_REC_STAT_EXTRA): without it their code folds away */
#define STAT_EXTRA IS_ENABLED(CONFIG_REC_STAT_EXTRA)

/* the values printed per event: one unless -A (nr_slots, REC_STAT_EXTRA) */
#define SLOTS(s) (STAT_EXTRA ? (s)->nr_slots : 1u)

/* what perf derives a metric from: the kind of an event */
enum stat_kind { K_OTHER, K_CLOCK, K_CYCLES, K_INSN, K_BRANCHES, K_BMISS, K_CREFS, K_CMISS };

/* one printed value: the count (scaled up when multiplexed), its enabled and running times,
 * -r's run-to-run noise (stat_spread); unscaled, what the fds read (cmd-stat.c). Counted when
 * it ran (run != 0; the kernel keeps ena >= run), as perf decides "<not counted>". */
struct stat_val {
	union {
		struct { uint64_t val, ena, run; };
		uint64_t v[3];	/* as read(2) gives them (PERF_FORMAT_TOTAL_TIME_*) */
	};
	uint32_t noise;
};

struct stat {
	struct rec_opts o;
	unsigned nr_slots;              /* printed per event: CPUs with --per-cpu, else 1 */
	uint64_t wall_ns;               /* elapsed (the mean with -r), or the interval */
	uint64_t wall_sd_ns;            /* -r: the standard error of the mean of elapsed */
	uint32_t wall_noise;            /* -r: its noise (stat_spread) */
	uint64_t ts_ns;                 /* -I: this block's time since the start */
	long ru[18];                    /* the command's struct rusage (wait4): utime, stime as
					 * {long sec, long usec}, then 14 longs */
	const int *cpus;
	struct stat_val *vals;          /* [event][slot] */
	struct evlist_spec spec;        /* last: large */
};

/* round(a * b / c), 0 when c is 0, in 64 bits (print.c) */
ARCH_COLD_CODE uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c);

/* -r: the mean of n counts a stride apart, and perf's spread: the standard error of the mean
 * (*sd), and *noise, 0 when every run counted the same, else 1 + the error in hundredths of a
 * percent of the mean (spread.c) */
ARCH_COLD_CODE uint64_t stat_spread(const uint64_t *x, unsigned n, size_t stride,
				    uint32_t *noise, uint64_t *sd);

/* 0, -1 after --help, or an exit status after a one-line error */
ARCH_COLD_CODE int stat_opts__parse(struct rec_opts *o, int argc, char **argv);

/* the header (" Performance counter stats for ..."), the counters, the footer, to stderr as
 * perf stat prints them; an interval block with -I */
ARCH_COLD_CODE void stat__print(const struct stat *s, unsigned block);

ARCH_COLD_CODE int cmd_stat(int argc, char **argv);

#endif
