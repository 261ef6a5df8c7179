/* The symbolizer's last source: the symbols the recording carries (TP_FEAT_SYMTAB), used for a
 * DSO or kernel when no file on the host could be used, and only for the recorded identity. */
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

int tp_symembed__attach(struct tp_symbolizer *s, struct tp_symdso *dso, int kind)
{
	const struct tp_embsyms *e = s->conf.embedded;
	const struct tp_embdso *b;

	if (dso->type != TP_SYMDSO_TYPE_NONE || !e)
		return 0;
	b = kind == TP_SYMTAB_MODULE ? find_module(e, dso->info.name) :
	    tp_embsyms__find(e, kind, dso->info.name, dso->id.build_id, dso->id.build_id_len,
			     dso->id.text_hash);
	/* --strict: nothing unverified, embedded or not */
	if (!b || (s->conf.strict && kind != TP_SYMTAB_MODULE && b->b.id_type == TP_SYMTAB_ID_NONE))
		return 0;
	for (uint32_t i = 0; i < b->b.nr_syms; i++) {
		struct tp_sym sym = { .start = b->syms[i].addr, .size = b->syms[i].size,
				      .name = b->syms[i].name, .seq = i };

		if (tp_symtab__add(&dso->tab, &sym))
			return -TP_ERR_NOMEM;
	}
	tp_symtab__finish(&dso->tab, TP_SYMTAB_ELF, 0);
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
