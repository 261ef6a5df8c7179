/* A copy of /proc/kallsyms taken while recording, for embedded symbols (ksyms-snap.c). */
#ifndef TINYPERF_RECORDER_KSYMS_SNAP_H
#define TINYPERF_RECORDER_KSYMS_SNAP_H

#include "libc-shim/types.h"

struct record;

struct ksyms_snap {
	uint8_t state;		/* 0 not started (zeroed), then running, ready or none */
	int fd[2];		/* the unlinked copy (index, names), while running or ready */
	int pid;		/* the helper process, while running */
};

/* from the record loop: start the copy once the kernel or a module got a sample */
void ksyms_snap__poll(struct record *r);
/* the copy to read, once the helper is done (waits for it): fd[0] (the index, at offset 0)
 * and fd[1] (the names), or fd[0] = -1 when there is none (never started, or it failed:
 * read /proc/kallsyms itself) */
void ksyms_snap__get(struct record *r, int fd[2]);
/* in the helper: /proc/kallsyms into the copy (ksyms.c). 0, 1 on an error, 2 when no
 * function has an address (kptr_restrict) */
int ksyms__copy(int index_fd, int names_fd);
/* at the end of the recording: stop the helper if it runs, drop the copy */
void ksyms_snap__close(struct record *r);

#endif
