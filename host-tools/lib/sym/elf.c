/* SPDX-License-Identifier: MIT */
/* One ELF DSO through libdwfl: libdwfl reads the file (any class, byte order, compressed
 * sections, separate debug file, MiniDebugInfo) and hands over its best symbol table, which is
 * copied into a sorted array (Thumb bits cleared, mapping symbols dropped, aliases folded).
 * Source lines and inline chains are sym/dwarf.c's. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"

/* objcopy --only-keep-debug zeroes p_offset of the segments whose bytes it dropped. A debug
 * file standing in for a missing main file gets them back on the assumption that the file was
 * laid out like memory from its first file-backed segment on (true of GNU ld and gold output;
 * a guess for others, which is why a main file is always preferred). */
static void guess_layout(struct tp_symdso *dso)
{
	uint64_t delta = dso->n_segs ? dso->segs[0].vaddr & ~(uint64_t)0xfff : 0;
	size_t i;

	for (i = 0; i < dso->n_segs; i++) {
		if (dso->segs[i].filesz) {
			delta = dso->segs[i].vaddr - dso->segs[i].off;
			break;
		}
	}
	for (i = 0; i < dso->n_segs; i++)
		if (!dso->segs[i].filesz && !dso->segs[i].off && dso->segs[i].vaddr >= delta)
			dso->segs[i].off = dso->segs[i].vaddr - delta;
}

static int load_segments(struct tp_symdso *dso, Elf *elf)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	dso->segs = calloc(n, sizeof(*dso->segs));
	if (!dso->segs)
		return -TP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		struct tp_symseg *sg = &dso->segs[dso->n_segs];
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sg->off = ph.p_offset;
		sg->filesz = ph.p_filesz;
		sg->memsz = ph.p_memsz;
		sg->vaddr = ph.p_vaddr;
		sg->exec = ph.p_flags & PF_X;
		dso->n_segs++;
	}
	if (dso->stand_in)
		guess_layout(dso);
	return 0;
}

static bool is_mapping_symbol(const char *name)
{
	/* ARM/AArch64 $a $t $d $x, optionally followed by ".suffix" (and not "$": strchr finds
	 * the NUL too, and name[2] would be past the name) */
	return name[0] == '$' && name[1] && strchr("atdx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

static int load_symbols(struct tp_symdso *dso, int n, unsigned *from_main, unsigned *from_other)
{
	GElf_Addr main_bias;
	Elf *main_elf = dwfl_module_getelf(dso->mod, &main_bias);
	struct tp_symstrs strs = { 0 };
	int i, err;

	for (i = 1; i < n; i++) {
		struct tp_sym sym = { 0 };
		GElf_Sym es;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(dso->mod, i, &es, &addr, &shndx, &elf,
							   &bias);
		int type = GELF_ST_TYPE(es.st_info), bind = GELF_ST_BIND(es.st_info);
		Elf_Scn *scn;
		GElf_Shdr sh;

		name = tp_symstr__check(&strs, elf, name);
		if (!name || !name[0] || es.st_shndx == SHN_UNDEF || shndx == (GElf_Word)-1)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
			continue;
		if (is_mapping_symbol(name) || (type == STT_NOTYPE && name[0] == '.'))
			continue;
		/* labels (STT_NOTYPE) count in code only, and not hidden ones, as in perf */
		if (type == STT_NOTYPE) {
			int vis = GELF_ST_VISIBILITY(es.st_other);

			scn = elf && es.st_shndx != SHN_ABS ? elf_getscn(elf, shndx) : NULL;
			if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) ||
			    vis == STV_HIDDEN || vis == STV_INTERNAL)
				continue;
		}
		sym.start = addr - dso->bias;
		/* Thumb and MIPS16/microMIPS functions have the ISA bit set in st_value */
		if ((dso->machine == EM_ARM || dso->machine == EM_MIPS) && type != STT_NOTYPE)
			sym.start &= ~(uint64_t)1;
		sym.size = es.st_size;
		sym.name = name;
		sym.rank = bind == STB_GLOBAL ? TP_SYMRANK_GLOBAL : bind == STB_WEAK ?
			   TP_SYMRANK_WEAK : TP_SYMRANK_LOCAL;
		err = tp_symtab__add(&dso->tab, &sym);
		if (err)
			return err;
		if (elf == main_elf)
			(*from_main)++;
		else
			(*from_other)++;
	}
	tp_symtab__finish(&dso->tab, TP_SYMTAB_ELF, 0);
	return 0;
}

static void set_source(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path,
		       bool dwarf, unsigned from_main, unsigned from_other)
{
	struct tp_symdso_info *in = &dso->info;
	GElf_Addr b;
	Elf *main_elf = dwfl_module_getelf(dso->mod, &b);

	in->n_syms = dso->tab.n;
	if (dwarf) {
		in->src = TP_SYMSRC_DEBUGINFO;
		in->sym_path = in->debug_path && dso->debug_has_dwarf ? in->debug_path : in->elf_path;
	} else if (from_other && in->debug_path) {
		in->src = TP_SYMSRC_SYMTAB;
		in->sym_path = in->debug_path;
	} else if (from_other) {
		in->src = TP_SYMSRC_MINIDEBUGINFO;
		in->sym_path = in->elf_path;
	} else if (from_main) {
		in->src = main_elf && tp_elf_has_section(main_elf, ".symtab", true) ?
			  TP_SYMSRC_SYMTAB : TP_SYMSRC_DYNSYM;
		in->sym_path = in->elf_path;
	}
	symlog(s, TP_LOG_INFO, "%s: %zu symbols from %s (%s)", in->name, in->n_syms,
	       in->sym_path ? in->sym_path : path, tp_symsrc_str(in->src));
}

int tp_symelf__open(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path, int fd)
{
	unsigned from_main = 0, from_other = 0;
	bool want_dwarf = s->conf.want_lines || s->conf.want_inlines, dwarf;
	Dwarf_Addr dwbias;
	GElf_Addr bias;
	GElf_Ehdr eh;
	void **ud;
	Elf *elf;
	int n, err;

	dso->dwfl = dwfl_begin(&s->cb);
	if (!dso->dwfl) {
		close(fd);
		return -TP_ERR_NOMEM;
	}
	dwfl_report_begin(dso->dwfl);
	/* ET_DYN at its own p_vaddr: module addresses are ELF virtual addresses (bias 0) */
	dso->mod = dwfl_report_elf(dso->dwfl, dso->info.name, path, fd, 0, true);
	if (!dso->mod || dwfl_report_end(dso->dwfl, NULL, NULL)) {
		symlog(s, TP_LOG_WARN, "%s: cannot load %s: %s", dso->info.name, path,
		       dwfl_errmsg(-1));
		if (!dso->mod)
			close(fd);
		dso->mod = NULL;
		return -TP_ERR_IO;
	}
	dwfl_module_info(dso->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = dso;
	elf = dwfl_module_getelf(dso->mod, &bias);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		symlog(s, TP_LOG_WARN, "%s: cannot read %s: %s", dso->info.name, path,
		       dwfl_errmsg(-1));
		return -TP_ERR_IO;
	}
	dso->bias = bias;
	dso->machine = eh.e_machine;
	dso->type = TP_SYMDSO_TYPE_ELF;
	tp_symdso__set_path(dso, &dso->info.elf_path, path);
	err = load_segments(dso, elf);
	if (err)
		return err;
	n = dwfl_module_getsymtab(dso->mod);	/* may run tp_symfind__debuginfo_cb */
	if (n > 0) {
		err = load_symbols(dso, n, &from_main, &from_other);
		if (!err && !dso->stand_in)
			err = tp_symplt__add(dso, elf);
		if (err)
			return err;
	}
	if (want_dwarf)
		dwarf = dwfl_module_getdwarf(dso->mod, &dwbias) != NULL;
	else
		dwarf = dso->main_has_dwarf || (dso->info.debug_path && dso->debug_has_dwarf);
	set_source(s, dso, path, dwarf, from_main, from_other);
	return 0;
}

bool tp_symelf__value(struct tp_symdso *dso, const char *name, uint64_t *value)
{
	int i, n = dso->mod ? dwfl_module_getsymtab(dso->mod) : 0;
	struct tp_symstrs strs = { 0 };

	for (i = 1; i < n; i++) {
		GElf_Sym es;
		GElf_Addr addr;
		Elf *elf = NULL;
		const char *sn = dwfl_module_getsym_info(dso->mod, i, &es, &addr, NULL, &elf, NULL);

		sn = tp_symstr__check(&strs, elf, sn);
		if (sn && es.st_shndx != SHN_UNDEF && !strcmp(sn, name)) {
			*value = addr - dso->bias;
			if (dso->machine == EM_ARM || dso->machine == EM_MIPS)
				*value &= ~(uint64_t)1;	/* an ISA bit, as in load_symbols() */
			return true;
		}
	}
	return false;
}

static bool offset_to_vaddr(const struct tp_symdso *dso, uint64_t off, uint64_t *vaddr)
{
	const struct tp_symseg *hit = NULL;
	size_t i;

	for (i = 0; i < dso->n_segs; i++) {
		const struct tp_symseg *sg = &dso->segs[i];

		if (off - sg->off < sg->filesz && off >= sg->off && (!hit || (!hit->exec && sg->exec)))
			hit = sg;
	}
	/* a debug file standing in for the main one keeps the phdrs but not the bytes */
	for (i = 0; !hit && i < dso->n_segs; i++)
		if (off >= dso->segs[i].off && off - dso->segs[i].off < dso->segs[i].memsz)
			hit = &dso->segs[i];
	if (!hit)
		return false;
	*vaddr = off - hit->off + hit->vaddr;
	return true;
}

int tp_symelf__resolve(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		       struct tp_symres *r)
{
	const struct tp_sym *sym;
	uint64_t vaddr;

	if (dso->addr_is_offset) {
		if (!offset_to_vaddr(dso, addr, &vaddr))
			return 0;
	} else {
		vaddr = addr - (uint64_t)dso->reloc;
	}
	r->vaddr = vaddr;
	sym = tp_symtab__find(&dso->tab, vaddr, -1);
	if (sym) {
		r->name = sym->name;
		r->sym_start = sym->start;
		r->sym_size = sym->size;
		r->offset = vaddr - sym->start;
	}
	if (s->conf.want_lines || s->conf.want_inlines)
		return tp_symdwarf__resolve(s, dso, vaddr + dso->bias, r);
	return 0;
}
