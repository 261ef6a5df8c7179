/* SPDX-License-Identifier: MIT */
/* Library-internal: the aggregation's state, shared by hist.c (entries, totals, sorting) and
 * callchain.c (graphs and paths drawn from the call-path tree). */
#ifndef TINYPERF_HOST_TOOLS_LIB_AGG_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_AGG_INTERNAL_H

#include "host-tools/lib/agg/hist.h"
#include "host-tools/lib/common/common.h"

#define TP_HNONE UINT32_MAX

/* a sort context: the comm/pid/tid/cpu part of a key, and its call-path tree's root */
struct tp_hctx {
	uint32_t comm;
	int32_t pid, tid;
	uint32_t cpu;
	uint32_t root;			/* node index, TP_HNONE without paths */
	/* the previous sample's path, outermost first: the next one of the same context
	 * usually shares its outer part, found without a lookup */
	uint32_t *last;
	uint64_t *last_key;		/* its frames' line << 32 | sym: compared without a
					 * trip to the nodes */
	uint32_t nr_last, cap_last, cap_last_key;
};

/* A call-path tree node. Nodes are only ever appended, after their parent: index order is
 * a topological order (a parent always has a smaller index than its children). */
struct tp_hnode {
	uint64_t self;			/* weight of the samples that ended here */
	struct tp_frame frame;		/* a context root: {TP_HNONE, ctx} */
	uint32_t parent;		/* TP_HNONE for a context root */
	uint32_t first_child, next;	/* TP_HNONE terminated */
	uint32_t entry;			/* the entry this frame counts for in its context */
	uint32_t nr;			/* samples that ended here */
};

/* a direct-mapped cache in front of node_idx: hot (parent, sym) pairs without a miss */
#define TP_HNODE_CACHE 32768

struct tp_hnode_cache {
	uint32_t parent, sym, line, node;
};

struct tp_hist {
	struct tp_hconf conf;
	bool has[TP_HKEY_MAX];

	struct tp_hctx *ctxs;
	uint32_t nr_ctxs, cap_ctxs;
	struct tp_htab ctx_idx;
	uint32_t last_ctx;		/* the previous sample's, TP_HNONE at first */

	struct tp_hentry *entries;
	uint32_t nr_entries, cap_entries;
	struct tp_htab entry_idx;
	uint32_t *order;		/* sorted entry indexes, after finish */

	struct tp_hnode *nodes;
	uint32_t nr_nodes, cap_nodes;
	struct tp_htab node_idx;	/* (parent, frame.sym) -> child */
	struct tp_hnode_cache *ncache;	/* TP_HNODE_CACHE entries, node TP_HNONE: empty */
	uint64_t *total;		/* per node: self + descendants, after finish */
	uint32_t *scratch;		/* a path (graphs), grown as needed */
	uint32_t cap_scratch;
	uint32_t *by_entry;		/* nodes grouped by entry (for graphs), built when needed */
	uint32_t *by_entry_start;	/* nr_entries + 1 offsets into by_entry */

	uint64_t total_weight, nr_samples;
	bool finished;
};

/* the entry index of e (which must belong to h) */
static inline uint32_t tp_hist__entry_index(const struct tp_hist *h, const struct tp_hentry *e)
{
	return (uint32_t)(e - h->entries);
}

#endif
