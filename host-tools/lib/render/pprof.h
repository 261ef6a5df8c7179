/* A profile in pprof's format (profile.proto, gzip-compressed), from the call paths of one
 * hist pair per event: sample types per event (samples/count and the event's unit), one
 * Mapping per DSO with its build-id (or tinyperf's code hash), one Location and Function per
 * symbol, labels for the thread's name, pid and tid. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_PPROF_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/frames/frames.h"

struct tp_pprof_event {
	const char *type, *unit;	/* its value's: "cpu" and "nanoseconds" for cpu-clock,
					 * else its name and "count" */
	struct tp_hist *counts;		/* its samples' paths, one sample counting one, keyed by
					 * comm, pid and tid */
	struct tp_hist *periods;	/* the same samples weighted by their period */
	uint64_t period;		/* its sample period, 0 in frequency mode */
};

struct tp_pprof_conf {
	const struct tp_pprof_event *events;
	uint32_t nr_events;
	int64_t time_nanos;		/* when the recording started (0: unknown) */
	int64_t duration_nanos;
	const char *const *comments;	/* "hostname: ..." */
	uint32_t nr_comments;
};

/* the gzip-compressed Profile to f: 0, -TP_ERR_NOMEM, -TP_ERR_IO when writing failed, or
 * -TP_ERR_INVAL when a pair of hists do not hold the same paths */
int tp_pprof__write(const struct tp_pprof_conf *conf, const struct tp_symcache *c, FILE *f);

#endif
