/* SPDX-License-Identifier: MIT */
/* perf_event_attr as stored in files (every size perf has used, either byte order) and the
 * names of its bits, for the commands that describe events. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_ATTRS_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/tinyperf/perf_event.h"

/* One on-disk attr at p (avail bytes there) taking `size` bytes, or attr.size bytes (0 meaning
 * VER0) when size is 0: *out gets it zero-extended and in native layout, *file_size the bytes
 * it takes. Bigger than ours is accepted when the bytes we do not know are zero.
 * 0, -TP_ERR_BAD_ATTR or -TP_ERR_ATTR_ABI, with the reason in why (why_len bytes). */
int tp_attr_parse(const uint8_t *p, size_t avail, uint32_t size, bool swap,
		  struct perf_event_attr *out, uint32_t *file_size, char *why, size_t why_len);

/* "IP|TID|TIME" (unknown bits as hex) into buf; returns buf */
char *tp_sample_type_str(uint64_t sample_type, char *buf, size_t len);
char *tp_read_format_str(uint64_t read_format, char *buf, size_t len);
/* kernel name of attr flag bit n ("sample_id_all"), NULL past the known ones */
const char *tp_attr_flag_name(unsigned bit);
/* value of flag bit n of a native attr (precise_ip: the 2-bit value) */
unsigned tp_attr_flag(const struct perf_event_attr *a, unsigned bit);

#endif
