/* SPDX-License-Identifier: MIT */
/* record --buildid-cache DIR (CONFIG_REC_BUILDID_CACHE): at the end of a recording, the files
 * of the DSOs that got samples go into a build-id cache on the device, in perf's layout
 * (host-tools/lib/bidcache/bidcache.h describes it), for boards with storage: the host then copies the
 * directory (or runs tinyperf archive there) and reports from exactly what ran. */
#ifndef TINYPERF_RECORDER_OUT_BIDCACHE_H
#define TINYPERF_RECORDER_OUT_BIDCACHE_H

#include "libc-shim/types.h"
#include "recorder/track/track.h"

struct rec_bidcache {
	const char *dir;
	unsigned added, linked, present, failed;
	int first_err;
	bool no_symlinks;		/* none possible: index entries are directories */
	const char *first_path;		/* what first_err was about */
};

/* One hit DSO, as record/features.c learns it: a file (its build-id, else its text hash), the
 * kernel (its kallsyms is copied), or "[vdso]" (the recorder's own image is written).
 * Modules are skipped: their symbols come with the kernel's kallsyms. Never fails the
 * recording: problems are counted for rec_bidcache__report(). */
void rec_bidcache__add(struct rec_bidcache *bc, const char *path, enum track_kind kind,
		       const uint8_t *id, uint8_t id_len, uint64_t text_hash);

/* one line on fd 2 (unless quiet, or nothing happened) */
void rec_bidcache__report(const struct rec_bidcache *bc, bool quiet);

#endif
