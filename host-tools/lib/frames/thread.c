/* SPDX-License-Identifier: MIT */
/* What the symcache knows through a thread: its stack, resolved through a direct-mapped
 * cache of recent (process, ip) locations whose entries age with each process's maps (a
 * generation per pid, bumped by its mmaps and exec), and its comm, interned. The location
 * caches (that one and L2 behind it) grow here with the locations the stacks hold. */
#define _GNU_SOURCE		/* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/frames/internal.h"

/* ---- stacks ---- */

void tp_chain__release(struct tp_chain *ch)
{
	free(ch->frames);
	free(ch->at);
	memset(ch, 0, sizeof(*ch));
}

static int chain_push(struct tp_symcache *c, struct tp_chain *ch, const struct tp_loc *loc,
		      uint64_t ip)
{
	struct tp_chain_at *at;
	uint32_t cap = ch->cap;
	int err;

	if (tp_grow((void **)&ch->frames, &cap, ch->nr + 1, sizeof(*ch->frames)) ||
	    tp_grow((void **)&ch->at, &ch->cap, ch->nr + 1, sizeof(*ch->at)))
		return -TP_ERR_NOMEM;
	at = &ch->at[ch->nr];
	at->ip = at->addr = ip;
	at->off = 0;
	if (!loc) {
		ch->frames[ch->nr++] = (struct tp_frame){ NONE, 0, 0, 0 };
		return 0;
	}
	err = tp_symcache__resolve(c, loc, &ch->frames[ch->nr], &at->off);
	if (err)
		return err;
	if (loc->map && !c->dsos[ch->frames[ch->nr].dso].identity)
		at->addr = loc->addr;
	ch->nr++;
	return 0;
}

/* Addresses in no map get the level perf's children entries show for them: that of the
 * nearest mapped frame towards the outermost caller, or the sample's. */
static int resolve_unmapped(struct tp_symcache *c, struct tp_chain *ch, const struct tp_loc *loc)
{
	uint8_t cpumode = loc->cpumode;

	for (uint32_t i = ch->nr; i-- > 0;) {
		struct tp_loc l = { .addr = ch->at[i].ip, .cpumode = cpumode };
		int err;

		if (ch->frames[i].sym != NONE) {
			cpumode = c->dsos[ch->frames[i].dso].kernel ? PERF_RECORD_MISC_KERNEL :
								     PERF_RECORD_MISC_USER;
			continue;
		}
		err = tp_symcache__resolve(c, &l, &ch->frames[i], &ch->at[i].off);
		if (err)
			return err;
	}
	return 0;
}

struct pid_key {
	const struct tp_symcache *c;
	int32_t pid;
};

static bool pid_eq(const void *p, uint32_t i)
{
	const struct pid_key *k = p;

	return k->c->pid_gens[i].pid == k->pid;
}

/* the generation of pid's maps; bump: make it a new one. 0 when out of memory (always
 * stale: nothing is cached for the process) */
static uint32_t pid_gen(struct tp_symcache *c, int32_t pid, bool bump)
{
	struct pid_key k = { c, pid };
	uint32_t hv = tp_hash64((uint32_t)pid);
	struct tp_hslot *slot;

	if (!bump && pid == c->last_pid)
		return c->last_gen;
	if (tp_htab__reserve(&c->pid_gen_idx))
		return 0;
	slot = tp_htab__probe(&c->pid_gen_idx, hv, pid_eq, &k);
	if (!slot->idx) {
		if (tp_grow((void **)&c->pid_gens, &c->cap_pid_gens, c->nr_pid_gens + 1,
			    sizeof(*c->pid_gens)))
			return 0;
		c->pid_gens[c->nr_pid_gens] = (struct pid_gen){ pid, 1 };
		tp_htab__fill(&c->pid_gen_idx, slot, hv, c->nr_pid_gens++);
	}
	if (bump)
		c->pid_gens[slot->idx - 1].gen = ++c->gen;
	c->last_pid = pid;
	c->last_gen = c->pid_gens[slot->idx - 1].gen;
	return c->last_gen;
}

void tp_symcache__event(struct tp_symcache *c, const struct tp_event *ev)
{
	if (ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2) {
		uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (cpumode == PERF_RECORD_MISC_KERNEL || ev->u.mmap.pid == UINT32_MAX)
			c->kernel_gen = ++c->gen;
		else
			pid_gen(c, (int32_t)ev->u.mmap.pid, true);
	} else if (ev->type == PERF_RECORD_COMM && ev->u.comm.exec) {
		pid_gen(c, (int32_t)ev->u.comm.pid, true);
	}
}

static struct l1_ent *l1_slot(struct tp_symcache *c, const void *proc, uint64_t ip,
			      uint8_t cpumode)
{
	return &c->l1[tp_hash2(ip, (uintptr_t)proc ^ cpumode) & c->l1_mask];
}

void tp_symcache__caches(struct tp_symcache *c)
{
	c->l1 = calloc(CACHE_FIRST, sizeof(*c->l1));
	c->l2 = calloc(CACHE_FIRST, sizeof(*c->l2));
	c->l1_mask = c->l2_mask = CACHE_FIRST - 1;
}

struct l2_ent *tp_symcache__l2(const struct tp_symcache *c, const struct tp_dso *d,
			       uint64_t addr)
{
	return &c->l2[tp_hash2(addr, (uintptr_t)d) & c->l2_mask];
}

/* a fill of a cache of mask + 1 slots: the bigger array its entries (used ones) go to, or
 * NULL while it keeps its size (also when out of memory: it stays as it is) */
static void *grown(uint32_t *fills, uint32_t mask, uint32_t max, size_t size)
{
	if (++*fills <= (mask + 1) / 2 || mask + 1 >= max)
		return NULL;
	return calloc(4 * ((size_t)mask + 1), size);
}

void tp_symcache__l2_fill(struct tp_symcache *c, struct l2_ent *e, const struct l2_ent *v)
{
	struct l2_ent *old = c->l2, *l2;
	uint32_t n = c->l2_mask + 1;

	*e = *v;
	l2 = grown(&c->l2_fills, c->l2_mask, L2_SIZE, sizeof(*l2));
	if (!l2)
		return;
	c->l2 = l2;
	c->l2_mask = 4 * n - 1;
	c->l2_fills = 0;
	for (uint32_t i = 0; i < n; i++)
		if (old[i].used)
			*tp_symcache__l2(c, old[i].dso, old[i].addr) = old[i];
	free(old);
}

static void l1_filled(struct tp_symcache *c)
{
	struct l1_ent *old = c->l1, *l1;
	uint32_t n = c->l1_mask + 1;

	l1 = grown(&c->l1_fills, c->l1_mask, L1_SIZE, sizeof(*l1));
	if (!l1)
		return;
	c->l1 = l1;
	c->l1_mask = 4 * n - 1;
	c->l1_fills = 0;
	for (uint32_t i = 0; i < n; i++)
		if (old[i].gen)
			*l1_slot(c, old[i].proc, old[i].ip, old[i].cpumode) = old[i];
	free(old);
}

/* chain_ip() of an ip the cache does not have: resolved, pushed and kept in slot e */
static __attribute__((noinline)) int chain_ip_miss(struct tp_symcache *c, struct tp_chain *ch,
						   const struct tp_thread *t, uint8_t cpumode,
						   uint64_t ip, bool *unmapped, const void *proc,
						   uint32_t gen, struct l1_ent *e)
{
	struct tp_loc l;
	int err;

	if (!tp_session__resolve(c->s, t, cpumode, ip, &l)) {
		/* resolved when the frames around it are known */
		*unmapped = true;
		return chain_push(c, ch, NULL, ip);
	}
	err = chain_push(c, ch, &l, ip);
	if (!err) {
		*e = (struct l1_ent){ proc, ip, gen, cpumode, ch->frames[ch->nr - 1],
				      ch->at[ch->nr - 1].addr, ch->at[ch->nr - 1].off };
		l1_filled(c);
	}
	return err;
}

/* push the frame of ip (in the given cpumode) through the cache (the hit, a frame's usual
 * case, without a call) */
static inline int chain_ip(struct tp_symcache *c, struct tp_chain *ch, const struct tp_thread *t,
			   uint8_t cpumode, uint64_t ip, bool *unmapped)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || !t;
	const void *proc = kernel ? NULL : t->proc;
	uint32_t gen = kernel ? c->kernel_gen :
		       t->pid == c->last_pid ? c->last_gen : pid_gen(c, t->pid, false);
	struct l1_ent *e = l1_slot(c, proc, ip, cpumode);

	if (e->gen == gen && gen && e->ip == ip && e->proc == proc && e->cpumode == cpumode) {
		uint32_t cap = ch->cap;

		if (tp_grow((void **)&ch->frames, &cap, ch->nr + 1, sizeof(*ch->frames)) ||
		    tp_grow((void **)&ch->at, &ch->cap, ch->nr + 1, sizeof(*ch->at)))
			return -TP_ERR_NOMEM;
		ch->frames[ch->nr] = e->f;
		ch->at[ch->nr++] = (struct tp_chain_at){ ip, e->addr, e->off };
		return 0;
	}
	return chain_ip_miss(c, ch, t, cpumode, ip, unmapped, proc, gen, e);
}

/* conf.addr_ids: where a frame's line says it was sampled */
int tp_symcache__addr(const struct tp_symcache *c, uint32_t id, uint32_t *dso, uint64_t *addr)
{
	if (!id || id > c->nr_addrs)
		return -1;
	*dso = c->addrs[id - 1].dso_lvl >> 8;
	*addr = c->addrs[id - 1].addr;
	return 0;
}

int tp_symcache__chain(struct tp_symcache *c, const struct tp_event *ev,
		       const struct tp_thread *t, const struct tp_loc *loc, struct tp_chain *ch)
{
	const struct tp_ev_sample *smp = &ev->u.sample;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	bool unmapped = false;
	struct tp_frame first;
	uint64_t off;
	int err;

	ch->nr = 0;
	if (ev->attr && (ev->attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		/* the cache lines of the whole stack at once: their misses overlap */
		const void *proc = t ? t->proc : NULL;
		bool user = true;

		for (uint64_t i = 0; i < smp->callchain_nr && i < 64; i++) {
			uint64_t ip = smp->callchain[i];

			if (ip >= PERF_CONTEXT_MAX)
				user = ip == PERF_CONTEXT_USER;
			else
				__builtin_prefetch(l1_slot(c, user ? proc : NULL, ip, user ?
					PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL));
		}
		for (uint64_t i = 0; i < smp->callchain_nr; i++) {
			uint64_t ip = smp->callchain[i];

			if (ip >= PERF_CONTEXT_MAX) {
				switch (ip) {
				case PERF_CONTEXT_HV: cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
				case PERF_CONTEXT_KERNEL: cpumode = PERF_RECORD_MISC_KERNEL; break;
				case PERF_CONTEXT_USER: cpumode = PERF_RECORD_MISC_USER; break;
				case PERF_CONTEXT_USER_DEFERRED: i++; break;	/* then a cookie */
				default:
					/* as perf: a stack with a bogus context marker (a -1
					 * read off the user stack ...) is thrown away whole;
					 * so are the guest ones, which perf's add_callchain_ip
					 * does not take either (this kernel ends some user
					 * stacks with PERF_CONTEXT_GUEST_KERNEL) */
					ch->nr = 0;
					return TP_CHAIN_CORRUPT;
				}
				continue;
			}
			err = chain_ip(c, ch, t, cpumode, ip, &unmapped);
			if (err)
				return err;
		}
	}
	if (tp_unwind__has_stack(ev) && t) {
		uint32_t n;

		if (!c->uw && tp_unwinder__new(&c->uw, c->s, c->sym, &c->log,
					       c->feat ? c->feat->arch : NULL))
			return -TP_ERR_NOMEM;
		n = tp_unwinder__sample(c->uw, ev, t, c->uwf, TP_UW_MAX_STEPS);
		for (uint32_t i = 0; i < n; i++) {
			err = chain_ip(c, ch, t, PERF_RECORD_MISC_USER, c->uwf[i].pc, &unmapped);
			if (err)
				return err;
		}
	}
	if (unmapped) {
		err = resolve_unmapped(c, ch, loc);
		if (err)
			return err;
	}
	/* the stack starts where the sample hit, whatever the callchain says */
	if (ch->nr && ch->at[0].ip == smp->ip && ch->frames[0].sym != NONE)
		goto out;
	err = tp_symcache__resolve(c, loc, &first, &off);
	if (err)
		return err;
	if (!ch->nr || ch->frames[0].sym != first.sym) {
		err = chain_push(c, ch, loc, smp->ip);
		if (err)
			return err;
		if (ch->nr > 1) {
			struct tp_chain_at at = ch->at[ch->nr - 1];

			memmove(ch->frames + 1, ch->frames, (ch->nr - 1) * sizeof(*ch->frames));
			memmove(ch->at + 1, ch->at, (ch->nr - 1) * sizeof(*ch->at));
			ch->frames[0] = first;
			ch->at[0] = at;
		}
	}
out:
	return c->want_inlines ? tp_symcache__add_inlines(c, ch) : 0;
}

bool tp_symcache__unwinds(const struct tp_symcache *c)
{
	return c->uw != NULL;
}

/* ---- comms ---- */

struct comm_key {
	const struct tp_symcache *c;
	const char *s;
};

static bool comm_eq(const void *p, uint32_t i)
{
	const struct comm_key *k = p;

	return !strcmp(k->c->comms[i], k->s);
}


static int comm_by_content(struct tp_symcache *c, const char *s, bool copy, uint32_t *id)
{
	struct comm_key k = { c, s };
	uint32_t hv = tp_str_hash(s);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->comm_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->comm_idx, hv, comm_eq, &k);
	if (!slot->idx) {
		if (copy && !(s = tp_symcache__own(c, strdup(s))))
			return -TP_ERR_NOMEM;
		if (tp_grow((void **)&c->comms, &c->cap_comms, c->nr_comms + 1, sizeof(*c->comms)))
			return -TP_ERR_NOMEM;
		c->comms[c->nr_comms] = s;
		tp_htab__fill(&c->comm_idx, slot, hv, c->nr_comms++);
	}
	*id = slot->idx - 1;
	return 0;
}

int tp_symcache__comm(struct tp_symcache *c, const struct tp_thread *t, uint32_t *id)
{
	struct ptr_key k;
	struct tp_hslot *slot;
	char buf[24];
	uint32_t hv;
	int err;

	if (!t)
		return comm_by_content(c, ":-1", false, id);
	if (!t->comm) {
		if (!t->tid)
			return comm_by_content(c, "swapper", false, id);
		snprintf(buf, sizeof(buf), ":%d", (int)t->tid);
		return comm_by_content(c, buf, true, id);
	}
	/* the same comm string (it points into the input) is the same comm */
	k = (struct ptr_key){ c->comm_ptrs, t->comm };
	hv = tp_hash64((uintptr_t)t->comm);
	if (tp_htab__reserve(&c->comm_ptr_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->comm_ptr_idx, hv, tp_ptr_key_eq, &k);
	if (!slot->idx) {
		err = comm_by_content(c, t->comm, false, id);
		if (err || tp_grow((void **)&c->comm_ptrs, &c->cap_comm_ptrs, c->nr_comm_ptrs + 1,
				   sizeof(*c->comm_ptrs)))
			return err ? err : -TP_ERR_NOMEM;
		c->comm_ptrs[c->nr_comm_ptrs] = (struct ptr_ent){ t->comm, *id };
		tp_htab__fill(&c->comm_ptr_idx, slot, hv, c->nr_comm_ptrs++);
	}
	*id = c->comm_ptrs[slot->idx - 1].id;
	return 0;
}

const char *tp_symcache__comm_str(const struct tp_symcache *c, uint32_t id)
{
	return id < c->nr_comms ? c->comms[id] : "?";
}
