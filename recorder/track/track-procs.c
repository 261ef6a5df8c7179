/* SPDX-License-Identifier: MIT */
/* The process table behind track.c: each process's executable maps, followed through FORK,
 * exec and EXIT, kept within the limits of track.h. */
#include "libc-shim/shim.h"
#include "recorder/track/track-procs.h"

TP_NOINLINE void track__count_call(uint64_t *c)
{
	++*c;
}

/* ---- maps ---- */

/* index of the first map ending after addr (maps are sorted and disjoint) */
TP_NOINLINE uint32_t track_maps__first_after(const struct track_proc *p, uint64_t addr)
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

void track_maps__clear(struct track *t, struct track_proc *p)
{
	for (uint32_t i = 0; i < p->nr; i++)
		t->dsos.v[p->maps[i].dso].refs--;
	arena__put(t->arena, p->maps, p->size);
	p->maps = NULL;
	p->nr = p->size = 0;
}

/* room for n more maps in p; false if over the limit or out of memory */
static bool maps_room(struct track *t, struct track_proc *p, uint32_t n)
{
	struct track_map *m;
	size_t size;

	n += p->nr;
	if (n > t->lim.max_maps) {
		count(&t->stats.maps_dropped);
		return false;
	}
	if (n * sizeof(*m) <= p->size)
		return true;
	size = pow2_at_least(n * sizeof(*m));	/* its arena class (n <= MAX_MAPS: <= 24 KiB) */
	m = arena__get(t->arena, size);
	if (!m) {
		count(&t->stats.nomem);
		return false;
	}
	if (p->nr)
		memcpy(m, p->maps, p->nr * sizeof(*m));
	arena__put(t->arena, p->maps, p->size);
	p->maps = m;
	p->size = (uint16_t)size;
	return true;
}

/* map [start, end) to dso, over whatever it overlaps (as mmap does): maps it covers go,
 * maps it partly covers are trimmed, a map around it is split in two */
void track_maps__insert(struct track *t, struct track_proc *p, uint64_t start, uint64_t end,
		       uint32_t dso, uint32_t pgoff)
{
	uint32_t i = track_maps__first_after(p, start), j;
	bool left = i < p->nr && p->maps[i].start < start;	/* a map sticks out below */
	bool split = left && p->maps[i].end > end;
	struct track_map *m;

	if (!maps_room(t, p, 1 + split))
		return;
	m = p->maps;
	if (split) {
		/* two copies of the map around it: trimmed below, one on each side */
		memmove(&m[i + 1], &m[i], (p->nr++ - i) * sizeof(*m));
		t->dsos.v[m[i].dso].refs++;
	}
	if (left)
		m[i++].end = start;
	for (j = i; j < p->nr && m[j].end <= end; j++)
		t->dsos.v[m[j].dso].refs--;
	if (j < p->nr && m[j].start < end) {
		if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
			m[j].pgoff += (uint32_t)((end - m[j].start) >> 12);
		m[j].start = end;
	}
	memmove(&m[i + 1], &m[j], (p->nr - j) * sizeof(*m));
	m[i] = (struct track_map){ start, end, dso, pgoff };
	t->dsos.v[dso].refs++;
	p->nr = (uint16_t)(p->nr - (j - i) + 1);
}

/* ---- processes ---- */

static void list_del(struct track_proc *p)
{
	p->link.prev->next = p->link.next;
	p->link.next->prev = p->link.prev;
}

/* at the end */
static void list_add(struct track_link *l, struct track_proc *p)
{
	p->link.next = l;
	p->link.prev = l->prev;
	l->prev->next = &p->link;
	l->prev = &p->link;
}

/* the first process of a list, or NULL */
static struct track_proc *list_first(struct track_link *l)
{
	return l->next != l ? (struct track_proc *)l->next : NULL;
}

struct track_proc *track_procs__find(struct track *t, uint32_t pid)
{
	struct track_proc *p = t->last_proc;

	if (p && p->pid == pid)
		return p;
	for (p = t->phash[pid & t->phash_mask]; p && p->pid != pid; p = p->hnext)
		;
	if (p && !p->zombie) {
		list_del(p);
		list_add(&t->lru, p);
	}
	t->last_user = NULL;	/* another process (or none, and then it was NULL already) */
	t->last_proc = p;
	return p;
}

static void proc_free(struct track *t, struct track_proc *p)
{
	struct track_proc **link = &t->phash[p->pid & t->phash_mask];

	while (*link != p)
		link = &(*link)->hnext;
	*link = p->hnext;
	list_del(p);
	track_maps__clear(t, p);
	arena__put(t->arena, p, sizeof(*p));
	t->nr_procs--;
	invalidate(t);
}

/* make room: the oldest exited process, else the least recently used one outside the tree */
static void evict(struct track *t)
{
	struct track_proc *p = list_first(&t->zombies);
	struct track_link *l = t->lru.next;

	if (!p) {
		while (l != &t->lru && ((struct track_proc *)l)->in_tree)
			l = l->next;
		p = l != &t->lru ? (struct track_proc *)l : list_first(&t->lru);
	}
	if (p) {	/* always: the table is full */
		proc_free(t, p);
		count(&t->stats.procs_evicted);
	}
}

static struct track_proc *proc_new(struct track *t, uint32_t pid)
{
	struct track_proc *p;

	if (t->nr_procs >= t->lim.max_procs)
		evict(t);
	p = arena__get(t->arena, sizeof(*p));
	if (!p) {
		count(&t->stats.nomem);
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

struct track_proc *track_procs__get(struct track *t, uint32_t pid)
{
	struct track_proc *p = track_procs__find(t, pid);

	return p ? p : proc_new(t, pid);
}

int track__set_root(struct track *t, uint32_t pid)
{
	struct track_proc *p = track_procs__get(t, pid);

	if (!p)
		return -TP_ENOMEM;
	p->in_tree = true;
	return 0;
}

bool track__in_tree(struct track *t, uint32_t pid)
{
	struct track_proc *p = track_procs__find(t, pid);

	return p && p->in_tree;
}

int track_procs__fork(struct track *t, const uint8_t *b, size_t len)
{
	struct track_proc *parent, *child;
	uint32_t pid, ppid;

	if (len < 16)
		return bad(t);
	pid = tp_get32(b);
	ppid = tp_get32(b + 4);
	if (pid == ppid)
		return 0;	/* a thread: it shares its process's state */
	child = track_procs__find(t, pid);
	if (child && child->zombie)
		proc_free(t, child);	/* the pid was reused */
	else if (child)
		return 0;	/* its MMAP2s came first, from another CPU's ring */
	parent = track_procs__find(t, ppid);
	if (!parent)
		return 0;
	child = proc_new(t, pid);
	parent = track_procs__find(t, ppid);	/* making room may have dropped it */
	if (!child || !parent)
		return 0;
	child->in_tree = parent->in_tree;
	if (parent->nr && maps_room(t, child, parent->nr)) {
		memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
		child->nr = parent->nr;
		for (uint32_t i = 0; i < child->nr; i++)
			t->dsos.v[child->maps[i].dso].refs++;
	}
	return 0;
}

int track_procs__exit(struct track *t, const uint8_t *b, size_t len)
{
	struct track_proc *p;

	if (len < 16)
		return bad(t);
	if (tp_get32(b) != tp_get32(b + 8))
		return 0;	/* a thread, not the process */
	p = track_procs__find(t, tp_get32(b));
	if (!p || p->zombie)
		return 0;
	list_del(p);
	p->zombie = true;
	p->exit_round = t->round;
	list_add(&t->zombies, p);
	return 0;
}

void track__end_round(struct track *t)
{
	struct track_proc *p;

	t->round++;
	track_later__retry(t, false);
	while ((p = list_first(&t->zombies)) && t->round - p->exit_round >= 2)
		proc_free(t, p);
}

void track__forget_procs(struct track *t)
{
	struct track_proc *p;

	while ((p = list_first(&t->lru)) || (p = list_first(&t->zombies)))
		proc_free(t, p);
	t->nr_later = 0;
	dsos__sweep(&t->dsos);
}
