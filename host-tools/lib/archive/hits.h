/* SPDX-License-Identifier: MIT */
/* The DSOs a recording needs symbols for: those its samples hit, at the sampled ip or
 * anywhere on a callchain or an unwound user stack (a report with call graphs names those
 * frames too, and unwinding needs their tables). What the archive packs and what
 * buildid-cache --missing checks. */
#ifndef TINYPERF_HOST_TOOLS_LIB_ARCHIVE_HITS_H
#define TINYPERF_HOST_TOOLS_LIB_ARCHIVE_HITS_H

#include <stddef.h>

#include "host-tools/lib/session/session.h"
#include "host-tools/lib/unwind/unwind.h"

/* Walk the session (its one walk: tp_session__process) and collect the hit DSOs, in the
 * order they were first hit; uw (NULL: none) unwinds the samples that carry a user stack.
 * 0 and *out (free() it), *n; or the walk's -TP_ERR_*. */
int tp_hits__collect(struct tp_session *s, struct tp_unwinder *uw, struct tp_dso ***out,
		     size_t *n);

#endif
