/* SPDX-License-Identifier: MIT */
/* The symbolizer's --debug-dir trees, indexed by file basename (built once, on first use);
 * the path helpers it builds on are in path.h. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_DEBUGPATH_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_DEBUGPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

struct tp_dd_entry {
	const char *name;	/* basename */
	const char *dir;	/* one of dirs[] */
};

struct tp_debugdirs {
	char **roots;
	size_t n_roots;
	bool indexed;
	char **dirs;
	size_t n_dirs, cap_dirs;
	struct tp_dd_entry *ents;	/* sorted by name, then directory */
	size_t n_ents, cap_ents;
};

/* Returns 0 or -TP_ERR_NOMEM. */
int tp_debugdirs__init(struct tp_debugdirs *d, const char *const *roots, size_t n);
/* Calls fn(ctx, path) for each indexed file named basename, in a stable order, until fn
 * returns nonzero; returns that value, 0 when none did, or -TP_ERR_NOMEM. The trees are
 * walked on the first call (symlinked directories are not followed; source, object and
 * text files are left out of the index). */
int tp_debugdirs__each(struct tp_debugdirs *d, const char *basename,
		       int (*fn)(void *ctx, const char *path), void *ctx);
void tp_debugdirs__exit(struct tp_debugdirs *d);

#endif
