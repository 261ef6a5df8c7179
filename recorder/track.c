/* Which DSOs got samples, kept up to date record by record (track.h). */
#include "libc-shim/shim.h"
#include "recorder/track.h"

#define MAX_MAPS	1024	/* 1024 maps of 24 bytes fit the largest arena class */
#define MAX_IDS		2048
#define KERNEL_NAME	"[kernel.kallsyms]"

struct track_map {
	uint64_t start, end;
	uint32_t dso;
};

struct track_proc {
	struct track_proc *hnext;		/* pid hash chain */
	struct track_proc *prev, *next;		/* lru or zombies list */
	struct track_map *maps;
	uint32_t pid, exit_round;
	uint16_t nr, cap;
	bool in_tree, zombie;
};

struct track_dso {
	char *name;
	uint32_t hash, hnext, refs;		/* hnext: index + 1, 0 ends the chain */
	uint32_t maj, min;
	uint64_t ino;
	uint8_t bid[20], bid_size, kind;
	bool hit, has_ino;
};

struct track_id {
	uint64_t id, type;
};

/* what an MMAP2 says about the file's identity */
struct ident {
	uint32_t maj, min;
	uint64_t ino;
	const uint8_t *bid;
	uint8_t bid_size;
	bool has_ino;
};

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 16;

	while (p < n)
		p <<= 1;
	return p;
}

static int bad(struct track *t)
{
	t->stats.bad++;
	return -TP_EINVAL;
}

/* any change to maps or processes: forget the cached lookups */
static void invalidate(struct track *t)
{
	t->last_proc = NULL;
	t->last_user = t->last_kernel = NULL;
}

int track__init(struct track *t, struct arena *a, const struct track_limits *lim)
{
	uint32_t nb;

	memset(t, 0, sizeof(*t));
	t->arena = a;
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

	nb = pow2_at_least(t->lim.max_procs / 2);
	t->phash = arena__alloc(a, nb * sizeof(*t->phash));
	t->phash_mask = nb - 1;
	nb = pow2_at_least(t->lim.max_dsos);
	t->dhash = arena__alloc(a, nb * sizeof(*t->dhash));
	t->dhash_mask = nb - 1;
	t->dsos = arena__alloc(a, (size_t)t->lim.max_dsos * sizeof(*t->dsos));
	t->kernel = arena__alloc(a, sizeof(*t->kernel));
	if (!t->phash || !t->dhash || !t->dsos || !t->kernel)
		return -TP_ENOMEM;
	t->kernel->pid = (uint32_t)-1;
	return 0;
}

/* ---- event ids ---- */

int track__add_id(struct track *t, uint64_t id, uint64_t type)
{
	uint32_t i;

	if (type & PERF_SAMPLE_READ)
		return -TP_EINVAL;
	if (t->nr_ids && type != t->type && !t->mixed) {
		if (!(type & t->type & PERF_SAMPLE_IDENTIFIER))
			return -TP_EINVAL;
		t->mixed = true;
	} else if (t->mixed && !(type & PERF_SAMPLE_IDENTIFIER)) {
		return -TP_EINVAL;
	}
	t->type = type;
	for (i = 0; i < t->nr_ids; i++)
		if (t->ids[i].id == id)
			break;
	if (i == t->nr_ids) {
		if (i == t->lim.max_ids)
			return -TP_ENOSPC;
		if (i == t->cap_ids) {
			size_t old = t->cap_ids * sizeof(*t->ids);
			struct track_id *n = arena__get(t->arena, old ? 2 * old : 16 * sizeof(*n));

			if (!n)
				return -TP_ENOMEM;
			if (old)
				memcpy(n, t->ids, old);
			arena__put(t->arena, t->ids, old);
			t->ids = n;
			t->cap_ids = old ? 2 * t->cap_ids : 16;
		}
		t->nr_ids++;
	}
	t->ids[i].id = id;
	t->ids[i].type = type;
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
	id = rd64(b);
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

/* ---- files ---- */

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static bool same_file(struct track_dso *d, const struct ident *id)
{
	if (d->bid_size && id->bid_size)
		return d->bid_size == id->bid_size && !memcmp(d->bid, id->bid, d->bid_size);
	if (d->has_ino && id->has_ino)
		return d->maj == id->maj && d->min == id->min && d->ino == id->ino;
	return true;	/* nothing to tell them apart: the same name is the same file */
}

static void learn(struct track_dso *d, const struct ident *id)
{
	if (!d->bid_size && id->bid_size) {
		d->bid_size = id->bid_size;
		memcpy(d->bid, id->bid, id->bid_size);
	}
	if (!d->has_ino && id->has_ino) {
		d->has_ino = true;
		d->maj = id->maj;
		d->min = id->min;
		d->ino = id->ino;
	}
}

/* a slot for a new DSO: a fresh one, else one nothing maps and nothing hit */
static struct track_dso *dso_slot(struct track *t)
{
	struct track_dso *d;
	uint32_t i, *link;

	if (t->nr_dsos < t->lim.max_dsos)
		return &t->dsos[t->nr_dsos++];
	for (i = 0; i < t->nr_dsos; i++) {
		d = &t->dsos[i];
		if (d->refs || d->hit)
			continue;
		for (link = &t->dhash[d->hash & t->dhash_mask]; *link != i + 1;
		     link = &t->dsos[*link - 1].hnext)
			;
		*link = d->hnext;
		arena__put(t->arena, d->name, strlen(d->name) + 1);
		memset(d, 0, sizeof(*d));
		return d;
	}
	return NULL;
}

/* index of the DSO for name/id, created if new; -1 if it cannot be tracked */
static int dso_get(struct track *t, const char *name, uint8_t kind, const struct ident *id)
{
	uint32_t h = hash_str(name), x;
	size_t len = strlen(name) + 1;
	struct track_dso *d;
	char *copy;

	for (x = t->dhash[h & t->dhash_mask]; x; x = d->hnext) {
		d = &t->dsos[x - 1];
		if (d->hash == h && d->kind == kind && !strcmp(d->name, name) && same_file(d, id)) {
			learn(d, id);
			return (int)x - 1;
		}
	}
	copy = len <= ARENA_MAX_GET ? arena__get(t->arena, len) : NULL;
	if (!copy) {
		t->stats.nomem++;
		return -1;
	}
	d = dso_slot(t);
	if (!d) {
		arena__put(t->arena, copy, len);
		t->stats.dsos_dropped++;
		return -1;
	}
	memcpy(copy, name, len);
	d->name = copy;
	d->hash = h;
	d->kind = kind;
	d->hit = t->mark_all;
	learn(d, id);
	x = (uint32_t)(d - t->dsos);
	d->hnext = t->dhash[h & t->dhash_mask];
	t->dhash[h & t->dhash_mask] = x + 1;
	return (int)x;
}

/* ---- maps ---- */

/* index of the first map ending after addr (maps are sorted and disjoint) */
static uint32_t first_after(const struct track_proc *p, uint64_t addr)
{
	uint32_t lo = 0, hi = p->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void maps_clear(struct track *t, struct track_proc *p)
{
	for (uint32_t i = 0; i < p->nr; i++)
		t->dsos[p->maps[i].dso].refs--;
	arena__put(t->arena, p->maps, p->cap * sizeof(*p->maps));
	p->maps = NULL;
	p->nr = p->cap = 0;
}

/* room for n maps in p; false if over the limit or out of memory */
static bool maps_reserve(struct track *t, struct track_proc *p, uint32_t n)
{
	struct track_map *m;
	size_t size;

	if (n > t->lim.max_maps) {
		t->stats.maps_dropped++;
		return false;
	}
	if (n <= p->cap)
		return true;
	size = arena__class_size(n * sizeof(*m));
	m = arena__get(t->arena, size);
	if (!m) {
		t->stats.nomem++;
		return false;
	}
	if (p->nr)
		memcpy(m, p->maps, p->nr * sizeof(*m));
	arena__put(t->arena, p->maps, p->cap * sizeof(*m));
	p->maps = m;
	p->cap = (uint16_t)TP_MIN(size / sizeof(*m), (size_t)MAX_MAPS);
	return true;
}

/* map [start, end) to dso, replacing whatever it overlaps (as mmap does) */
static void map_insert(struct track *t, struct track_proc *p, uint64_t start, uint64_t end,
		       uint32_t dso)
{
	uint32_t i = first_after(p, start), j = i, k, n;
	struct track_map left, right;
	bool l, r;

	while (j < p->nr && p->maps[j].start < end)
		j++;
	l = i < j && p->maps[i].start < start;
	r = i < j && p->maps[j - 1].end > end;
	if (l) {
		left = p->maps[i];
		left.end = start;
	}
	if (r) {
		right = p->maps[j - 1];
		right.start = end;
	}
	n = p->nr - (j - i) + 1 + l + r;
	if (!maps_reserve(t, p, n))
		return;
	for (k = i; k < j; k++)
		t->dsos[p->maps[k].dso].refs--;
	memmove(&p->maps[i + l + 1 + r], &p->maps[j], (p->nr - j) * sizeof(*p->maps));
	if (l) {
		p->maps[i++] = left;
		;
	}
	p->maps[i++] = (struct track_map){ start, end, dso };
	t->dsos[dso].refs++;
	if (r) {
		p->maps[i] = right;
		t->dsos[right.dso].refs++;
	}
	p->nr = (uint16_t)n;
}

/* ---- processes ---- */

static void list_del(struct track_list *l, struct track_proc *p)
{
	*(p->prev ? &p->prev->next : &l->head) = p->next;
	*(p->next ? &p->next->prev : &l->tail) = p->prev;
	p->prev = p->next = NULL;
}

static void list_add(struct track_list *l, struct track_proc *p)
{
	p->next = NULL;
	p->prev = l->tail;
	*(l->tail ? &l->tail->next : &l->head) = p;
	l->tail = p;
}

static struct track_proc *proc_find(struct track *t, uint32_t pid)
{
	struct track_proc *p = t->last_proc;

	if (p && p->pid == pid)
		return p;
	for (p = t->phash[pid & t->phash_mask]; p && p->pid != pid; p = p->hnext)
		;
	if (p && !p->zombie) {
		list_del(&t->lru, p);
		list_add(&t->lru, p);
	}
	if (p != t->last_proc)
		t->last_user = NULL;
	t->last_proc = p;
	return p;
}

static void proc_free(struct track *t, struct track_proc *p)
{
	struct track_proc **link = &t->phash[p->pid & t->phash_mask];

	while (*link != p)
		link = &(*link)->hnext;
	*link = p->hnext;
	list_del(p->zombie ? &t->zombies : &t->lru, p);
	maps_clear(t, p);
	arena__put(t->arena, p, sizeof(*p));
	t->nr_procs--;
	invalidate(t);
}

/* make room: the oldest exited process, else the least recently used one outside the tree */
static void evict(struct track *t)
{
	struct track_proc *p = t->zombies.head;

	if (!p) {
		for (p = t->lru.head; p && p->in_tree; p = p->next)
			;
		if (!p)
			p = t->lru.head;
	}
	proc_free(t, p);
	t->stats.procs_evicted++;
}

static struct track_proc *proc_new(struct track *t, uint32_t pid)
{
	struct track_proc *p;

	if (t->nr_procs >= t->lim.max_procs)
		evict(t);
	p = arena__get(t->arena, sizeof(*p));
	if (!p) {
		t->stats.nomem++;
		return NULL;
	}
	p->pid = pid;
	p->hnext = t->phash[pid & t->phash_mask];
	t->phash[pid & t->phash_mask] = p;
	list_add(&t->lru, p);
	t->nr_procs++;
	invalidate(t);
	return p;
}

static struct track_proc *proc_get(struct track *t, uint32_t pid)
{
	struct track_proc *p = proc_find(t, pid);

	return p ? p : proc_new(t, pid);
}

int track__set_root(struct track *t, uint32_t pid)
{
	struct track_proc *p = proc_get(t, pid);

	if (!p)
		return -TP_ENOMEM;
	p->in_tree = true;
	return 0;
}

bool track__in_tree(struct track *t, uint32_t pid)
{
	struct track_proc *p = proc_find(t, pid);

	return p && p->in_tree;
}

/* ---- records ---- */

static int on_mmap(struct track *t, uint16_t misc, const uint8_t *b, size_t len, bool mmap2)
{
	size_t fixed = mmap2 ? 64 : 32;
	const char *name = (const char *)b + fixed;
	struct ident id = { 0 };
	struct track_proc *p;
	uint64_t start, end;
	uint8_t kind;
	int d;

	if (len <= fixed || strnlen(name, len - fixed) == len - fixed)
		return bad(t);
	if (misc & PERF_RECORD_MISC_MMAP_DATA)
		return 0;
	start = rd64(b + 8);
	end = start + rd64(b + 16);
	if (end < start)
		end = ~0ULL;
	if (mmap2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		id.bid_size = TP_MIN(b[32], (uint8_t)20);
		id.bid = b + 36;
	} else if (mmap2) {
		id.maj = rd32(b + 32);
		id.min = rd32(b + 36);
		id.ino = rd64(b + 40);
		id.has_ino = true;
	}
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		p = t->kernel;
		kind = tp_startswith(name, KERNEL_NAME) ? TRACK_KERNEL : TRACK_MODULE;
		if (kind == TRACK_KERNEL)
			name = KERNEL_NAME;	/* "[kernel.kallsyms]_text" */
		break;
	case PERF_RECORD_MISC_USER:
		p = proc_get(t, rd32(b));
		kind = TRACK_USER;
		break;
	default:
		return 0;	/* guests, hypervisor: not ours */
	}
	if (!p || end == start)
		return 0;
	d = dso_get(t, name, kind, &id);
	if (d >= 0)
		map_insert(t, p, start, end, (uint32_t)d);
	invalidate(t);
	return 0;
}

static int on_fork(struct track *t, const uint8_t *b, size_t len)
{
	struct track_proc *parent, *child;
	uint32_t pid, ppid;

	if (len < 16)
		return bad(t);
	pid = rd32(b);
	ppid = rd32(b + 4);
	if (pid == ppid)
		return 0;	/* a thread: it shares its process's state */
	child = proc_find(t, pid);
	if (child && child->zombie)
		proc_free(t, child);	/* the pid was reused */
	else if (child)
		return 0;	/* its MMAP2s came first, from another CPU's ring */
	parent = proc_find(t, ppid);
	if (!parent)
		return 0;
	child = proc_new(t, pid);
	parent = proc_find(t, ppid);	/* making room may have dropped it */
	if (!child || !parent)
		return 0;
	child->in_tree = parent->in_tree;
	if (parent->nr && maps_reserve(t, child, parent->nr)) {
		memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
		child->nr = parent->nr;
		for (uint32_t i = 0; i < child->nr; i++)
			t->dsos[child->maps[i].dso].refs++;
	}
	return 0;
}

static int on_exit(struct track *t, const uint8_t *b, size_t len)
{
	struct track_proc *p;

	if (len < 16)
		return bad(t);
	if (rd32(b) != rd32(b + 8))
		return 0;	/* a thread, not the process */
	p = proc_find(t, rd32(b));
	if (!p || p->zombie)
		return 0;
	list_del(&t->lru, p);
	p->zombie = true;
	p->exit_round = t->round;
	list_add(&t->zombies, p);
	return 0;
}

static void on_round(struct track *t)
{
	struct track_proc *p;

	t->round++;
	while ((p = t->zombies.head) && t->round - p->exit_round >= 2)
		proc_free(t, p);
}

static void mark(struct track *t, struct track_proc *p, uint64_t addr,
		 const struct track_map **cache)
{
	const struct track_map *m = *cache;

	if (!m || addr < m->start || addr >= m->end) {
		uint32_t i = p ? first_after(p, addr) : 0;

		if (!p || i == p->nr || p->maps[i].start > addr) {
			t->stats.unresolved++;
			return;
		}
		*cache = m = &p->maps[i];
	}
	t->dsos[m->dso].hit = true;
}

static void mark_mode(struct track *t, struct track_proc *p, unsigned mode, uint64_t addr)
{
	if (mode == PERF_RECORD_MISC_KERNEL)
		mark(t, t->kernel, addr, &t->last_kernel);
	else if (mode == PERF_RECORD_MISC_USER)
		mark(t, p, addr, &t->last_user);
}

static int on_sample(struct track *t, uint16_t misc, const uint8_t *b, size_t len)
{
	const uint8_t *p = b, *end = b + len;
	unsigned mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct track_proc *proc = NULL;
	uint64_t type, nr, ip = 0, x;

	t->stats.samples++;
	if (!sample_type(t, b, len, &type))
		return bad(t);
	/* IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, (READ), CALLCHAIN */
	nr = __builtin_popcountll(type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
					  PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
					  PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
					  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD));
	if (len < 8 * nr + (type & PERF_SAMPLE_CALLCHAIN ? 8 : 0))
		return bad(t);
	if (type & PERF_SAMPLE_IDENTIFIER)
		p += 8;
	if (type & PERF_SAMPLE_IP) {
		ip = rd64(p);
		p += 8;
	}
	if (type & PERF_SAMPLE_TID) {
		proc = proc_find(t, rd32(p));
		p += 8;
	}
	p = b + 8 * nr;
	if (type & PERF_SAMPLE_IP)
		mark_mode(t, proc, mode, ip);
	if (!(type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	nr = rd64(p);
	p += 8;
	if (nr > (uint64_t)(end - p) / 8)
		return bad(t);
	for (; nr--; p += 8) {
		x = rd64(p);
		if (x >= PERF_CONTEXT_MAX)
			mode = x == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
			       x == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER : 0;
		else
			mark_mode(t, proc, mode, x);
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
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(t, h->misc, b, len);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(t, h->misc, b, len, h->type == PERF_RECORD_MMAP2);
	case PERF_RECORD_COMM:
		if (len < 8)
			return bad(t);
		if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && (p = proc_find(t, rd32(b)))) {
			maps_clear(t, p);	/* fresh MMAP2s follow */
			invalidate(t);
		}
		return 0;
	case PERF_RECORD_FORK:
		return on_fork(t, b, len);
	case PERF_RECORD_EXIT:
		return on_exit(t, b, len);
	case PERF_RECORD_FINISHED_ROUND:
		on_round(t);
		return 0;
	}
	return 0;
}

void track__mark_all(struct track *t)
{
	t->mark_all = true;
	for (uint32_t i = 0; i < t->nr_dsos; i++)
		t->dsos[i].hit = t->dsos[i].name != NULL;
}

int track__for_each_hit_dso(struct track *t, track_dso_cb cb, void *ctx)
{
	for (uint32_t i = 0; i < t->nr_dsos; i++) {
		struct track_dso *d = &t->dsos[i];
		int r;

		if (!d->name || !d->hit)
			continue;
		r = cb(ctx, d->name, (enum track_kind)d->kind, d->bid_size ? d->bid : NULL,
		       d->bid_size);
		if (r)
			return r;
	}
	return 0;
}
