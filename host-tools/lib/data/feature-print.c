/* SPDX-License-Identifier: MIT */
/* Describing feature sections as text lines, in the words of perf report --header-only.
 * Lines go to the caller's tp_printer: the library itself never writes anywhere. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/data/feature-ops.h"

void tp_printer__printf(const struct tp_printer *out, const char *fmt, ...)
{
	char small[256], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf)
			return;
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	out->line(out->ctx, buf);
	if (buf != small)
		free(buf);
}

char *tp_build_id_hex(const uint8_t *id, uint8_t size, char *buf)
{
	buf[0] = 0;
	for (unsigned i = 0; i < size && i < PERF_BUILD_ID_MAX; i++)
		snprintf(buf + 2 * i, 3, "%02x", id[i]);
	return buf;
}

/* a growing line for the lists */
struct line {
	char *buf;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3)))
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !l->cap)
		return;
	if (TP_GROW(l->buf, l->cap, l->len + (size_t)n + 1, 0))
		return;
	va_start(ap, fmt);
	vsnprintf(l->buf + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	l->len += (size_t)n;
}

static void line_init(struct line *l)
{
	l->cap = 256;
	l->len = 0;
	l->buf = malloc(l->cap);
	if (!l->buf)
		l->cap = 0;
	else
		l->buf[0] = 0;
}

static void line_emit(struct line *l, const struct tp_printer *out)
{
	if (l->buf)
		out->line(out->ctx, l->buf);
	free(l->buf);
}

#define STRING_PRINTER(field, label) \
	void tp_feature_print_##field(const struct tp_features *f, uint32_t id, \
				      const struct tp_printer *out) \
	{ (void)id; tp_printer__printf(out, "# " label " : %s", f->field); }
STRING_PRINTER(hostname, "hostname")
STRING_PRINTER(osrelease, "os release")
STRING_PRINTER(version, "perf version")
STRING_PRINTER(arch, "arch")
STRING_PRINTER(cpudesc, "cpudesc")
STRING_PRINTER(cpuid, "cpuid")

void tp_feature_print_nrcpus(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	tp_printer__printf(out, "# nrcpus online : %u", f->nr_cpus_online);
	tp_printer__printf(out, "# nrcpus avail : %u", f->nr_cpus_avail);
}

void tp_feature_print_total_mem(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	tp_printer__printf(out, "# total memory : %llu kB", (unsigned long long)f->total_mem_kb);
}

void tp_feature_print_cmdline(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	struct line l;

	line_init(&l);
	add(&l, "# cmdline : ");
	for (uint32_t i = 0; i < f->cmdline.nr; i++)
		add(&l, "%s ", f->cmdline.v[i]);
	line_emit(&l, out);
}

void tp_event_desc__print(const struct perf_event_attr *a, const char *name,
			  const uint64_t *ids, uint32_t nr_ids, const struct tp_printer *out)
{
	char bits[256];
	struct line l;

	line_init(&l);
	add(&l, "# event : name = %s", name ? name : "(unnamed)");
	if (nr_ids) {
		add(&l, ", id = {");
		for (uint32_t i = 0; i < nr_ids; i++)
			add(&l, "%s %llu", i ? "," : "", (unsigned long long)ids[i]);
		add(&l, " }");
	}
	add(&l, ", type = %u, size = %u, config = %#llx", a->type, a->size,
	    (unsigned long long)a->config);
	add(&l, ", { sample_period, sample_freq } = %llu", (unsigned long long)a->sample_period);
	add(&l, ", sample_type = %s", tp_sample_type_str(a->sample_type, bits, sizeof(bits)));
	if (a->read_format)
		add(&l, ", read_format = %s",
		    tp_read_format_str(a->read_format, bits, sizeof(bits)));
	for (unsigned b = 0; b < PERF_ATTR_NR_BITS; b++) {
		unsigned v = tp_attr_flag(a, b);

		if (v && tp_attr_flag_name(b))
			add(&l, ", %s = %u", tp_attr_flag_name(b), v);
	}
	if (a->config1)
		add(&l, ", config1 = %#llx", (unsigned long long)a->config1);
	if (a->config2)
		add(&l, ", config2 = %#llx", (unsigned long long)a->config2);
	if (a->branch_sample_type)
		add(&l, ", branch_sample_type = %#llx", (unsigned long long)a->branch_sample_type);
	if (a->sample_regs_user)
		add(&l, ", sample_regs_user = %#llx", (unsigned long long)a->sample_regs_user);
	if (a->sample_stack_user)
		add(&l, ", sample_stack_user = %u", a->sample_stack_user);
	if (a->clockid)
		add(&l, ", clockid = %d", a->clockid);
	if (a->sample_max_stack)
		add(&l, ", sample_max_stack = %u", a->sample_max_stack);
	line_emit(&l, out);
}

void tp_feature_print_event_desc(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	for (uint32_t i = 0; i < f->nr_events; i++)
		tp_event_desc__print(&f->events[i].attr, f->events[i].name, f->events[i].ids,
				     f->events[i].nr_ids, out);
}

void tp_feature_print_cpu_topology(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	for (uint32_t i = 0; i < f->core_siblings.nr; i++)
		tp_printer__printf(out, "# sibling sockets : %s", f->core_siblings.v[i]);
	for (uint32_t i = 0; i < f->thread_siblings.nr; i++)
		tp_printer__printf(out, "# sibling threads : %s", f->thread_siblings.v[i]);
}

void tp_feature_print_build_id(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct tp_buildid_entry *b = &f->build_ids[i];
		char hex[2 * PERF_BUILD_ID_MAX + 1];

		tp_printer__printf(out, "# build id : %s %s", tp_build_id_hex(b->id, b->size, hex),
				   b->filename);
	}
}

void tp_feature_print_tracing_data(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	tp_printer__printf(out, "# tracing data : %zu bytes", f->sect[HEADER_TRACING_DATA].size);
}

void tp_feature_print_pmu_mappings(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	struct line l;

	line_init(&l);
	add(&l, "# pmu mappings:");
	for (uint32_t i = 0; i < f->nr_pmus; i++)
		add(&l, "%s %s = %u", i ? "," : "", f->pmus[i].name, f->pmus[i].type);
	line_emit(&l, out);
}

static void usec(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / 1000000000),
		 (unsigned long long)(ns % 1000000000 / 1000));
}

void tp_feature_print_sample_time(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	char first[48], last[48];
	uint64_t d = f->last_sample_time >= f->first_sample_time ?
		     f->last_sample_time - f->first_sample_time : 0;

	usec(first, sizeof(first), f->first_sample_time);
	usec(last, sizeof(last), f->last_sample_time);
	tp_printer__printf(out, "# time of first sample : %s", first);
	tp_printer__printf(out, "# time of last sample : %s", last);
	tp_printer__printf(out, "# sample duration : %10.3f ms", (double)d / 1e6);
}

void tp_feature_print_clockid(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	tp_printer__printf(out, "# clockid resolution : %llu ns",
			   (unsigned long long)f->clockid_res_ns);
}

void tp_feature_print_compressed(const struct tp_features *f, uint32_t id,
				  const struct tp_printer *out)
{
	(void)id;
	tp_printer__printf(out, "# compressed : %s, level = %u, ratio = %u",
			   f->compressed.type == 1 ? "Zstd" : "Unknown", f->compressed.level,
			   f->compressed.ratio);
}

void tp_feature_print_text_hash(const struct tp_features *f, uint32_t id,
				const struct tp_printer *out)
{
	(void)id;
	for (uint32_t i = 0; i < f->nr_text_hashes; i++)
		tp_printer__printf(out, "# tinyperf text hash : %016llx %s",
				   (unsigned long long)f->text_hashes[i].hash,
				   f->text_hashes[i].filename);
}

/* sections we keep but do not decode: say they are there */
void tp_feature_print_blob(const struct tp_features *f, uint32_t id,
			   const struct tp_printer *out)
{
	if (id >= TP_FEAT_FIRST)
		tp_printer__printf(out, "# tinyperf %s : %zu bytes", tp_feature_name(id),
				   f->sect[id].size);
	else
		tp_printer__printf(out, "# %s info available (%zu bytes)", tp_feature_name(id),
				   f->sect[id].size);
}

void tp_features__print(const struct tp_features *f, const struct tp_printer *out)
{
	for (uint32_t id = 0; id < HEADER_FEAT_BITS; id++) {
		const struct tp_feature_ops *ops = tp_feature_ops(id);

		if (!tp_features__has(f, id))
			continue;
		if (ops)
			ops->print(f, id, out);
		else
			tp_printer__printf(out, "# feature %u : %zu bytes", id, f->sect[id].size);
	}
}
