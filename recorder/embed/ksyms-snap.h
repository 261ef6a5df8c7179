/* SPDX-License-Identifier: MIT */
/* A copy of /proc/kallsyms taken while recording, for embedded symbols (ksyms-snap.c). */
#ifndef TINYPERF_RECORDER_EMBED_KSYMS_SNAP_H
#define TINYPERF_RECORDER_EMBED_KSYMS_SNAP_H

#include "libc-shim/types.h"

struct track;

struct ksyms_snap {
	uint8_t state;		/* 0 not started (zeroed), then running or none */
	int fd[2];		/* the unlinked copy (index, names), while running */
	int pid;		/* the helper process */
	int ctl, ack;		/* targets to it, and what it reached back */
	uint64_t sent, reached;	/* the last target sent, and reached */
};

/* from the record loop: start the copy once the kernel or a module got a sample (t: the
 * sampled addresses). It goes beside the output file (output), or into $TMPDIR or /tmp for
 * a stream (output NULL; envp: the environment) */
void ksyms_snap__poll(struct ksyms_snap *k, const struct track *t, const char *output,
		      char **envp);
/* the copy to read, through the first kernel line at or above upto (~0: all of it, modules
 * included) once the helper has got there (waits for it): fd[0] (the index, at offset 0) and
 * fd[1] (the names), or fd[0] = -1 when there is none (never started, or it failed: read
 * /proc/kallsyms itself). note: say which on stderr (-v without -q) */
void ksyms_snap__get(struct ksyms_snap *k, const struct track *t, uint64_t upto, int fd[2],
		     bool note);
/* in the helper: /proc/kallsyms into the copy (ksyms.c), as far as the targets read from
 * ctl (u64s) ask, each reached one written back to ack. 0 (ctl closed, or all copied), 1 on
 * an error, 2 when no function has an address (kptr_restrict) */
int ksyms__copy(int index_fd, int names_fd, int ctl, int ack);
/* at the end of the recording: stop the helper if it runs, drop the copy */
void ksyms_snap__close(struct ksyms_snap *k);

#endif
