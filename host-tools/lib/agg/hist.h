/* SPDX-License-Identifier: MIT */
/* Aggregation of samples, as perf report does it: entries keyed by sort keys (comm, dso,
 * sym, pid, tid, cpu) with their self and children ("cumulated") weights, totals, and the
 * call paths behind them, from which a per-entry call graph (caller or callee order) or
 * folded stacks are drawn.
 *
 * The library knows no names here: a sample comes in as ids (an interned comm, symbol and
 * DSO ids from the symcache or any other numbering) so it can be tested with made-up ids.
 *
 * Call paths are kept once, in a prefix tree per sort context (the comm/pid/tid/cpu part of
 * the key) rooted at the outermost caller, each node holding the weight of the samples that
 * ended there. Children weights and graphs are derived from that tree when asked, instead
 * of appending every sample's chain to every entry on the way (what perf does, and why its
 * memory grows with depth squared). */
#ifndef TINYPERF_HOST_TOOLS_LIB_AGG_HIST_H
#define TINYPERF_HOST_TOOLS_LIB_AGG_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One stack frame: sym is unique across DSOs (a symbol, or one unresolved address);
 * dso is the DSO it is in. level is shown, never compared: an entry shows the level of the
 * first sample that made it, as perf's ('k' kernel, '.' user, ...). line is the source
 * line's id (any numbering, one per distinct text), 0 when none is kept: entries and call
 * paths tell frames of one symbol apart by it only for the srcline key (and graphs with
 * tp_hconf.graph_lines). */
struct tp_frame {
	uint32_t sym;
	uint32_t dso;
	char level;
	uint32_t line;		/* an id the caller gives its source line; 0: none */
};

/* tp_frame.line with this bit: the id's text is no source line but a stand-in (perf's
 * "sym+off" without line info). It is a srcline sort key of its own, but -g srcline graphs
 * key such a frame by its function alone, as perf's callchains do (their srcline is none) */
#define TP_LINE_NOSRC (1u << 31)

enum tp_hkey {
	TP_HKEY_COMM,
	TP_HKEY_DSO,
	TP_HKEY_SYM,
	TP_HKEY_PID,
	TP_HKEY_TID,
	TP_HKEY_CPU,
	TP_HKEY_SRCLINE,	/* frame.line, as perf's srcline (the text, whatever the symbol) */
	TP_HKEY_MAX
};

/* "comm" -> TP_HKEY_COMM ("symbol" is accepted for sym); -1 if unknown */
int tp_hkey_parse(const char *name, size_t len);
const char *tp_hkey_name(enum tp_hkey k);

struct tp_hconf {
	uint8_t keys[TP_HKEY_MAX];	/* enum tp_hkey, in sort and display order */
	unsigned nr_keys;
	bool paths;			/* keep call paths (children, graphs, folded) */
	bool graph_lines;		/* graphs tell frames apart by line too (else by sym) */
	/* optional: the frame an entry is keyed by, when frames that differ should make one
	 * entry (perf merges DSOs of the same basename); call paths keep the frames as given */
	struct tp_frame (*key_of)(void *ctx, struct tp_frame f);
	void *key_ctx;
};

struct tp_hsample {
	uint32_t comm;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t weight;		/* the period, or 1 to count samples */
	const struct tp_frame *frames;	/* callee order: [0] is where the sample hit */
	uint32_t nr_frames;		/* at least 1 */
};

struct tp_hentry {
	/* the key: fields the sort keys do not use are 0 */
	uint32_t comm;
	int32_t pid, tid;
	uint32_t cpu;
	struct tp_frame frame;		/* with neither dso nor sym keys: {0, 0}; line 0
					 * without the srcline key */
	uint64_t self;			/* weight of the samples that hit here */
	uint64_t children;		/* of the samples with this entry anywhere on their path
					 * (self included); = self without paths */
	uint64_t nr_samples;		/* samples that hit here */
	uint32_t ctx;			/* internal: the key's context */
};

struct tp_hist;

/* 0 or -TP_ERR_NOMEM / -TP_ERR_INVAL (no keys, or a key twice) */
int tp_hist__new(struct tp_hist **out, const struct tp_hconf *conf);
void tp_hist__delete(struct tp_hist *h);

/* one sample: 0 or -TP_ERR_NOMEM / -TP_ERR_INVAL (no frames) */
int tp_hist__add(struct tp_hist *h, const struct tp_hsample *s);
/* a sample that counts in the totals but is not shown (filtered out) */
void tp_hist__add_hidden(struct tp_hist *h, uint64_t weight);

/* After the last sample: children weights, then entries sorted by by_children ? children :
 * self (descending), ties by key. 0 or -TP_ERR_NOMEM. */
int tp_hist__finish(struct tp_hist *h, bool by_children);

/* a weight as perf's percentage of a total (0 for an empty total) */
static inline double tp_hist_pct(uint64_t weight, uint64_t total)
{
	return total ? 100.0 * (double)weight / (double)total : 0.0;
}

uint64_t tp_hist__total(const struct tp_hist *h);		/* weight, hidden included */
uint64_t tp_hist__nr_samples(const struct tp_hist *h);	/* hidden included */
size_t tp_hist__nr_entries(const struct tp_hist *h);
const struct tp_hentry *tp_hist__entry(const struct tp_hist *h, size_t i);	/* sorted */

/* ---- call graphs (callchain.c) ---- */

enum tp_cgorder {
	TP_CG_CALLER,	/* from the outermost caller down to where the samples hit */
	TP_CG_CALLEE,	/* from where the samples hit up to their callers */
};

/* A node of a drawn graph: a run of frames no path branches off or ends inside (as perf's
 * compressed callchain nodes), its weight, and its children sorted by weight. */
struct tp_cgnode {
	const struct tp_frame *frames;
	uint32_t nr_frames;
	uint32_t nr_children;
	uint64_t self;			/* weight of the paths that end at the last frame */
	uint64_t total;			/* self + the children's totals (pruned ones included) */
	struct tp_cgnode *children;
};

struct tp_cgraph {
	struct tp_cgnode root;		/* no frames; its children are the graph's roots */
};

/*
 * The call graph of entry e, perf's way:
 *   children=false: the paths of the samples that hit e;
 *   children=true:  those, plus for every other sample with e on its path the part of the
 *                   path from e towards where it hit (caller order: from e's outermost
 *                   occurrence down; callee order: from e's innermost occurrence up).
 * Nodes whose total is below min_weight are left out (their weight stays in the parent's
 * total). 0 and *out (tp_cgraph__delete() it), or -TP_ERR_NOMEM / -TP_ERR_INVAL (no paths).
 */
int tp_hist__callgraph(struct tp_hist *h, const struct tp_hentry *e, enum tp_cgorder order,
		       bool children, uint64_t min_weight, struct tp_cgraph **out);
void tp_cgraph__delete(struct tp_cgraph *g);

/* Every distinct path that samples ended on, with its weight: frames in caller order
 * (outermost first), e carries the context (comm, pid, tid, cpu as far as the keys have
 * them). A non-zero return of fn stops the walk and is returned. */
int tp_hist__each_path(struct tp_hist *h,
		       int (*fn)(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
				 uint32_t nr, uint64_t weight),
		       void *ctx);
/* the same, with the number of samples too (a path whose samples all weighed 0 is walked,
 * with weight 0) */
int tp_hist__each_path_nr(struct tp_hist *h,
			  int (*fn)(void *ctx, const struct tp_hentry *e,
				    const struct tp_frame *frames, uint32_t nr, uint64_t weight,
				    uint64_t samples),
			  void *ctx);

#endif
