/* SPDX-License-Identifier: MIT */
/* perf_event_attr byte-order conversion, shared by the writer and the host reader. */
#include "perfdata/attr.h"
#include "perfdata/bswap.h"

static void swap_ints(struct perf_event_attr *a)
{
	a->type = tp_bswap32(a->type);
	a->size = tp_bswap32(a->size);
	a->config = tp_bswap64(a->config);
	a->sample_period = tp_bswap64(a->sample_period);
	a->sample_type = tp_bswap64(a->sample_type);
	a->read_format = tp_bswap64(a->read_format);
	a->wakeup_events = tp_bswap32(a->wakeup_events);
	a->bp_type = tp_bswap32(a->bp_type);
	a->config1 = tp_bswap64(a->config1);
	a->config2 = tp_bswap64(a->config2);
	a->branch_sample_type = tp_bswap64(a->branch_sample_type);
	a->sample_regs_user = tp_bswap64(a->sample_regs_user);
	a->sample_stack_user = tp_bswap32(a->sample_stack_user);
	a->clockid = (int32_t)tp_bswap32((uint32_t)a->clockid);
	a->sample_regs_intr = tp_bswap64(a->sample_regs_intr);
	a->aux_watermark = tp_bswap32(a->aux_watermark);
	a->sample_max_stack = tp_bswap16(a->sample_max_stack);
	a->reserved_2 = tp_bswap16(a->reserved_2);
	a->aux_sample_size = tp_bswap32(a->aux_sample_size);
	a->sig_data = tp_bswap64(a->sig_data);
	a->config3 = tp_bswap64(a->config3);
	/* bitfield words: not byte-swapped, bit-reversed per byte */
	a->aux_action = tp_bitrev_bytes32(a->aux_action);
}

/* Per-byte reversal lands each 1-bit field right but reverses the two bits of precise_ip;
 * reversing the field's value in the native layout compensates, in either direction. */
static uint64_t flip_precise_ip(uint64_t flags)
{
	unsigned v = PERF_ATTR_PRECISE_IP_GET(flags);

	v = ((v & 1) << 1) | (v >> 1);
	return (flags & ~PERF_ATTR_PRECISE_IP_MASK) | PERF_ATTR_PRECISE_IP(v);
}

void tp_attr__to_foreign(struct perf_event_attr *attr)
{
	swap_ints(attr);
	attr->flags = tp_bitrev_bytes64(flip_precise_ip(attr->flags));
}

void tp_attr__from_foreign(struct perf_event_attr *attr)
{
	swap_ints(attr);
	attr->flags = flip_precise_ip(tp_bitrev_bytes64(attr->flags));
}
