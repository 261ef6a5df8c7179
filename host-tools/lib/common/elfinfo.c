/* SPDX-License-Identifier: MIT */
/* What an ELF file holds, asked of libelf (elfinfo.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/elfinfo.h"
#include "host-tools/lib/common/fsutil.h"

Elf_Scn *tp_elf_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

bool tp_elf_has_section(Elf *elf, const char *name, bool need_bits)
{
	GElf_Shdr sh;

	if (!tp_elf_section(elf, name, &sh))
		return false;
	return !need_bits || (sh.sh_type != SHT_NOBITS && sh.sh_size);
}

bool tp_elf_has_code(Elf *elf)
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

enum tp_elf_richness tp_elf_richness(Elf *elf)
{
	if (tp_elf_has_section(elf, ".debug_info", true) ||
	    tp_elf_has_section(elf, ".zdebug_info", true))
		return TP_ELF_DWARF;
	return tp_elf_has_section(elf, ".symtab", true) ? TP_ELF_SYMTAB : TP_ELF_BARE;
}

enum tp_elf_richness tp_elf_file_richness(const char *path)
{
	enum tp_elf_richness r = TP_ELF_BARE;
	int fd = tp_fs__open_regular(path, NULL);
	Elf *elf;

	if (fd < 0)
		return r;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		r = tp_elf_richness(elf);
	elf_end(elf);
	close(fd);
	return r;
}
