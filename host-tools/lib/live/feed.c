/* SPDX-License-Identifier: MIT */
/* `tinyperf top`'s records in: the stream's thread, map and header records are kept (a
 * pipe-mode perf.data in memory, without its samples), the records of one refresh follow
 * them as they came; at each tick all are read by the usual reader, session and symcache,
 * the samples go into the window, and then only the samples are let go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/data.h"
#include "host-tools/lib/frames/frames.h"
#include "host-tools/lib/live/live.h"
#include "host-tools/lib/session/session.h"
#include "include/tinyperf/perf_data.h"

#define PIPE_HEADER	16

struct tp_live {
	struct tp_live_conf conf;
	struct tp_live_win *win;
	struct tp_live_stats st;
	bool swap;
	uint8_t *buf;			/* pipe header, kept records, then this refresh's */
	size_t len, cap;
	size_t kept;			/* where this refresh's records start */
	bool data;			/* records other than attrs came */
	uint64_t tick_samples;
	/* during a tick */
	struct tp_symcache *c;
	int err;
};

static void start_stream(struct tp_live *l, bool swap)
{
	uint64_t magic = swap ? PERF_MAGIC2_SWAPPED : PERF_MAGIC2;
	uint64_t size = swap ? __builtin_bswap64(PIPE_HEADER) : PIPE_HEADER;

	l->swap = swap;
	memcpy(l->buf, &magic, 8);
	memcpy(l->buf + 8, &size, 8);
	l->len = l->kept = PIPE_HEADER;
	l->data = false;
}

int tp_live__new(struct tp_live **out, const struct tp_live_conf *conf)
{
	struct tp_live *l = calloc(1, sizeof(*l));
	int e;

	*out = NULL;
	if (!l)
		return -TP_ERR_NOMEM;
	l->conf = *conf;
	if (!l->conf.keep)
		l->conf.keep = 0.5;
	e = tp_live_win__new(&l->win, l->conf.keep);
	if (!e && TP_GROW(l->buf, l->cap, 65536, 65536))
		e = -TP_ERR_NOMEM;
	if (e) {
		tp_live__delete(l);
		return e;
	}
	start_stream(l, false);
	*out = l;
	return 0;
}

void tp_live__delete(struct tp_live *l)
{
	if (!l)
		return;
	tp_live_win__delete(l->win);
	free(l->buf);
	free(l);
}

struct tp_live_win *tp_live__window(struct tp_live *l)
{
	return l->win;
}

const struct tp_live_stats *tp_live__stats(const struct tp_live *l)
{
	return &l->st;
}

void tp_live__restart(struct tp_live *l)
{
	start_stream(l, l->swap);
	l->st.streams++;
	l->st.state_bytes = 0;
}

static int append(struct tp_live *l, const uint8_t *rec, size_t size)
{
	if (size > SIZE_MAX - l->len || TP_GROW(l->buf, l->cap, l->len + size, 65536))
		return -TP_ERR_NOMEM;
	memcpy(l->buf + l->len, rec, size);
	l->len += size;
	return 0;
}

/* after a tick: the refresh's records other than samples join the kept ones, in order */
static void compact(struct tp_live *l)
{
	size_t in = l->kept, out = l->kept;

	while (l->len - in >= 8) {
		uint32_t type = tp_ld32(l->buf + in, l->swap);
		uint16_t size = tp_ld16(l->buf + in + 6, l->swap);

		if (size < 8 || size > l->len - in)
			break;		/* not reached: only whole records are appended */
		if (type != PERF_RECORD_SAMPLE) {
			memmove(l->buf + out, l->buf + in, size);
			out += size;
		}
		in += size;
	}
	l->len = l->kept = out;
	l->st.state_bytes = out - PIPE_HEADER;
}

void tp_live__record(struct tp_live *l, const uint8_t *rec, size_t size, bool swapped)
{
	uint32_t type;

	if (size < 8)
		return;
	type = tp_ld32(rec, swapped);
	/* attrs after data: a new recording on the same link (a serial line's next session) */
	if (type == PERF_RECORD_HEADER_ATTR && l->data)
		tp_live__restart(l);
	if (l->len == PIPE_HEADER && swapped != l->swap)
		start_stream(l, swapped);
	l->data |= type != PERF_RECORD_HEADER_ATTR;
	switch (type) {
	case PERF_RECORD_SAMPLE:
		l->st.samples++;
		l->tick_samples++;
		if (append(l, rec, size))
			l->st.error = -TP_ERR_NOMEM;
		return;
	case PERF_RECORD_LOST:
		if (size >= 24)
			l->st.lost += tp_ld64(rec + 16, swapped);
		return;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16)
			l->st.lost += tp_ld64(rec + 8, swapped);
		return;
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_HEADER_TRACING_DATA:	/* its blob is not passed on */
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return;
	}
	if (append(l, rec, size))
		l->st.error = -TP_ERR_NOMEM;
}

/* ---- the tick ---- */

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct tp_live *l = ctx;

	(void)t;
	tp_symcache__event(l->c, ev);
	return 0;
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct tp_live *l = ctx;
	const struct tp_csym *sym;
	const struct tp_cdso *dso;
	struct tp_live_key k;
	struct tp_frame f;
	uint64_t off;
	uint32_t comm;
	char addr[24];
	int e;

	(void)ev;
	e = tp_symcache__resolve(l->c, loc, &f, &off);
	if (!e)
		e = tp_symcache__comm(l->c, t, &comm);
	if (e)
		return e;
	sym = tp_symcache__sym(l->c, f.sym);
	dso = tp_symcache__dso(l->c, f.dso);
	if (!sym || !sym->name)
		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)(sym ? sym->addr :
			 loc->addr));
	k.comm = tp_symcache__comm_str(l->c, comm);
	k.dso = dso ? dso->name : "[unknown]";
	k.sym = sym && sym->name ? sym->name : addr;
	k.kernel = (dso && dso->kernel) ||
		   (loc->cpumode & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	return tp_live_win__add(l->win, &k, 1);
}

static int walk(struct tp_live *l)
{
	static const struct tp_session_ops no_ops;
	const struct tp_session_ops ops = { .event = on_event, .sample = on_sample };
	struct tp_symcache_conf sc = l->conf.sym ? *l->conf.sym : (struct tp_symcache_conf){ 0 };
	struct tp_session *pre = NULL, *s = NULL;
	struct tp_reader *r = NULL;
	int e;

	e = tp_reader__new(&r, l->buf, l->len, NULL);
	/* a pipe's build-ids come after its samples: a first walk gathers them (as
	 * report does) so that the files found are verified */
	if (!e)
		e = tp_session__new(&pre, r);
	if (!e)
		e = tp_session__process(pre, &no_ops, NULL);
	if (!e)
		e = tp_session__new(&s, r);
	sc.features = r ? tp_reader__features(r) : NULL;
	if (!e)
		e = tp_symcache__new(&l->c, s, &sc);
	if (!e)
		e = tp_session__process(s, &ops, l);
	tp_symcache__delete(l->c);
	l->c = NULL;
	tp_session__delete(s);
	tp_session__delete(pre);
	tp_reader__delete(r);
	return e;
}

int tp_live__tick(struct tp_live *l)
{
	int e = 0;

	if (l->tick_samples)	/* thread and map records alone change no row */
		e = walk(l);
	l->st.error = e;
	compact(l);
	l->st.tick_samples = l->tick_samples;
	l->tick_samples = 0;
	tp_live_win__tick(l->win);
	return e;
}
