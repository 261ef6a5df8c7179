/* SPDX-License-Identifier: MIT */
/* PLT symbols the way perf names them ("memcpy@plt", and "@plt" for a slot without a symbol,
 * e.g. an IRELATIVE one): perf synthesizes one per .rela.plt (.rel.plt) entry, laid over .plt
 * as a header and then entries of a fixed size, when the file's .dynsym is at hand. Here they
 * only fill addresses no symbol already reaches: perf's tree lookup finds an enclosing symbol
 * (an unsized _init stretched over .plt) before them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"
#include "perfdata/plt.h"

#define PLT_NAME_MAX 512

/* the name of relocation i's symbol, "" if it has none */
static const char *rel_name(Elf *elf, Elf_Data *rel, bool rela, size_t i, Elf_Data *syms,
			    size_t strndx)
{
	GElf_Rela ra;
	GElf_Rel r;
	GElf_Sym sym;
	size_t idx;
	const char *n;

	if (rela) {
		if (!gelf_getrela(rel, (int)i, &ra))
			return NULL;
		idx = GELF_R_SYM(ra.r_info);
	} else {
		if (!gelf_getrel(rel, (int)i, &r))
			return NULL;
		idx = GELF_R_SYM(r.r_info);
	}
	if (!idx)
		return "";
	if (!gelf_getsym(syms, (int)idx, &sym))
		return NULL;
	n = elf_strptr(elf, strndx, sym.st_name);
	return n ? n : "";
}

int tp_symplt__add(struct tp_symdso *dso, Elf *elf)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *pscn, *dscn;
	Elf_Data *rel, *syms;
	uint64_t header, entry, nr, i;
	size_t shstrndx, added = 0;
	unsigned char *free_slot;
	bool rela;
	GElf_Ehdr eh;
	int err = 0;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	rscn = tp_elf_section(elf, ".rela.plt", &rsh);
	if (!rscn)
		rscn = tp_elf_section(elf, ".rel.plt", &rsh);
	pscn = tp_elf_section(elf, ".plt", &psh);
	if (!rscn || !pscn || (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL) ||
	    psh.sh_type == SHT_NOBITS || !rsh.sh_entsize)
		return 0;
	rela = rsh.sh_type == SHT_RELA;
	dscn = elf_getscn(elf, rsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dsh) || dsh.sh_type != SHT_DYNSYM)
		return 0;
	rel = elf_getdata(rscn, NULL);
	syms = elf_getdata(dscn, NULL);
	tp_plt_layout(eh.e_machine, psh.sh_entsize, &header, &entry);
	if (!rel || !syms || !entry || psh.sh_size < header)
		return 0;
	nr = rsh.sh_size / rsh.sh_entsize;
	if (nr > (psh.sh_size - header) / entry)
		nr = (psh.sh_size - header) / entry;
	if (!nr)
		return 0;
	/* which slots no symbol reaches, asked before the table changes */
	free_slot = calloc((size_t)nr, 1);
	if (!free_slot)
		return -TP_ERR_NOMEM;
	for (i = 0; i < nr; i++)
		free_slot[i] = !tp_symtab__find(&dso->tab, psh.sh_addr + header + i * entry, -1);
	for (i = 0; i < nr && !err; i++) {
		const char *n = free_slot[i] ? rel_name(elf, rel, rela, (size_t)i, syms, dsh.sh_link)
					     : NULL;
		struct tp_sym sym = { .start = psh.sh_addr + header + i * entry, .size = entry,
				      .rank = TP_SYMRANK_GLOBAL };
		char name[PLT_NAME_MAX];

		if (!n)
			continue;
		snprintf(name, sizeof(name), "%s@plt", n);
		sym.name = tp_symarena__strdup(&dso->arena, name);
		err = sym.name ? tp_symtab__add(&dso->tab, &sym) : -TP_ERR_NOMEM;
		added += !err;
	}
	free(free_slot);
	if (added)
		tp_symtab__finish(&dso->tab, TP_SYMTAB_ELF, 0);
	return err;
}
