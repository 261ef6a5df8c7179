/* SPDX-License-Identifier: MIT */
/* tinyperf dump: every record with its offset, size, bytes and decoded fields, in the style
 * of perf report -D, then counts per record type and the feature sections. */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/data/data.h"
#include "host-tools/lib/common/common.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf dump [-i FILE|-]\n\n"
		   "Print every record of a perf.data (offset, size, bytes, decoded fields),\n"
		   "the counts per record type and the feature sections.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n");
}

static void hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;

		printf(".  %04zx: ", i);
		for (size_t j = 0; j < 16; j++)
			printf(j < k ? " %02x" : "   ", j < k ? p[i + j] : 0);
		printf("  ");
		for (size_t j = 0; j < k; j++)
			putchar(p[i + j] >= 0x20 && p[i + j] < 0x7f ? p[i + j] : '.');
		putchar('\n');
	}
}

static void print_line(void *ctx, const char *line)
{
	(void)ctx;
	puts(line);
}

static const struct tp_printer printer = { print_line, NULL };

static void read_values(const struct tp_read *rd)
{
	printf("... time enabled %" PRIu64 ", time running %" PRIu64 "\n", rd->time_enabled,
	       rd->time_running);
	for (uint32_t i = 0; i < rd->nr; i++)
		printf("..... id %016" PRIx64 ", value %016" PRIx64 ", lost %" PRIu64 "\n",
		       rd->values[i].id, rd->values[i].value, rd->values[i].lost);
}

static void regs(const char *what, const struct tp_regs *r)
{
	unsigned bit = 0;

	printf("... %s regs: mask %#" PRIx64 " ABI %s\n", what, r->mask,
	       r->abi == 2 ? "64-bit" : r->abi == 1 ? "32-bit" : "none");
	for (uint32_t i = 0; i < r->nr; i++, bit++) {
		while (bit < 64 && !(r->mask >> bit & 1))
			bit++;
		printf(".... r%-5u 0x%016" PRIx64 "\n", bit, r->regs[i]);
	}
}

static void sample(const struct tp_event *ev)
{
	const struct tp_ev_sample *s = &ev->u.sample;
	uint64_t t = ev->attr->attr.sample_type;

	printf("(IP, %#x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
	       ev->misc, (int32_t)ev->sid.pid, (int32_t)ev->sid.tid, s->ip, s->period, s->addr);
	if (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		printf("... id: %" PRIu64 "%s%s\n", ev->sid.id,
		       ev->attr->name ? "  event: " : "", ev->attr->name ? ev->attr->name : "");
	if (t & PERF_SAMPLE_CALLCHAIN) {
		printf("... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			printf(".....  %2" PRIu64 ": %016" PRIx64 "\n", i, s->callchain[i]);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		printf("... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++)
			printf(".....  %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %#" PRIx64 "\n",
			       i, s->branches[i].from, s->branches[i].to, s->branches[i].flags);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs("user", &s->regs_user);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs("intr", &s->regs_intr);
	if (t & PERF_SAMPLE_STACK_USER)
		printf("... ustack: size %" PRIu64 ", dyn size %" PRIu64 "\n", s->stack_size,
		       s->stack_dyn_size);
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		printf("... weight: %" PRIu64 "\n", s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		printf(" . data_src: %#" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		printf(" .. phys_addr: %#" PRIx64 "\n", s->phys_addr);
	if (t & PERF_SAMPLE_TRANSACTION)
		printf("... transaction: %" PRIx64 "\n", s->transaction);
	if (t & PERF_SAMPLE_CGROUP)
		printf("... cgroup: %" PRIu64 "\n", s->cgroup);
	if (t & PERF_SAMPLE_READ)
		read_values(&s->read);
	if (t & PERF_SAMPLE_RAW)
		printf("... raw size: %u\n", s->raw_size);
	if (t & PERF_SAMPLE_AUX)
		printf("... aux size: %" PRIu64 "\n", s->aux_size);
	if (t & PERF_SAMPLE_CPU)
		printf("... cpu: %u\n", ev->sid.cpu);
}

static void mmap_line(const struct tp_event *ev)
{
	const struct tp_ev_mmap *m = &ev->u.mmap;
	char bid[2 * PERF_BUILD_ID_MAX + 1];

	printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int32_t)m->pid,
	       (int32_t)m->tid, m->start, m->len, m->pgoff);
	if (ev->type == PERF_RECORD_MMAP2) {
		if (m->build_id_size)
			printf(" <%s>", tp_build_id_hex(m->build_id, m->build_id_size, bid));
		else
			printf(" %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
			       m->ino_generation);
		printf("]: %c%c%c%c %s\n", m->prot & 1 ? 'r' : '-', m->prot & 2 ? 'w' : '-',
		       m->prot & 4 ? 'x' : '-', m->flags & 1 ? 's' : 'p', m->filename);
	} else {
		printf("]: %c %s\n", (ev->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
		       m->filename);
	}
}

static void user_record(const struct tp_event *ev)
{
	char bid[2 * PERF_BUILD_ID_MAX + 1];

	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR:
		printf(":\n");
		tp_event_desc__print(&ev->u.header_attr.attr, NULL, ev->u.header_attr.ids,
				     ev->u.header_attr.nr_ids, &printer);
		break;
	case PERF_RECORD_HEADER_FEATURE: {
		const char *name = tp_feature_name((uint32_t)ev->u.feature.feat_id);

		printf(": %s (%" PRIu64 "), %zu bytes\n", name ? name : "end marker",
		       ev->u.feature.feat_id, ev->u.feature.size);
		break;
	}
	case PERF_RECORD_HEADER_BUILD_ID:
		printf(": %s %s\n", tp_build_id_hex(ev->u.build_id.build_id, ev->u.build_id.size,
						    bid), ev->u.build_id.filename);
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		printf(": %u bytes of tracing data follow\n", ev->u.tracing_data.size);
		break;
	case PERF_RECORD_ID_INDEX:
		printf(" nr: %" PRIu64 "\n", ev->u.id_index.nr);
		for (uint64_t i = 0; i < ev->u.id_index.nr; i++) {
			const uint64_t *e = ev->u.id_index.entries + i * ev->u.id_index.stride;

			printf(" ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %"
			       PRId64 "\n", e[0], e[1], (int64_t)e[2], (int64_t)e[3]);
		}
		break;
	case PERF_RECORD_TIME_CONV:
		printf(": time_shift %" PRIu64 " time_mult %" PRIu64 " time_zero %" PRIu64 "\n",
		       ev->u.time_conv.time_shift, ev->u.time_conv.time_mult,
		       ev->u.time_conv.time_zero);
		break;
	case PERF_RECORD_AUXTRACE:
		printf(": %" PRIu64 " bytes of aux data follow\n", ev->u.auxtrace.size);
		break;
	default:
		putchar('\n');
		break;
	}
}

static void kernel_record(const struct tp_event *ev)
{
	const struct tp_ev_task *t = &ev->u.task;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		sample(ev);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		mmap_line(ev);
		break;
	case PERF_RECORD_COMM:
		printf("%s: %s:%d/%d\n", ev->u.comm.exec ? " exec" : "", ev->u.comm.comm,
		       (int32_t)ev->u.comm.pid, (int32_t)ev->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		printf("(%d:%d):(%d:%d)\n", (int32_t)t->pid, (int32_t)t->tid, (int32_t)t->ppid,
		       (int32_t)t->ptid);
		break;
	case PERF_RECORD_LOST:
		printf(" lost %" PRIu64 " id %" PRIu64 "\n", ev->u.lost.lost, ev->u.lost.id);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		printf(" lost %" PRIu64 "\n", ev->u.lost.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		printf(": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64 "\n",
		       ev->u.throttle.time, ev->u.throttle.id, ev->u.throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		printf(": %d %d\n", (int32_t)ev->u.read.pid, (int32_t)ev->u.read.tid);
		if (ev->attr)
			read_values(&ev->u.read.values);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		printf(" %s", ev->misc & PERF_RECORD_MISC_SWITCH_OUT ? "OUT" : "IN ");
		if (ev->type == PERF_RECORD_SWITCH_CPU_WIDE)
			printf("  %s pid/tid: %5d/%-5d", ev->misc & PERF_RECORD_MISC_SWITCH_OUT ?
			       "next" : "prev", (int32_t)ev->u.pid.pid, (int32_t)ev->u.pid.tid);
		printf("%s\n", ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT ? " preempt" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		printf(" pid: %u tid: %u\n", ev->u.pid.pid, ev->u.pid.tid);
		break;
	case PERF_RECORD_AUX:
		printf(" offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 "\n",
		       ev->u.aux.aux_offset, ev->u.aux.aux_size, ev->u.aux.flags);
		break;
	case PERF_RECORD_NAMESPACES:
		printf(" %d/%d - nr_namespaces: %" PRIu64 "\n", (int32_t)ev->u.ns.pid,
		       (int32_t)ev->u.ns.tid, ev->u.ns.nr);
		break;
	case PERF_RECORD_KSYMBOL:
		printf(" addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
		       ev->u.ksymbol.addr, ev->u.ksymbol.len, ev->u.ksymbol.ksym_type,
		       ev->u.ksymbol.flags, ev->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		printf(" type %u, flags %u, id %u\n", ev->u.bpf.type, ev->u.bpf.flags,
		       ev->u.bpf.id);
		break;
	case PERF_RECORD_CGROUP:
		printf(" cgroup: %" PRIu64 " %s\n", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		printf(" kernel addr: %#" PRIx64 " old len %u new len %u\n",
		       ev->u.text_poke.addr, ev->u.text_poke.old_len, ev->u.text_poke.new_len);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		printf(" hw_id: %#" PRIx64 "\n", ev->u.hw_id);
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		printf(" cookie: %#" PRIx64 " nr: %" PRIu64 "\n", ev->u.deferred.cookie,
		       ev->u.deferred.nr);
		for (uint64_t i = 0; i < ev->u.deferred.nr; i++)
			printf(".....  %2" PRIu64 ": %016" PRIx64 "\n", i, ev->u.deferred.ips[i]);
		break;
	default:
		putchar('\n');
		break;
	}
}

static void record(const struct tp_event *ev)
{
	printf("\n%#" PRIx64 " [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
	       ev->offset, ev->size, ev->type, ev->size);
	hex(ev->data, ev->size);
	putchar('\n');
	if (ev->sid_type & PERF_SAMPLE_CPU)
		printf("%u ", ev->sid.cpu);
	printf("%" PRIu64 " %#" PRIx64 " [%#x]: PERF_RECORD_%s", ev->sid.time, ev->offset,
	       ev->size, tp_record_name(ev->type));
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		user_record(ev);
	else
		kernel_record(ev);
}

/* samples per attr; attrs can still arrive in pipe mode, so the array grows */
struct per_attr {
	uint64_t *n;
	uint32_t nr;
};

static int count_sample(struct per_attr *pa, uint32_t index)
{
	if (index >= pa->nr) {
		uint32_t nr = index + 8;
		uint64_t *n = realloc(pa->n, nr * sizeof(*n));

		if (!n)
			return -1;
		memset(n + pa->nr, 0, (nr - pa->nr) * sizeof(*n));
		pa->n = n;
		pa->nr = nr;
	}
	pa->n[index]++;
	return 0;
}

static void totals(struct cmd_input *ci, const uint64_t *counts, const struct per_attr *pa)
{
	uint64_t total = 0;

	for (uint32_t t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		total += counts[t];
	printf("\nAggregated stats:\n%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (uint32_t t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		if (counts[t])
			printf("%16s events: %10" PRIu64 "  (%4.1f%%)\n", tp_record_name(t),
			       counts[t], 100.0 * (double)counts[t] / (double)total);
	for (uint32_t i = 0; i < tp_reader__nr_attrs(ci->r); i++) {
		const struct tp_attr *a = tp_reader__attr(ci->r, i);

		if (i < pa->nr && pa->n[i])	/* as perf: events that got samples */
			printf("%s stats:\n%16s events: %10" PRIu64 "\n",
			       a->name ? a->name : "event", "SAMPLE", pa->n[i]);
	}
}

int cmd_dump(int argc, char **argv)
{
	uint64_t counts[PERF_RECORD_HEADER_MAX] = { 0 };
	struct per_attr pa = { NULL, 0 };
	const char *path = "perf.data";
	struct cmd_input ci;
	struct tp_event ev;
	int c, rc;

	c = cmd_input__parse_only_i("dump", argc, argv, usage, &path);
	if (c >= 0)
		return c;
	if (cmd_input__open(&ci, "dump", path))
		return 1;
	while ((rc = tp_reader__next(ci.r, &ev)) > 0) {
		record(&ev);
		counts[ev.type]++;
		if (ev.type == PERF_RECORD_SAMPLE && count_sample(&pa, ev.attr->index)) {
			rc = -TP_ERR_NOMEM;
			break;
		}
	}
	totals(&ci, counts, &pa);
	free(pa.n);
	printf("\n# ========\n");
	tp_features__print(tp_reader__features(ci.r), &printer);
	printf("# ========\n");
	rc = rc < 0 ? cmd_input__fail(&ci, rc) : cmd_input__finish(&ci);
	cmd_input__close(&ci);
	return rc;
}
