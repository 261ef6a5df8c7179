/* SPDX-License-Identifier: MIT */
/* A profile in pprof's format (profile.proto, gzip-compressed), from the call paths of one
 * hist per event: sample types per event (samples/count and the event's unit), one
 * Mapping per DSO with its build-id (or tinyperf's code hash), a Location per sampled
 * address with its source lines (inlined functions as Lines of their own), a Function per
 * symbol with its file, labels for the thread's name, pid and tid. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_PPROF_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/frames/frames.h"

struct tp_pprof_event {
	const char *type, *unit;	/* its value's: "cpu" and "nanoseconds" for cpu-clock,
					 * else its name and "count" */
	struct tp_hist *periods;	/* its samples' paths weighted by their period, keyed by
					 * comm, pid and tid (tp_hist__each_path_nr() counts them) */
	uint64_t period;		/* its sample period, 0 in frequency mode */
};

struct tp_pprof_conf {
	const struct tp_pprof_event *events;
	uint32_t nr_events;
	/* the hists' frames have their address's id as line (tp_symcache_conf.addr_ids): a
	 * Location per address, with the symbolizer's file:line (else a Location per function,
	 * at its start) */
	bool addr_ids;
	int64_t time_nanos;		/* when the recording started (0: unknown) */
	int64_t duration_nanos;
	const char *const *comments;	/* "hostname: ..." */
	uint32_t nr_comments;
};

/* the gzip-compressed Profile to f: 0, -TP_ERR_NOMEM, -TP_ERR_IO when writing failed, or
 * -TP_ERR_INVAL for over 32 events or a profile over 4 GiB */
int tp_pprof__write(const struct tp_pprof_conf *conf, struct tp_symcache *c, FILE *f);

#endif
