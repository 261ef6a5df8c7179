/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the host library's reader and session: parse the input as a
 * perf.data (file or pipe), walk every record, replay it through a session resolving every
 * callchain entry, walk it again after a rewind, and format the feature sections.
 * Build and run: tests/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/data/feature.h"
#include "host-tools/lib/data/reader.h"
#include "host-tools/lib/session/session.h"

static volatile uint64_t sink;

static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	(void)ctx;
	sink += (uint64_t)level + (uint8_t)msg[0];
}

static void line_fn(void *ctx, const char *line)
{
	(void)ctx;
	sink += (uint8_t)line[0];
}

/* touch what a record decodes to, so the sanitizers see every array read */
static void touch(const struct tp_event *ev)
{
	const struct tp_ev_sample *s = &ev->u.sample;

	if (ev->type != PERF_RECORD_SAMPLE)
		return;
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		sink += s->callchain[i];
	for (uint32_t i = 0; i < s->raw_size; i++)
		sink += s->raw[i];
	for (uint64_t i = 0; i < s->branch_nr; i++)
		sink += s->branches[i].to + (s->branch_counters ? s->branch_counters[i] : 0);
	for (uint32_t i = 0; i < s->read.nr; i++)
		sink += s->read.values[i].value;
	for (uint32_t i = 0; i < s->regs_user.nr; i++)
		sink += s->regs_user.regs[i];
	for (uint32_t i = 0; i < s->regs_intr.nr; i++)
		sink += s->regs_intr.regs[i];
	for (uint64_t i = 0; i < s->stack_size; i++)
		sink += s->stack[i];
	for (uint64_t i = 0; i < s->aux_size; i++)
		sink += s->aux[i];
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct tp_session *s = ctx;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct tp_loc l;

	touch(ev);
	if (loc->dso)
		sink += loc->addr + loc->dso->name[0];
	if (t && t->comm)
		sink += (uint8_t)t->comm[0];
	for (uint64_t i = 0; i < ev->u.sample.callchain_nr; i++) {
		uint64_t ip = ev->u.sample.callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
				  PERF_RECORD_MISC_USER;
			continue;
		}
		if (tp_session__resolve(s, t, cpumode, ip, &l))
			sink += l.addr;
	}
	return 0;
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	(void)ctx;
	(void)t;
	sink += ev->type + ev->sid.time;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tp_log log = { log_fn, NULL };
	const struct tp_printer printer = { line_fn, NULL };
	struct tp_session *s = NULL;
	struct tp_reader *r;
	struct tp_event ev;

	if (tp_reader__new(&r, data, size, &log))
		return 0;
	while (tp_reader__next(r, &ev) > 0)
		touch(&ev);
	if (!tp_session__new(&s, r)) {
		const struct tp_session_ops ops = { on_event, on_sample };

		tp_session__process(s, &ops, s);
		for (size_t i = 0; i < tp_session__nr_dsos(s); i++)
			sink += tp_session__dso(s, i)->hits;
		tp_session__delete(s);
	}
	tp_features__print(tp_reader__features(r), &printer);
	for (uint32_t i = 0; i < tp_reader__nr_attrs(r); i++) {
		const struct tp_attr *a = tp_reader__attr(r, i);

		tp_event_desc__print(&a->attr, a->name, a->ids, a->nr_ids, &printer);
	}
	tp_reader__delete(r);
	return 0;
}
