/* SPDX-License-Identifier: MIT */
/* While recording, know which DSOs got samples without a post-pass over the data (perf
 * re-reads the whole file at the end; we do not). The command feeds every record it writes,
 * synthesized or read from the rings, to track__record(); at the end track__for_each_hit_dso()
 * lists the files whose build-ids belong in the BUILD_ID feature. It also follows a process
 * tree through FORK records, for recording a command with system-wide per-CPU events.
 *
 * State, all from the caller's arena:
 *   - per process (pid = tgid; threads share it): its executable mappings, sorted, from
 *     MMAP/MMAP2 (data mappings, misc MMAP_DATA, are ignored: samples never point there);
 *     copied to a child on FORK (pid != ppid); emptied on exec (COMM with COMM_EXEC, the
 *     kernel then sends fresh MMAP2s); released on EXIT of the process (pid == tid).
 *     An exited process is kept two more rounds (track__end_round(), or FINISHED_ROUND
 *     records given to track__record) because records from several CPUs' rings arrive out
 *     of order across one round boundary: a sample read after its process's EXIT still
 *     resolves. Without rounds, exited processes are dropped only when the table is full.
 *   - the kernel and modules: MMAP records with cpumode KERNEL ("[kernel.kallsyms]..." is
 *     the kernel, anything else a module).
 *   - DSOs: name plus the identity MMAP2 gives (maj/min/ino, or the build-id when misc has
 *     MMAP_BUILD_ID); a file replaced under the same name is a new DSO.
 *
 * Bounds (struct track_limits, 0 = default) and what happens past them, never a crash:
 *   max_procs (4096)  processes with state. When full, the oldest exited process is dropped,
 *                     else the least recently used one outside the followed tree
 *                     (stats.procs_evicted).
 *   max_maps  (1024, at most 1024)  executable mappings per process; more are not tracked
 *                     (stats.maps_dropped), their samples count as unresolved.
 *   max_dsos  (2048)  distinct files. When full, a slot with no mapping and no hit is reused;
 *                     if there is none the new file is not tracked (stats.dsos_dropped).
 *   max_ids   (1024, at most 4096)  event ids given to track__add_id (-TP_ENOSPC past it).
 * Memory is then at most about max_procs * (64 B + a map array of 16 * 2^k B, 24 B a map)
 * + max_dsos * (64 B + name) + 16 B * max_ids + hash tables; with the defaults and 20
 * executable maps a process, about 2.5 MiB, most of it only touched when that many
 * processes exist. The arena's own limit caps it too (stats.nomem counts failures).
 * Everything a process held goes back to the arena's free lists when it is released, so
 * churn does not grow the footprint.
 *
 * Records are in the machine's byte order (they come from its own kernel). */
#ifndef TINYPERF_RECORDER_TRACK_TRACK_H
#define TINYPERF_RECORDER_TRACK_TRACK_H

#include "libc-shim/types.h"
#include "include/tinyperf/perf_event.h"
#include "recorder/base/arena.h"
#include "recorder/track/dsos.h"

struct ksyms_cache;

#define TRACK_MEMO	128	/* callchain entries the repeat check compares */
#define TRACK_LATER	32	/* user addresses waiting for their mapping */

/* a user address no mapping held when its sample was read: its MMAP2 may be in another
 * CPU's ring, read after this one in the same pass or the next */
struct track_later {
	uint64_t addr;
	uint32_t pid, round;
};

struct track_limits {
	uint32_t max_procs, max_maps, max_dsos, max_ids;
};

struct track_stats {
	uint64_t samples;		/* SAMPLE records seen */
	uint64_t unresolved;		/* sample and callchain addresses in no known mapping (a
					 * sample repeating the one before is not looked at again) */
	uint64_t late;			/* of those, user ones a mapping read later resolved */
	uint64_t bad;			/* records too short or malformed, samples of unknown ids */
	uint64_t procs_evicted;
	uint64_t maps_dropped;
	uint64_t dsos_dropped;
	uint64_t nomem;			/* arena limit reached */
};

enum track_kind { TRACK_USER, TRACK_KERNEL, TRACK_MODULE };

struct track_proc;
struct track_map;
struct addrset;
struct track_id;

/* a circular list through its own head: no end is a special case */
struct track_link {
	struct track_link *next, *prev;
};

/* The fields most used come first: small offsets have the short load and store forms
 * (Thumb-2 below 128 bytes, x86 below 128 too). */
struct track {
	/* the last sample's pid, cpumode, ip and callchain: a sample that repeats it (an idle
	 * CPU's, a loop's) has nothing new to mark, and is skipped after one compare */
	uint64_t memo_ip;
	uint32_t memo_pid, memo_nr, memo_gen;
	uint16_t memo_mode;
	bool memo_ok;
	uint8_t fixed_nr;		/* u64s before the callchain (IDENTIFIER ... PERIOD) */
	uint64_t fixed_type;		/* in the last sample_type seen */
	/* processes */
	struct track_proc **phash;
	uint32_t phash_mask, nr_procs, round;
	struct track_proc *kernel;	/* kernel and module maps */
	/* last lookups */
	struct track_proc *last_proc;
	const struct track_map *last_user, *last_kernel;
	struct dsos dsos;		/* the files the maps point to */
	struct arena *arena;
	struct track_link lru;		/* live, least recently used first */
	struct track_link zombies;	/* exited, oldest first */
	/* event ids -> sample_type */
	struct track_id *ids;
	uint32_t nr_ids, last_id;
	uint64_t type;			/* the sample_type of all ids, unless mixed */
	bool mixed;			/* several sample_types: find each by its IDENTIFIER */
	struct track_limits lim;
	struct track_stats stats;	/* read it freely; counted in host builds only (the
					 * unit tests): the device recorder never reads them,
					 * so a CONFIG_REC_RECORD build leaves them 0 */
	struct addrset *as;		/* sampled addresses for embedded symbols, or NULL */
	uint8_t vdso_classes;		/* [vdso] maps seen: bit 0 below 4 GiB, bit 1 above
					 * (kept with CONFIG_REC_EMBED_SYMBOLS only) */
	uint64_t kmax;			/* the highest kernel (not module) address sampled
					 * that the cache below does not cover */
	struct ksyms_cache *kc;		/* kernel functions named before, or NULL */
	bool kmods;			/* a module address was */
	uint64_t memo[TRACK_MEMO];	/* the callchain of the memo (the first fields) */
	struct track_later later[TRACK_LATER];
	uint32_t nr_later;
};

/* lim may be NULL (defaults). Tables are allocated here: 0 or -TP_ENOMEM. */
int track__init(struct track *t, struct arena *a, const struct track_limits *lim);

/* Tell which sample_type the samples of event id carry. With a single sample_type (one
 * attr, or several alike) samples need no IDENTIFIER: give any id, e.g. 0. With several,
 * every one must have PERF_SAMPLE_IDENTIFIER. -TP_EINVAL for PERF_SAMPLE_READ (the callchain
 * after it cannot be found without the read_format; tinyperf does not use it) or a mix
 * without IDENTIFIER; -TP_ENOSPC past max_ids; -TP_ENOMEM. */
int track__add_id(struct track *t, uint64_t id, uint64_t sample_type);

/* One whole record (h->size bytes from h). 0, or -TP_EINVAL for a malformed record (also
 * counted in stats.bad; the caller may go on). Limits reached are counted, not errors. */
int track__record(struct track *t, const struct perf_event_header *h);

/* After each pass over all the rings (where the writer's FINISHED_ROUND goes): processes
 * that exited two rounds ago are released, and user addresses no mapping held when their
 * sample was read are looked up again (up to TRACK_LATER of them, for two rounds: records
 * from several CPUs' rings arrive out of order across one round boundary, a sample before
 * the MMAP2 of its library when the process moved to another CPU in between). */
void track__end_round(struct track *t);

/* Every process forgotten, its memory back to the pools, and the DSOs nothing maps and
 * nothing hit with them (the kernel and its modules stay): a
 * flight-recorder snapshot reads its ring newest first (an EXIT before its FORK), so it
 * starts from the tail synthesis instead, and nothing piles up from snapshot to snapshot. */
void track__forget_procs(struct track *t);

/* Follow the process tree rooted at pid: it and every process forked from a member (FORK
 * records) are members until they exit. 0 or -TP_ENOMEM. */
int track__set_root(struct track *t, uint32_t pid);
bool track__in_tree(struct track *t, uint32_t pid);

/* --buildid-all: every DSO known now or later counts as hit */
void track__mark_all(struct track *t);

/* a new output file (--switch-output): no DSO hit yet (but every one under --buildid-all) */
void track__reset_hits(struct track *t);

/* Calls cb for each hit DSO (any name the maps had: paths, "[vdso]", "//anon"... the caller
 * picks what can have a build-id); the kernel is "[kernel.kallsyms]", modules keep the name
 * of their MMAP ("[ext4]"). build_id is NULL unless an MMAP2 carried it. A non-zero return
 * from cb stops the walk and is returned. */
typedef int (*track_dso_cb)(void *ctx, const char *path, enum track_kind kind,
			    const uint8_t *build_id, uint8_t build_id_size);
int track__for_each_hit_dso(struct track *t, track_dso_cb cb, void *ctx);

#endif
