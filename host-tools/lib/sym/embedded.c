/* SPDX-License-Identifier: MIT */
/* The symbolizer's last source: the symbols the recording carries (TP_FEAT_SYMTAB), for the
 * recorded identity only: the whole source of a DSO or kernel no host file serves, and, per
 * address, the names a host file lacks (a static function missing from a .dynsym). */
#define _GNU_SOURCE
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"
#include "host-tools/lib/data/data.h"

static enum tp_symsrc src_of(uint8_t src)
{
	switch (src) {
	case TP_SYMTAB_SRC_SYMTAB: return TP_SYMSRC_SYMTAB;
	case TP_SYMTAB_SRC_MINIDEBUGINFO: return TP_SYMSRC_MINIDEBUGINFO;
	case TP_SYMTAB_SRC_KALLSYMS: return TP_SYMSRC_KALLSYMS;
	}
	return TP_SYMSRC_DYNSYM;
}

static const struct tp_embdso *find_module(const struct tp_embsyms *e, const char *label)
{
	/* a module is named by the kernel's block: the same recording, the same kernel */
	for (uint32_t i = 0; e && i < e->nr_dsos; i++)
		if (e->dsos[i].b.kind == TP_SYMTAB_MODULE && !strcmp(e->dsos[i].b.name, label))
			return &e->dsos[i];
	return NULL;
}

/* the recording's block for dso, or NULL (--strict: none without an identity) */
static const struct tp_embdso *block(const struct tp_symbolizer *s, const struct tp_symdso *dso,
				     int kind)
{
	const struct tp_embsyms *e = s->conf.embedded;
	const struct tp_embdso *b;

	if (!e)
		return NULL;
	b = kind == TP_SYMTAB_MODULE ? find_module(e, dso->info.name) :
	    tp_embsyms__find(e, kind, dso->info.name, dso->id.build_id, dso->id.build_id_len,
			     dso->id.text_hash);
	if (!b || (s->conf.strict && kind != TP_SYMTAB_MODULE && b->b.id_type == TP_SYMTAB_ID_NONE))
		return NULL;
	return b;
}

/* b's symbols into tab; 0 or -TP_ERR_NOMEM */
static int load(struct tp_symtab *tab, const struct tp_embdso *b)
{
	for (uint32_t i = 0; i < b->b.nr_syms; i++) {
		struct tp_sym sym = { .start = b->syms[i].addr, .size = b->syms[i].size,
				      .name = b->syms[i].name, .seq = i };

		if (tp_symtab__add(tab, &sym))
			return -TP_ERR_NOMEM;
	}
	tp_symtab__finish(tab, TP_SYMTAB_ELF, 0);
	return 0;
}

int tp_symembed__attach(struct tp_symbolizer *s, struct tp_symdso *dso, int kind)
{
	const struct tp_embdso *b;

	if (dso->type != TP_SYMDSO_TYPE_NONE)
		return 0;
	b = block(s, dso, kind);
	if (!b)
		return 0;
	if (load(&dso->tab, b))
		return -TP_ERR_NOMEM;
	dso->type = TP_SYMDSO_TYPE_EMBEDDED;
	dso->info.status = TP_SYMDSO_OK;
	dso->info.src = src_of(b->b.src);
	dso->info.embedded = true;
	dso->info.verify = b->b.id_type == TP_SYMTAB_ID_BUILD_ID ? TP_SYMVERIFY_BUILD_ID :
			   b->b.id_type == TP_SYMTAB_ID_TEXT_HASH ? TP_SYMVERIFY_TEXT_HASH :
			   TP_SYMVERIFY_NONE;
	dso->info.n_syms = dso->tab.n;
	dso->info.kernel_reloc = 0;
	tp_symdso__set_path(dso, &dso->info.sym_path, "the recording (embedded)");
	tp_log__msg(&s->conf.log, TP_LOG_INFO, "%s: %zu symbols embedded in the recording "
		    "(%s of the device)", dso->info.name, dso->tab.n, tp_embsrc_str(b->b.src));
	return 0;
}

const struct tp_sym *tp_symembed__find(const struct tp_symdso *dso, uint64_t addr)
{
	return tp_symtab__find(&dso->tab, addr, -1);
}

int tp_symembed__fill(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		      struct tp_symres *r)
{
	bool host_poor = dso->info.src == TP_SYMSRC_DYNSYM || dso->info.src == TP_SYMSRC_NONE;
	const struct tp_sym *sym;

	if ((r->name && !host_poor) || !s->conf.embedded)
		return 0;
	if (!dso->etab_loaded) {
		const struct tp_embdso *b = block(s, dso, dso->kernel ? TP_SYMTAB_KERNEL :
						  TP_SYMTAB_USER);

		dso->etab_loaded = true;
		if (b && load(&dso->etab, b))
			return -TP_ERR_NOMEM;
		dso->etab_richer = b && b->b.src != TP_SYMTAB_SRC_DYNSYM;
	}
	/* a name the host gave from its .dynsym stays unless the device's .symtab has one */
	if (r->name && !dso->etab_richer)
		return 0;
	sym = tp_symtab__find(&dso->etab, addr, -1);
	if (!sym)
		return 0;
	r->name = sym->name;
	r->sym_start = sym->start;
	r->sym_size = sym->size;
	r->offset = addr - sym->start;
	r->vaddr = addr;
	r->file = NULL;
	r->line = 0;
	r->n_inline = 0;
	r->inl = NULL;
	dso->info.embedded_names = true;
	return 0;
}
