/* SPDX-License-Identifier: MIT */
/* Which DSOs got samples, kept up to date record by record (track.h). */
#include "libc-shim/shim.h"
#include "recorder/track/addrset.h"
#include "recorder/track/ksyms-cache.h"
#include "recorder/track/track-procs.h"

#define MAX_IDS		4096
#define KERNEL_NAME	"[kernel.kallsyms]"

struct track_id {
	uint64_t id, type;
};

int track__init(struct track *t, struct arena *a, const struct track_limits *lim)
{
	uint32_t nb;

	memset(t, 0, sizeof(*t));
	t->arena = a;
	t->lru.next = t->lru.prev = &t->lru;
	t->zombies.next = t->zombies.prev = &t->zombies;
	if (lim)
		t->lim = *lim;
	if (!t->lim.max_procs)
		t->lim.max_procs = 4096;
	if (!t->lim.max_maps || t->lim.max_maps > MAX_MAPS)
		t->lim.max_maps = MAX_MAPS;
	if (!t->lim.max_dsos)
		t->lim.max_dsos = 2048;
	if (!t->lim.max_ids || t->lim.max_ids > MAX_IDS)
		t->lim.max_ids = t->lim.max_ids ? MAX_IDS : 1024;

	/* one block: the ids (8-byte aligned first), the pid hash, the kernel's process */
	nb = pow2_at_least(t->lim.max_procs / 2);
	t->ids = arena__alloc(a, t->lim.max_ids * sizeof(*t->ids) + nb * sizeof(*t->phash) +
			      sizeof(*t->kernel));
	if (!t->ids || dsos__init(&t->dsos, a, t->lim.max_dsos))
		return -TP_ENOMEM;
	t->phash = (struct track_proc **)(t->ids + t->lim.max_ids);
	t->phash_mask = nb - 1;
	t->kernel = (struct track_proc *)(t->phash + nb);
	t->kernel->pid = (uint32_t)-1;
	return 0;
}

/* ---- event ids ---- */

int track__add_id(struct track *t, uint64_t id, uint64_t type)
{
	if (type & PERF_SAMPLE_READ)
		return -TP_EINVAL;
	if (t->nr_ids && type != t->type) {
		/* when mixed, every earlier type has IDENTIFIER too */
		if (!(type & t->type & PERF_SAMPLE_IDENTIFIER))
			return -TP_EINVAL;
		t->mixed = true;
	}
	if (t->nr_ids == t->lim.max_ids)
		return -TP_ENOSPC;
	t->type = type;
	t->ids[t->nr_ids++] = (struct track_id){ id, type };
	return 0;
}

/* the sample_type of a sample whose body starts at b; false if unknown */
static bool sample_type(struct track *t, const uint8_t *b, size_t len, uint64_t *type)
{
	uint64_t id;
	uint32_t i;

	if (!t->mixed) {
		*type = t->type;
		return t->nr_ids;
	}
	if (len < 8)
		return false;
	id = tp_get64(b);
	if (t->ids[t->last_id].id != id) {
		for (i = 0; i < t->nr_ids && t->ids[i].id != id; i++)
			;
		if (i == t->nr_ids)
			return false;
		t->last_id = i;
	}
	*type = t->ids[t->last_id].type;
	return true;
}

/* ---- records ---- */

static int on_mmap(struct track *t, uint16_t misc, const uint8_t *b, size_t len, bool mmap2)
{
	size_t fixed = mmap2 ? 64 : 32;
	const char *name = (const char *)b + fixed;
	struct dso_ident id = { 0 };
	struct track_proc *p;
	uint64_t start, end;
	uint8_t kind;
	int d;

	if (len <= fixed || strnlen(name, len - fixed) == len - fixed)
		return bad(t);
	if (misc & PERF_RECORD_MISC_MMAP_DATA)
		return 0;
	start = tp_get64(b + 8);
	end = start + tp_get64(b + 16);
	if (end < start)
		end = ~0ULL;
	if (mmap2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		id.bid_size = TP_MIN(b[32], (uint8_t)20);
		id.bid = b + 36;
	} else if (mmap2) {
		id.fid = b + 32;
	}
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		p = t->kernel;
		kind = strncmp(name, KERNEL_NAME, sizeof(KERNEL_NAME) - 1) ? TRACK_MODULE :
		       TRACK_KERNEL;
		if (kind == TRACK_KERNEL)
			name = KERNEL_NAME;	/* "[kernel.kallsyms]_text" */
		break;
	case PERF_RECORD_MISC_USER:
		p = track_procs__get(t, tp_get32(b));
		kind = TRACK_USER;
		/* for symembed.c: 32-bit (compat) processes' [vdso] sits below 4 GiB */
		if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && !strcmp(name, "[vdso]"))
			t->vdso_classes |= (uint8_t)(1u << (start >> 32 != 0));
		break;
	default:
		return 0;	/* guests, hypervisor: not ours */
	}
	if (!p || end == start)
		return 0;
	d = dsos__get(&t->dsos, name, kind, &id);
	if (d >= 0)
		track_maps__insert(t, p, start, end, (uint32_t)d, IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) ?
			   (uint32_t)(tp_get64(b + 24) >> 12) : 0);
	else if (d == -TP_ENOSPC)
		count(&t->stats.dsos_dropped);
	else
		count(&t->stats.nomem);
	invalidate(t);
	return 0;
}


/* addr's DSO hit: false when no mapping of p holds it */
static bool mark(struct track *t, struct track_proc *p, uint64_t addr,
		 const struct track_map **cache)
{
	const struct track_map *m = *cache;

	if (!m || addr < m->start || addr >= m->end) {
		uint32_t i = p ? track_maps__first_after(p, addr) : 0;

		if (!p || i == p->nr || p->maps[i].start > addr)
			return false;
		*cache = m = &p->maps[i];
	}
	t->dsos.v[m->dso].hit = true;
	/* embedded symbols: user addresses as file offsets, kernel ones as they are; a new
	 * kernel one the cache does not name moves the kallsyms copy's target on */
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && t->as &&
	    addrset__add(t->as, m->dso, cache == &t->last_kernel ? addr :
			 addr - m->start + ((uint64_t)m->pgoff << 12)) &&
	    cache == &t->last_kernel) {
		if (t->dsos.v[m->dso].kind == TRACK_MODULE)
			t->kmods = true;
		else if (addr > t->kmax && !(IS_ENABLED(CONFIG_REC_KSYMS_CACHE) && t->kc &&
					     ksyms_cache__find(t->kc, addr)))
			t->kmax = addr;
	}
	return true;
}

static TP_NOINLINE void mark_mode(struct track *t, struct track_proc *p, uint32_t pid,
				  unsigned mode, uint64_t addr)
{
	const struct track_map **cache = &t->last_user;

	if (mode == PERF_RECORD_MISC_KERNEL) {
		p = t->kernel;
		cache = &t->last_kernel;
	} else if (mode != PERF_RECORD_MISC_USER) {
		return;
	}
	if (mark(t, p, addr, cache))
		return;
	count(&t->stats.unresolved);
	if (mode == PERF_RECORD_MISC_USER && t->nr_later < TRACK_LATER)
		t->later[t->nr_later++] = (struct track_later){ addr, pid, t->round };
}

void track_later__retry(struct track *t, bool final)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->nr_later; i++) {
		const struct track_later *l = &t->later[i];
		const struct track_map *m = NULL;

		if (mark(t, track_procs__find(t, l->pid), l->addr, &m))
			count(&t->stats.late);
		else if (!final && t->round - l->round < 2)
			t->later[n++] = *l;
	}
	t->nr_later = n;
}

/* the same pid, cpumode, ip and callchain as the sample before (then remembered): true if
 * so, and nothing changed since (maps, processes, the address set's resets) */
static bool repeats(struct track *t, uint32_t pid, unsigned mode, uint64_t ip,
		    const uint8_t *cc, size_t nr)
{
	uint32_t gen = IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && t->as ? t->as->gen : 0;

	if (nr > TRACK_MEMO) {
		t->memo_ok = false;
		return false;
	}
	if (t->memo_ok && t->memo_pid == pid && t->memo_mode == mode && t->memo_ip == ip &&
	    t->memo_nr == nr && (!IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) || t->memo_gen == gen)) {
		size_t i = nr;

		while (i && t->memo[i - 1] == tp_get64(cc + 8 * (i - 1)))	/* callers differ least */
			i--;
		if (!i)
			return true;
	}
	memcpy(t->memo, cc, nr * 8);
	t->memo_pid = pid;
	t->memo_mode = (uint16_t)mode;
	t->memo_ip = ip;
	t->memo_nr = (uint32_t)nr;
	t->memo_gen = gen;
	t->memo_ok = true;
	return false;
}

static int on_sample(struct track *t, uint16_t misc, const uint8_t *b, size_t len)
{
	const uint8_t *p = b, *end = b + len;
	unsigned mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct track_proc *proc = NULL;
	uint64_t type, ip = 0, x;
	size_t nr;
	uint32_t pid = 0;

	count(&t->stats.samples);
	if (!sample_type(t, b, len, &type))
		return bad(t);
	/* IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, (READ), CALLCHAIN */
	if (type != t->fixed_type) {	/* a library call on most targets: once per type */
		t->fixed_type = type;
		t->fixed_nr = (uint8_t)tp_popcount(type & (PERF_SAMPLE_IDENTIFIER |
				PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
				PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD));
	}
	nr = t->fixed_nr;
	if (len < 8 * nr + (type & PERF_SAMPLE_CALLCHAIN ? 8 : 0))
		return bad(t);
	if (type & PERF_SAMPLE_IDENTIFIER)
		p += 8;
	if (type & PERF_SAMPLE_IP) {
		ip = tp_get64(p);
		p += 8;
	}
	if (type & PERF_SAMPLE_TID)
		proc = track_procs__find(t, pid = tp_get32(p));
	p = b + 8 * nr;
	nr = 0;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		x = tp_get64(p);
		p += 8;
		if (x > (size_t)(end - p) / 8)
			return bad(t);
		nr = (size_t)x;	/* fits: the record holds it */
	}
	if (repeats(t, pid, mode, ip, p, nr))
		return 0;
	if (type & PERF_SAMPLE_IP)
		mark_mode(t, proc, pid, mode, ip);
	for (; nr--; p += 8) {
		x = tp_get64(p);
		if (x >= PERF_CONTEXT_MAX) {	/* its high half all ones: the low one tells */
			uint32_t c = (uint32_t)x;

			mode = c == (uint32_t)PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
			       c == (uint32_t)PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER : 0;
		} else {
			mark_mode(t, proc, pid, mode, x);
		}
	}
	return 0;
}

int track__record(struct track *t, const struct perf_event_header *h)
{
	const uint8_t *b = (const uint8_t *)(h + 1);
	size_t len;
	struct track_proc *p;

	if (h->size < sizeof(*h))
		return bad(t);
	len = h->size - sizeof(*h);
	if (h->type == PERF_RECORD_SAMPLE)
		return on_sample(t, h->misc, b, len);
	if (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2)
		return on_mmap(t, h->misc, b, len, h->type == PERF_RECORD_MMAP2);
	if (h->type == PERF_RECORD_COMM) {
		if (len < 8)
			return bad(t);
		if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && (p = track_procs__find(t, tp_get32(b)))) {
			track_maps__clear(t, p);	/* fresh MMAP2s follow */
			invalidate(t);
		}
	}
	if (h->type == PERF_RECORD_FORK)
		return track_procs__fork(t, b, len);
	if (h->type == PERF_RECORD_EXIT)
		return track_procs__exit(t, b, len);
	if (h->type == PERF_RECORD_FINISHED_ROUND)
		track__end_round(t);
	return 0;
}

void track__mark_all(struct track *t)
{
	t->dsos.mark_all = true;
}

void track__reset_hits(struct track *t)
{
	t->memo_ok = false;
	t->nr_later = 0;	/* the addresses of the samples before belong to those */
	for (uint32_t i = 0; i < t->dsos.nr; i++)
		t->dsos.v[i].hit = false;
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && t->as)
		addrset__reset(t->as);
}

int track__for_each_hit_dso(struct track *t, track_dso_cb cb, void *ctx)
{
	track_later__retry(t, true);	/* the last rounds' */
	for (uint32_t i = 0; i < t->dsos.nr; i++) {
		struct dso *d = &t->dsos.v[i];
		int r;

		if (!d->name || !(d->hit || t->dsos.mark_all))
			continue;
		r = cb(ctx, d->name, (enum track_kind)d->kind, d->bid_size ? d->bid : NULL,
		       d->bid_size);
		if (r)
			return r;
	}
	return 0;
}
