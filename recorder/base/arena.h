/* SPDX-License-Identifier: MIT */
/* Memory for the recorder, from anonymous sys_mmap (there is no malloc on the device):
 * a bump arena for data that lives as long as the recording, and size-class pools with free
 * lists for state that comes and goes (per-process maps), so a flight recorder that runs for
 * days through process churn keeps a flat RSS: freed blocks are reused, never returned.
 *
 * Pool classes are 16 << k bytes (16 B .. 32 KiB); a block keeps its class for its whole life,
 * so the memory a class holds is bounded by its peak use. Not thread-safe. */
#ifndef TINYPERF_RECORDER_BASE_ARENA_H
#define TINYPERF_RECORDER_BASE_ARENA_H

#include "libc-shim/types.h"

#define ARENA_CHUNK	(64 * 1024)	/* bytes mapped at a time */
#define ARENA_CLASSES	12		/* 16 B .. 32 KiB */
#define ARENA_MAX_GET	(16u << (ARENA_CLASSES - 1))

struct arena {
	void *chunks;		/* every mapping, linked through its first word */
	char *cur, *end;	/* free part of the current chunk */
	size_t limit;		/* most bytes it may map; 0 = no limit */
	size_t mapped;		/* bytes mapped so far (never shrinks until release) */
	size_t used;		/* bytes handed out and not given back */
	void *free[ARENA_CLASSES];
};

/* limit: most bytes to map in all (0 = no limit) */
void arena__init(struct arena *a, size_t limit);
/* zeroed, 8-byte aligned, lives until arena__release(); NULL past the limit or without memory.
 * Requests larger than a chunk get their own mapping. */
void *arena__alloc(struct arena *a, size_t size);
/* a zeroed block of at least size bytes (<= ARENA_MAX_GET) from its class's free list or
 * the arena; give it back with arena__put(a, p, same size). NULL when out of memory. */
void *arena__get(struct arena *a, size_t size);
void arena__put(struct arena *a, void *p, size_t size);
/* bytes a block of this size really takes (its class), 0 if too large for arena__get */
size_t arena__class_size(size_t size);
/* unmap everything; the arena is empty and usable again afterwards */
void arena__release(struct arena *a);

#endif
