/* SPDX-License-Identifier: MIT */
/* Library-internal: the symcache's state, shared by symcache.c (DSOs, symbols, addresses)
 * and frames/thread.c (stacks through the location caches, comms). */
#ifndef TINYPERF_HOST_TOOLS_LIB_FRAMES_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_FRAMES_INTERNAL_H

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/frames/frames.h"

#define KERNEL_NAME	"[kernel.kallsyms]"
#define NONE		UINT32_MAX

/* The one (DSO, address) cache (addr_idx): the symbolizer's answer, looked up once, and the
 * frame made of it. The symbolizer keeps none of its own (see tp_symbolizer__lookup()). */
struct addr_ent {
	uint64_t addr;
	uint32_t dso_lvl;		/* dso id << 8 | level (level only for id 0) */
	uint32_t sym;
	uint64_t off;
	const struct tp_symres *res;	/* for tp_symcache__where(); NULL: none */
};

struct ptr_ent {
	const void *p;
	uint32_t id;
};

typedef char *demangle_fn(const char *name, char *buf, size_t *len, int *status);

/* A direct-mapped cache of recent locations: (process, ip, cpumode) -> frame, skipping the
 * map search and the hash probes for the frames every stack repeats. Entries of an older
 * generation of their process's maps (or of the kernel's, for kernel addresses) are stale:
 * an mmap or exec in one process leaves the others' entries alone. */
#define L1_SIZE 16384

/* Behind it, (DSO, address) -> frame for the addresses every process of a program shares:
 * a new process (a fork, a compiler run) starts with an empty L1 line but a warm L2. */
#define L2_SIZE 65536

/* Both start at CACHE_FIRST slots and grow four-fold, up to the sizes above, each time they
 * have been filled as often as half their slots: a recording whose stacks hold a thousand
 * locations touches some 100 KiB of them, not 5 MiB (a page fault and a zeroed page for
 * each 4 KiB: a tenth of report -g's time on a short dwarf-mode recording). */
#define CACHE_FIRST 1024

struct l2_ent {
	const struct tp_dso *dso;
	uint64_t addr;
	bool used;
	struct tp_frame f;
	uint64_t off;
};

struct l1_ent {
	const void *proc;		/* NULL for kernel addresses */
	uint64_t ip;
	uint32_t gen;			/* 0: empty */
	uint8_t cpumode;
	struct tp_frame f;
	uint64_t addr, off;
};

struct tp_symcache {
	struct tp_session *s;
	struct tp_symbolizer *sym;
	struct tp_log log;		/* the caller's */
	const struct tp_features *feat;
	bool no_demangle, demangle_tried, kernel_tried;
	bool want_inlines;		/* conf.sym.want_inlines */
	bool addr_ids;			/* conf.addr_ids */
	demangle_fn *demangle;
	void *libcxx;
	uint32_t cur_dso;		/* gets the symbolizer's warnings, NONE */
	struct l1_ent *l1;
	struct l2_ent *l2;
	uint32_t l1_mask, l2_mask;	/* their slots - 1 */
	uint32_t l1_fills, l2_fills;	/* since they last grew */
	uint32_t gen;			/* the last generation handed out */
	uint32_t kernel_gen;
	struct pid_gen {
		int32_t pid;
		uint32_t gen;
	} *pid_gens;			/* the generation of each process's maps */
	uint32_t nr_pid_gens, cap_pid_gens;
	struct tp_htab pid_gen_idx;
	int32_t last_pid;		/* a one-entry cache in front of it */
	uint32_t last_gen;

	struct tp_cdso *dsos;
	uint32_t nr_dsos, cap_dsos;
	struct ptr_ent *dso_ptrs;	/* session DSO -> id, indexed by dso_idx */
	uint32_t cap_dso_ptrs;
	struct tp_htab dso_idx;

	struct tp_htab dso_cls_idx;	/* by short name */

	struct tp_csym *syms;
	uint32_t nr_syms, cap_syms;
	struct tp_htab sym_idx;
	struct tp_htab sym_cls_idx;	/* by (DSO class, address, resolved) */

	struct addr_ent *addrs;
	uint32_t nr_addrs, cap_addrs;
	struct tp_htab addr_idx;

	const char **comms;
	uint32_t nr_comms, cap_comms;
	struct tp_htab comm_idx;	/* by content */
	struct ptr_ent *comm_ptrs;	/* by the address of a thread's comm */
	uint32_t nr_comm_ptrs, cap_comm_ptrs;
	struct tp_htab comm_ptr_idx;

	/* the user stacks of dwarf-mode samples: made on the first one */
	struct tp_unwinder *uw;
	struct tp_uwframe uwf[TP_UW_MAX_STEPS];

	char **owned;			/* strings made here */
	uint32_t nr_owned, cap_owned;
};

struct ptr_key {
	const struct ptr_ent *v;
	const void *p;
};

/* an htab equality over ptr_ent arrays (ctx: a ptr_key) */
bool tp_ptr_key_eq(const void *k, uint32_t i);
uint32_t tp_str_hash(const char *s);
/* p, kept until the symcache goes (freed and NULL if it cannot be) */
char *tp_symcache__own(struct tp_symcache *c, char *p);

/* the location caches (thread.c): both at their first size (NULL if out of memory); L2's
 * slot of a location; v into L2's slot e, which then may grow (e is gone) */
void tp_symcache__caches(struct tp_symcache *c);
struct l2_ent *tp_symcache__l2(const struct tp_symcache *c, const struct tp_dso *d,
			       uint64_t addr);
void tp_symcache__l2_fill(struct tp_symcache *c, struct l2_ent *e, const struct l2_ent *v);

/* conf.sym.want_inlines: put the inlined functions in front of each frame (symcache.c):
 * 0 or -TP_ERR_NOMEM */
int tp_symcache__add_inlines(struct tp_symcache *c, struct tp_chain *ch);

#endif
