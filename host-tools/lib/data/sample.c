/* SPDX-License-Identifier: MIT */
/* PERF_RECORD_SAMPLE bodies, every sample_type bit, in the kernel's order
 * (perf-data-format.md §2.6), plus the read_format values shared with PERF_RECORD_READ. */
#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/common/common.h"

uint64_t *tp_decode__scratch(struct tp_decode *d, uint64_t n)
{
	uint64_t *p;

	if (n > TP_SCRATCH_U64 - d->used)
		return NULL;
	p = d->scratch + d->used;
	d->used += (size_t)n;
	return p;
}

int tp_decode__fail(struct tp_decode *d, const char *why)
{
	d->why = why;
	return -TP_ERR_BAD_RECORD;
}

const uint64_t *tp_decode__u64s(struct tp_decode *d, struct tp_cur *c, uint64_t n)
{
	const uint8_t *p = tp_cur__take_array(c, n, 8);
	uint64_t *out;

	if (!p)
		return NULL;
	out = tp_decode__scratch(d, n);
	if (!out) {
		c->bad = true;
		return NULL;
	}
	/* in the host's byte order and aligned (records are 8-aligned): the input's own words,
	 * which live as long as the record's other pointers into it (the user stack); copying
	 * a dwarf-mode sample's callchain and registers was 3 % of report -g */
	if (!d->swap && !((uintptr_t)p % 8))
		return (const uint64_t *)(const void *)p;
	for (uint64_t i = 0; i < n; i++)
		out[i] = tp_ld64(p + 8 * i, d->swap);
	return out;
}

void tp_decode__read(struct tp_decode *d, struct tp_cur *c, uint64_t read_format,
		     struct tp_read *out)
{
	bool has_id = read_format & PERF_FORMAT_ID, has_lost = read_format & PERF_FORMAT_LOST;
	uint64_t nr = 1, per = 1 + has_id + has_lost;
	struct tp_read_value *v;

	if (read_format & PERF_FORMAT_GROUP) {
		nr = tp_cur__u64(c);
		if (nr > tp_cur__left(c) / (8 * per)) {
			c->bad = true;
			return;
		}
	}
	v = (struct tp_read_value *)tp_decode__scratch(d, 3 * nr);
	if (!v) {
		c->bad = true;
		return;
	}
	out->nr = (uint32_t)nr;
	out->values = v;
	if (!(read_format & PERF_FORMAT_GROUP))
		v[0].value = tp_cur__u64(c);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->time_enabled = tp_cur__u64(c);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->time_running = tp_cur__u64(c);
	for (uint64_t i = 0; i < nr; i++) {
		if (read_format & PERF_FORMAT_GROUP)
			v[i].value = tp_cur__u64(c);
		v[i].id = has_id ? tp_cur__u64(c) : 0;
		v[i].lost = has_lost ? tp_cur__u64(c) : 0;
	}
}

static void regs(struct tp_decode *d, struct tp_cur *c, uint64_t mask, struct tp_regs *r)
{
	r->mask = mask;
	r->abi = tp_cur__u64(c);
	if (r->abi) {
		r->nr = (uint32_t)__builtin_popcountll(mask);
		r->regs = tp_decode__u64s(d, c, r->nr);
	}
}

static void branch_stack(struct tp_decode *d, struct tp_cur *c, uint64_t bst,
			 struct tp_ev_sample *s)
{
	uint64_t per = (bst & PERF_SAMPLE_BRANCH_COUNTERS) ? 4 : 3;

	s->branch_nr = tp_cur__u64(c);
	if (bst & PERF_SAMPLE_BRANCH_HW_INDEX)
		s->branch_hw_idx = tp_cur__u64(c);
	if (s->branch_nr > tp_cur__left(c) / (8 * per)) {
		c->bad = true;
		return;
	}
	s->branches = (const struct tp_branch_entry *)tp_decode__u64s(d, c, 3 * s->branch_nr);
	if (bst & PERF_SAMPLE_BRANCH_COUNTERS)
		s->branch_counters = tp_decode__u64s(d, c, s->branch_nr);
}

/* a u64 size then that many bytes, kept as a pointer into the input */
static const uint8_t *sized_bytes(struct tp_cur *c, uint64_t *size)
{
	*size = tp_cur__u64(c);
	return tp_cur__take_array(c, *size, 1);
}

int tp_decode__sample(struct tp_decode *d, const struct tp_attr *attr, struct tp_event *ev)
{
	const struct perf_event_attr *a = &attr->attr;
	uint64_t t = a->sample_type;
	struct tp_cur c = tp_cur_make(ev->data + 8, ev->size - 8u, d->swap);
	struct tp_ev_sample *s = &ev->u.sample;
	struct tp_sample_id *id = &ev->sid;

	ev->attr = attr;
	ev->sid_type = t & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (t & PERF_SAMPLE_IDENTIFIER)
		id->id = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_IP)
		s->ip = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_TID) {
		id->pid = tp_cur__u32(&c);
		id->tid = tp_cur__u32(&c);
	}
	if (t & PERF_SAMPLE_TIME)
		id->time = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_ADDR)
		s->addr = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_ID)
		id->id = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_STREAM_ID)
		id->stream_id = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_CPU) {
		id->cpu = tp_cur__u32(&c);
		tp_cur__u32(&c);
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = tp_cur__u64(&c);
	if (c.bad)
		return tp_decode__fail(d, "sample fields run past the record end");
	if (t & PERF_SAMPLE_READ) {
		tp_decode__read(d, &c, a->read_format, &s->read);
		if (c.bad)
			return tp_decode__fail(d, "sample read values run past the record end");
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = tp_cur__u64(&c);
		s->callchain = tp_decode__u64s(d, &c, s->callchain_nr);
		if (c.bad)
			return tp_decode__fail(d, "sample callchain runs past the record end");
	}
	if (t & PERF_SAMPLE_RAW) {
		s->raw_size = tp_cur__u32(&c);
		s->raw = tp_cur__take(&c, s->raw_size);
		if (c.bad)
			return tp_decode__fail(d, "sample raw data runs past the record end");
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		branch_stack(d, &c, a->branch_sample_type, s);
		if (c.bad)
			return tp_decode__fail(d, "sample branch stack runs past the record end");
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs(d, &c, a->sample_regs_user, &s->regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		s->stack = sized_bytes(&c, &s->stack_size);
		if (s->stack_size)
			s->stack_dyn_size = tp_cur__u64(&c);
	}
	if (c.bad)
		return tp_decode__fail(d, "sample user registers or stack run past the record end");
	if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
		s->weight = tp_cur__u32(&c);
		s->weight_var2 = tp_cur__u16(&c);
		s->weight_var3 = tp_cur__u16(&c);
	} else if (t & PERF_SAMPLE_WEIGHT) {
		s->weight = tp_cur__u64(&c);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs(d, &c, a->sample_regs_intr, &s->regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_CGROUP)
		s->cgroup = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = tp_cur__u64(&c);
	if (t & PERF_SAMPLE_AUX)
		s->aux = sized_bytes(&c, &s->aux_size);
	if (c.bad)
		return tp_decode__fail(d, "sample fields run past the record end");
	return 0;
}
