/* SPDX-License-Identifier: MIT */
/* The files that mappings point to, for track.c: each name once per identity (the maj/min/ino
 * or build-id an MMAP2 gives; a file replaced under the same name is a new entry), with a hit
 * flag and a count of the mappings using it. A fixed table from the arena; when it is full,
 * a slot no mapping uses and nothing hit is reused. */
#ifndef TINYPERF_RECORDER_TRACK_DSOS_H
#define TINYPERF_RECORDER_TRACK_DSOS_H

#include "libc-shim/types.h"
#include "recorder/base/arena.h"

/* a file's device and inode, laid out as in MMAP2 (so the record's bytes are copied) */
struct dso_fid {
	uint32_t maj, min;
	uint64_t ino;
};

struct dso {
	char *name;			/* NULL: a free slot */
	uint32_t hash, hnext, refs;	/* hnext: index + 1 of the next in the bucket, 0 ends */
	uint32_t name_size;		/* with its NUL; also makes the entry 64 bytes on 32-bit
					 * targets: an index is a shift, not a multiply */
	struct dso_fid fid;
	uint8_t bid[20], bid_size, kind;
	bool hit, has_ino;
};

/* what a mapping record tells about its file */
struct dso_ident {
	const void *fid;		/* a struct dso_fid's bytes (in the record), or NULL */
	const uint8_t *bid;
	uint8_t bid_size;		/* 0: no build-id */
};

struct dsos {
	struct arena *arena;
	struct dso *v;
	uint32_t *buckets;		/* index + 1 of the first entry, 0 = empty */
	uint32_t mask, nr, max;
	uint32_t free_from;		/* every entry below it is in use */
	bool mark_all;			/* every entry counts as hit (--buildid-all) */
};

/* room for max files in d, zeroed by the caller (inside track__init's struct track):
 * 0 or -TP_ENOMEM */
int dsos__init(struct dsos *d, struct arena *a, uint32_t max);
/* index of the entry for this file and kind, created if new; -TP_ENOSPC when the table is full
 * of used entries, -TP_ENOMEM when the name cannot be stored */
int dsos__get(struct dsos *d, const char *name, uint8_t kind, const struct dso_ident *id);
/* free every entry no mapping uses and nothing hit (its slot and name memory are reused
 * first), so the table holds only what is live instead of every file ever seen */
void dsos__sweep(struct dsos *d);

#endif
