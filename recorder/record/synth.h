/* SPDX-License-Identifier: MIT */
/* Synthesis at record start: the records the kernel will not send for what already exists,
 * read from /proc. Each record is encoded (perfdata/records.h, with a zeroed sample_id
 * trailer of fmt->id_hdr_size bytes) into the caller's scratch memory and handed to emit;
 * an error from emit stops the synthesis and is returned.
 *
 * Races with exiting processes are normal: a process or thread that vanishes while it is
 * read is skipped silently (ENOENT, ESRCH), and so is one we may not read (EACCES, EPERM:
 * another user's process without privileges), as perf does. */
#ifndef TINYPERF_RECORDER_RECORD_SYNTH_H
#define TINYPERF_RECORDER_RECORD_SYNTH_H

#include "libc-shim/types.h"
#include "perfdata/records.h"

#define SYNTH_SCRATCH_MIN	16384

struct synth {
	int (*emit)(void *ctx, const void *rec, size_t len);
	void *ctx;
	const struct tp_rec_fmt *fmt;
	/* SYNTH_SCRATCH_MIN bytes or more, any alignment: synth moves it up to a multiple of 8
	 * (the slack is part of SYNTH_SCRATCH_MIN) */
	char *scratch;
	size_t scratch_size;
	bool data;			/* --data: also the non-executable mappings (MMAP_DATA) */
};

/* One process: COMM (pid, tid) for each thread in /proc/PID/task, then an MMAP2 (misc USER,
 * pid = tid = PID) for each executable mapping of /proc/PID/maps, "[vdso]" included; an
 * anonymous one is named "//anon" as perf does. 0 (also when the process is gone) or
 * -errno. */
int synth__task(struct synth *s, uint32_t pid);

/* every process of /proc (for -a) */
int synth__all_tasks(struct synth *s);

/* root and every live process descended from it (found through the parents in
 * /proc/PID/stat, so no CONFIG_PROC_CHILDREN is needed) */
int synth__tree(struct synth *s, uint32_t root);

struct synth_kernel {
	uint64_t text;			/* runtime address of the reference symbol */
	const char *ref;		/* "_text", or "_stext" on kernels without _text */
	uint32_t nr_modules;		/* module MMAPs emitted */
	bool hidden;			/* kptr_restrict hides addresses: warn the user */
	int kptr_restrict;		/* /proc/sys/kernel/kptr_restrict, -1 if unreadable */
	int paranoid;			/* .../perf_event_paranoid (kptr_restrict=0 hides
					 * without CAP_SYSLOG when > 1), -1 if unreadable
					 * (or -1: neither lets it hide the addresses) */
};

/* The kernel: MMAP "[kernel.kallsyms]_text" (misc KERNEL, pid -1, tid 0) whose pgoff is the
 * runtime address of _text (the relocation key perf report uses), then one MMAP "[name]" per
 * module of /proc/modules (start and size from there, pgoff 0).
 *
 * /proc/kallsyms is read only up to _text, which is near its top (it is sorted by address):
 * at most KALLSYMS_MAX_LINES lines, never the whole 5 MB. _etext/_edata/_end sit far down the
 * file, so the kernel map ends where perf ends it when those are not used: at the first module
 * above the kernel, else at ~0 (len = ~0 - start). When kptr_restrict hides the addresses
 * (all zero) the map is [0, ~0) with pgoff 0 so kernel samples still land in
 * [kernel.kallsyms], modules are skipped, and k->hidden asks the command to warn.
 * -TP_ENOENT when kallsyms has neither _text nor _stext (no kernel map is written). */
#define KALLSYMS_MAX_LINES	20000
int synth__kernel(struct synth *s, struct synth_kernel *k);

#endif
