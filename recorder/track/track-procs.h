/* SPDX-License-Identifier: MIT */
/* Inside track.c and track-procs.c (the process table and its maps): the shapes they share
 * and the calls between them. Not for other users: track.h is the interface. */
#ifndef TINYPERF_RECORDER_TRACK_TRACK_PROCS_H
#define TINYPERF_RECORDER_TRACK_TRACK_PROCS_H

#include "recorder/track/track.h"

#define MAX_MAPS	1024	/* 1024 maps of 24 bytes fit the largest arena class */

struct track_map {
	uint64_t start, end;
	uint32_t dso;
	uint32_t pgoff;		/* file offset of start, in 4 KiB units, for symembed.c: kept
				 * with CONFIG_REC_EMBED_SYMBOLS only */
};

struct track_proc {
	struct track_link link;			/* lru or zombies list; first: a cast away */
	struct track_proc *hnext;		/* pid hash chain */
	struct track_map *maps;
	uint32_t pid, exit_round;
	uint16_t nr;
	uint16_t size;				/* the maps' block's, in bytes (<= 32 KiB) */
	bool in_tree, zombie;
};

static inline uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 16;

	while (p < n)
		p <<= 1;
	return p;
}

void track__count_call(uint64_t *c);

/* a stats counter, host builds only (nothing in the device recorder reads them; see
 * track.h): a call on 32-bit targets, where the 64-bit increment inline is 3 to 7
 * instructions, one instruction on 64-bit ones */
static inline void count(uint64_t *c)
{
	if (IS_ENABLED(CONFIG_REC_RECORD))
		(void)c;
	else if (sizeof(long) == 8)
		++*c;
	else
		track__count_call(c);
}

static inline int bad(struct track *t)
{
	count(&t->stats.bad);
	return -TP_EINVAL;
}

/* any change to maps or processes: forget the cached lookups */
static inline void invalidate(struct track *t)
{
	t->last_proc = NULL;
	t->last_user = t->last_kernel = NULL;
	t->memo_ok = false;
}

/* index of the first map of p ending after addr (maps are sorted and disjoint) */
uint32_t track_maps__first_after(const struct track_proc *p, uint64_t addr);
/* p maps nothing now (exec) */
void track_maps__clear(struct track *t, struct track_proc *p);
/* map [start, end) of p to dso, over whatever it overlaps (as mmap does) */
void track_maps__insert(struct track *t, struct track_proc *p, uint64_t start, uint64_t end,
			uint32_t dso, uint32_t pgoff);

/* the addresses waiting for their mapping looked up again; kept one more round unless
 * final (track.c) */
void track_later__retry(struct track *t, bool final);

/* pid's process, or NULL; found, it becomes the most recently used */
struct track_proc *track_procs__find(struct track *t, uint32_t pid);
/* pid's process, created if new; NULL when out of memory */
struct track_proc *track_procs__get(struct track *t, uint32_t pid);
/* FORK and EXIT records' bodies (len bytes at b): 0, or bad() when too short */
int track_procs__fork(struct track *t, const uint8_t *b, size_t len);
int track_procs__exit(struct track *t, const uint8_t *b, size_t len);

#endif
