/* SPDX-License-Identifier: MIT */
/* perf_event_attr: reading every ABI size in either byte order, and naming its bits. */
#include <stdio.h>
#include <string.h>

#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/common/common.h"
#include "perfdata/attr.h"

int tp_attr_parse(const uint8_t *p, size_t avail, uint32_t size, bool swap,
		  struct perf_event_attr *out, uint32_t *file_size, char *why, size_t why_len)
{
	uint32_t attr_size;

	memset(out, 0, sizeof(*out));
	if (avail < PERF_ATTR_SIZE_VER0) {
		snprintf(why, why_len, "attr needs %d bytes, %zu left", PERF_ATTR_SIZE_VER0, avail);
		return -TP_ERR_BAD_ATTR;
	}
	attr_size = tp_ld32(p + 4, swap);
	if (!size)
		size = attr_size ? attr_size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size % 8) {
		snprintf(why, why_len, "attr.size %u is not a perf_event_attr size", size);
		return -TP_ERR_BAD_ATTR;
	}
	if (size > avail) {
		snprintf(why, why_len, "attr.size %u runs past its section (%zu bytes left)",
			 size, avail);
		return -TP_ERR_BAD_ATTR;
	}
	if (size > sizeof(*out)) {
		for (size_t i = sizeof(*out); i < size; i++) {
			if (p[i]) {
				snprintf(why, why_len, "attr.size %u: %zu bytes more than this "
					 "tinyperf knows, and they are not zero", size,
					 size - sizeof(*out));
				return -TP_ERR_ATTR_ABI;
			}
		}
	}
	memcpy(out, p, size < sizeof(*out) ? size : sizeof(*out));
	if (swap)
		tp_attr__from_foreign(out);
	out->size = attr_size ? attr_size : PERF_ATTR_SIZE_VER0;
	*file_size = size;
	return 0;
}

static const char *const sample_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID",
	"RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
	"TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};

static const char *const read_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static char *bits_str(uint64_t v, const char *const *names, unsigned nr, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < 64 && n < len; i++) {
		if (!(v & (1ULL << i)))
			continue;
		if (i < nr)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", names[i]);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s0x%llx", n ? "|" : "",
					      1ULL << i);
	}
	return buf;
}

char *tp_sample_type_str(uint64_t sample_type, char *buf, size_t len)
{
	return bits_str(sample_type, sample_names, sizeof(sample_names) / sizeof(*sample_names),
			buf, len);
}

char *tp_read_format_str(uint64_t read_format, char *buf, size_t len)
{
	return bits_str(read_format, read_names, sizeof(read_names) / sizeof(*read_names),
			buf, len);
}

static const char *const flag_names[PERF_ATTR_NR_BITS] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
	"task", "watermark", "precise_ip", NULL, "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
	"remove_on_exec", "sigtrap", "defer_callchain", "defer_output",
};

const char *tp_attr_flag_name(unsigned bit)
{
	return bit < PERF_ATTR_NR_BITS ? flag_names[bit] : NULL;
}

unsigned tp_attr_flag(const struct perf_event_attr *a, unsigned bit)
{
	if (bit == PERF_ATTR_BIT_PRECISE_IP)
		return PERF_ATTR_PRECISE_IP_GET(a->flags);
	if (bit >= PERF_ATTR_NR_BITS || bit == PERF_ATTR_BIT_PRECISE_IP + 1)
		return 0;
	return !!(a->flags & (1ULL << PERF_BITFIELD_SHIFT(bit, 1)));
}
