/* SPDX-License-Identifier: MIT */
/* The symbolizer's API: configuration, the registry of DSOs (one handle per identity) and
 * lookups, each resolved anew: the one (DSO, address) cache is the caller's (frames/). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"
#include "host-tools/lib/data/data.h"

#define ARENA_CHUNK 65536

struct tp_symarena_chunk {
	struct tp_symarena_chunk *next;
	max_align_t data[];
};

void *tp_symarena__alloc(struct tp_symarena *a, size_t n)
{
	size_t align = sizeof(max_align_t);
	struct tp_symarena_chunk *c;
	void *p;

	n = (n + align - 1) & ~(align - 1);
	if (!a->head || n > a->cap - a->used) {
		/* small first: most DSOs only ever hold their name and a few paths */
		size_t cap = a->cap ? (a->cap < ARENA_CHUNK ? 2 * a->cap : ARENA_CHUNK) : 512;

		if (cap < n)
			cap = n;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	p = (char *)a->head->data + a->used;
	a->used += n;
	return p;
}

char *tp_symarena__strdup(struct tp_symarena *a, const char *s)
{
	size_t n;
	char *p;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	p = tp_symarena__alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

void tp_symarena__exit(struct tp_symarena *a)
{
	while (a->head) {
		struct tp_symarena_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
	a->used = a->cap = 0;
}

const char *tp_symsrc_str(enum tp_symsrc src)
{
	switch (src) {
	case TP_SYMSRC_DEBUGINFO: return "debuginfo";
	case TP_SYMSRC_SYMTAB: return "symtab";
	case TP_SYMSRC_MINIDEBUGINFO: return "minidebuginfo";
	case TP_SYMSRC_DYNSYM: return "dynsym";
	case TP_SYMSRC_KALLSYMS: return "kallsyms";
	case TP_SYMSRC_NONE: break;
	}
	return "none";
}

/* a copy of a directory option without trailing slashes; "/" becomes "" */
static const char *dir_opt(struct tp_symbolizer *s, const char *dir, bool *nomem)
{
	char *p;
	size_t n;

	if (!dir)
		return NULL;
	p = tp_symarena__strdup(&s->arena, dir);
	if (!p) {
		*nomem = true;
		return NULL;
	}
	for (n = strlen(p); n > 0 && p[n - 1] == '/'; n--)
		p[n - 1] = '\0';
	return p;
}

struct tp_symbolizer *tp_symbolizer__new(const struct tp_symconf *conf)
{
	struct tp_symbolizer *s = calloc(1, sizeof(*s));
	const char *urls = getenv("DEBUGINFOD_URLS");
	bool nomem = false;
	size_t n;

	if (!s)
		return NULL;
	elf_version(EV_CURRENT);
	s->conf = *conf;
	s->conf.sysroot = NULL;
	s->conf.debug_dirs = NULL;
	s->sysroot = dir_opt(s, conf->sysroot ? conf->sysroot : "", &nomem);
	if (!conf->buildid_dir) {
		const char *home = getenv("HOME");
		char *p = home ? malloc(strlen(home) + sizeof("/.debug")) : NULL;

		if (p) {
			strcpy(p, home);
			strcat(p, "/.debug");
			s->buildid_dir = dir_opt(s, p, &nomem);
			free(p);
		}
	} else if (conf->buildid_dir[0]) {
		s->buildid_dir = dir_opt(s, conf->buildid_dir, &nomem);
	}
	s->conf.buildid_dir = s->buildid_dir;
	s->conf.vmlinux = conf->vmlinux ? tp_symarena__strdup(&s->arena, conf->vmlinux) : NULL;
	s->conf.kallsyms = conf->kallsyms ? tp_symarena__strdup(&s->arena, conf->kallsyms) : NULL;
	n = strlen(s->sysroot ? s->sysroot : "") + sizeof("/usr/lib/debug");
	s->dipath = tp_symarena__alloc(&s->arena, n);
	if (nomem || !s->sysroot || !s->dipath || (conf->vmlinux && !s->conf.vmlinux) ||
	    (conf->kallsyms && !s->conf.kallsyms))
		goto out_nomem;
	strcpy(s->dipath, s->sysroot);
	strcat(s->dipath, "/usr/lib/debug");
	if (tp_debugdirs__init(&s->dd, conf->debug_dirs, conf->n_debug_dirs))
		goto out_nomem;
	s->cb.find_elf = dwfl_build_id_find_elf;	/* unused: modules are reported open */
	s->cb.find_debuginfo = tp_symfind__debuginfo_cb;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->dipath;
	s->debuginfod = !conf->offline && urls && urls[0];
	return s;

out_nomem:
	tp_symbolizer__delete(s);
	return NULL;
}

static void dso_free(struct tp_symdso *dso)
{
	if (!dso)
		return;
	tp_symdwarf__exit(dso);
	if (dso->dwfl)
		dwfl_end(dso->dwfl);
	tp_symtab__exit(&dso->tab);
	tp_symtab__exit(&dso->etab);
	free(dso->segs);
	tp_symarena__exit(&dso->arena);
	free(dso);
}

void tp_symbolizer__delete(struct tp_symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_dsos; i++)
		dso_free(s->dsos[i]);
	free(s->dsos);
	if (s->ks) {
		tp_kallsyms__exit(s->ks);
		free(s->ks);
	}
	tp_debugdirs__exit(&s->dd);
	tp_symarena__exit(&s->arena);
	free(s);
}

struct tp_symdso *tp_symdso__alloc(struct tp_symbolizer *s, const char *name)
{
	struct tp_symdso *dso;

	if (TP_GROW(s->dsos, s->cap_dsos, s->n_dsos + 1, 32))
		return NULL;
	dso = calloc(1, sizeof(*dso));
	if (!dso)
		return NULL;
	dso->owner = s;
	dso->module = -1;
	dso->info.name = tp_symarena__strdup(&dso->arena, name);
	if (!dso->info.name) {
		free(dso);
		return NULL;
	}
	s->dsos[s->n_dsos++] = dso;
	return dso;
}

/* info path fields live in the DSO's arena; on no memory the field stays NULL */
void tp_symdso__set_path(struct tp_symdso *dso, const char **field, const char *path)
{
	*field = tp_symarena__strdup(&dso->arena, path);
}

static bool same_identity(const struct tp_symdso *dso, const char *path, const uint8_t *id,
			  size_t id_len, uint64_t text_hash)
{
	if (dso->kernel || strcmp(dso->info.name, path))
		return false;
	if (dso->id.build_id_len != id_len || (id_len && memcmp(dso->id.build_id, id, id_len)))
		return false;
	return id_len || dso->id.text_hash == text_hash;
}

int tp_symbolizer__dso(struct tp_symbolizer *s, const char *path, const uint8_t *build_id,
		       size_t build_id_len, uint64_t text_hash, struct tp_symdso **out)
{
	struct tp_symdso *dso;
	size_t i;
	int err;

	*out = NULL;
	if (!path || (build_id_len && !build_id))
		return -TP_ERR_INVAL;
	if (build_id_len > TP_BUILD_ID_MAX)
		build_id_len = TP_BUILD_ID_MAX;
	for (i = 0; i < s->n_dsos; i++) {
		if (same_identity(s->dsos[i], path, build_id, build_id_len, text_hash)) {
			*out = s->dsos[i];
			return 0;
		}
	}
	dso = tp_symdso__alloc(s, path);
	if (!dso)
		return -TP_ERR_NOMEM;
	if (build_id_len)
		memcpy(dso->id.build_id, build_id, build_id_len);
	dso->id.build_id_len = build_id_len;
	dso->id.text_hash = build_id_len ? 0 : text_hash;
	*out = dso;
	err = tp_symfind__user(s, dso, path);
	return err ? err : tp_symembed__attach(s, dso, TP_SYMTAB_USER);
}

const struct tp_symdso_info *tp_symdso__info(const struct tp_symdso *dso)
{
	return &dso->info;
}

static int resolve(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		   struct tp_symres *r)
{
	const struct tp_sym *sym;
	uint64_t a;
	int err;

	r->vaddr = addr;
	switch (dso->type) {
	case TP_SYMDSO_TYPE_ELF:
		err = tp_symelf__resolve(s, dso, addr, r);
		return err ? err : tp_symembed__fill(s, dso, addr, r);
	case TP_SYMDSO_TYPE_KALLSYMS:
		a = addr - (uint64_t)dso->reloc;
		r->vaddr = a;
		sym = tp_kallsyms__find(dso->ks, a, dso->module);
		if (sym) {
			r->name = sym->name;
			r->sym_start = sym->start;
			r->sym_size = sym->size;
			r->offset = a - sym->start;
		}
		return 0;
	case TP_SYMDSO_TYPE_EMBEDDED:
		sym = tp_symembed__find(dso, addr);
		if (sym) {
			r->name = sym->name;
			r->sym_start = sym->start;
			r->sym_size = sym->size;
			r->offset = addr - sym->start;
		}
		return 0;
	case TP_SYMDSO_TYPE_NONE:
		break;
	}
	return 0;
}

int tp_symbolizer__lookup(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
			  const struct tp_symres **out)
{
	struct tp_symres *r;
	int err;

	*out = NULL;
	if (!dso)
		return -TP_ERR_INVAL;
	r = tp_symarena__alloc(&dso->arena, sizeof(*r));
	if (!r)
		return -TP_ERR_NOMEM;
	memset(r, 0, sizeof(*r));
	err = resolve(s, dso, addr, r);
	if (err)
		return err;
	*out = r;
	return 0;
}
