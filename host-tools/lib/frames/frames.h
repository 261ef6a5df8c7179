/* SPDX-License-Identifier: MIT */
/* The names behind a session's samples, each looked up once: locations (a DSO and an
 * address, from tp_session) become frames — a symbol id and a DSO id, the identity that
 * aggregation and printing key on — through the symbolizer, cached per (DSO, address); comm
 * strings are interned to ids. It owns the symbolizer, and keeps what the symbolizer said
 * about each DSO (its source, or why it resolves nothing) for a report header.
 * That (DSO, address) cache is the only one: it keeps the symbolizer's whole answer (lines,
 * inlines) next to the frame made of it, so tp_symcache__where() is a probe of it too, and
 * the symbolizer caches nothing (a second table there, behind this one, was filled once per
 * address and read only by tp_symcache__where()). */
/* Layer frames: may use common/, data/, session/, sym/, agg/, unwind/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_FRAMES_FRAMES_H
#define TINYPERF_HOST_TOOLS_LIB_FRAMES_FRAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/lib/data/data.h"
#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/session/session.h"
#include "host-tools/lib/sym/sym.h"
#include "host-tools/lib/unwind/unwind.h"

struct tp_csym {
	const char *name;	/* NULL: unresolved, shown as its address */
	uint64_t addr;		/* the symbol's start, or the unresolved address (as in tp_loc) */
	uint32_t dso;
	char level;		/* of the first sample that met it (see struct tp_frame) */
	bool inlined;		/* a function inlined where the frame after it in a chain is
				 * (conf.sym.want_inlines); addr is that frame's symbol's */
	uint32_t cls;		/* the first symbol at this address in a DSO of the same
				 * basename: perf's report merges those (see key_frame) */
};

struct tp_cdso {
	const char *name;	/* the path as mapped, "[kernel.kallsyms]", "[xfs]" for a module,
				 * "[unknown]" (id 0: no map) */
	const char *short_name;	/* the basename of a path, else name */
	const struct tp_dso *dso;	/* the session's; NULL for id 0 */
	struct tp_symdso *sd;	/* the symbolizer's; NULL if never looked up (anonymous
				 * memory, id 0) */
	const char *problem;	/* the symbolizer's first warning about it, or NULL */
	bool kernel;
	bool identity;		/* JIT code (/tmp/perf-PID.map): addresses are the ips, as
				 * perf has them for anonymous memory */
	uint32_t cls;		/* the first DSO of the same basename */
};

struct tp_symcache_conf {
	struct tp_symconf sym;	/* for the symbolizer; its log also gets every message */
	const struct tp_features *features;	/* osrelease, read when the kernel is first met */
	bool no_demangle;	/* keep C++ names mangled */
	/* each frame's line is the id of the address it was sampled at (tp_symcache__addr()),
	 * so that call paths tell a function's addresses apart (pprof's Locations) */
	bool addr_ids;
};

/* one sample's stack, callee order ([0] where it hit); the arrays are reused */
struct tp_chain {
	struct tp_frame *frames;
	struct tp_chain_at {
		uint64_t ip;	/* as recorded */
		uint64_t addr;	/* perf script's: in the mapped file for user maps, else ip */
		uint64_t off;	/* from the symbol's start (0 unresolved) */
	} *at;
	uint32_t nr, cap;
};

struct tp_symcache;

/* 0 or -TP_ERR_NOMEM; the session must outlive it */
int tp_symcache__new(struct tp_symcache **out, struct tp_session *s,
		     const struct tp_symcache_conf *conf);
void tp_symcache__delete(struct tp_symcache *c);

/* where loc is, as a frame and the offset into its symbol: 0 or -TP_ERR_NOMEM */
int tp_symcache__resolve(struct tp_symcache *c, const struct tp_loc *loc, struct tp_frame *f,
			 uint64_t *off);
/* A sample's stack: its callchain (PERF_CONTEXT_* markers applied), led by the sample's ip
 * if the callchain does not start there; just the ip without a callchain. A sample with user
 * registers and a stack copy (--call-graph dwarf) gets its user frames from the unwinder
 * after the callchain's (the kernel's, as perf records them then), as perf's report does. With
 * conf.sym.want_inlines, each frame is preceded by the functions inlined there, innermost
 * first (their tp_chain_at is the frame's), as perf's callchains are. loc is where the
 * session put the ip. 0, TP_CHAIN_CORRUPT (an unknown context marker: the stack is left
 * empty, as perf drops it) or -TP_ERR_NOMEM. */
#define TP_CHAIN_CORRUPT 1
int tp_symcache__chain(struct tp_symcache *c, const struct tp_event *ev,
		       const struct tp_thread *t, const struct tp_loc *loc, struct tp_chain *ch);
void tp_chain__release(struct tp_chain *ch);
/* whether a sample had a user stack to unwind (the report header says which DSOs
 * stacks were not unwound through) */
bool tp_symcache__unwinds(const struct tp_symcache *c);
/* every record the session delivers (its event callback), so that cached locations follow
 * the maps as they change */
void tp_symcache__event(struct tp_symcache *c, const struct tp_event *ev);

const struct tp_csym *tp_symcache__sym(const struct tp_symcache *c, uint32_t id);
/* The symbolizer's whole answer for an address of DSO id dso, as in tp_chain_at.addr: with
 * conf.sym.want_lines its file:line, with want_inlines its inline chain. NULL when the DSO
 * resolves nothing (unknown, anonymous, JIT, no file) or without memory. Valid as long as
 * the symcache. */
const struct tp_symres *tp_symcache__where(struct tp_symcache *c, uint32_t dso, uint64_t addr);
/* The frame perf's report would put f's samples under: its sort keys compare DSOs by
 * basename and symbols by address, so the same program built twice at two paths (or run
 * from two copies) makes one entry. For tp_hconf.key_of (ctx: the symcache). */
struct tp_frame tp_symcache__key_frame(void *c, struct tp_frame f);
/* conf.addr_ids: the DSO id and the address (as in tp_chain_at.addr) of a frame's line: 0,
 * or -1 for no such id */
int tp_symcache__addr(const struct tp_symcache *c, uint32_t id, uint32_t *dso, uint64_t *addr);
uint32_t tp_symcache__nr_dsos(const struct tp_symcache *c);
const struct tp_cdso *tp_symcache__dso(const struct tp_symcache *c, uint32_t id);

/* a thread's comm as an id (perf's names for the nameless: "swapper" for tid 0, ":<tid>",
 * ":-1" without a thread): 0 or -TP_ERR_NOMEM */
int tp_symcache__comm(struct tp_symcache *c, const struct tp_thread *t, uint32_t *id);
const char *tp_symcache__comm_str(const struct tp_symcache *c, uint32_t id);

#endif
