/* SPDX-License-Identifier: MIT */
/* Symbol names from libdwfl, checked. dwfl_module_getsym_info() returns a pointer into the
 * string table of the symbol's ELF without checking that a NUL ends the name inside that table:
 * in a file cut short or made so, a name at the table's end runs past it (out of the buffer
 * libelf allocated for a dynamic segment's table: a heap overflow on every strlen). A name is
 * taken only when it ends inside the table it points into: one of the ELF's SHT_STRTAB
 * sections (libelf hands out the same data each time), or the DT_STRTAB of its dynamic segment
 * (what libdwfl reads when the section headers are unusable; libelf caches that raw chunk, so
 * it is the same buffer too). A name pointing anywhere else is refused. */
#define _GNU_SOURCE
#include <string.h>

#include "host-tools/lib/sym/internal.h"

static void add(struct tp_symstrs *c, const void *p, size_t n)
{
	if (p && n && c->nr < TP_SYMSTRS_MAX) {
		c->t[c->nr].p = p;
		c->t[c->nr].n = n;
		c->nr++;
	}
}

/* the file offset of vaddr through the PT_LOAD segment whose file bytes hold it */
static bool vaddr_to_off(Elf *elf, size_t nph, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

static void add_dynamic(struct tp_symstrs *c, Elf *elf)
{
	uint64_t strtab = 0, strsz = 0, off;
	bool have = false;
	size_t nph;

	if (elf_getphdrnum(elf, &nph))
		return;
	for (size_t i = 0; i < nph; i++) {
		Elf_Data *d;
		GElf_Phdr ph;
		GElf_Dyn dyn;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_DYNAMIC)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_DYN);
		for (int k = 0; d && gelf_getdyn(d, k, &dyn) && dyn.d_tag != DT_NULL; k++) {
			if (dyn.d_tag == DT_STRTAB) {
				strtab = dyn.d_un.d_ptr;
				have = true;
			} else if (dyn.d_tag == DT_STRSZ) {
				strsz = dyn.d_un.d_val;
			}
		}
		break;
	}
	if (have && strsz && vaddr_to_off(elf, nph, strtab, &off)) {
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)off, strsz, ELF_T_BYTE);

		if (d)
			add(c, d->d_buf, d->d_size);
	}
}

static void load(struct tp_symstrs *c, Elf *elf)
{
	Elf_Scn *scn = NULL;

	c->elf = elf;
	c->nr = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB)
			continue;
		d = elf_getdata(scn, NULL);
		if (d)
			add(c, d->d_buf, d->d_size);
	}
	add_dynamic(c, elf);
}

const char *tp_symstr__check(struct tp_symstrs *c, Elf *elf, const char *name)
{
	if (!name || !elf)
		return NULL;
	if (c->elf != elf)
		load(c, elf);
	for (unsigned i = 0; i < c->nr; i++) {
		uintptr_t at = (uintptr_t)name - (uintptr_t)c->t[i].p;

		if ((uintptr_t)name >= (uintptr_t)c->t[i].p && at < c->t[i].n)
			return memchr(name, '\0', c->t[i].n - at) ? name : NULL;
	}
	return NULL;
}
