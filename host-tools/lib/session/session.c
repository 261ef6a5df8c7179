/* SPDX-License-Identifier: MIT */
/* The session's walk: records in time order through a queue flushed at FINISHED_ROUND (as
 * perf's ordered events), applied to the machine state, then handed to the caller. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/session/internal.h"

int tp_session__new(struct tp_session **out, struct tp_reader *r)
{
	const struct tp_features *f = tp_reader__features(r);
	struct tp_session *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -TP_ERR_NOMEM;
	s->r = r;
	/* file mode: the BUILD_ID and TEXT_HASH sections are known before any record */
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		if (tp_machine__build_id(s, &f->build_ids[i]))
			goto out_nomem;
	}
	for (uint32_t i = 0; i < f->nr_text_hashes; i++) {
		struct tp_dso *d = tp_machine__dso(s, f->text_hashes[i].filename, false);

		if (!d)
			goto out_nomem;
		d->text_hash = f->text_hashes[i].hash;
	}
	*out = s;
	return 0;

out_nomem:
	tp_session__delete(s);
	return -TP_ERR_NOMEM;
}

void tp_session__delete(struct tp_session *s)
{
	if (!s)
		return;
	tp_machine__release(s);
	free(s->q);
	free(s);
}

/* ---- the time-ordered queue: a 4-ary min-heap on (time, seq) ---- */
/* (4 children side by side: half the levels of a binary heap, and a node's children in two
 * cache lines, where each level is a cache miss in a big round) */

static bool before(const struct tp_qent *a, const struct tp_qent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int q_push(struct tp_session *s, const struct tp_event *ev)
{
	struct tp_qent e = { ev->sid.time, s->seq++, ev->offset, ev->data };
	size_t i;

	if (TP_GROW(s->q, s->cap_q, s->nr_q + 1, 1024))
		return -TP_ERR_NOMEM;
	/* the hole moves up to where e goes */
	for (i = s->nr_q++; i && before(&e, &s->q[(i - 1) / 4]); i = (i - 1) / 4)
		s->q[i] = s->q[(i - 1) / 4];
	s->q[i] = e;
	return 0;
}

static struct tp_qent q_pop(struct tp_session *s)
{
	struct tp_qent top = s->q[0], last = s->q[--s->nr_q];
	size_t i = 0, n = s->nr_q;

	/* the hole at the root moves down to where the last entry goes */
	for (;;) {
		size_t c = 4 * i + 1, m, end;

		if (c >= n)
			break;
		end = c + 4 < n ? c + 4 : n;
		m = c;
		for (c++; c < end; c++)
			if (before(&s->q[c], &s->q[m]))
				m = c;
		if (!before(&s->q[m], &last))
			break;
		s->q[i] = s->q[m];
		i = m;
	}
	if (n)
		s->q[i] = last;
	return top;
}

/* ---- delivery ---- */

static int deliver(struct tp_session *s, const struct tp_event *ev,
		   const struct tp_session_ops *ops, void *ctx)
{
	struct tp_thread *t = NULL;
	int err = tp_machine__apply(s, ev, &t);

	if (err)
		return err;
	if (ev->type == PERF_RECORD_SAMPLE) {
		struct tp_loc loc;

		if (tp_session__resolve(s, t, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					ev->u.sample.ip, &loc))
			loc.dso->hits++;
		if (ops->sample) {
			err = ops->sample(ctx, ev, t, &loc);
			if (err)
				return err;
		}
	}
	return ops->event ? ops->event(ctx, ev, t) : 0;
}

/* deliver the queued records up to time limit (all of them for UINT64_MAX) */
static int flush(struct tp_session *s, uint64_t limit, const struct tp_session_ops *ops,
		 void *ctx)
{
	while (s->nr_q && s->q[0].time <= limit) {
		struct tp_qent e = q_pop(s);
		int err;

		if (s->nr_q)	/* the next one's bytes, while this one is handled */
			__builtin_prefetch(s->q[0].data);
		err = tp_reader__decode(s->r, e.data, e.offset, &s->ev);

		if (!err)
			err = deliver(s, &s->ev, ops, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* the walk is a forward pass but for the queue: the bytes before the oldest record still
 * queued are done with, and a mapped input's pages of them can go (the resident set is then
 * the rounds in the queue, not the file: dwarf-mode samples are 8 KiB stack copies) */
static void release(struct tp_session *s, uint64_t pos)
{
	for (size_t i = 0; i < s->nr_q; i++)
		if (s->q[i].offset < pos)
			pos = s->q[i].offset;
	tp_reader__release(s->r, pos);
}

int tp_session__process(struct tp_session *s, const struct tp_session_ops *ops, void *ctx)
{
	struct tp_event ev;
	int rc, err = 0;

	if (s->processed)
		return -TP_ERR_INVAL;
	s->processed = true;
	tp_reader__rewind(s->r);
	while (!err && (rc = tp_reader__next(s->r, &ev)) > 0) {
		uint64_t t = (ev.sid_type & PERF_SAMPLE_TIME) ? ev.sid.time : 0;

		if (ev.type < PERF_RECORD_USER_TYPE_START && t && t != UINT64_MAX) {
			if (t > s->max_time)
				s->max_time = t;
			err = q_push(s, &ev);
			continue;
		}
		if (ev.type == PERF_RECORD_FINISHED_ROUND) {
			/* what came before the previous round can no longer be overtaken */
			err = flush(s, s->next_flush, ops, ctx);
			s->next_flush = s->max_time;
			release(s, ev.offset);
		}
		if (!err)
			err = deliver(s, &ev, ops, ctx);
	}
	if (err)
		return err;
	if (rc < 0)
		return rc;
	return flush(s, UINT64_MAX, ops, ctx);
}

size_t tp_session__nr_dsos(const struct tp_session *s)
{
	return s->dsos.nr;
}

struct tp_dso *tp_session__dso(const struct tp_session *s, size_t i)
{
	return i < s->dsos.nr ? s->dsos.v[i] : NULL;
}

bool tp_session__kernel_ref(const struct tp_session *s, const char **name, uint64_t *addr)
{
	if (!s->kref_name)
		return false;
	*name = s->kref_name;
	*addr = s->kref_addr;
	return true;
}
