/* SPDX-License-Identifier: MIT */
/* 'tinyperf record': the state of one run, passed down through its parts (cmd-record.c: the
 * command, its loop and its records; setup.c: events and target; output.c: the output;
 * features.c, state.c). Functions returning int give 0, or 1 after printing a one-line error
 * (base/msg.h). */
#ifndef TINYPERF_RECORDER_RECORD_RECORD_H
#define TINYPERF_RECORDER_RECORD_RECORD_H

#include "libc-shim/types.h"
#include "perfdata/writer.h"
#include "recorder/base/msg.h"
#include "recorder/out/coalesce.h"
#include "recorder/events/events.h"
#include "recorder/out/flight.h"
#include "recorder/track/ksyms-cache.h"
#include "recorder/embed/ksyms-snap.h"
#include "recorder/events/evlist.h"
#include "recorder/record/opts.h"
#include "recorder/out/sinks.h"
#include "recorder/track/track.h"
#include "recorder/record/workload.h"

enum rec_target {
	REC_SYSTEM,        /* -a / -C: every task on the CPUs */
	REC_TASKS,         /* -p / -t: given tasks on every CPU */
	REC_TREE,          /* a command, followed with per-CPU system-wide events and filtered
			    * to its process tree: children sample from their first tick */
	REC_INHERIT,       /* a command, with inherited per-task events (no permission for the
			    * above, or --no-inherit) */
};

/* The fields every record and every pass of the loop touch come first, the large tables
 * after them: on armv7 and MIPS a field within the first few KiB is one load, one further
 * away needs its address built first. */
struct record {
	enum rec_target target;
	uint32_t root;             /* the command's pid, 0 without a command */
	uint64_t root_exec;        /* REC_TREE: the time of its exec (~0: not seen yet) */
	int64_t exec_ms;           /* REC_TREE: when a drain first saw it exec'd (0: not yet) */
	/* sample layout shared by every event: offsets into a SAMPLE record */
	uint64_t sample_type;
	unsigned off_tid, off_time;
	uint32_t attr_size;         /* of the attrs in a file: VER3 with --call-graph dwarf (for
				    * sample_regs_user, sample_stack_user), else VER0 */
	bool dwarf;                /* an event samples user registers and stacks: the readable
				    * data mappings are recorded too (the unwind tables') */
	uint64_t samples, lost;	/* lost: LOST and LOST_SAMPLES counts summed */
	uint64_t first_time, last_time;
	int write_err;             /* first -errno from the sink */
	bool pipe;                 /* pipe-mode output: every out_kind but a file */
	int out_fd;
	uint64_t alloc_end;        /* a dwarf-mode file: its blocks reserved up to here, */
	uint32_t alloc_step;       /* and what the rings hold (0: none reserved) */
	int exit_status;
	char **argv;               /* tinyperf's own, for CMDLINE */
	int argc;
	char **envp;
	struct rec_opts o;
	struct tp_writer w;
	struct tp_sink_fd sink;
	enum { REC_OUT_FILE, REC_OUT_STDOUT, REC_OUT_TCP, REC_OUT_SERIAL } out_kind;
	struct workload wl;
	struct track track;
	struct arena arena;
	unsigned nr_cpus;
	unsigned nr_tasks;
	struct sink_tcp tcp;       /* -o tcp://, tcp-listen:// */
	struct ksyms_cache kcache; /* kernel functions earlier recordings named (embedded symbols) */
	struct ksyms_snap ksnap;   /* /proc/kallsyms copied while recording (embedded symbols) */
	struct evlist el;          /* 14 KiB, its ring table first */

	int cpus[REC_MAX_CPUS];
	int tasks[REC_MAX_TASKS];
	struct evlist_spec spec;   /* 56 KiB */
	struct sink_serial serial; /* -o serial: */
	struct coalesce co;        /* --coalesce */
	struct flight fl;          /* --overwrite, --switch-output (recorder/out/flight.c) */
};

/* Options of optional features, as constants 0 in builds without them, so that their calls
 * fold away with or without LTO, and at -O0 too: macros, because only the front end's folding
 * of a constant condition runs at -O0, and it does not see through an inline function.
 * --coalesce: with the stream outputs (CONFIG_REC_STREAMS) */
#define rec_coalescing(r)	(IS_ENABLED(CONFIG_REC_STREAMS) && (r)->o.coalesce_ms)

/* --overwrite, and --switch-output's rotation: only with CONFIG_REC_FLIGHT (out/flight.c, rotate.c) */
#define rec_overwrite(r)	(IS_ENABLED(CONFIG_REC_FLIGHT) && (r)->o.overwrite)
#define rec_rotating(r)		(IS_ENABLED(CONFIG_REC_FLIGHT) && (r)->fl.rotate)

int cmd_record(int argc, char **argv);

/* every byte for the output goes through here (the first error is kept in r->write_err) */
int rec_write_out(void *ctx, const void *buf, size_t len);

/* setup.c: -e into r->spec (the default event without -e) */
int rec_parse_events(struct record *r);
/* choose the target, fill the attrs, open the events, map the rings, register the ids */
int rec_open_events(struct record *r);

/* output.c: -o: a file, "-" or a stream, with its header and starting features */
int rec_open_output(struct record *r);
/* a dwarf-mode file: its blocks reserved ahead of what the rings may bring, and the ones past
 * its end given back before it closes (also at each --switch-output file) */
void rec_output_reserve(struct record *r);
void rec_output_trim(struct record *r);
/* the name for messages ("stdout" for -) */
const char *rec_out_name(const struct record *r);
/* the events as the writer takes them (wa: REC_MAX_EVSELS entries) */
void rec_writer_attrs(const struct record *r, struct tp_writer_attr *wa);
/* the writer's buffer for small records (output.c), given after each tp_writer__open() */
void rec_writer_buffer(struct record *r);
/* writing the output failed with e: one line ("cannot write WHAT<output>: ..."), or what recv
 * said when it closed the connection; rec_fail's value */
int rec_output_failed(const struct record *r, const char *what, long e);
/* end a TCP or serial stream (nothing for a file); 0 or -errno */
int rec_close_stream(struct record *r);

/* recorder/record/features.c: the feature sections at the end (and at the start in pipe mode) */
int rec_features__start(struct record *r);
int rec_features__finish(struct record *r);

/* recorder/record/rotate.c (CONFIG_REC_FLIGHT): --overwrite: tail-synthesize, pause every
 * ring, read it, resume; into the current file. 0 or -errno (also in r->write_err) */
int rec_snapshot(struct record *r);
/* --switch-output: close the current file (features), name it, drop the oldest past
 * --switch-max-files, open the next; 0 or -errno (also left in r->write_err) */
int rec_switch_output(struct record *r);

/* recorder/record/state.c: COMM/MMAP state as of now, through r->fl.emit: the kernel and
 * modules, and the target's processes (every one with -a, a command's whole tree) */
#define REC_SYNTH_KERNEL	1
#define REC_SYNTH_TASKS		2
#define REC_SYNTH_WARN		4	/* say so when kptr_restrict hides the kernel */
int rec_synth(struct record *r, unsigned what);
/* --overwrite with a command: its tree's COMM and MMAPs as of now become the records a
 * snapshot writes again (state.c), nothing written now */
void rec_keep_tree(struct record *r);

#endif
