/* SPDX-License-Identifier: MIT */
/* Encoders for the feature sections tinyperf writes (perf-data-format.md §1.4). Each appends
 * one payload to f (in f's byte order, see tp_writer__fbuf) and on success describes it in
 * *out for tp_writer__pipe_features()/tp_writer__close(); the payload stays in f's memory, which
 * must live until the writer has sent it. Returns 0 or f's sticky error (-TP_ENOSPC ...). */
#ifndef TINYPERF_PERFDATA_FEATURES_H
#define TINYPERF_PERFDATA_FEATURES_H

#include <stdint.h>

#include "perfdata/fbuf.h"
#include "perfdata/writer.h"

/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one perf header string */
int tp_feat__string(struct tp_fbuf *f, struct tp_feat *out, uint32_t id, const char *s);
/* NRCPUS: cpus available (highest present + 1) and online */
int tp_feat__nrcpus(struct tp_fbuf *f, struct tp_feat *out, uint32_t avail, uint32_t online);
/* TOTAL_MEM: MemTotal in kB */
int tp_feat__total_mem(struct tp_fbuf *f, struct tp_feat *out, uint64_t kb);
/* CMDLINE: perf puts its own path in argv[0] */
int tp_feat__cmdline(struct tp_fbuf *f, struct tp_feat *out, uint32_t argc,
		     const char *const *argv);
/* EVENT_DESC: names and ids of the writer's attrs, attrs stored with attr_size bytes */
int tp_feat__event_desc(struct tp_fbuf *f, struct tp_feat *out,
			const struct tp_writer_attr *attrs, uint32_t nr, uint32_t attr_size);
/* SAMPLE_TIME: first and last sample time */
int tp_feat__sample_time(struct tp_fbuf *f, struct tp_feat *out, uint64_t first, uint64_t last);

/* one DSO's build-id */
struct tp_build_id {
	uint16_t cpumode;		/* PERF_RECORD_MISC_KERNEL (kernel, modules) or _USER */
	const uint8_t *id;
	uint8_t size;			/* 1..20 (lld and xxhash ids are shorter than SHA1's) */
	const char *filename;		/* as in the MMAP records; "[kernel.kallsyms]", "[vdso]" */
};

/* one HEADER_BUILD_ID record (for the section or the pipe): pid -1, id zero-padded to 20 with
 * its size byte and MISC_BUILD_ID_SIZE, size ALIGN(36 + strlen(filename) + 1, 8) */
int tp_fbuf__build_id(struct tp_fbuf *f, const struct tp_build_id *b);
/* BUILD_ID: those records back to back */
int tp_feat__build_id(struct tp_fbuf *f, struct tp_feat *out, const struct tp_build_id *ids,
		      uint32_t nr);

/* a payload built elsewhere, used in place: TRACING_DATA (the tracing-data blob, §1.8) or a
 * private TP_FEAT_* section */
void tp_feat__blob(struct tp_feat *out, uint32_t id, const void *data, size_t size);

#endif
