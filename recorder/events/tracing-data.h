/* SPDX-License-Identifier: MIT */
/* The TRACING_DATA feature: what a host needs to decode tracepoint samples without the device
 * (the event format files, printk formats, saved cmdlines), read from tracefs. */
#ifndef TINYPERF_RECORDER_EVENTS_TRACING_DATA_H
#define TINYPERF_RECORDER_EVENTS_TRACING_DATA_H

#include "libc-shim/types.h"
#include "recorder/events/events.h"

struct tracing_data {
	uint8_t *buf;      /* a lazily-backed anonymous mapping: untouched pages cost nothing */
	size_t len, cap;
};

/* build the blob for the tracepoint events of l; 0 (len 0 when there are none) or -errno */
int tracing_data__build(struct tracing_data *td, const struct evlist_spec *l);
void tracing_data__free(struct tracing_data *td);

#endif
