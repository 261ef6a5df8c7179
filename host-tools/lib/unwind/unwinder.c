/* SPDX-License-Identifier: MIT */
/* The unwinder over a session: a sample's user registers and stack copy, the maps of its
 * process, and for each binary on the way the tables of the very file the symbolizer found
 * and verified (same build-id or text hash), opened once per binary and kept. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/unwind/internal.h"

struct ent {
	const struct tp_dso *dso;
	struct tp_uwtab *tab;		/* NULL: none usable (said once in the log) */
};

struct tp_unwinder {
	struct tp_session *s;
	struct tp_symbolizer *sym;
	struct tp_log log;
	const char *uname;		/* the recording's HEADER_ARCH */
	struct ent *ents;
	size_t n_ents, cap_ents;
	struct tp_htab idx;		/* by DSO: hundreds in a system-wide recording */
	size_t last;			/* ents index of the last lookup + 1 */
	const struct tp_thread *t;	/* of the sample being unwound */
	/* the map of the sample's last PC and its binary's tables: a stack's frames come in
	 * runs in one binary, which then cost no search of the process's maps (kept for one
	 * sample only: its thread's maps cannot change while it is unwound) */
	struct {
		uint64_t start, len, pgoff;	/* len 0: none */
		struct tp_uwtab *tab;
		/* file offsets [lo, hi) of tab that map to link-time addresses at offset +
		 * delta (tp_uwtab__seg()); lo == hi: none */
		uint64_t lo, hi, delta;
	} hit;
};

int tp_unwinder__new(struct tp_unwinder **out, struct tp_session *s, struct tp_symbolizer *sym,
		     const struct tp_log *log, const char *uname_arch)
{
	struct tp_unwinder *u = calloc(1, sizeof(*u));

	*out = u;
	if (!u)
		return -TP_ERR_NOMEM;
	u->s = s;
	u->sym = sym;
	if (log)
		u->log = *log;
	u->uname = uname_arch;
	return 0;
}

void tp_unwinder__delete(struct tp_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n_ents; i++)
		tp_uwtab__delete(u->ents[i].tab);
	free(u->ents);
	tp_htab__free(&u->idx);
	free(u);
}

/* names that are no file of code (as the symbolizer's callers skip them) */
static bool no_file(const char *name)
{
	static const char *const prefixes[] = {
		"//anon", "/dev/", "/SYSV", "/memfd:", "/anon_hugepage", "/tmp/perf-",
	};

	if (name[0] == '[')
		return strncmp(name, "[vdso", 5) != 0;
	if (name[0] != '/')
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static struct tp_uwtab *open_tab(struct tp_unwinder *u, const struct tp_dso *d)
{
	const struct tp_symdso_info *in;
	struct tp_symdso *sd = NULL;
	struct tp_uwtab *t = NULL;
	int err;

	if (d->kernel || no_file(d->name))
		return NULL;
	if (tp_symbolizer__dso(u->sym, d->name, d->build_id, d->build_id_size, d->text_hash,
			       &sd) || !sd)
		return NULL;
	in = tp_symdso__info(sd);
	if (in->status == TP_SYMDSO_MISMATCH) {
		tp_log__warn(&u->log, "not unwinding through %s: no copy of it has the recorded "
			     "identity", d->name);
		return NULL;
	}
	if (in->status != TP_SYMDSO_OK || !in->elf_path || in->embedded)
		return NULL;
	err = tp_uwtab__open(&t, in->elf_path, in->debug_path);
	if (err) {
		tp_log__warn(&u->log, "not unwinding through %s: %s: %s", d->name, in->elf_path,
			     tp_strerror(err));
		return NULL;
	}
	if (!tp_uwtab__kinds(t))
		tp_log__msg(&u->log, TP_LOG_INFO, "%s: no unwind tables in %s", d->name,
			    in->elf_path);
	return t;
}

struct ent_key {
	const struct tp_unwinder *u;
	const struct tp_dso *d;
};

static bool ent_eq(const void *p, uint32_t i)
{
	const struct ent_key *k = p;

	return k->u->ents[i].dso == k->d;
}

/* the tables of a DSO, opened on first need: NULL when it has none usable */
static struct tp_uwtab *tab_of(struct tp_unwinder *u, const struct tp_dso *d)
{
	struct ent_key k = { u, d };
	uint32_t hv = tp_hash64((uintptr_t)d);
	struct tp_hslot *slot;
	struct ent *e;

	if (u->last && u->ents[u->last - 1].dso == d)
		return u->ents[u->last - 1].tab;
	if (tp_htab__reserve(&u->idx))
		return NULL;
	slot = tp_htab__probe(&u->idx, hv, ent_eq, &k);
	if (slot->idx) {
		u->last = slot->idx;
		return u->ents[slot->idx - 1].tab;
	}
	if (TP_GROW(u->ents, u->cap_ents, u->n_ents + 1, 16))
		return NULL;
	e = &u->ents[u->n_ents];
	e->dso = d;
	e->tab = open_tab(u, d);
	tp_htab__fill(&u->idx, slot, hv, (uint32_t)u->n_ents++);
	u->last = u->n_ents;
	return e->tab;
}

/* find() where the PC is not in the last map or segment */
static __attribute__((noinline)) int find_slow(struct tp_unwinder *u, uint64_t pc,
					       struct tp_uwtab **tab, uint64_t *bias)
{
	struct tp_loc loc;
	uint64_t off, vaddr;

	if (pc - u->hit.start < u->hit.len) {
		*tab = u->hit.tab;
		off = pc - u->hit.start + u->hit.pgoff;
	} else {
		if (!tp_session__resolve(u->s, u->t, PERF_RECORD_MISC_USER, pc, &loc) ||
		    !loc.dso || !loc.map)
			return -1;
		*tab = tab_of(u, loc.dso);
		if (!*tab)
			return -1;
		u->hit.start = loc.map->start;
		u->hit.len = loc.map->end - loc.map->start;
		u->hit.pgoff = loc.map->pgoff;
		u->hit.tab = *tab;
		u->hit.lo = u->hit.hi = 0;
		off = loc.addr;
	}
	if (off - u->hit.lo < u->hit.hi - u->hit.lo) {
		vaddr = off + u->hit.delta;
	} else {
		if (tp_uwtab__seg(*tab, off, &vaddr, &u->hit.lo, &u->hit.hi)) {
			u->hit.lo = u->hit.hi = 0;
			return -1;
		}
		u->hit.delta = vaddr - off;
	}
	*bias = pc - vaddr;
	return 0;
}

static int find(void *ctx, uint64_t pc, struct tp_uwtab **tab, uint64_t *bias)
{
	struct tp_unwinder *u = ctx;
	uint64_t off = pc - u->hit.start + u->hit.pgoff;

	/* a stack's frames come in runs in one map and segment: nothing else to do */
	if (pc - u->hit.start < u->hit.len && off - u->hit.lo < u->hit.hi - u->hit.lo) {
		*tab = u->hit.tab;
		*bias = pc - (off + u->hit.delta);
		return 0;
	}
	return find_slow(u, pc, tab, bias);
}

bool tp_unwind__has_stack(const struct tp_event *ev)
{
	const struct tp_ev_sample *smp = &ev->u.sample;

	return ev->type == PERF_RECORD_SAMPLE && smp->regs_user.abi && smp->regs_user.nr &&
	       smp->stack && smp->stack_size;
}

uint32_t tp_unwinder__sample(struct tp_unwinder *u, const struct tp_event *ev,
			     const struct tp_thread *t, struct tp_uwframe *frames, uint32_t max)
{
	const struct tp_ev_sample *smp = &ev->u.sample;
	const struct tp_regs *r = &smp->regs_user;
	struct tp_uwinput in = {
		.reg_mask = r->mask, .regs = r->regs, .nr_regs = r->nr, .stack = smp->stack,
		.stack_size = smp->stack_dyn_size < smp->stack_size ? smp->stack_dyn_size :
								      smp->stack_size,
	};
	const struct tp_uwarch *a;
	struct tp_uwtab *tab;
	uint64_t bias;
	uint32_t n = 0;

	if (!tp_unwind__has_stack(ev) || !t)
		return 0;
	u->t = t;
	u->hit.len = 0;
	u->hit.lo = u->hit.hi = 0;
	a = tp_uwarch__of_uname(u->uname, r->abi == TP_REGS_ABI_64);
	if (a) {
		/* the PC's binary says the byte order */
		uint32_t bit = 0;
		uint64_t pc;

		for (uint32_t i = 0; i < a->pc_perf; i++)
			bit += (r->mask >> i) & 1;
		if (!((r->mask >> a->pc_perf) & 1) || bit >= r->nr)
			return 0;
		pc = r->regs[bit];
		if (!find(u, pc, &tab, &bias) && tp_uwarch__same_regs(a, tab->arch))
			a = tab->arch;
	} else if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
		   !find(u, smp->ip, &tab, &bias)) {
		a = tab->arch;
	}
	if (!a)
		return 0;
	in.arch = a;
	n = tp_unwind(&in, find, u, frames, max);
	u->t = NULL;
	return n;
}
