/* SPDX-License-Identifier: MIT */
/* One recording into hists of call paths, with the report's filters (see stacks.h): the
 * walk behind flamegraph and pprof. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/stacks.h"

void cmd_stacks__init(struct cmd_stacks *st)
{
	memset(st, 0, sizeof(*st));
	cmd_sym__init(&st->cs);
}

/* where the sample hit and its callers into st->ch, or the ip alone into st->one */
static int stack_of(struct cmd_stacks *st, const struct tp_event *ev, struct tp_thread *t,
		    const struct tp_loc *loc, struct tp_hsample *hs)
{
	const struct tp_attr *a = ev->attr;
	uint64_t off;
	int err = TP_CHAIN_CORRUPT;

	if (a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		err = tp_symcache__chain(st->cs.c, ev, t, loc, &st->ch);
	if (err < 0)
		return err;
	if (!err && st->ch.nr) {
		hs->frames = st->ch.frames;
		hs->nr_frames = st->ch.nr;
		return 0;
	}
	/* no callchain, or one perf would drop: the ip, as script --folded has it */
	hs->frames = &st->one;
	hs->nr_frames = 1;
	return tp_symcache__resolve(st->cs.c, loc, &st->one, &off);
}

/* into the attr's hist (made when first met) */
static int add_per_event(struct cmd_stacks *st, const struct tp_attr *a, struct tp_hsample *hs)
{
	struct tp_hconf conf = { .keys = { TP_HKEY_COMM, TP_HKEY_PID, TP_HKEY_TID }, .nr_keys = 3,
				 .paths = true };
	uint32_t i = a ? a->index : 0;
	size_t cap = st->nr_events;
	struct cmd_stacks_event *e;
	int err = 0;

	if (i >= st->nr_events) {
		if (TP_GROW(st->events, cap, (size_t)i + 1, 4))
			return -TP_ERR_NOMEM;
		memset(st->events + st->nr_events, 0, (cap - st->nr_events) * sizeof(*st->events));
		st->nr_events = cap;
	}
	e = &st->events[i];
	if (!e->periods)
		err = tp_hist__new(&e->periods, &conf);
	hs->weight = st->period;
	return err ? err : tp_hist__add(e->periods, hs);
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct cmd_stacks *st = ctx;
	bool has_tid = ev->sid_type & PERF_SAMPLE_TID;
	struct tp_hsample hs = {
		.pid = has_tid ? (int32_t)ev->sid.pid : t ? t->pid : -1,
		.tid = has_tid ? (int32_t)ev->sid.tid : t ? t->tid : -1,
		.weight = 1,
	};
	int err;

	if (!cmd_sym__time_ok(&st->cs, ev))
		return 0;
	if (st->event_ok && (!ev->attr || ev->attr->index >= st->nr_attrs ||
			     !st->event_ok[ev->attr->index]))
		return 0;
	err = tp_symcache__comm(st->cs.c, t, &hs.comm);
	if (err || !cmd_sym__thread_ok(&st->cs, hs.comm, hs.pid, hs.tid))
		return err;
	st->period = ev->attr && (ev->attr->attr.sample_type & PERF_SAMPLE_PERIOD) ?
		     ev->u.sample.period : ev->attr ? ev->attr->attr.sample_period : 1;
	err = stack_of(st, ev, t, loc, &hs);
	if (err)
		return err;
	if (cmd_sym__has_frame_filter(&st->cs) && !cmd_sym__frame_ok(&st->cs, hs.frames[0]))
		return 0;
	st->kept++;
	if (ev->sid_type & PERF_SAMPLE_TIME) {
		if (!st->first_time || ev->sid.time < st->first_time)
			st->first_time = ev->sid.time;
		if (ev->sid.time > st->last_time)
			st->last_time = ev->sid.time;
	}
	if (st->on_stack)
		return st->on_stack(st->ctx, &hs, ev->attr,
				    ev->sid_type & PERF_SAMPLE_TIME ? ev->sid.time : 0);
	if (!st->per_event)
		return tp_hist__add(st->h, &hs);
	return add_per_event(st, ev->attr, &hs);
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct cmd_stacks *st = ctx;

	(void)t;
	tp_symcache__event(st->cs.c, ev);
	if (ev->type == PERF_RECORD_LOST_SAMPLES)
		st->lost_samples += ev->u.lost.lost;
	else if (ev->type == PERF_RECORD_LOST)
		st->lost_events += ev->u.lost.lost;
	return 0;
}

/* -e NAME: which attrs are that event; 0, or 1 after saying there is none such */
static int pick_event(struct cmd_stacks *st, const char *cmd)
{
	bool any = false;
	char buf[64];

	st->nr_attrs = tp_reader__nr_attrs(st->ci.r);
	st->event_ok = calloc(st->nr_attrs + 1, sizeof(*st->event_ok));
	if (!st->event_ok)
		return cmd_input__fail(&st->ci, -TP_ERR_NOMEM);
	for (uint32_t i = 0; i < st->nr_attrs; i++) {
		const char *name = cmd_sym__event_name(tp_reader__attr(st->ci.r, i), buf,
						       sizeof(buf));

		st->event_ok[i] = !strcmp(name, st->event);
		any = any || st->event_ok[i];
	}
	if (!any)
		fprintf(stderr, "tinyperf: %s: %s has no event '%s' (tinyperf header lists its "
			"events)\n", cmd, st->ci.name, st->event);
	return !any;
}

int cmd_stacks__collect(struct cmd_stacks *st, const char *cmd, const char *path)
{
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	struct tp_hconf conf = { .keys = { TP_HKEY_COMM }, .nr_keys = 1, .paths = true };
	int err;

	if (cmd_input__open(&st->ci, cmd, path))
		return 1;
	if (cmd_sym__open(&st->cs, &st->ci) || (st->event && pick_event(st, cmd)))
		return 1;
	err = st->per_event || st->on_stack ? 0 : tp_hist__new(&st->h, &conf);
	if (!err)
		err = tp_session__process(st->cs.s, &ops, st);
	if (err == -TP_ERR_NOMEM || (err && !st->h && !st->per_event && !st->on_stack))
		return cmd_input__fail(&st->ci, err);
	/* what could be read is drawn; the exit status says the rest was not */
	st->status = err ? cmd_input__fail(&st->ci, err) : cmd_input__finish(&st->ci);
	return 0;
}

void cmd_stacks__close(struct cmd_stacks *st)
{
	for (size_t i = 0; i < st->nr_events; i++) {
		tp_hist__delete(st->events[i].periods);
	}
	free(st->events);
	free(st->event_ok);
	st->events = NULL;
	st->event_ok = NULL;
	st->nr_events = 0;
	tp_hist__delete(st->h);
	tp_chain__release(&st->ch);
	cmd_sym__close(&st->cs);
	cmd_input__close(&st->ci);
	st->h = NULL;
}

int cmd_stacks__write(const char *cmd, const char *path, int (*write)(void *ctx, FILE *f),
		      void *ctx)
{
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "wb");
	int err;

	if (!f) {
		fprintf(stderr, "tinyperf: %s: cannot write %s: %s (check the directory and its "
			"permissions)\n", cmd, path, strerror(errno));
		return 1;
	}
	errno = 0;
	err = write(ctx, f);
	if (!to_stdout && fclose(f) && !err)
		err = -TP_ERR_IO;
	if (!err)
		return 0;
	fprintf(stderr, "tinyperf: %s: writing %s failed: %s\n", cmd, path,
		err == -TP_ERR_NOMEM ? "out of memory" : err == -TP_ERR_IO ?
		(errno ? strerror(errno) : "I/O error (is the disk full?)") :
		"too much for the format (pprof: over 32 events or 4 GiB; pick one with -e or "
		"narrow it with the filters)");
	return 1;
}

int cmd_stacks__options(int argc, char **argv, const struct option *opts,
			int (*option)(void *ctx, int c, char **argv), void *ctx)
{
	int c, rc = -1;

	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:o:e:hk:", opts, NULL)) != -1)
		rc = option(ctx, c, argv);
	return rc;
}

int cmd_stacks__emit(struct cmd_stacks *st, const char *cmd, const char *what,
		     const char *path, int (*write)(void *ctx, FILE *f), void *ctx)
{
	int rc;

	if (!st->kept)
		fprintf(stderr, "tinyperf: %s: %s: no samples: the %s is empty\n", cmd, st->ci.name,
			what);
	rc = cmd_stacks__write(cmd, path, write, ctx);
	return rc ? rc : st->status;
}
