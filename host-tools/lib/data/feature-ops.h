/* SPDX-License-Identifier: MIT */
/* Library-internal: the feature table shared by feature.c (parse) and feature-print.c. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_FEATURE_OPS_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_FEATURE_OPS_H

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/feature.h"

struct tp_feature_ops {
	uint32_t id;
	const char *name;
	/* 0 or -TP_ERR_BAD_FEATURE / -TP_ERR_NOMEM; may set *why */
	int (*parse)(struct tp_features *f, struct tp_cur *c, const char **why);
	void (*print)(const struct tp_features *f, uint32_t id, const struct tp_printer *out);
};

/* the entry for id, or NULL */
const struct tp_feature_ops *tp_feature_ops(uint32_t id);

#define TP_FEATURE_PRINTERS(x) \
	x(hostname) x(osrelease) x(version) x(arch) x(nrcpus) x(cpudesc) x(cpuid) \
	x(total_mem) x(cmdline) x(event_desc) x(cpu_topology) x(build_id) x(tracing_data) \
	x(pmu_mappings) x(sample_time) x(clockid) x(compressed) x(text_hash) x(symtab) x(blob)
#define TP_DECLARE_PRINT(n) \
	void tp_feature_print_##n(const struct tp_features *f, uint32_t id, \
				 const struct tp_printer *out);
TP_FEATURE_PRINTERS(TP_DECLARE_PRINT)
#undef TP_DECLARE_PRINT

#endif
