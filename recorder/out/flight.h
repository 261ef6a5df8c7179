/* SPDX-License-Identifier: MIT */
/* Flight recorder and output rotation: --overwrite (write_backward rings read only at a
 * snapshot) and --switch-output (SIGUSR2, a size or a period closes the file, names it
 * OUTPUT.YYYYMMDDHHMMSScc and starts the next). Every file stands alone: it begins with the
 * kernel and task state as of its switch (tail synthesis) and ends with the build-ids of what
 * it hit. Nothing here grows with the number of snapshots. */
#ifndef TINYPERF_RECORDER_OUT_FLIGHT_H
#define TINYPERF_RECORDER_OUT_FLIGHT_H

#include "libc-shim/types.h"
#include "recorder/events/ring.h"

#define FLIGHT_MAX_FILES 4096     /* --switch-max-files at most */

struct flight {
	bool rotate;              /* --switch-output: timestamped files */
	bool reopen;              /* another file follows the one being finished */
	enum { FL_SIGNAL, FL_SIZE, FL_TIME } trigger;
	uint64_t size;            /* FL_SIZE: bytes a file */
	int64_t every_ms, next_ms; /* FL_TIME */
	const char *base;         /* the -o name the files are named after */
	char tmp[240];            /* the file being written, renamed at each switch */
	uint64_t last_cs;         /* stamp of the last name (centiseconds since the epoch, UTC) */
	uint64_t kept[FLIGHT_MAX_FILES + 1]; /* stamps of the files kept, oldest at first */
	unsigned first, nr_kept;
	unsigned files;           /* files completed */
	uint64_t written;         /* bytes in the files completed (the closing line's total) */
	/* given by the command: what ring records (snapshots) and synthesized records go
	 * through */
	struct ring_ops ops;
	int (*emit)(void *ctx, const void *rec, size_t len);
};

/* after option parsing: checks the combination (spec: --switch-output's value, NULL without
 * it), names the temporary file (*output, -o, is pointed at it). 0, or 1 with a message
 * printed. */
int flight__init(struct flight *f, const char **output, const char *spec, unsigned max_files,
		 bool overwrite);
/* poll timeout capped for a FL_TIME switch */
int flight__timeout(struct flight *f, int64_t now_ms, int timeout);
/* should the file switch now? signalled: SIGUSR2 arrived; pos: bytes in the file so far */
bool flight__due(struct flight *f, int64_t now_ms, bool signalled, uint64_t pos);
/* the file just closed: name it, drop the oldest past max_files (0: keep all); 0 or -errno.
 * The command finishes, closes and reopens the files (record/output.c: rec_switch_output) */
int flight__name(struct flight *f, unsigned max_files, bool quiet);
/* at the end, after the last file was closed: name it like the others */
int flight__name_last(struct flight *f, unsigned max_files, bool quiet);

#endif
