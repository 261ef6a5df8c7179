/* SPDX-License-Identifier: MIT */
/* Kernel records other than SAMPLE (types 1-22), their sample_id trailer, and record names. */
#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/common/common.h"

static const char *const names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	[PERF_RECORD_COMPRESSED2] = "COMPRESSED2",
	[PERF_RECORD_BPF_METADATA] = "BPF_METADATA",
	[PERF_RECORD_SCHEDSTAT_CPU] = "SCHEDSTAT_CPU",
	[PERF_RECORD_SCHEDSTAT_DOMAIN] = "SCHEDSTAT_DOMAIN",
};

const char *tp_record_name(uint32_t type)
{
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

#define TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

int tp_decode__id_pos(uint64_t t, bool sample, bool sample_id_all, uint16_t size)
{
	int pos;

	if (sample) {
		if (t & PERF_SAMPLE_IDENTIFIER)
			pos = 8;
		else if (t & PERF_SAMPLE_ID)
			pos = 8 + 8 * __builtin_popcountll(t & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
								PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
		else
			return -1;
	} else {
		if (!sample_id_all)
			return -1;
		if (t & PERF_SAMPLE_IDENTIFIER)
			pos = size - 8;
		else if (t & PERF_SAMPLE_ID)
			pos = size - 8 * (1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU));
		else
			return -1;
	}
	return pos >= 8 && pos + 8 <= (int)size ? pos : -1;
}

static void trailer(const struct tp_attr *attr, struct tp_event *ev, struct tp_cur *c)
{
	uint64_t t = attr->attr.sample_type;
	struct tp_sample_id *id = &ev->sid;

	ev->sid_type = t & TRAILER_BITS;
	if (t & PERF_SAMPLE_TID) {
		id->pid = tp_cur__u32(c);
		id->tid = tp_cur__u32(c);
	}
	if (t & PERF_SAMPLE_TIME)
		id->time = tp_cur__u64(c);
	if (t & PERF_SAMPLE_ID)
		id->id = tp_cur__u64(c);
	if (t & PERF_SAMPLE_STREAM_ID)
		id->stream_id = tp_cur__u64(c);
	if (t & PERF_SAMPLE_CPU) {
		id->cpu = tp_cur__u32(c);
		tp_cur__u32(c);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		id->id = tp_cur__u64(c);
}

/* the rest of the body as a NUL-terminated string */
static const char *rest_string(struct tp_cur *c)
{
	return tp_cur__str_in(c, tp_cur__left(c));
}

static void mmap2_ids(struct tp_cur *c, uint16_t misc, struct tp_ev_mmap *m)
{
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		const uint8_t *p;

		m->build_id_size = tp_cur__u8(c);
		tp_cur__take(c, 3);
		p = tp_cur__take(c, PERF_BUILD_ID_MAX);
		if (p)
			memcpy(m->build_id, p, PERF_BUILD_ID_MAX);
		if (m->build_id_size > PERF_BUILD_ID_MAX)
			c->bad = true;
	} else {
		m->maj = tp_cur__u32(c);
		m->min = tp_cur__u32(c);
		m->ino = tp_cur__u64(c);
		m->ino_generation = tp_cur__u64(c);
	}
	m->prot = tp_cur__u32(c);
	m->flags = tp_cur__u32(c);
}

static void body(struct tp_decode *d, const struct tp_attr *attr, struct tp_event *ev,
		 struct tp_cur *c)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ev->u.mmap.pid = tp_cur__u32(c);
		ev->u.mmap.tid = tp_cur__u32(c);
		ev->u.mmap.start = tp_cur__u64(c);
		ev->u.mmap.len = tp_cur__u64(c);
		ev->u.mmap.pgoff = tp_cur__u64(c);
		if (ev->type == PERF_RECORD_MMAP2)
			mmap2_ids(c, ev->misc, &ev->u.mmap);
		ev->u.mmap.filename = rest_string(c);
		break;
	case PERF_RECORD_COMM:
		ev->u.comm.pid = tp_cur__u32(c);
		ev->u.comm.tid = tp_cur__u32(c);
		ev->u.comm.exec = ev->misc & PERF_RECORD_MISC_COMM_EXEC;
		ev->u.comm.comm = rest_string(c);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		ev->u.task.pid = tp_cur__u32(c);
		ev->u.task.ppid = tp_cur__u32(c);
		ev->u.task.tid = tp_cur__u32(c);
		ev->u.task.ptid = tp_cur__u32(c);
		ev->u.task.time = tp_cur__u64(c);
		break;
	case PERF_RECORD_LOST:
		ev->u.lost.id = tp_cur__u64(c);
		ev->u.lost.lost = tp_cur__u64(c);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		ev->u.lost.lost = tp_cur__u64(c);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		ev->u.throttle.time = tp_cur__u64(c);
		ev->u.throttle.id = tp_cur__u64(c);
		ev->u.throttle.stream_id = tp_cur__u64(c);
		break;
	case PERF_RECORD_READ:
		ev->u.read.pid = tp_cur__u32(c);
		ev->u.read.tid = tp_cur__u32(c);
		if (attr)
			tp_decode__read(d, c, attr->attr.read_format, &ev->u.read.values);
		break;
	case PERF_RECORD_AUX:
		ev->u.aux.aux_offset = tp_cur__u64(c);
		ev->u.aux.aux_size = tp_cur__u64(c);
		ev->u.aux.flags = tp_cur__u64(c);
		break;
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		ev->u.pid.pid = tp_cur__u32(c);
		ev->u.pid.tid = tp_cur__u32(c);
		break;
	case PERF_RECORD_NAMESPACES:
		ev->u.ns.pid = tp_cur__u32(c);
		ev->u.ns.tid = tp_cur__u32(c);
		ev->u.ns.nr = tp_cur__u64(c);
		if (ev->u.ns.nr > tp_cur__left(c) / 16)
			c->bad = true;
		else
			ev->u.ns.entries = tp_decode__u64s(d, c, 2 * ev->u.ns.nr);
		break;
	case PERF_RECORD_KSYMBOL:
		ev->u.ksymbol.addr = tp_cur__u64(c);
		ev->u.ksymbol.len = tp_cur__u32(c);
		ev->u.ksymbol.ksym_type = tp_cur__u16(c);
		ev->u.ksymbol.flags = tp_cur__u16(c);
		ev->u.ksymbol.name = rest_string(c);
		break;
	case PERF_RECORD_BPF_EVENT: {
		const uint8_t *tag;

		ev->u.bpf.type = tp_cur__u16(c);
		ev->u.bpf.flags = tp_cur__u16(c);
		ev->u.bpf.id = tp_cur__u32(c);
		tag = tp_cur__take(c, 8);
		if (tag)
			memcpy(ev->u.bpf.tag, tag, 8);
		break;
	}
	case PERF_RECORD_CGROUP:
		ev->u.cgroup.id = tp_cur__u64(c);
		ev->u.cgroup.path = rest_string(c);
		break;
	case PERF_RECORD_TEXT_POKE:
		ev->u.text_poke.addr = tp_cur__u64(c);
		ev->u.text_poke.old_len = tp_cur__u16(c);
		ev->u.text_poke.new_len = tp_cur__u16(c);
		ev->u.text_poke.bytes = tp_cur__take(c, (size_t)ev->u.text_poke.old_len +
							ev->u.text_poke.new_len);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		ev->u.hw_id = tp_cur__u64(c);
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		ev->u.deferred.cookie = tp_cur__u64(c);
		ev->u.deferred.nr = tp_cur__u64(c);
		ev->u.deferred.ips = tp_decode__u64s(d, c, ev->u.deferred.nr);
		break;
	case PERF_RECORD_SWITCH:
	default:
		break;
	}
}

int tp_decode__kernel(struct tp_decode *d, const struct tp_attr *attr, struct tp_event *ev)
{
	size_t body_len = ev->size - 8u;
	struct tp_cur c;

	ev->attr = attr;
	if (attr && attr->id_hdr_size) {
		struct tp_cur t;

		if (attr->id_hdr_size > body_len)
			return tp_decode__fail(d, "record too short for its sample_id trailer");
		body_len -= attr->id_hdr_size;
		t = tp_cur_make(ev->data + 8 + body_len, attr->id_hdr_size, d->swap);
		trailer(attr, ev, &t);
	}
	c = tp_cur_make(ev->data + 8, body_len, d->swap);
	body(d, attr, ev, &c);
	if (c.bad)
		return tp_decode__fail(d, "record fields run past the record end");
	return 0;
}
