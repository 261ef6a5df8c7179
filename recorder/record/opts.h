/* SPDX-License-Identifier: MIT */
/* 'tinyperf record' options, parsed the way perf's users type them. */
#ifndef TINYPERF_RECORDER_RECORD_OPTS_H
#define TINYPERF_RECORDER_RECORD_OPTS_H

#include "libc-shim/types.h"

#define REC_MAX_EVENT_SPECS 32
#define REC_MAX_PIDS 64
#define REC_MAX_RUNS 1024	/* stat -r */

struct rec_opts {
	uint64_t sample;        /* -F HZ, or -c N if by_period: the last one given */
	unsigned nr_events;
	bool by_period;         /* -c */
	union {	/* the flags, set by index in the order of opts.c's options F_G..F_NOEMBED */
		struct {
			bool callgraph;         /* -g */
			bool system_wide;       /* -a */
			bool no_inherit;        /* -i */
			bool buildid_all;       /* --buildid-all */
			bool quiet;             /* -q */
			bool overwrite;         /* --overwrite: flight recorder, rings read at snapshots */
			bool no_embed_symbols;  /* --no-embed-symbols (CONFIG_REC_EMBED_SYMBOLS) */
		};
		bool flags[7];
	};
	const char *cpu_list;   /* -C */
	unsigned nr_pids;
	unsigned nr_tids;
	const char *output;     /* -o, "-" for stdout, tcp://, tcp-listen://, serial: */
	unsigned retries;       /* --retry: more connection attempts for tcp:// */
	uint32_t coalesce_ms;   /* --coalesce flush interval, 0: off */
	unsigned mmap_pages;    /* -m, data pages per ring (power of two); 0 until setup.c
				 * chooses when -m is not given */
	uint16_t stack_size;    /* --call-graph dwarf[,SIZE]: user stack bytes per sample;
				 * 0: frame pointers (-g, --call-graph fp) */
	uint64_t duration_ms;   /* --duration */
	const char *buildid_cache; /* --buildid-cache DIR (CONFIG_REC_BUILDID_CACHE) */
	const char *switch_output; /* --switch-output[=signal|SIZE|TIME] (recorder/out/flight.c) */
	unsigned switch_max_files; /* --switch-max-files N, 0: keep all */
	int verbose;            /* -v */
	bool per_cpu;           /* stat -A, --per-cpu, --no-aggr */
	unsigned interval_ms;   /* stat -I */
	unsigned repeat;        /* stat -r, 0 without */
	const char *sep;        /* stat -x */
	const char *pid_list, *tid_list;	/* stat: -p and -t as given, for the header */
	char **argv;            /* the command after the options (NULL-terminated), or NULL */
	/* the tables last: the fields above stay within Thumb-2 short load offsets */
	const char *events[REC_MAX_EVENT_SPECS];   /* -e arguments, comma lists kept whole */
	int pids[REC_MAX_PIDS]; /* -p */
	int tids[REC_MAX_PIDS]; /* -t */
};

/* 0, or -EINVAL with a one-line message in err; 1 when -h was asked. stat: its options
 * (the others refused as unknown), else record's. */
int rec_opts__parse(struct rec_opts *o, int argc, char **argv, char *err, size_t errlen,
		    bool stat);
void rec_opts__usage(int fd);

#endif
