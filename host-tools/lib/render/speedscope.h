/* SPDX-License-Identifier: MIT */
/* A profile in speedscope's file format (JSON): one sampled profile per thread, each sample
 * a distinct stack with the number of samples that ended on it. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_SPEEDSCOPE_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_SPEEDSCOPE_H

#include <stdio.h>

#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/frames/frames.h"

/* The call paths of h (kept with tp_hconf.paths, keyed by comm, pid and tid), one profile
 * per thread named "comm (pid/tid)", the frames named as script --folded names them, with
 * their DSO as the frame's file; name is the file's. 0, -TP_ERR_NOMEM or -TP_ERR_IO. */
int tp_speedscope__write(struct tp_hist *h, const struct tp_symcache *c, const char *name,
			 FILE *f);

#endif
