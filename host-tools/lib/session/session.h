/* SPDX-License-Identifier: MIT */
/* The session: replays a reader's records in time order and keeps the state they describe —
 * threads (pid/tid -> comm), each process's memory maps, the kernel's maps, the DSOs with
 * their build-ids and sample hits — and hands each sample to the caller with its thread and
 * the map its ip falls in.
 *
 * Ordering, as perf does it: records with a timestamp (samples, and the others when the
 * attr has sample_id_all) go into a queue sorted by time; at each FINISHED_ROUND the queue is
 * flushed up to the newest time seen before the previous round, and completely at the end.
 * Records without a time (time 0: synthesized at start; or no PERF_SAMPLE_TIME at all) and
 * user records (type >= 64) are handled as they are read, so streams without timestamps
 * pass straight through in file order.
 *
 * Addresses delivered (struct tp_loc.addr):
 *   user maps:            ip - map.start + map.pgoff, the offset in the mapped file. To get
 *                         an ELF virtual address, add the DSO's load bias (for a segment
 *                         with p_offset/p_vaddr: addr - p_offset + p_vaddr) — the
 *                         symbolizer's job, it has the ELF.
 *   kernel and modules:   the runtime kernel virtual address, unchanged. vmlinux symbols
 *                         are relocated with tp_session__kernel_ref() (runtime address of
 *                         _text, from the "[kernel.kallsyms]_text" MMAP's pgoff), module
 *                         symbols with map.start (the module's load address).
 * Pointers to maps are valid during the callback only; threads and DSOs for the session's
 * life. */
/* Layer session: may use common/, data/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SESSION_SESSION_H
#define TINYPERF_HOST_TOOLS_LIB_SESSION_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/lib/data/data.h"

struct tp_dso {
	const char *name;		/* path as mapped, "[kernel.kallsyms]", "[vdso]" (as perf:
					 * "[vdso32]", "[vdsox32]" in 32-bit and x32 processes) */
	uint8_t build_id[PERF_BUILD_ID_MAX];
	uint8_t build_id_size;		/* 0: none known */
	uint64_t text_hash;		/* tinyperf's TP_FEAT_TEXT_HASH for DSOs without a
					 * build-id, 0: none */
	bool kernel;			/* the kernel or a module */
	uint64_t hits;			/* samples whose ip resolved into it */
	char *own_name;			/* name when the session made it up (freed with it) */
	uint8_t elf_type;		/* internal: TP_ELF_* of the file at name on this host */
};

struct tp_map {
	uint64_t start, end;		/* [start, end) */
	uint64_t pgoff;			/* file offset of start (kernel map: runtime _text) */
	struct tp_dso *dso;
	uint32_t prot, flags;		/* MMAP2, else 0 */
};

struct tp_proc;

struct tp_thread {
	int32_t pid, tid;
	const char *comm;		/* NULL until a COMM (or a fork) names it */
	bool exited;
	struct tp_proc *proc;		/* maps shared by the process's threads */
};

struct tp_loc {
	const struct tp_map *map;	/* NULL: not in any known map */
	struct tp_dso *dso;
	uint64_t addr;			/* see the top of this file */
	uint8_t cpumode;		/* PERF_RECORD_MISC_KERNEL, _USER, ... */
};

struct tp_session_ops {
	/* every record, in delivery order, after the session applied it (optional) */
	int (*event)(void *ctx, const struct tp_event *ev, struct tp_thread *thread);
	/* PERF_RECORD_SAMPLE, with its thread and where its ip is (optional) */
	int (*sample)(void *ctx, const struct tp_event *ev, struct tp_thread *thread,
		      const struct tp_loc *loc);
	/* a non-zero return stops the walk: tp_session__process() returns it */
};

struct tp_session;

/* the reader must outlive the session; 0 or -TP_ERR_NOMEM */
int tp_session__new(struct tp_session **out, struct tp_reader *r);
void tp_session__delete(struct tp_session *s);

/* Walk every record once (call it once per session): 0 at the end, a callback's non-zero
 * return, or a fatal -TP_ERR_* of the reader (corrupt records are skipped, not fatal). */
int tp_session__process(struct tp_session *s, const struct tp_session_ops *ops, void *ctx);

/* where addr is, for a thread and a cpumode (e.g. each callchain entry); true if in a map */
bool tp_session__resolve(struct tp_session *s, const struct tp_thread *thread, uint8_t cpumode,
			 uint64_t addr, struct tp_loc *loc);
struct tp_thread *tp_session__thread(struct tp_session *s, int32_t tid);

/* DSOs in the order they were first seen; build-ids come from the BUILD_ID feature,
 * HEADER_BUILD_ID records and MMAP2 records that carry one */
size_t tp_session__nr_dsos(const struct tp_session *s);
struct tp_dso *tp_session__dso(const struct tp_session *s, size_t i);

/* the kernel relocation reference: name ("_text") and its runtime address; false if the
 * file has none (no kernel MMAP, or kptr_restrict hid it: pgoff 0) */
bool tp_session__kernel_ref(const struct tp_session *s, const char **name, uint64_t *addr);

#endif
