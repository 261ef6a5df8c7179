/* SPDX-License-Identifier: MIT */
/* Compile-time proof that our struct layouts are the ABI's, on whatever target compiles this:
 * every offset and size of perf-data-format.md §1.2, §1.3, §1.5, §1.6, §2.2, §2.3.
 * perf_data.h includes this, so every perfdata/ build (device and host, 32- and 64-bit) checks
 * it. All u64 members sit at multiples of 8 by construction, which is why i386's 4-byte
 * alignment of u64 in structs cannot move anything; the asserts keep it that way. */
#ifndef TINYPERF_INCLUDE_ASSERTS_H
#define TINYPERF_INCLUDE_ASSERTS_H

#include <stddef.h>

#include "perf_event.h"
#include "perf_data.h"

#define TP_ASSERT_OFF(type, member, off) \
	_Static_assert(offsetof(struct type, member) == (off), #type "." #member " at " #off)
#define TP_ASSERT_SIZE(type, size) \
	_Static_assert(sizeof(struct type) == (size), "sizeof " #type " == " #size)

/* §1.2 file header */
TP_ASSERT_OFF(perf_file_section, offset, 0);
TP_ASSERT_OFF(perf_file_section, size, 8);
TP_ASSERT_SIZE(perf_file_section, 16);
TP_ASSERT_OFF(perf_file_header, magic, 0);
TP_ASSERT_OFF(perf_file_header, size, 8);
TP_ASSERT_OFF(perf_file_header, attr_size, 16);
TP_ASSERT_OFF(perf_file_header, attrs, 24);
TP_ASSERT_OFF(perf_file_header, data, 40);
TP_ASSERT_OFF(perf_file_header, event_types, 56);
TP_ASSERT_OFF(perf_file_header, adds_features, 72);
TP_ASSERT_SIZE(perf_file_header, 104);
_Static_assert(sizeof(((struct perf_file_header *)0)->adds_features) == HEADER_FEAT_BITS / 8,
	       "feature bitmap is 256 bits");

/* §1.3 attribute entries: attr then its ids section (attr_size = attr.size + 16) */
TP_ASSERT_OFF(perf_file_attr, attr, 0);
TP_ASSERT_OFF(perf_file_attr, ids, PERF_ATTR_SIZE_VER8);
TP_ASSERT_SIZE(perf_file_attr, PERF_ATTR_SIZE_VER8 + 16);

/* §1.5 build-id record */
TP_ASSERT_OFF(perf_record_header_build_id, header, 0);
TP_ASSERT_OFF(perf_record_header_build_id, pid, 8);
TP_ASSERT_OFF(perf_record_header_build_id, build_id, 12);
TP_ASSERT_OFF(perf_record_header_build_id, data, 12);
TP_ASSERT_OFF(perf_record_header_build_id, size, 32);
TP_ASSERT_OFF(perf_record_header_build_id, reserved1, 33);
TP_ASSERT_OFF(perf_record_header_build_id, reserved2, 34);
TP_ASSERT_OFF(perf_record_header_build_id, filename, 36);
TP_ASSERT_SIZE(perf_record_header_build_id, 36);

/* §1.6 pipe mode */
TP_ASSERT_OFF(perf_pipe_file_header, magic, 0);
TP_ASSERT_OFF(perf_pipe_file_header, size, 8);
TP_ASSERT_SIZE(perf_pipe_file_header, 16);
TP_ASSERT_OFF(perf_record_header_feature, feat_id, 8);
TP_ASSERT_SIZE(perf_record_header_feature, 16);
TP_ASSERT_OFF(perf_record_header_tracing_data, size, 8);
TP_ASSERT_SIZE(perf_record_header_tracing_data, 12);

/* record header (every record) */
TP_ASSERT_OFF(perf_event_header, type, 0);
TP_ASSERT_OFF(perf_event_header, misc, 4);
TP_ASSERT_OFF(perf_event_header, size, 6);
TP_ASSERT_SIZE(perf_event_header, 8);

/* §2.2 perf_event_attr */
TP_ASSERT_OFF(perf_event_attr, type, 0);
TP_ASSERT_OFF(perf_event_attr, size, 4);
TP_ASSERT_OFF(perf_event_attr, config, 8);
TP_ASSERT_OFF(perf_event_attr, sample_period, 16);
TP_ASSERT_OFF(perf_event_attr, sample_freq, 16);
TP_ASSERT_OFF(perf_event_attr, sample_type, 24);
TP_ASSERT_OFF(perf_event_attr, read_format, 32);
TP_ASSERT_OFF(perf_event_attr, flags, 40);
TP_ASSERT_OFF(perf_event_attr, wakeup_events, 48);
TP_ASSERT_OFF(perf_event_attr, wakeup_watermark, 48);
TP_ASSERT_OFF(perf_event_attr, bp_type, 52);
TP_ASSERT_OFF(perf_event_attr, bp_addr, 56);
TP_ASSERT_OFF(perf_event_attr, kprobe_func, 56);
TP_ASSERT_OFF(perf_event_attr, uprobe_path, 56);
TP_ASSERT_OFF(perf_event_attr, config1, 56);
TP_ASSERT_OFF(perf_event_attr, bp_len, 64);
TP_ASSERT_OFF(perf_event_attr, kprobe_addr, 64);
TP_ASSERT_OFF(perf_event_attr, probe_offset, 64);
TP_ASSERT_OFF(perf_event_attr, config2, 64);
TP_ASSERT_OFF(perf_event_attr, branch_sample_type, 72);
TP_ASSERT_OFF(perf_event_attr, sample_regs_user, 80);
TP_ASSERT_OFF(perf_event_attr, sample_stack_user, 88);
TP_ASSERT_OFF(perf_event_attr, clockid, 92);
TP_ASSERT_OFF(perf_event_attr, sample_regs_intr, 96);
TP_ASSERT_OFF(perf_event_attr, aux_watermark, 104);
TP_ASSERT_OFF(perf_event_attr, sample_max_stack, 108);
TP_ASSERT_OFF(perf_event_attr, reserved_2, 110);
TP_ASSERT_OFF(perf_event_attr, aux_sample_size, 112);
TP_ASSERT_OFF(perf_event_attr, aux_action, 116);
TP_ASSERT_OFF(perf_event_attr, sig_data, 120);
TP_ASSERT_OFF(perf_event_attr, config3, 128);
TP_ASSERT_SIZE(perf_event_attr, PERF_ATTR_SIZE_VER8);
/* each version ends where the next field begins */
TP_ASSERT_OFF(perf_event_attr, config2, PERF_ATTR_SIZE_VER0);
TP_ASSERT_OFF(perf_event_attr, branch_sample_type, PERF_ATTR_SIZE_VER1);
TP_ASSERT_OFF(perf_event_attr, sample_regs_user, PERF_ATTR_SIZE_VER2);
TP_ASSERT_OFF(perf_event_attr, sample_regs_intr, PERF_ATTR_SIZE_VER3);
TP_ASSERT_OFF(perf_event_attr, aux_watermark, PERF_ATTR_SIZE_VER4);
TP_ASSERT_OFF(perf_event_attr, aux_sample_size, PERF_ATTR_SIZE_VER5);
TP_ASSERT_OFF(perf_event_attr, sig_data, PERF_ATTR_SIZE_VER6);
TP_ASSERT_OFF(perf_event_attr, config3, PERF_ATTR_SIZE_VER7);

/* §2.3 perf_event_mmap_page */
TP_ASSERT_OFF(perf_event_mmap_page, version, 0);
TP_ASSERT_OFF(perf_event_mmap_page, compat_version, 4);
TP_ASSERT_OFF(perf_event_mmap_page, lock, 8);
TP_ASSERT_OFF(perf_event_mmap_page, index, 12);
TP_ASSERT_OFF(perf_event_mmap_page, offset, 16);
TP_ASSERT_OFF(perf_event_mmap_page, time_enabled, 24);
TP_ASSERT_OFF(perf_event_mmap_page, time_running, 32);
TP_ASSERT_OFF(perf_event_mmap_page, capabilities, 40);
TP_ASSERT_OFF(perf_event_mmap_page, pmc_width, 48);
TP_ASSERT_OFF(perf_event_mmap_page, time_shift, 50);
TP_ASSERT_OFF(perf_event_mmap_page, time_mult, 52);
TP_ASSERT_OFF(perf_event_mmap_page, time_offset, 56);
TP_ASSERT_OFF(perf_event_mmap_page, time_zero, 64);
TP_ASSERT_OFF(perf_event_mmap_page, size, 72);
TP_ASSERT_OFF(perf_event_mmap_page, reserved_1, 76);
TP_ASSERT_OFF(perf_event_mmap_page, time_cycles, 80);
TP_ASSERT_OFF(perf_event_mmap_page, time_mask, 88);
TP_ASSERT_OFF(perf_event_mmap_page, reserved, 96);
TP_ASSERT_OFF(perf_event_mmap_page, data_head, 1024);
TP_ASSERT_OFF(perf_event_mmap_page, data_tail, 1032);
TP_ASSERT_OFF(perf_event_mmap_page, data_offset, 1040);
TP_ASSERT_OFF(perf_event_mmap_page, data_size, 1048);
TP_ASSERT_OFF(perf_event_mmap_page, aux_head, 1056);
TP_ASSERT_OFF(perf_event_mmap_page, aux_tail, 1064);
TP_ASSERT_OFF(perf_event_mmap_page, aux_offset, 1072);
TP_ASSERT_OFF(perf_event_mmap_page, aux_size, 1080);
TP_ASSERT_SIZE(perf_event_mmap_page, 1088);

/* the feature ids the file format and pipe terminator depend on */
_Static_assert(HEADER_HOSTNAME == 3 && HEADER_LAST_FEATURE == 33, "feature ids");
_Static_assert(TP_FEAT_RECORD_INFO < HEADER_FEAT_BITS, "private features fit the bitmap");

#endif
