/* Locations to frames, once per (DSO, address): the session's DSOs get a symbolizer handle
 * the first time a sample lands in them, every address is looked up once, and symbols get
 * small ids so hist and the printers compare integers. Also the interned comms. */
#define _GNU_SOURCE		/* dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/error.h"
#include "host-tools/lib/htab.h"
#include "host-tools/lib/symcache.h"

#define KERNEL_NAME	"[kernel.kallsyms]"
#define NONE		UINT32_MAX

struct addr_ent {
	uint64_t addr;
	uint32_t dso_lvl;		/* dso id << 8 | level (level only for id 0) */
	uint32_t sym;
	uint64_t off;
};

struct ptr_ent {
	const void *p;
	uint32_t id;
};

typedef char *demangle_fn(const char *name, char *buf, size_t *len, int *status);

/* A direct-mapped cache of recent locations: (process, ip, cpumode) -> frame, skipping the
 * map search and the hash probes for the frames every stack repeats. Entries of an older
 * generation of their process's maps (or of the kernel's, for kernel addresses) are stale:
 * an mmap or exec in one process leaves the others' entries alone. */
#define L1_SIZE 4096

/* Behind it, (DSO, address) -> frame for the addresses every process of a program shares:
 * a new process (a fork, a compiler run) starts with an empty L1 line but a warm L2. */
#define L2_SIZE 16384

struct l2_ent {
	const struct tp_dso *dso;
	uint64_t addr;
	bool used;
	struct tp_frame f;
	uint64_t off;
};

struct l1_ent {
	const void *proc;		/* NULL for kernel addresses */
	uint64_t ip;
	uint32_t gen;			/* 0: empty */
	uint8_t cpumode;
	struct tp_frame f;
	uint64_t addr, off;
};

struct tp_symcache {
	struct tp_session *s;
	struct tp_symbolizer *sym;
	struct tp_log log;		/* the caller's */
	const struct tp_features *feat;
	bool no_demangle, demangle_tried, kernel_tried;
	demangle_fn *demangle;
	void *libcxx;
	uint32_t cur_dso;		/* gets the symbolizer's warnings, NONE */
	struct l1_ent *l1;
	struct l2_ent *l2;
	uint32_t gen;			/* the last generation handed out */
	uint32_t kernel_gen;
	struct pid_gen {
		int32_t pid;
		uint32_t gen;
	} *pid_gens;			/* the generation of each process's maps */
	uint32_t nr_pid_gens, cap_pid_gens;
	struct tp_htab pid_gen_idx;
	int32_t last_pid;		/* a one-entry cache in front of it */
	uint32_t last_gen;

	struct tp_cdso *dsos;
	uint32_t nr_dsos, cap_dsos;
	struct ptr_ent *dso_ptrs;	/* session DSO -> id, indexed by dso_idx */
	uint32_t cap_dso_ptrs;
	struct tp_htab dso_idx;

	struct tp_htab dso_cls_idx;	/* by short name */

	struct tp_csym *syms;
	uint32_t nr_syms, cap_syms;
	struct tp_htab sym_idx;
	struct tp_htab sym_cls_idx;	/* by (DSO class, address, resolved) */

	struct addr_ent *addrs;
	uint32_t nr_addrs, cap_addrs;
	struct tp_htab addr_idx;

	const char **comms;
	uint32_t nr_comms, cap_comms;
	struct tp_htab comm_idx;	/* by content */
	struct ptr_ent *comm_ptrs;	/* by the address of a thread's comm */
	uint32_t nr_comm_ptrs, cap_comm_ptrs;
	struct tp_htab comm_ptr_idx;

	char **owned;			/* strings made here */
	uint32_t nr_owned, cap_owned;
};

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

static char *own(struct tp_symcache *c, char *p)
{
	if (!p || tp_grow((void **)&c->owned, &c->cap_owned, c->nr_owned + 1, sizeof(*c->owned))) {
		free(p);
		return NULL;
	}
	c->owned[c->nr_owned++] = p;
	return p;
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
	c->cur_dso = NONE;
	sc.log.fn = log_fn;
	sc.log.ctx = c;
	c->sym = tp_symbolizer__new(&sc);
	c->dsos = calloc(1, sizeof(*c->dsos));
	c->l1 = calloc(L1_SIZE, sizeof(*c->l1));
	c->l2 = calloc(L2_SIZE, sizeof(*c->l2));
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
	d = own(c, d);
	return d ? d : name;
}

/* ---- DSOs ---- */

struct ptr_key {
	const struct ptr_ent *v;
	const void *p;
};

static bool ptr_eq(const void *k, uint32_t i)
{
	const struct ptr_key *pk = k;

	return pk->v[i].p == pk->p;
}

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
	return own(c, m);
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

static uint32_t str_hash(const char *s);

static bool dso_cls_eq(const void *p, uint32_t i)
{
	const struct cls_key *k = p;

	return !strcmp(k->c->dsos[i].short_name, k->c->dsos[k->id].short_name);
}

/* the first DSO of the same basename */
static int dso_class(struct tp_symcache *c, uint32_t id)
{
	struct cls_key k = { c, id };
	uint32_t hv = str_hash(c->dsos[id].short_name);
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
	slot = tp_htab__probe(&c->dso_idx, hv, ptr_eq, &k);
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
	 * the first sample that met them */
	return s->addr == k->s.addr && s->dso == k->s.dso && !s->name == !k->s.name;
}

static bool sym_cls_eq(const void *p, uint32_t i)
{
	const struct cls_key *k = p;
	const struct tp_csym *a = &k->c->syms[i], *b = &k->c->syms[k->id];

	return a->addr == b->addr && k->c->dsos[a->dso].cls == k->c->dsos[b->dso].cls &&
	       !a->name == !b->name;
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

int tp_symcache__resolve(struct tp_symcache *c, const struct tp_loc *loc, struct tp_frame *f,
			 uint64_t *off)
{
	struct addr_key k = { c, loc->addr, 0 };
	struct tp_csym s = { .addr = loc->addr };
	struct l2_ent *e = &c->l2[tp_hash2(loc->addr, (uintptr_t)loc->dso) & (L2_SIZE - 1)];
	struct tp_hslot *slot;
	uint32_t id = 0, hv;
	int err;

	s.level = level_of(loc->cpumode, loc->dso && loc->dso->kernel);
	if (e->used && e->dso == loc->dso && e->addr == loc->addr) {
		*f = e->f;
		f->level = s.level;
		*off = e->off;
		return 0;
	}
	if (loc->dso) {
		err = dso_id(c, loc->dso, &id);
		if (err)
			return err;
		if (c->dsos[id].identity && loc->map)
			k.addr = s.addr = loc->addr - loc->map->pgoff + loc->map->start;
	}
	k.dso_lvl = id << 8 | (id ? 0 : (uint8_t)s.level);
	hv = tp_hash2(k.addr, k.dso_lvl);
	if (tp_htab__reserve(&c->addr_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->addr_idx, hv, addr_eq, &k);
	if (!slot->idx) {
		struct addr_ent a = { k.addr, k.dso_lvl, 0, 0 };
		const struct tp_symres *r = NULL;

		s.dso = id;
		if (id && c->dsos[id].sd) {
			c->cur_dso = id;
			err = tp_symbolizer__lookup(c->sym, c->dsos[id].sd, k.addr, &r);
			c->cur_dso = NONE;
			if (err == -TP_ERR_NOMEM)
				return err;
		}
		if (r && r->name) {
			s.name = r->name;
			s.addr = r->sym_start;
			a.off = r->offset;
		}
		err = sym_id(c, &s, &a.sym);
		if (err || tp_grow((void **)&c->addrs, &c->cap_addrs, c->nr_addrs + 1,
				   sizeof(*c->addrs)))
			return -TP_ERR_NOMEM;
		c->addrs[c->nr_addrs] = a;
		tp_htab__fill(&c->addr_idx, slot, hv, c->nr_addrs++);
	}
	f->sym = c->addrs[slot->idx - 1].sym;
	f->dso = id;
	f->level = s.level;
	*off = c->addrs[slot->idx - 1].off;
	if (id && !c->dsos[id].identity)	/* (JIT maps: the same offset, other ips) */
		*e = (struct l2_ent){ loc->dso, loc->addr, true, *f, *off };
	return 0;
}

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
		ch->frames[ch->nr++] = (struct tp_frame){ NONE, 0, 0 };
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
	return &c->l1[tp_hash2(ip, (uintptr_t)proc ^ cpumode) & (L1_SIZE - 1)];
}

/* push the frame of ip (in the given cpumode) through the cache */
static int chain_ip(struct tp_symcache *c, struct tp_chain *ch, const struct tp_thread *t,
		    uint8_t cpumode, uint64_t ip, bool *unmapped)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || !t;
	const void *proc = kernel ? NULL : t->proc;
	uint32_t gen = kernel ? c->kernel_gen : pid_gen(c, t->pid, false);
	struct l1_ent *e = l1_slot(c, proc, ip, cpumode);
	struct tp_loc l;
	int err;

	if (e->gen == gen && gen && e->ip == ip && e->proc == proc && e->cpumode == cpumode) {
		uint32_t cap = ch->cap;

		if (tp_grow((void **)&ch->frames, &cap, ch->nr + 1, sizeof(*ch->frames)) ||
		    tp_grow((void **)&ch->at, &ch->cap, ch->nr + 1, sizeof(*ch->at)))
			return -TP_ERR_NOMEM;
		ch->frames[ch->nr] = e->f;
		ch->at[ch->nr++] = (struct tp_chain_at){ ip, e->addr, e->off };
		return 0;
	}
	if (!tp_session__resolve(c->s, t, cpumode, ip, &l)) {
		/* resolved when the frames around it are known */
		*unmapped = true;
		return chain_push(c, ch, NULL, ip);
	}
	err = chain_push(c, ch, &l, ip);
	if (!err)
		*e = (struct l1_ent){ proc, ip, gen, cpumode, ch->frames[ch->nr - 1],
				      ch->at[ch->nr - 1].addr, ch->at[ch->nr - 1].off };
	return err;
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
		for (uint64_t i = 0; i < smp->callchain_nr; i++) {
			uint64_t ip = smp->callchain[i];

			if (ip >= PERF_CONTEXT_MAX) {
				switch (ip) {
				case PERF_CONTEXT_HV: cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
				case PERF_CONTEXT_KERNEL: cpumode = PERF_RECORD_MISC_KERNEL; break;
				case PERF_CONTEXT_USER: cpumode = PERF_RECORD_MISC_USER; break;
				case PERF_CONTEXT_GUEST_KERNEL: cpumode = PERF_RECORD_MISC_GUEST_KERNEL; break;
				case PERF_CONTEXT_GUEST_USER: cpumode = PERF_RECORD_MISC_GUEST_USER; break;
				case PERF_CONTEXT_USER_DEFERRED: i++; break;	/* then a cookie */
				case PERF_CONTEXT_GUEST: break;
				default:
					/* as perf: a stack with a bogus context marker (a -1
					 * read off the user stack ...) is thrown away whole */
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
	if (unmapped) {
		err = resolve_unmapped(c, ch, loc);
		if (err)
			return err;
	}
	/* the stack starts where the sample hit, whatever the callchain says */
	if (ch->nr && ch->at[0].ip == smp->ip && ch->frames[0].sym != NONE)
		return 0;
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
	return 0;
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

static uint32_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ULL;
	return tp_hash64(h);
}

static int comm_by_content(struct tp_symcache *c, const char *s, bool copy, uint32_t *id)
{
	struct comm_key k = { c, s };
	uint32_t hv = str_hash(s);
	struct tp_hslot *slot;

	if (tp_htab__reserve(&c->comm_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&c->comm_idx, hv, comm_eq, &k);
	if (!slot->idx) {
		if (copy && !(s = own(c, strdup(s))))
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
	slot = tp_htab__probe(&c->comm_ptr_idx, hv, ptr_eq, &k);
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
