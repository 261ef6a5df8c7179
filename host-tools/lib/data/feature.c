/* SPDX-License-Identifier: MIT */
/* Parsing feature sections: one function per feature, all bounded by the section's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/feature-ops.h"
#include "host-tools/lib/data/symembed.h"

#define BAD(msg) do { *why = (msg); return -TP_ERR_BAD_FEATURE; } while (0)

static int string(const char **dst, struct tp_cur *c, const char **why)
{
	*dst = tp_cur__hdr_string(c);
	if (c->bad)
		BAD("string runs past the section or lacks its NUL");
	return 0;
}

#define STRING_PARSER(field) \
	static int parse_##field(struct tp_features *f, struct tp_cur *c, const char **why) \
	{ return string(&f->field, c, why); }
STRING_PARSER(hostname)
STRING_PARSER(osrelease)
STRING_PARSER(version)
STRING_PARSER(arch)
STRING_PARSER(cpudesc)
STRING_PARSER(cpuid)

/* u32 nr; nr perf header strings. nr is checked against what the section can hold (each
 * string takes at least its 4-byte length) before anything is allocated. */
static int str_list(struct tp_str_list *l, struct tp_cur *c, const char **why)
{
	uint32_t nr = tp_cur__u32(c);
	const char **v;

	free(l->v);
	l->v = NULL;
	l->nr = 0;
	if (c->bad || nr > tp_cur__left(c) / 4)
		BAD("string list count runs past the section");
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		v[i] = tp_cur__hdr_string(c);
		if (c->bad) {
			free(v);
			BAD("string list runs past the section");
		}
	}
	l->v = v;
	l->nr = nr;
	return 0;
}

static int parse_cmdline(struct tp_features *f, struct tp_cur *c, const char **why)
{
	return str_list(&f->cmdline, c, why);
}

static int parse_cpu_topology(struct tp_features *f, struct tp_cur *c, const char **why)
{
	int err = str_list(&f->core_siblings, c, why);

	/* the per-cpu core/socket ids and the die lists after these are optional: not needed */
	return err ? err : str_list(&f->thread_siblings, c, why);
}

static int parse_nrcpus(struct tp_features *f, struct tp_cur *c, const char **why)
{
	f->nr_cpus_avail = tp_cur__u32(c);
	f->nr_cpus_online = tp_cur__u32(c);
	if (c->bad)
		BAD("section shorter than 8 bytes");
	return 0;
}

static int parse_total_mem(struct tp_features *f, struct tp_cur *c, const char **why)
{
	f->total_mem_kb = tp_cur__u64(c);
	if (c->bad)
		BAD("section shorter than 8 bytes");
	return 0;
}

static void free_events(struct tp_features *f)
{
	for (uint32_t i = 0; i < f->nr_events; i++)
		free(f->events[i].ids);
	free(f->events);
	f->events = NULL;
	f->nr_events = 0;
}

/* u32 nr; u32 attr_sz; { attr[attr_sz]; u32 nr_ids; string name; u64 ids[nr_ids] }[nr] */
static int parse_event_desc(struct tp_features *f, struct tp_cur *c, const char **why)
{
	uint32_t nr = tp_cur__u32(c), attr_sz = tp_cur__u32(c);
	struct tp_event_desc *ev;
	char reason[160];

	free_events(f);
	if (c->bad || attr_sz < PERF_ATTR_SIZE_VER0 || attr_sz > 4096 ||
	    nr > tp_cur__left(c) / (attr_sz + 8))
		BAD("event count or attr size runs past the section");
	ev = calloc(nr ? nr : 1, sizeof(*ev));
	if (!ev)
		return -TP_ERR_NOMEM;
	f->events = ev;
	for (uint32_t i = 0; i < nr; i++, f->nr_events++) {
		uint32_t file_size;
		const uint8_t *p = tp_cur__take(c, attr_sz);

		if (!p || tp_attr_parse(p, attr_sz, attr_sz, c->swap, &ev[i].attr, &file_size,
					reason, sizeof(reason)))
			BAD("an event's attr is malformed");
		ev[i].nr_ids = tp_cur__u32(c);
		ev[i].name = tp_cur__hdr_string(c);
		if (c->bad || ev[i].nr_ids > tp_cur__left(c) / 8)
			BAD("an event's name or ids run past the section");
		ev[i].ids = calloc(ev[i].nr_ids ? ev[i].nr_ids : 1, sizeof(uint64_t));
		if (!ev[i].ids)
			return -TP_ERR_NOMEM;
		for (uint32_t j = 0; j < ev[i].nr_ids; j++)
			ev[i].ids[j] = tp_cur__u64(c);
	}
	return 0;
}

int tp_features__add_build_id(struct tp_features *f, const struct tp_ev_build_id *b,
			      uint16_t misc)
{
	struct tp_buildid_entry *e;

	if (TP_GROW(f->build_ids, f->cap_build_ids, f->nr_build_ids + 1, 16))
		return -TP_ERR_NOMEM;
	e = &f->build_ids[f->nr_build_ids++];
	e->pid = b->pid;
	e->misc = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	memcpy(e->id, b->build_id, sizeof(e->id));
	e->size = b->size;
	e->filename = b->filename;
	return 0;
}

/* a run of build-id records, each walked by its header.size */
static int parse_build_id(struct tp_features *f, struct tp_cur *c, const char **why)
{
	while (tp_cur__left(c)) {
		const uint8_t *rec = c->p + c->pos;
		struct tp_ev_build_id b;
		uint16_t size;
		int err;

		if (tp_cur__left(c) < 8)
			BAD("trailing bytes after the last build-id");
		size = tp_ld16(rec + 6, c->swap);
		if (size > tp_cur__left(c) || tp_build_id__decode(rec, size, c->swap, &b))
			BAD("a build-id entry is malformed");
		err = tp_features__add_build_id(f, &b, tp_ld16(rec + 4, c->swap));
		if (err)
			return err;
		tp_cur__take(c, size);
	}
	return 0;
}

static int parse_tracing_data(struct tp_features *f, struct tp_cur *c, const char **why)
{
	(void)f;
	if (tp_cur__left(c) < PERF_TRACING_DATA_MAGIC_LEN ||
	    memcmp(c->p + c->pos, PERF_TRACING_DATA_MAGIC, PERF_TRACING_DATA_MAGIC_LEN))
		BAD("tracing data does not start with its magic");
	return 0;		/* kept as the raw section */
}

static int parse_pmu_mappings(struct tp_features *f, struct tp_cur *c, const char **why)
{
	uint32_t nr = tp_cur__u32(c);

	free(f->pmus);
	f->pmus = NULL;
	f->nr_pmus = 0;
	if (c->bad || nr > tp_cur__left(c) / 8)
		BAD("PMU count runs past the section");
	f->pmus = calloc(nr ? nr : 1, sizeof(*f->pmus));
	if (!f->pmus)
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < nr; i++, f->nr_pmus++) {
		f->pmus[i].type = tp_cur__u32(c);
		f->pmus[i].name = tp_cur__hdr_string(c);
		if (c->bad)
			BAD("a PMU mapping runs past the section");
	}
	return 0;
}

static int parse_sample_time(struct tp_features *f, struct tp_cur *c, const char **why)
{
	f->first_sample_time = tp_cur__u64(c);
	f->last_sample_time = tp_cur__u64(c);
	if (c->bad)
		BAD("section shorter than 16 bytes");
	return 0;
}

static int parse_clockid(struct tp_features *f, struct tp_cur *c, const char **why)
{
	f->clockid_res_ns = tp_cur__u64(c);
	if (c->bad)
		BAD("section shorter than 8 bytes");
	return 0;
}

static int parse_compressed(struct tp_features *f, struct tp_cur *c, const char **why)
{
	f->compressed.version = tp_cur__u32(c);
	f->compressed.type = tp_cur__u32(c);
	f->compressed.level = tp_cur__u32(c);
	f->compressed.ratio = tp_cur__u32(c);
	f->compressed.mmap_len = tp_cur__u32(c);
	if (c->bad)
		BAD("section shorter than 20 bytes");
	return 0;
}

/* u32 nr; { u64 hash; perf header string filename }[nr] */
static int parse_text_hash(struct tp_features *f, struct tp_cur *c, const char **why)
{
	uint32_t nr = tp_cur__u32(c);

	free(f->text_hashes);
	f->text_hashes = NULL;
	f->nr_text_hashes = 0;
	if (c->bad || nr > tp_cur__left(c) / 12)
		BAD("text hash count runs past the section");
	f->text_hashes = calloc(nr ? nr : 1, sizeof(*f->text_hashes));
	if (!f->text_hashes)
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < nr; i++, f->nr_text_hashes++) {
		f->text_hashes[i].hash = tp_cur__u64(c);
		f->text_hashes[i].filename = tp_cur__hdr_string(c);
		if (c->bad)
			BAD("a text hash entry runs past the section");
	}
	return 0;
}

/* perfdata/symtab.h, decoded and checked whole (symembed.h) */
static int parse_symtab(struct tp_features *f, struct tp_cur *c, const char **why)
{
	tp_embsyms__free(f->embsyms);
	f->embsyms = NULL;
	return tp_embsyms__parse(c->p, c->len, c->swap, &f->embsyms, why);
}

#define F(id, name, parse, print) { id, name, parse, tp_feature_print_##print }
static const struct tp_feature_ops table[] = {
	F(HEADER_TRACING_DATA, "TRACING_DATA", parse_tracing_data, tracing_data),
	F(HEADER_BUILD_ID, "BUILD_ID", parse_build_id, build_id),
	F(HEADER_HOSTNAME, "HOSTNAME", parse_hostname, hostname),
	F(HEADER_OSRELEASE, "OSRELEASE", parse_osrelease, osrelease),
	F(HEADER_VERSION, "VERSION", parse_version, version),
	F(HEADER_ARCH, "ARCH", parse_arch, arch),
	F(HEADER_NRCPUS, "NRCPUS", parse_nrcpus, nrcpus),
	F(HEADER_CPUDESC, "CPUDESC", parse_cpudesc, cpudesc),
	F(HEADER_CPUID, "CPUID", parse_cpuid, cpuid),
	F(HEADER_TOTAL_MEM, "TOTAL_MEM", parse_total_mem, total_mem),
	F(HEADER_CMDLINE, "CMDLINE", parse_cmdline, cmdline),
	F(HEADER_EVENT_DESC, "EVENT_DESC", parse_event_desc, event_desc),
	F(HEADER_CPU_TOPOLOGY, "CPU_TOPOLOGY", parse_cpu_topology, cpu_topology),
	F(HEADER_NUMA_TOPOLOGY, "NUMA_TOPOLOGY", NULL, blob),
	F(HEADER_BRANCH_STACK, "BRANCH_STACK", NULL, blob),
	F(HEADER_PMU_MAPPINGS, "PMU_MAPPINGS", parse_pmu_mappings, pmu_mappings),
	F(HEADER_GROUP_DESC, "GROUP_DESC", NULL, blob),
	F(HEADER_AUXTRACE, "AUXTRACE", NULL, blob),
	F(HEADER_STAT, "STAT", NULL, blob),
	F(HEADER_CACHE, "CACHE", NULL, blob),
	F(HEADER_SAMPLE_TIME, "SAMPLE_TIME", parse_sample_time, sample_time),
	F(HEADER_MEM_TOPOLOGY, "MEM_TOPOLOGY", NULL, blob),
	F(HEADER_CLOCKID, "CLOCKID", parse_clockid, clockid),
	F(HEADER_DIR_FORMAT, "DIR_FORMAT", NULL, blob),
	F(HEADER_BPF_PROG_INFO, "BPF_PROG_INFO", NULL, blob),
	F(HEADER_BPF_BTF, "BPF_BTF", NULL, blob),
	F(HEADER_COMPRESSED, "COMPRESSED", parse_compressed, compressed),
	F(HEADER_CPU_PMU_CAPS, "CPU_PMU_CAPS", NULL, blob),
	F(HEADER_CLOCK_DATA, "CLOCK_DATA", NULL, blob),
	F(HEADER_HYBRID_TOPOLOGY, "HYBRID_TOPOLOGY", NULL, blob),
	F(HEADER_PMU_CAPS, "PMU_CAPS", NULL, blob),
	F(HEADER_CPU_DOMAIN_INFO, "CPU_DOMAIN_INFO", NULL, blob),
	/* tinyperf's own, kept as blobs for the commands that use them */
	F(TP_FEAT_TEXT_HASH, "text_hash", parse_text_hash, text_hash),
	F(TP_FEAT_SYMTAB, "symtab", parse_symtab, symtab),
	F(TP_FEAT_RECORD_INFO, "record_info", NULL, blob),
};
#undef F

const struct tp_feature_ops *tp_feature_ops(uint32_t id)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].id == id)
			return &table[i];
	return NULL;
}

const char *tp_feature_name(uint32_t id)
{
	const struct tp_feature_ops *ops = tp_feature_ops(id);

	return ops ? ops->name : NULL;
}

int tp_features__parse(struct tp_features *f, uint32_t id, const uint8_t *data, size_t size,
		       uint64_t offset, bool swap, const struct tp_log *log)
{
	const struct tp_feature_ops *ops = tp_feature_ops(id);
	struct tp_cur c = tp_cur_make(data, size, swap);
	const char *why = "malformed";
	int err = 0;

	if (id >= HEADER_FEAT_BITS)
		return 0;
	f->present[id / 64] &= ~(1ULL << (id % 64));
	f->sect[id] = (struct tp_section){ data, size, offset };
	if (ops && ops->parse)
		err = ops->parse(f, &c, &why);
	if (err == -TP_ERR_BAD_FEATURE) {
		char name[16];

		if (!ops)
			snprintf(name, sizeof(name), "%u", id);
		tp_log__warn(log, "feature %s (%zu bytes at offset %#llx): %s: skipped",
			     ops ? ops->name : name, size, (unsigned long long)offset, why);
	}
	if (!err)
		f->present[id / 64] |= 1ULL << (id % 64);
	return err;
}

void tp_features__release(struct tp_features *f)
{
	free(f->cmdline.v);
	free(f->core_siblings.v);
	free(f->thread_siblings.v);
	free_events(f);
	free(f->pmus);
	free(f->text_hashes);
	tp_embsyms__free(f->embsyms);
	free(f->build_ids);
	memset(f, 0, sizeof(*f));
}
