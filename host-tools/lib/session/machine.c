/* SPDX-License-Identifier: MIT */
/* What the records say about the machine: threads and their comms, each process's maps
 * (inherited on fork, kept across exec as perf does), the kernel's maps, and the DSOs behind
 * them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/session/internal.h"

#define KERNEL_NAME	"[kernel.kallsyms]"
#define HOST_KERNEL_PID	((uint32_t)-1)

int tp_ptrs__push(struct tp_ptrs *p, void *v)
{
	if (p->nr >= UINT32_MAX / 2)	/* the indexes hold u32 positions */
		return -TP_ERR_NOMEM;
	if (TP_GROW(p->v, p->cap, p->nr + 1, 64))
		return -TP_ERR_NOMEM;
	p->v[p->nr++] = v;
	return 0;
}

/* ---- the indexes over the arrays: tid -> thread, pid -> process, name -> DSO ---- */

struct key {
	const struct tp_ptrs *all;
	int32_t id;
	const char *name;
};

static bool thread_eq(const void *ctx, uint32_t idx)
{
	const struct key *k = ctx;

	return ((const struct tp_thread *)k->all->v[idx])->tid == k->id;
}

static bool proc_eq(const void *ctx, uint32_t idx)
{
	const struct key *k = ctx;

	return ((const struct tp_proc *)k->all->v[idx])->pid == k->id;
}

static bool dso_eq(const void *ctx, uint32_t idx)
{
	const struct key *k = ctx;

	return !strcmp(((const struct tp_dso *)k->all->v[idx])->name, k->name);
}

static uint32_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ULL;
	return tp_hash64(h);
}

static void *index_find(const struct tp_htab *h, uint32_t hv,
			bool (*eq)(const void *ctx, uint32_t idx), const struct key *k)
{
	int64_t i = tp_htab__find(h, hv, eq, k);

	return i < 0 ? NULL : k->all->v[i];
}

/* index the item just pushed on k->all, in place of an older one with the same key */
static int index_put(struct tp_htab *h, uint32_t hv, bool (*eq)(const void *ctx, uint32_t idx),
		     const struct key *k)
{
	uint32_t idx = (uint32_t)(k->all->nr - 1);
	struct tp_hslot *slot;

	if (tp_htab__reserve(h))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(h, hv, eq, k);
	if (slot->idx)
		slot->idx = idx + 1;
	else
		tp_htab__fill(h, slot, hv, idx);
	return 0;
}

static struct tp_thread *thread_get(const struct tp_session *s, int32_t tid)
{
	const struct key k = { &s->all_threads, tid, NULL };

	return index_find(&s->threads, tp_hash64((uint32_t)tid), thread_eq, &k);
}

static struct tp_proc *proc_get(const struct tp_session *s, int32_t pid)
{
	const struct key k = { &s->all_procs, pid, NULL };

	return index_find(&s->procs, tp_hash64((uint32_t)pid), proc_eq, &k);
}

/* ---- maps ---- */

/* the first map ending after addr */
static size_t maps_lower(const struct tp_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct tp_map *maps_find(const struct tp_maps *m, uint64_t addr)
{
	size_t i = maps_lower(m, addr);

	return i < m->nr && m->v[i].start <= addr ? &m->v[i] : NULL;
}

/* The kernel's own map reaches the next kernel map, as perf resolves it: its MMAP record
 * ends at _etext, but samples and stacks also run in .init.text (start_kernel, under the
 * idle task's stack) and other text past it. */
static const struct tp_map *kmaps_find(const struct tp_maps *m, uint64_t addr)
{
	size_t i = maps_lower(m, addr);

	if (i < m->nr && m->v[i].start <= addr)
		return &m->v[i];
	if (i && !strcmp(m->v[i - 1].dso->name, KERNEL_NAME))
		return &m->v[i - 1];
	return NULL;
}

static struct tp_maps *maps_new(void)
{
	struct tp_maps *m = calloc(1, sizeof(*m));

	if (m)
		m->refs = 1;
	return m;
}

static void maps_put(struct tp_maps *m)
{
	if (m && !--m->refs) {
		free(m->v);
		free(m);
	}
}

/* make p's maps its own before changing them; 0 or -TP_ERR_NOMEM */
static int maps_own(struct tp_proc *p)
{
	struct tp_maps *m = p->maps, *n;

	if (m->refs == 1)
		return 0;
	n = maps_new();
	if (!n)
		return -TP_ERR_NOMEM;
	if (m->nr) {
		n->v = malloc(m->nr * sizeof(*n->v));
		if (!n->v) {
			free(n);
			return -TP_ERR_NOMEM;
		}
		memcpy(n->v, m->v, m->nr * sizeof(*n->v));
		n->nr = n->cap = m->nr;
	}
	maps_put(m);
	p->maps = n;
	return 0;
}

/* insert nm; whatever it overlaps is cut away, as a new mmap replaces the old pages */
static int maps_insert(struct tp_maps *m, const struct tp_map *nm)
{
	size_t lo = maps_lower(m, nm->start), hi = lo, nr_new = 1, keep;
	struct tp_map piece[3];

	while (hi < m->nr && m->v[hi].start < nm->end)
		hi++;
	if (lo < hi && m->v[lo].start < nm->start) {
		piece[0] = m->v[lo];
		piece[0].end = nm->start;
		piece[1] = *nm;
		nr_new = 2;
	} else {
		piece[0] = *nm;
	}
	if (lo < hi && m->v[hi - 1].end > nm->end) {
		struct tp_map *r = &piece[nr_new++];

		*r = m->v[hi - 1];
		r->pgoff += nm->end - r->start;
		r->start = nm->end;
	}
	keep = m->nr - (hi - lo);
	if (TP_GROW(m->v, m->cap, keep + nr_new, 8))
		return -TP_ERR_NOMEM;
	memmove(&m->v[lo + nr_new], &m->v[hi], (m->nr - hi) * sizeof(*m->v));
	memcpy(&m->v[lo], piece, nr_new * sizeof(*piece));
	m->nr = keep + nr_new;
	return 0;
}

/* ---- DSOs ---- */

struct tp_dso *tp_machine__dso(struct tp_session *s, const char *name, bool kernel)
{
	const struct key k = { &s->dsos, 0, name };
	uint32_t hv = str_hash(name);
	struct tp_dso *d = index_find(&s->dso_names, hv, dso_eq, &k);

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d || tp_ptrs__push(&s->dsos, d)) {
		free(d);
		return NULL;
	}
	d->name = name;
	d->kernel = kernel;
	return index_put(&s->dso_names, hv, dso_eq, &k) ? NULL : d;
}

int tp_machine__build_id(struct tp_session *s, const struct tp_buildid_entry *b)
{
	bool kernel = (b->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
		      (b->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_GUEST_KERNEL;
	struct tp_dso *d = tp_machine__dso(s, b->filename, kernel);

	if (!d)
		return -TP_ERR_NOMEM;
	memcpy(d->build_id, b->id, sizeof(d->build_id));
	d->build_id_size = b->size;
	return 0;
}

/* ---- the vdso's name ---- */

enum { TP_ELF_UNSEEN, TP_ELF_UNKNOWN, TP_ELF_64, TP_ELF_32, TP_ELF_X32 };

/* the ELF class of the file at d's path on this host, as perf's dso__type */
static uint8_t elf_type(struct tp_dso *d)
{
	unsigned char h[20];
	FILE *f;

	if (d->elf_type != TP_ELF_UNSEEN)
		return d->elf_type;
	d->elf_type = TP_ELF_UNKNOWN;
	f = fopen(d->name, "rb");
	if (!f)
		return d->elf_type;
	if (fread(h, 1, sizeof(h), f) == sizeof(h) && !memcmp(h, "\177ELF", 4)) {
		/* e_machine, in the file's byte order */
		unsigned machine = h[5] == 2 ? (unsigned)h[18] << 8 | h[19] :
				   (unsigned)h[19] << 8 | h[18];

		if (h[4] == 2)
			d->elf_type = TP_ELF_64;
		else if (h[4] == 1)
			d->elf_type = machine == 62 /* EM_X86_64 */ ? TP_ELF_X32 : TP_ELF_32;
	}
	fclose(f);
	return d->elf_type;
}

/* perf's name for the vdso of a process: "[vdso32]" when the first of its mapped files that
 * this host can read is 32-bit ELF, "[vdsox32]" for x32, else "[vdso]" */
static const char *vdso_name(const struct tp_proc *p)
{
	for (size_t i = 0; p && p->maps && i < p->maps->nr; i++) {
		struct tp_dso *d = p->maps->v[i].dso;

		if (!d || d->name[0] != '/')
			continue;
		switch (elf_type(d)) {
		case TP_ELF_32: return "[vdso32]";
		case TP_ELF_X32: return "[vdsox32]";
		case TP_ELF_64: return "[vdso]";
		default: break;
		}
	}
	return "[vdso]";
}

/* ---- threads and processes ---- */

static struct tp_proc *new_proc(struct tp_session *s, int32_t pid, const struct tp_proc *from)
{
	struct tp_proc *p = calloc(1, sizeof(*p));

	if (!p || tp_ptrs__push(&s->all_procs, p)) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	if (from) {
		p->maps = from->maps;
		p->maps->refs++;
	} else {
		p->maps = maps_new();
	}
	if (!p->maps)
		return NULL;
	{
		const struct key k = { &s->all_procs, pid, NULL };

		return index_put(&s->procs, tp_hash64((uint32_t)pid), proc_eq, &k) ? NULL : p;
	}
}

static struct tp_proc *findnew_proc(struct tp_session *s, int32_t pid)
{
	struct tp_proc *p = proc_get(s, pid);

	return p ? p : new_proc(s, pid, NULL);
}

static struct tp_thread *new_thread(struct tp_session *s, int32_t pid, int32_t tid,
				    struct tp_proc *proc)
{
	struct tp_thread *t = calloc(1, sizeof(*t));

	if (!t || tp_ptrs__push(&s->all_threads, t)) {
		free(t);
		return NULL;
	}
	t->pid = pid;
	t->tid = tid;
	t->proc = proc ? proc : findnew_proc(s, pid);
	if (!t->proc)
		return NULL;
	{
		const struct key k = { &s->all_threads, tid, NULL };

		return index_put(&s->threads, tp_hash64((uint32_t)tid), thread_eq, &k) ? NULL : t;
	}
}

/* the thread tid of process pid; a thread seen under another pid is replaced */
static struct tp_thread *findnew_thread(struct tp_session *s, int32_t pid, int32_t tid)
{
	struct tp_thread *t = thread_get(s, tid);

	if (t && (t->pid == pid || pid == -1))
		return t;
	if (t && t->pid == -1) {	/* known by tid only so far: now we know its process */
		t->pid = pid;
		t->proc = findnew_proc(s, pid);
		return t->proc ? t : NULL;
	}
	return new_thread(s, pid, tid, NULL);
}

struct tp_thread *tp_session__thread(struct tp_session *s, int32_t tid)
{
	return thread_get(s, tid);
}

static int fork_thread(struct tp_session *s, const struct tp_ev_task *f, struct tp_thread **out)
{
	struct tp_thread *parent = thread_get(s, (int32_t)f->ptid), *child;
	struct tp_proc *proc;

	if (f->pid == f->ppid)		/* a new thread of the same process */
		proc = findnew_proc(s, (int32_t)f->pid);
	else				/* a new process: a copy of the parent's maps */
		proc = new_proc(s, (int32_t)f->pid, parent ? parent->proc : NULL);
	if (!proc)
		return -TP_ERR_NOMEM;
	child = new_thread(s, (int32_t)f->pid, (int32_t)f->tid, proc);
	if (!child)
		return -TP_ERR_NOMEM;
	child->comm = parent ? parent->comm : NULL;
	*out = child;
	return 0;
}

static bool anon_exec(const struct tp_event *ev, const struct tp_ev_mmap *m)
{
	const char *n = m->filename;
	bool anon = !strcmp(n, "//anon") || !strncmp(n, "/dev/zero", 9) ||
		    !strncmp(n, "/anon_hugepage", 14);

	/* MMAP records (not MMAP2) carry no prot: without MMAP_DATA they are executable */
	return anon && (ev->type == PERF_RECORD_MMAP || (m->prot & 4 /* PROT_EXEC */));
}

static int mmap_event(struct tp_session *s, const struct tp_event *ev, struct tp_thread **out)
{
	const struct tp_ev_mmap *m = &ev->u.mmap;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || m->pid == HOST_KERNEL_PID;
	struct tp_map map = { .start = m->start, .pgoff = m->pgoff, .prot = m->prot,
			      .flags = m->flags };
	const char *name = m->filename;
	struct tp_thread *t;

	if (!m->len || (ev->misc & PERF_RECORD_MISC_MMAP_DATA) ||
	    cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;
	map.end = m->len > UINT64_MAX - m->start ? UINT64_MAX : m->start + m->len;
	if (kernel && !strncmp(name, KERNEL_NAME, strlen(KERNEL_NAME))) {
		/* "[kernel.kallsyms]_text": pgoff is the runtime address of _text */
		const char *ref = name + strlen(KERNEL_NAME);

		if (*ref && m->pgoff) {
			s->kref_name = ref;
			s->kref_addr = m->pgoff;
		}
		name = KERNEL_NAME;
	}
	if (!kernel && anon_exec(ev, m)) {
		/* perf names anonymous executable memory (JIT code) after the JIT's symbol
		 * map, /tmp/perf-PID.map, one DSO per process */
		char buf[40];

		snprintf(buf, sizeof(buf), "/tmp/perf-%u.map", m->pid);
		map.dso = tp_machine__dso(s, buf, false);
		if (map.dso && map.dso->name == buf) {
			size_t n = strlen(buf) + 1;

			map.dso->own_name = malloc(n);
			if (!map.dso->own_name)
				return -TP_ERR_NOMEM;
			memcpy(map.dso->own_name, buf, n);
			map.dso->name = map.dso->own_name;
		}
	} else if (!kernel && !strcmp(name, "[vdso]")) {
		t = findnew_thread(s, (int32_t)m->pid, (int32_t)m->tid);
		if (!t)
			return -TP_ERR_NOMEM;
		map.dso = tp_machine__dso(s, vdso_name(t->proc), false);
	} else {
		map.dso = tp_machine__dso(s, name, kernel);
	}
	if (!map.dso)
		return -TP_ERR_NOMEM;
	if (m->build_id_size && !map.dso->build_id_size) {
		memcpy(map.dso->build_id, m->build_id, sizeof(map.dso->build_id));
		map.dso->build_id_size = m->build_id_size;
	}
	if (kernel)
		return maps_insert(&s->kmaps, &map);
	t = findnew_thread(s, (int32_t)m->pid, (int32_t)m->tid);
	if (!t || maps_own(t->proc))
		return -TP_ERR_NOMEM;
	*out = t;
	return maps_insert(t->proc->maps, &map);
}

int tp_machine__apply(struct tp_session *s, const struct tp_event *ev,
		      struct tp_thread **thread)
{
	struct tp_thread *t = NULL;
	int err = 0;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		err = mmap_event(s, ev, &t);
		break;
	case PERF_RECORD_COMM:
		t = findnew_thread(s, (int32_t)ev->u.comm.pid, (int32_t)ev->u.comm.tid);
		if (!t)
			return -TP_ERR_NOMEM;
		/* exec keeps the maps, as in perf: the new image's MMAPs replace what they
		 * overlap, and samples taken in execve still unwind through the old image */
		t->comm = ev->u.comm.comm;
		break;
	case PERF_RECORD_FORK:
		err = fork_thread(s, &ev->u.task, &t);
		break;
	case PERF_RECORD_EXIT:
		t = thread_get(s, (int32_t)ev->u.task.tid);
		if (t)
			t->exited = true;
		break;
	case PERF_RECORD_SAMPLE:
		if (ev->sid_type & PERF_SAMPLE_TID)
			t = findnew_thread(s, (int32_t)ev->sid.pid, (int32_t)ev->sid.tid);
		else
			t = findnew_thread(s, -1, -1);
		if (!t)
			return -TP_ERR_NOMEM;
		break;
	case PERF_RECORD_HEADER_BUILD_ID: {
		struct tp_buildid_entry b = { .pid = ev->u.build_id.pid, .misc = ev->misc,
					      .size = ev->u.build_id.size,
					      .filename = ev->u.build_id.filename };

		memcpy(b.id, ev->u.build_id.build_id, sizeof(b.id));
		err = tp_machine__build_id(s, &b);
		break;
	}
	default:
		if (ev->sid_type & PERF_SAMPLE_TID)
			t = thread_get(s, (int32_t)ev->sid.tid);
		break;
	}
	*thread = t;
	return err;
}

bool tp_session__resolve(struct tp_session *s, const struct tp_thread *thread, uint8_t cpumode,
			 uint64_t addr, struct tp_loc *loc)
{
	const struct tp_map *m = NULL;
	bool user = cpumode == PERF_RECORD_MISC_USER ||
		    cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN;

	memset(loc, 0, sizeof(*loc));
	loc->cpumode = cpumode;
	loc->addr = addr;
	if (user && thread)
		m = maps_find(thread->proc->maps, addr);
	if (m) {		/* user space: the offset in the mapped file */
		loc->addr = addr - m->start + m->pgoff;
	} else if (cpumode == PERF_RECORD_MISC_KERNEL ||
		   cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN) {
		m = kmaps_find(&s->kmaps, addr);	/* kernel: the address stays as it is */
	}
	if (!m)
		return false;
	loc->map = m;
	loc->dso = m->dso;
	return true;
}

void tp_machine__release(struct tp_session *s)
{
	for (size_t i = 0; i < s->all_procs.nr; i++) {
		maps_put(((struct tp_proc *)s->all_procs.v[i])->maps);
		free(s->all_procs.v[i]);
	}
	for (size_t i = 0; i < s->all_threads.nr; i++)
		free(s->all_threads.v[i]);
	for (size_t i = 0; i < s->dsos.nr; i++) {
		free(((struct tp_dso *)s->dsos.v[i])->own_name);
		free(s->dsos.v[i]);
	}
	free(s->all_procs.v);
	free(s->all_threads.v);
	free(s->dsos.v);
	tp_htab__free(&s->threads);
	tp_htab__free(&s->procs);
	tp_htab__free(&s->dso_names);
	free(s->kmaps.v);
}
