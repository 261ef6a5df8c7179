/* SPDX-License-Identifier: MIT */
/* Moving a perf_event_attr between byte orders: every integer field is byte-swapped and the
 * bitfield words are re-laid out (see tp_bitrev_bytes64), including the 2-bit precise_ip,
 * whose bit order a plain per-byte reversal would flip. */
#ifndef TINYPERF_PERFDATA_ATTR_H
#define TINYPERF_PERFDATA_ATTR_H

#include "include/tinyperf/perf_event.h"

/* native layout -> the other byte order's layout (for writing a foreign-endian file) */
void tp_attr__to_foreign(struct perf_event_attr *attr);
/* the other byte order's layout -> native (for reading one); the whole struct must be valid,
 * so zero-extend a shorter on-disk attr before calling */
void tp_attr__from_foreign(struct perf_event_attr *attr);

#endif
