/* SPDX-License-Identifier: MIT */
/* perf.data feature sections (perf-data-format.md §1.4): what each one says, parsed from the
 * file's feature table or from pipe-mode HEADER_FEATURE records, through one table of
 * {id, name, parse, print}. Strings point into the input buffer; lists are allocated. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_FEATURE_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/data/event.h"
#include "host-tools/lib/common/common.h"

struct tp_str_list {
	uint32_t nr;
	const char **v;
};

struct tp_event_desc {
	struct perf_event_attr attr;
	const char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};

struct tp_buildid_entry {
	int32_t pid;			/* -1: the host */
	uint16_t misc;			/* cpumode: PERF_RECORD_MISC_KERNEL or _USER */
	uint8_t id[PERF_BUILD_ID_MAX];
	uint8_t size;
	const char *filename;
};

struct tp_pmu_mapping {
	uint32_t type;
	const char *name;
};

struct tp_text_hash {			/* TP_FEAT_TEXT_HASH entry */
	uint64_t hash;			/* tp_text_hash() of the DSO's executable segment */
	const char *filename;
};

struct tp_section {
	const uint8_t *data;
	size_t size;
	uint64_t offset;		/* in the input */
};

struct tp_embsyms;

struct tp_features {
	uint64_t present[HEADER_FEAT_BITS / 64];	/* sections that parsed */
	struct tp_section sect[HEADER_FEAT_BITS];	/* raw bytes of each */
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	struct tp_str_list cmdline;
	struct tp_event_desc *events;
	uint32_t nr_events;
	struct tp_str_list core_siblings, thread_siblings;	/* CPU_TOPOLOGY */
	struct tp_pmu_mapping *pmus;
	uint32_t nr_pmus;
	struct tp_buildid_entry *build_ids;	/* BUILD_ID section and HEADER_BUILD_ID records */
	size_t nr_build_ids, cap_build_ids;
	struct tp_text_hash *text_hashes;	/* tinyperf's TP_FEAT_TEXT_HASH */
	uint32_t nr_text_hashes;
	struct tp_embsyms *embsyms;		/* tinyperf's TP_FEAT_SYMTAB (symembed.h) */
	uint64_t first_sample_time, last_sample_time;
	uint64_t clockid_res_ns;
	struct {
		uint32_t version, type, level, ratio, mmap_len;
	} compressed;
};

/* "HOSTNAME", "text_hash" (tinyperf's), ... or NULL for an id we do not know */
const char *tp_feature_name(uint32_t id);

static inline bool tp_features__has(const struct tp_features *f, uint32_t id)
{
	return id < HEADER_FEAT_BITS && (f->present[id / 64] >> (id % 64) & 1);
}

/* Parse section `id` (bytes at data, from input offset `offset`). Unknown ids are kept as raw
 * sections. 0, or -TP_ERR_BAD_FEATURE (the reason logged as a warning) / -TP_ERR_NOMEM. */
int tp_features__parse(struct tp_features *f, uint32_t id, const uint8_t *data, size_t size,
		       uint64_t offset, bool swap, const struct tp_log *log);
int tp_features__add_build_id(struct tp_features *f, const struct tp_ev_build_id *b,
			      uint16_t misc);
void tp_features__release(struct tp_features *f);

/* "%02x" * size into buf (2 * PERF_BUILD_ID_MAX + 1 bytes); "" when size is 0 */
char *tp_build_id_hex(const uint8_t *id, uint8_t size, char *buf);

/* Text output without printing: each line (no newline) goes to the callback. */
struct tp_printer {
	void (*line)(void *ctx, const char *line);
	void *ctx;
};

__attribute__((format(printf, 2, 3)))
void tp_printer__printf(const struct tp_printer *out, const char *fmt, ...);

/* every present feature, in id order, like perf report --header-only ("# hostname : vm") */
void tp_features__print(const struct tp_features *f, const struct tp_printer *out);
/* one event's description ("name = cpu-clock, id = { 8 }, type = 1, ...") */
void tp_event_desc__print(const struct perf_event_attr *attr, const char *name,
			  const uint64_t *ids, uint32_t nr_ids, const struct tp_printer *out);

#endif
