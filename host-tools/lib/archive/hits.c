/* SPDX-License-Identifier: MIT */
/* Hit DSOs, from the samples' ips, callchains and unwound user stacks. */
#include <stdint.h>
#include <stdlib.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/archive/hits.h"

struct hits {
	struct tp_session *s;
	struct tp_unwinder *uw;
	struct tp_uwframe uwf[TP_UW_MAX_STEPS];
	struct tp_dso **v;
	uint32_t n, cap;
	struct tp_htab idx;
	const struct tp_dso *last;	/* frames of a chain often stay in one DSO */
};

static bool dso_eq(const void *ctx, uint32_t i)
{
	const struct hits *h = ((const struct hits *const *)ctx)[0];
	const struct tp_dso *d = ((const struct tp_dso *const *)ctx)[1];

	return h->v[i] == d;
}

static int mark(struct hits *h, struct tp_dso *d)
{
	const void *key[2] = { h, d };
	uint32_t hv = tp_hash64((uintptr_t)d);
	struct tp_hslot *slot;

	if (!d || d == h->last)
		return 0;
	h->last = d;
	if (tp_htab__reserve(&h->idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&h->idx, hv, dso_eq, key);
	if (slot->idx)
		return 0;
	if (tp_grow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v)))
		return -TP_ERR_NOMEM;
	h->v[h->n] = d;
	tp_htab__fill(&h->idx, slot, hv, h->n++);
	return 0;
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct hits *h = ctx;
	const struct tp_ev_sample *smp = &ev->u.sample;
	uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	int err = mark(h, loc->map ? loc->dso : NULL);

	for (uint64_t i = 0; !err && i < smp->callchain_nr; i++) {
		uint64_t ip = smp->callchain[i];
		struct tp_loc l;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_GUEST_KERNEL)
				mode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER || ip == PERF_CONTEXT_GUEST_USER)
				mode = PERF_RECORD_MISC_USER;
			continue;
		}
		if (tp_session__resolve(h->s, t, mode, ip, &l))
			err = mark(h, l.dso);
	}
	if (!err && h->uw && t && tp_unwind__has_stack(ev)) {
		uint32_t nf = tp_unwinder__sample(h->uw, ev, t, h->uwf, TP_UW_MAX_STEPS);

		for (uint32_t i = 0; !err && i < nf; i++) {
			struct tp_loc l;

			if (tp_session__resolve(h->s, t, PERF_RECORD_MISC_USER, h->uwf[i].pc, &l))
				err = mark(h, l.dso);
		}
	}
	return err;
}

int tp_hits__collect(struct tp_session *s, struct tp_unwinder *uw, struct tp_dso ***out,
		     size_t *n)
{
	static const struct tp_session_ops ops = { .sample = on_sample };
	struct hits *h = calloc(1, sizeof(*h));
	int err;

	if (!h)
		return -TP_ERR_NOMEM;
	h->s = s;
	h->uw = uw;
	err = tp_session__process(s, &ops, h);
	tp_htab__free(&h->idx);
	if (err) {
		free(h->v);
		*out = NULL;
		*n = 0;
	} else {
		*out = h->v;
		*n = h->n;
	}
	free(h);
	return err;
}
