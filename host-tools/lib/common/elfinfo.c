/* What an ELF file holds, asked of libelf (elfinfo.h). */
#include <string.h>

#include "host-tools/lib/common/elfinfo.h"

bool tp_elf_has_section(Elf *elf, const char *name, bool need_bits)
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
