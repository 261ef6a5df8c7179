/* One ELF DSO through libdwfl: libdwfl reads the file (any class, byte order, compressed
 * sections, separate debug file, MiniDebugInfo) and hands over its best symbol table, which is
 * copied into a sorted array (Thumb bits cleared, mapping symbols dropped, aliases folded);
 * source lines and inline chains come from libdw. */
#define _GNU_SOURCE
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/error.h"
#include "host-tools/lib/symbolizer-int.h"

#define MAX_INLINE 32
#define MAX_SCOPE_DEPTH 64

#define symlog(s, lvl, ...) tp_log__msg(&(s)->conf.log, (lvl), __VA_ARGS__)

bool tp_symelf__has_section(Elf *elf, const char *name, bool need_bits)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return !need_bits || (sh.sh_type != SHT_NOBITS && sh.sh_size);
	}
	return false;
}

bool tp_symelf__has_code(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t i, n;
	bool any = false;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		any = true;
		if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_type != SHT_NOBITS && sh.sh_size)
			return true;
	}
	if (any || elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {	/* no section headers (sstrip): trust the segments */
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X) && ph.p_filesz)
			return true;
	}
	return false;
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
	return 0;
}

static bool is_mapping_symbol(const char *name)
{
	/* ARM/AArch64 $a $t $d $x, optionally followed by ".suffix" */
	return name[0] == '$' && strchr("atdx", name[1]) && (name[2] == '\0' || name[2] == '.');
}

static int load_symbols(struct tp_symdso *dso, int n, unsigned *from_main, unsigned *from_other)
{
	GElf_Addr main_bias;
	Elf *main_elf = dwfl_module_getelf(dso->mod, &main_bias);
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

		if (!name || !name[0] || es.st_shndx == SHN_UNDEF || shndx == (GElf_Word)-1)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
			continue;
		if (is_mapping_symbol(name) || (type == STT_NOTYPE && name[0] == '.'))
			continue;
		scn = elf && es.st_shndx != SHN_ABS ? elf_getscn(elf, shndx) : NULL;
		if (scn && gelf_getshdr(scn, &sh)) {
			if (type == STT_NOTYPE && !(sh.sh_flags & SHF_EXECINSTR))
				continue;
			sym.limit = sh.sh_addr + sh.sh_size + bias - dso->bias;
		} else if (type == STT_NOTYPE) {
			continue;
		}
		sym.start = addr - dso->bias;
		/* Thumb and MIPS16/microMIPS functions have the ISA bit set in st_value */
		if ((dso->machine == EM_ARM || dso->machine == EM_MIPS) && type != STT_NOTYPE)
			sym.start &= ~(uint64_t)1;
		sym.size = es.st_size;
		sym.name = name;
		sym.rank = type == STT_NOTYPE ? TP_SYMRANK_LABEL : bind == STB_GLOBAL ?
			   TP_SYMRANK_GLOBAL : bind == STB_WEAK ? TP_SYMRANK_WEAK : TP_SYMRANK_LOCAL;
		err = tp_symtab__add(&dso->tab, &sym);
		if (err)
			return err;
		if (elf == main_elf)
			(*from_main)++;
		else
			(*from_other)++;
	}
	tp_symtab__finish(&dso->tab, 0);
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
		in->src = main_elf && tp_symelf__has_section(main_elf, ".symtab", true) ?
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

	for (i = 1; i < n; i++) {
		GElf_Sym es;
		GElf_Addr addr;
		const char *sn = dwfl_module_getsym_info(dso->mod, i, &es, &addr, NULL, NULL, NULL);

		if (sn && es.st_shndx != SHN_UNDEF && !strcmp(sn, name)) {
			*value = addr - dso->bias;
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

/* the chain of DIEs from the CU down to the innermost scope holding pc; only
 * DW_TAG_inlined_subroutine entries are kept, outermost first */
static bool scope_walk(Dwarf_Die *die, Dwarf_Addr pc, Dwarf_Die *chain, unsigned *n, int depth)
{
	Dwarf_Die child;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(die, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			if (tag == DW_TAG_inlined_subroutine && *n < MAX_INLINE)
				chain[(*n)++] = child;
			scope_walk(&child, pc, chain, n, depth + 1);
			return true;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			if (scope_walk(&child, pc, chain, n, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static const char *die_name(Dwarf_Die *die)
{
	static const int names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute a;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *n = dwarf_attr_integrate(die, names[i], &a) ? dwarf_formstring(&a) : NULL;

		if (n)
			return n;
	}
	return "??";
}

static int inline_chain(struct tp_symdso *dso, Dwarf_Addr pc, struct tp_symres *r)
{
	Dwarf_Die chain[MAX_INLINE], *cu;
	struct tp_syminline *inl;
	Dwarf_Files *files = NULL;
	Dwarf_Addr cubias;
	size_t nfiles = 0;
	unsigned n = 0, i;

	cu = dwfl_module_addrdie(dso->mod, pc, &cubias);
	if (!cu)
		return 0;
	scope_walk(cu, pc - cubias, chain, &n, 0);
	if (!n)
		return 0;
	inl = tp_symarena__alloc(&dso->arena, n * sizeof(*inl));
	if (!inl)
		return -TP_ERR_NOMEM;
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		files = NULL;
	for (i = 0; i < n; i++) {
		Dwarf_Die *d = &chain[n - 1 - i];
		Dwarf_Attribute a;
		Dwarf_Word w;

		inl[i].func = die_name(d);
		inl[i].call_file = NULL;
		inl[i].call_line = 0;
		if (files && dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &a), &w) == 0 &&
		    w < nfiles)
			inl[i].call_file = dwarf_filesrc(files, w, NULL, NULL);
		if (dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &a), &w) == 0)
			inl[i].call_line = (unsigned)w;
	}
	r->inl = inl;
	r->n_inline = n;
	return 0;
}

int tp_symelf__resolve(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		       struct tp_symres *r)
{
	const struct tp_sym *sym;
	uint64_t vaddr;
	Dwarf_Addr pc;

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
	pc = vaddr + dso->bias;
	if (s->conf.want_lines) {
		Dwfl_Line *l = dwfl_module_getsrc(dso->mod, pc);
		int line = 0;

		if (l) {
			r->file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
			r->line = line > 0 ? (unsigned)line : 0;
		}
	}
	if (s->conf.want_inlines)
		return inline_chain(dso, pc, r);
	return 0;
}
