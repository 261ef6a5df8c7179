/* One recording into a hist of call paths per comm, with the report's filters (see
 * stacks.h): the walk behind flamegraph and the exporters. */
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
	err = tp_symcache__comm(st->cs.c, t, &hs.comm);
	if (err || !cmd_sym__thread_ok(&st->cs, hs.comm, hs.pid, hs.tid))
		return err;
	err = stack_of(st, ev, t, loc, &hs);
	if (err)
		return err;
	if (cmd_sym__has_frame_filter(&st->cs) && !cmd_sym__frame_ok(&st->cs, hs.frames[0]))
		return 0;
	st->kept++;
	return tp_hist__add(st->h, &hs);
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct cmd_stacks *st = ctx;

	(void)t;
	tp_symcache__event(st->cs.c, ev);
	return 0;
}

int cmd_stacks__collect(struct cmd_stacks *st, const char *cmd, const char *path)
{
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	struct tp_hconf conf = { .keys = { TP_HKEY_COMM }, .nr_keys = 1, .paths = true };
	int err;

	if (cmd_input__open(&st->ci, cmd, path))
		return 1;
	if (cmd_sym__open(&st->cs, &st->ci))
		return 1;
	err = tp_hist__new(&st->h, &conf);
	if (!err)
		err = tp_session__process(st->cs.s, &ops, st);
	if (err == -TP_ERR_NOMEM || (err && !st->h))
		return cmd_input__fail(&st->ci, err);
	/* what could be read is drawn; the exit status says the rest was not */
	st->status = err ? cmd_input__fail(&st->ci, err) : cmd_input__finish(&st->ci);
	return 0;
}

void cmd_stacks__close(struct cmd_stacks *st)
{
	tp_hist__delete(st->h);
	tp_chain__release(&st->ch);
	cmd_sym__close(&st->cs);
	cmd_input__close(&st->ci);
	st->h = NULL;
}
