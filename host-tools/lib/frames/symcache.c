/* SPDX-License-Identifier: MIT */
/* Locations to frames, once per (DSO, address): the session's DSOs get a symbolizer handle
 * the first time a sample lands in them, every address is looked up once, and symbols get
 * small ids so hist and the printers compare integers. frames/thread.c has what depends
 * on a thread: its stack (through a cache of recent locations) and its comm. */
#define _GNU_SOURCE		/* dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/frames/internal.h"

/* the symbolizer's messages: to the caller, and a DSO's first warning kept for the header */
static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	struct tp_symcache *c = ctx;

	if (level == TP_LOG_WARN && c->cur_dso != NONE && !c->dsos[c->cur_dso].problem) {
		char *p = strdup(msg);

		if (p && !tp_grow((void **)&c->owned, &c->cap_owned, c->nr_owned + 1,
				  sizeof(*c->owned))) {
			c->owned[c->nr_owned++] = p;
			c->dsos[c->cur_dso].problem = p;
		} else {
			free(p);
		}
	}
	if (c->log.fn)
		c->log.fn(c->log.ctx, level, msg);
}

int tp_symcache__new(struct tp_symcache **out, struct tp_session *s,
		     const struct tp_symcache_conf *conf)
{
	struct tp_symcache *c = calloc(1, sizeof(*c));
	struct tp_symconf sc = conf->sym;

	*out = NULL;
	if (!c)
		return -TP_ERR_NOMEM;
	c->s = s;
	c->log = conf->sym.log;
	c->feat = conf->features;
	c->no_demangle = conf->no_demangle;
	c->want_inlines = conf->sym.want_inlines;
	c->addr_ids = conf->addr_ids;
	c->cur_dso = NONE;
	sc.log.fn = log_fn;
	sc.log.ctx = c;
	if (conf->features && !sc.embedded)
		sc.embedded = conf->features->embsyms;
	c->sym = tp_symbolizer__new(&sc);
	c->dsos = calloc(1, sizeof(*c->dsos));
	tp_symcache__caches(c);
	c->gen = c->kernel_gen = c->last_gen = 1;
	c->last_pid = INT32_MIN;
	if (!c->sym || !c->dsos || !c->l1 || !c->l2) {
		tp_symcache__delete(c);
		return -TP_ERR_NOMEM;
	}
	c->cap_dsos = c->nr_dsos = 1;
	c->dsos[0].name = c->dsos[0].short_name = "[unknown]";
	*out = c;
	return 0;
}

void tp_symcache__delete(struct tp_symcache *c)
{
	if (!c)
		return;
	tp_unwinder__delete(c->uw);
	tp_symbolizer__delete(c->sym);
	for (uint32_t i = 0; i < c->nr_owned; i++)
		free(c->owned[i]);
	free(c->owned);
	free(c->l1);
	free(c->l2);
	free(c->pid_gens);
	tp_htab__free(&c->pid_gen_idx);
	free(c->dsos);
	free(c->dso_ptrs);
	tp_htab__free(&c->dso_idx);
	free(c->syms);
	tp_htab__free(&c->sym_idx);
	tp_htab__free(&c->sym_cls_idx);
	tp_htab__free(&c->dso_cls_idx);
	free(c->addrs);
	tp_htab__free(&c->addr_idx);
	free(c->comms);
	tp_htab__free(&c->comm_idx);
	free(c->comm_ptrs);
	tp_htab__free(&c->comm_ptr_idx);
	if (c->libcxx)
		dlclose(c->libcxx);
	free(c);
}

char *tp_symcache__own(struct tp_symcache *c, char *p)
{
	if (!p || tp_grow((void **)&c->owned, &c->cap_owned, c->nr_owned + 1, sizeof(*c->owned))) {
		free(p);
		return NULL;
	}
	c->owned[c->nr_owned++] = p;
	return p;
}

uint32_t tp_str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ULL;
	return tp_hash64(h);
}

bool tp_ptr_key_eq(const void *k, uint32_t i)
{
	const struct ptr_key *pk = k;

	return pk->v[i].p == pk->p;
}

/* ---- names ---- */

/* "foo<int>::bar(int) const" -> "foo<int>::bar", "void f<int>(int)" -> "f<int>": perf shows
 * demangled names without parameters or return types */
static void strip_params(char *s)
{
	size_t n = strlen(s), i;
	int depth = 0;
	char *cut = NULL;

	while (n && s[n - 1] != ')' && strchr(" constvlaie&", s[n - 1]))
		n--;
	if (n && s[n - 1] == ')') {
		for (i = n; i-- > 0;) {
			depth += s[i] == ')';
			depth -= s[i] == '(';
			if (!depth)
				break;
		}
		if (!depth && i > 0 && i + 1 < n)
			s[i] = '\0';
	}
	depth = 0;
	for (i = 0; s[i]; i++) {
		if (!strncmp(s + i, "operator", 8) && (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ')) {
			i += 8;
			if (!strncmp(s + i, "()", 2))
				i += 2;
			while (s[i] && strchr("<>=!+-*/%&|^~[],", s[i]))
				i++;
			if (s[i] == ' ' && !depth)	/* "operator new", "operator int" */
				i++;
			i--;
			continue;
		}
		if (strchr("<({", s[i]))
			depth++;
		else if (strchr(">)}", s[i]) && depth)
			depth--;
		else if (s[i] == ' ' && !depth)
			cut = s + i + 1;
	}
	if (cut && *cut)
		memmove(s, cut, strlen(cut) + 1);
}

static const char *demangled(struct tp_symcache *c, const char *name)
{
	char *d;
	int st = -1;

	if (c->no_demangle || name[0] != '_' || name[1] != 'Z')
		return name;
	if (!c->demangle_tried) {
		/* the C++ runtime's demangler, if this host has one: no build dependency */
		c->demangle_tried = true;
		c->libcxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (c->libcxx)
			*(void **)&c->demangle = dlsym(c->libcxx, "__cxa_demangle");
	}
	if (!c->demangle)
		return name;
	d = c->demangle(name, NULL, NULL, &st);
	if (!d || st) {
		free(d);
		return name;
	}
	strip_params(d);
	d = tp_symcache__own(c, d);
	return d ? d : name;
}

/* ---- DSOs ---- */

/* "[xfs]" for /lib/modules/.../xfs.ko(.xz), perf's module names */
static const char *module_name(struct tp_symcache *c, const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	char *m;
	size_t n;

	if (path[0] == '[')
		return path;
	base = base ? base + 1 : path;
	dot = strstr(base, ".ko");
	n = dot ? (size_t)(dot - base) : strlen(base);
	m = malloc(n + 3);
	if (!m)
		return NULL;
	m[0] = '[';
	for (size_t i = 0; i < n; i++)
		m[i + 1] = base[i] == '-' ? '_' : base[i];
	m[n + 1] = ']';
	m[n + 2] = '\0';
	return tp_symcache__own(c, m);
}

static bool anonymous(const char *name)
{
	static const char *const prefixes[] = {
		"//anon", "[anon", "[heap]", "[stack", "/dev/", "anon_inode:", "[uprobes]",
		"[vsyscall]", "/SYSV", "/memfd:", "/anon_hugepage", "[vvar", "/tmp/perf-",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static int kernel_handle(struct tp_symcache *c, struct tp_symdso **sd)
{
	const struct tp_dso *k = NULL;
	const char *ref_name = NULL;
	uint64_t ref_addr = 0;

	for (size_t i = 0; i < tp_session__nr_dsos(c->s) && !k; i++)
		if (!strcmp(tp_session__dso(c->s, i)->name, KERNEL_NAME))
			k = tp_session__dso(c->s, i);
	tp_session__kernel_ref(c->s, &ref_name, &ref_addr);
	return tp_symbolizer__kernel(c->sym, c->feat ? c->feat->osrelease : NULL,
				     k ? k->build_id : NULL, k ? k->build_id_size : 0,
				     ref_name, ref_addr, sd);
}

/* set up the symbolizer handle of a new DSO */
static int dso_setup(struct tp_symcache *c, uint32_t id)
{
	struct tp_cdso *cd = &c->dsos[id];
	const struct tp_dso *d = cd->dso;
	struct tp_symdso *sd = NULL;
	int err = 0;

	c->cur_dso = id;
	if (!strcmp(d->name, KERNEL_NAME)) {
		err = kernel_handle(c, &sd);
	} else if (d->kernel) {
		err = kernel_handle(c, &sd);
		if (!err)
			err = tp_symbolizer__kmodule(c->sym, cd->name, &sd);
	} else if (!anonymous(d->name)) {
		err = tp_symbolizer__dso(c->sym, d->name, d->build_id, d->build_id_size,
					 d->text_hash, &sd);
	}
	c->cur_dso = NONE;
	c->dsos[id].sd = sd;
	return err == -TP_ERR_NOMEM ? err : 0;
}

struct cls_key {
	const struct tp_symcache *c;
	uint32_t id;
};

static bool dso_cls_eq(const void *p, uint32_t i)
{
	const struct cls_key *k = p;

	return !strcmp(k->c->dsos[i].short_name, k->c->dsos[k->id].short_name);
}

/* the first DSO of the same basename */
static int dso_class(struct tp_symcache *c, uint32_t id)
{
	struct cls_key k = { c, id };
	uint32_t hv = tp_str_hash(c->dsos[id].short_name);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->dso_cls_idx))
		return -1;
	slot = tp_htab__probe(&c->dso_cls_idx, hv, dso_cls_eq, &k);
	if (!slot->idx)
		tp_htab__fill(&c->dso_cls_idx, slot, hv, id);
	c->dsos[id].cls = slot->idx - 1;
	return 0;
}

static int dso_id(struct tp_symcache *c, const struct tp_dso *d, uint32_t *out)
{
	struct ptr_key k = { c->dso_ptrs, d };
	uint32_t hv = tp_hash64((uintptr_t)d), id;
	struct tp_hslot *slot;
	struct tp_cdso *cd;
	const char *slash;

	if (tp_htab__reserve(&c->dso_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->dso_idx, hv, tp_ptr_key_eq, &k);
	if (slot->idx) {
		*out = c->dso_ptrs[slot->idx - 1].id;
		return 0;
	}
	id = c->nr_dsos;
	if (tp_grow((void **)&c->dsos, &c->cap_dsos, id + 1, sizeof(*c->dsos)) ||
	    tp_grow((void **)&c->dso_ptrs, &c->cap_dso_ptrs, id, sizeof(*c->dso_ptrs)))
		return -TP_ERR_NOMEM;
	cd = &c->dsos[id];
	memset(cd, 0, sizeof(*cd));
	cd->dso = d;
	cd->kernel = d->kernel;
	cd->name = d->kernel && strcmp(d->name, KERNEL_NAME) ? module_name(c, d->name) : d->name;
	if (!cd->name)
		return -TP_ERR_NOMEM;
	cd->identity = !d->kernel && !strncmp(d->name, "/tmp/perf-", 10);
	slash = cd->name[0] == '[' ? NULL : strrchr(cd->name, '/');
	cd->short_name = slash && slash[1] ? slash + 1 : cd->name;
	c->nr_dsos++;
	c->dso_ptrs[id - 1] = (struct ptr_ent){ d, id };
	tp_htab__fill(&c->dso_idx, slot, hv, id - 1);
	*out = id;
	if (dso_class(c, id))
		return -TP_ERR_NOMEM;
	return dso_setup(c, id);
}

uint32_t tp_symcache__nr_dsos(const struct tp_symcache *c)
{
	return c->nr_dsos;
}

const struct tp_cdso *tp_symcache__dso(const struct tp_symcache *c, uint32_t id)
{
	return id < c->nr_dsos ? &c->dsos[id] : NULL;
}

/* ---- symbols and addresses ---- */

struct sym_key {
	const struct tp_symcache *c;
	struct tp_csym s;
};

static bool sym_eq(const void *p, uint32_t i)
{
	const struct sym_key *k = p;
	const struct tp_csym *s = &k->c->syms[i];

	/* as perf's sort: unresolved addresses by address alone, shown with the level of
	 * the first sample that met them; inlined functions by name too */
	return s->addr == k->s.addr && s->dso == k->s.dso && !s->name == !k->s.name &&
	       s->inlined == k->s.inlined && (!s->inlined || !strcmp(s->name, k->s.name));
}

static bool sym_cls_eq(const void *p, uint32_t i)
{
	const struct cls_key *k = p;
	const struct tp_csym *a = &k->c->syms[i], *b = &k->c->syms[k->id];

	return a->addr == b->addr && k->c->dsos[a->dso].cls == k->c->dsos[b->dso].cls &&
	       !a->name == !b->name && a->inlined == b->inlined &&
	       (!a->inlined || !strcmp(a->name, b->name));
}

/* the first symbol at the same address in a DSO of the same class */
static int sym_class(struct tp_symcache *c, uint32_t id)
{
	const struct tp_csym *s = &c->syms[id];
	struct cls_key k = { c, id };
	uint32_t hv = tp_hash2(s->addr, (uint64_t)c->dsos[s->dso].cls << 1 | !!s->name);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->sym_cls_idx))
		return -1;
	slot = tp_htab__probe(&c->sym_cls_idx, hv, sym_cls_eq, &k);
	if (!slot->idx)
		tp_htab__fill(&c->sym_cls_idx, slot, hv, id);
	c->syms[id].cls = slot->idx - 1;
	return 0;
}

struct tp_frame tp_symcache__key_frame(void *ctx, struct tp_frame f)
{
	const struct tp_symcache *c = ctx;

	if (f.sym < c->nr_syms)
		f.sym = c->syms[f.sym].cls;
	if (f.dso < c->nr_dsos)
		f.dso = c->dsos[f.dso].cls;
	return f;
}

/* the id of a symbol (name set) or of an unresolved address (name NULL) */
static int sym_id(struct tp_symcache *c, const struct tp_csym *s, uint32_t *out)
{
	struct sym_key k = { c, *s };
	uint32_t hv = tp_hash2(s->addr, (uint64_t)s->dso << 1 | !!s->name);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->sym_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->sym_idx, hv, sym_eq, &k);
	if (!slot->idx) {
		uint32_t i = c->nr_syms;

		if (tp_grow((void **)&c->syms, &c->cap_syms, i + 1, sizeof(*c->syms)))
			return -TP_ERR_NOMEM;
		c->syms[i] = *s;
		if (s->name)
			c->syms[i].name = demangled(c, s->name);
		c->nr_syms++;
		tp_htab__fill(&c->sym_idx, slot, hv, i);
		if (sym_class(c, i))
			return -TP_ERR_NOMEM;
	}
	*out = slot->idx - 1;
	return 0;
}

const struct tp_csym *tp_symcache__sym(const struct tp_symcache *c, uint32_t id)
{
	return id < c->nr_syms ? &c->syms[id] : NULL;
}

int tp_symcache__add_inlines(struct tp_symcache *c, struct tp_chain *ch)
{
	for (uint32_t i = 0; i < ch->nr; i++) {
		const struct tp_symres *r = tp_symcache__where(c, ch->frames[i].dso, ch->at[i].addr);
		uint32_t n = r && r->name ? r->n_inline : 0, cap = ch->cap;

		if (!n)
			continue;
		if (tp_grow((void **)&ch->frames, &cap, ch->nr + n, sizeof(*ch->frames)) ||
		    tp_grow((void **)&ch->at, &ch->cap, ch->nr + n, sizeof(*ch->at)))
			return -TP_ERR_NOMEM;
		memmove(ch->frames + i + n, ch->frames + i, (ch->nr - i) * sizeof(*ch->frames));
		memmove(ch->at + i + n, ch->at + i, (ch->nr - i) * sizeof(*ch->at));
		for (uint32_t k = 0; k < n; k++) {
			struct tp_frame *f = &ch->frames[i + k];
			struct tp_csym s = { .name = demangled(c, r->inl[k].func),
					     .addr = r->sym_start, .dso = f[n - k].dso,
					     .level = f[n - k].level, .inlined = true };

			*f = f[n - k];
			ch->at[i + k] = ch->at[i + n];
			if (sym_id(c, &s, &f->sym))
				return -TP_ERR_NOMEM;
			/* report entries: the function it was inlined into, as perf's */
			c->syms[f->sym].cls = c->syms[f[n - k].sym].cls;
		}
		ch->nr += n;
		i += n;
	}
	return 0;
}

static char level_of(uint8_t cpumode, bool kernel)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL: return 'k';
	case PERF_RECORD_MISC_USER: return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL: return 'g';
	case PERF_RECORD_MISC_GUEST_USER: return 'u';
	case PERF_RECORD_MISC_HYPERVISOR: return 'H';
	default: return kernel ? 'k' : '.';
	}
}

struct addr_key {
	const struct tp_symcache *c;
	uint64_t addr;
	uint32_t dso_lvl;
};

static bool addr_eq(const void *p, uint32_t i)
{
	const struct addr_key *k = p;
	const struct addr_ent *a = &k->c->addrs[i];

	return a->addr == k->addr && a->dso_lvl == k->dso_lvl;
}

/* one mixing round, not tp_hash2()'s two: tp_symcache__where() probes for every frame */
static inline uint32_t addr_hash(const struct addr_key *k)
{
	return tp_hash64(k->addr * 0x9e3779b97f4a7c15ULL ^ k->dso_lvl);
}

/* a new entry in the empty slot for k: the symbolizer's answer and the frame made of it (a
 * new symbol takes the level its address was first met with) */
static int addr_new(struct tp_symcache *c, struct tp_hslot *slot, uint32_t hv,
		    const struct addr_key *k, char level)
{
	uint32_t id = k->dso_lvl >> 8;
	struct addr_ent a = { k->addr, k->dso_lvl, 0, 0, NULL };
	struct tp_csym s = { .addr = k->addr, .dso = id, .level = level };
	int err;

	if (id && c->dsos[id].sd) {
		c->cur_dso = id;
		err = tp_symbolizer__lookup(c->sym, c->dsos[id].sd, k->addr, &a.res);
		c->cur_dso = NONE;
		if (err == -TP_ERR_NOMEM)
			return err;
	}
	if (a.res && a.res->name) {
		s.name = a.res->name;
		s.addr = a.res->sym_start;
		a.off = a.res->offset;
	}
	if (sym_id(c, &s, &a.sym) ||
	    tp_grow((void **)&c->addrs, &c->cap_addrs, c->nr_addrs + 1, sizeof(*c->addrs)))
		return -TP_ERR_NOMEM;
	c->addrs[c->nr_addrs] = a;
	tp_htab__fill(&c->addr_idx, slot, hv, c->nr_addrs++);
	return 0;
}

/* where() of an address no frame was made of (the commands ask for none): entered now */
static const struct tp_symres *where_new(struct tp_symcache *c, const struct addr_key *k)
{
	uint32_t hv = addr_hash(k), id = k->dso_lvl >> 8;
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->addr_idx))
		return NULL;
	slot = tp_htab__probe(&c->addr_idx, hv, addr_eq, k);
	if (!slot->idx && addr_new(c, slot, hv, k, c->dsos[id].kernel ? 'k' : '.'))
		return NULL;
	return c->addrs[slot->idx - 1].res;
}

const struct tp_symres *tp_symcache__where(struct tp_symcache *c, uint32_t dso, uint64_t addr)
{
	struct addr_key k = { c, addr, dso << 8 };
	int64_t i;

	if (!dso || dso >= c->nr_dsos || !c->dsos[dso].sd || c->dsos[dso].identity)
		return NULL;
	i = tp_htab__find(&c->addr_idx, addr_hash(&k), addr_eq, &k);
	return i >= 0 ? c->addrs[i].res : where_new(c, &k);
}

int tp_symcache__resolve(struct tp_symcache *c, const struct tp_loc *loc, struct tp_frame *f,
			 uint64_t *off)
{
	struct addr_key k = { c, loc->addr, 0 };
	struct l2_ent *e = tp_symcache__l2(c, loc->dso, loc->addr);
	char level = level_of(loc->cpumode, loc->dso && loc->dso->kernel);
	const struct addr_ent *a;
	struct tp_hslot *slot;
	uint32_t id = 0, hv;
	int err;

	if (e->used && e->dso == loc->dso && e->addr == loc->addr) {
		*f = e->f;
		f->level = level;
		*off = e->off;
		return 0;
	}
	if (loc->dso) {
		err = dso_id(c, loc->dso, &id);
		if (err)
			return err;
		if (c->dsos[id].identity && loc->map)
			k.addr = loc->addr - loc->map->pgoff + loc->map->start;
	}
	k.dso_lvl = id << 8 | (id ? 0 : (uint8_t)level);
	hv = addr_hash(&k);
	if (tp_htab__reserve(&c->addr_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->addr_idx, hv, addr_eq, &k);
	if (!slot->idx && (err = addr_new(c, slot, hv, &k, level)))
		return err;
	a = &c->addrs[slot->idx - 1];
	f->sym = a->sym;
	f->dso = id;
	f->level = level;
	f->line = c->addr_ids ? slot->idx : 0;
	*off = a->off;
	if (id && !c->dsos[id].identity)	/* (JIT maps: the same offset, other ips) */
		tp_symcache__l2_fill(c, e, &(struct l2_ent){ loc->dso, loc->addr, true, *f, *off });
	return 0;
}
