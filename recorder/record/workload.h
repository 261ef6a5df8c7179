/* SPDX-License-Identifier: MIT */
/* The command being profiled: forked early, held before execve until the events are ready. */
#ifndef TINYPERF_RECORDER_RECORD_WORKLOAD_H
#define TINYPERF_RECORDER_RECORD_WORKLOAD_H

#include "libc-shim/types.h"

struct workload {
	int pid;
	int go_fd;      /* write end: one byte releases the child into execve */
	int err_fd;     /* read end: the child's execve error (close-on-exec: EOF on success) */
	bool started;   /* the execve succeeded */
};

/* fork the child; it waits for workload__start(); 0 or -errno */
int workload__prepare(struct workload *w, char **argv, char **envp);
/* let it exec; returns 0 once the execve succeeded (the close-on-exec pipe closed: from
 * then on the child runs the command's image, never tinyperf's code), or the execve error
 * (-errno) if it could not run */
int workload__start(struct workload *w);

#endif
