/* SPDX-License-Identifier: MIT */
/* Records decoded into native structs. Integers are converted to the host byte order;
 * strings and opaque byte runs (raw tracepoint data, user stack, aux) point into the input
 * buffer; u64 arrays (callchain, branch stack, registers, read values) are converted into the
 * reader's scratch memory. Pointers stay valid until the next decode on the same reader.
 * Byte runs stay in the recorder's byte order: tp_reader__swapped() says which it is. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_EVENT_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/tinyperf/perf_data.h"

/* One event of the file: its attr in native layout and what the file says about it. */
struct tp_attr {
	struct perf_event_attr attr;	/* zero-extended to our size, native byte order */
	uint32_t index;			/* position among the file's attrs */
	uint32_t file_size;		/* attr.size on disk (0 read as VER0) */
	uint64_t *ids;
	uint32_t nr_ids;
	const char *name;		/* from EVENT_DESC, or NULL */
	uint16_t id_hdr_size;		/* sample_id trailer size if sample_id_all, else 0 */
};

/* The fields a sample and a sample_id trailer share; which are set: tp_event.sid_type. */
struct tp_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;			/* IDENTIFIER or ID */
	uint64_t stream_id;
	uint32_t cpu;
};

struct tp_read_value {
	uint64_t value, id, lost;	/* id/lost: 0 unless PERF_FORMAT_ID/LOST */
};

struct tp_read {
	uint64_t time_enabled, time_running;
	uint32_t nr;			/* 1 unless PERF_FORMAT_GROUP */
	const struct tp_read_value *values;
};

struct tp_branch_entry {
	uint64_t from, to;
	uint64_t flags;			/* byte-swapped as a u64; bitfields as the recorder laid them */
};

struct tp_regs {
	uint64_t abi;			/* 0: no registers (e.g. a kernel thread) */
	uint64_t mask;			/* attr's sample_regs_user / sample_regs_intr */
	uint32_t nr;
	const uint64_t *regs;
};

struct tp_ev_sample {
	uint64_t ip, addr, period;
	struct tp_read read;
	uint64_t callchain_nr;
	const uint64_t *callchain;	/* with PERF_CONTEXT_* markers, as recorded */
	uint32_t raw_size;
	const uint8_t *raw;		/* recorder byte order */
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* if branch_sample_type has HW_INDEX */
	const struct tp_branch_entry *branches;
	const uint64_t *branch_counters; /* if branch_sample_type has COUNTERS, else NULL */
	struct tp_regs regs_user, regs_intr;
	uint64_t stack_size, stack_dyn_size;
	const uint8_t *stack;
	uint64_t weight;		/* WEIGHT, or var1 of WEIGHT_STRUCT */
	uint16_t weight_var2, weight_var3; /* WEIGHT_STRUCT */
	uint64_t data_src, transaction, phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	const uint8_t *aux;
};

/* MMAP and MMAP2 */
struct tp_ev_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;		/* MMAP2 without a build-id */
	uint64_t ino, ino_generation;
	uint8_t build_id[PERF_BUILD_ID_MAX];
	uint8_t build_id_size;		/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID, else 0 */
	uint32_t prot, flags;		/* MMAP2 */
	const char *filename;
};

struct tp_ev_comm {
	uint32_t pid, tid;
	const char *comm;
	bool exec;			/* PERF_RECORD_MISC_COMM_EXEC */
};

struct tp_ev_task {			/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct tp_ev_lost {			/* LOST (id, lost), LOST_SAMPLES (lost) */
	uint64_t id, lost;
};

struct tp_ev_throttle {			/* THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
};

struct tp_ev_read {
	uint32_t pid, tid;
	struct tp_read values;
};

struct tp_ev_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct tp_ev_pid {			/* ITRACE_START; SWITCH_CPU_WIDE's next/prev task */
	uint32_t pid, tid;
};

struct tp_ev_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *entries;	/* nr (dev, inode) pairs */
};

struct tp_ev_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct tp_ev_bpf {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct tp_ev_cgroup {
	uint64_t id;
	const char *path;
};

struct tp_ev_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;		/* old_len + new_len bytes */
};

struct tp_ev_deferred {			/* CALLCHAIN_DEFERRED */
	uint64_t cookie, nr;
	const uint64_t *ips;
};

/* user-space (perf tool) records */
struct tp_ev_header_attr {		/* pipe mode: one event's attr and ids */
	struct perf_event_attr attr;	/* native, zero-extended */
	uint32_t file_size;
	uint32_t nr_ids;
	const uint64_t *ids;
};

struct tp_ev_build_id {
	int32_t pid;
	uint8_t build_id[PERF_BUILD_ID_MAX];
	uint8_t size;
	const char *filename;
};

struct tp_ev_feature {
	uint64_t feat_id;
	const uint8_t *data;
	size_t size;
};

struct tp_ev_tracing_data {
	uint32_t size;			/* blob bytes after the record (tp_event.extra) */
	const uint8_t *data;
};

struct tp_ev_id_index {
	uint64_t nr;
	uint32_t stride;		/* u64s per entry: 4 (id, idx, cpu, tid) or 6 (+ machine_pid, vcpu) */
	const uint64_t *entries;
};

struct tp_ev_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* newer layout only (has_cycles) */
	uint8_t cap_user_time_zero, cap_user_time_short;
	bool has_cycles;
};

struct tp_ev_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

struct tp_event {
	uint64_t offset;		/* of the record in the input */
	const uint8_t *data;		/* the record, header included, in the file byte order */
	uint32_t type;
	uint16_t misc;
	uint16_t size;			/* header.size */
	uint32_t extra;			/* out-of-band bytes after it (pipe TRACING_DATA, AUXTRACE) */
	const struct tp_attr *attr;	/* the sample's attr / the trailer's; NULL for user records */
	uint64_t sid_type;		/* PERF_SAMPLE_* bits present in sid (0: none) */
	struct tp_sample_id sid;
	union {
		struct tp_ev_sample sample;
		struct tp_ev_mmap mmap;
		struct tp_ev_comm comm;
		struct tp_ev_task task;
		struct tp_ev_lost lost;
		struct tp_ev_throttle throttle;
		struct tp_ev_read read;
		struct tp_ev_aux aux;
		struct tp_ev_pid pid;
		struct tp_ev_namespaces ns;
		struct tp_ev_ksymbol ksymbol;
		struct tp_ev_bpf bpf;
		struct tp_ev_cgroup cgroup;
		struct tp_ev_text_poke text_poke;
		uint64_t hw_id;		/* AUX_OUTPUT_HW_ID */
		struct tp_ev_deferred deferred;
		struct tp_ev_header_attr header_attr;
		struct tp_ev_build_id build_id;
		struct tp_ev_feature feature;
		struct tp_ev_tracing_data tracing_data;
		struct tp_ev_id_index id_index;
		struct tp_ev_time_conv time_conv;
		struct tp_ev_auxtrace auxtrace;
	} u;
};

/* "MMAP2", "SAMPLE", ... or NULL for a type we do not know */
const char *tp_record_name(uint32_t type);

#endif
