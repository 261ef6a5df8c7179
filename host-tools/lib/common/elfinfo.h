/* SPDX-License-Identifier: MIT */
/* What an ELF file holds, for deciding what a file can serve (the build-id cache's kinds, the
 * symbolizer's candidates): a named section with contents, executable code, and how rich its
 * symbols are. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_ELFINFO_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_ELFINFO_H

#include <gelf.h>
#include <stdbool.h>

/* the first section called name, its header in *sh; NULL if none */
Elf_Scn *tp_elf_section(Elf *elf, const char *name, GElf_Shdr *sh);
/* is there a section called name (with bytes in the file, when need_bits)? */
bool tp_elf_has_section(Elf *elf, const char *name, bool need_bits);
/* executable code: an SHF_EXECINSTR section with bytes, or, in a file without section headers,
 * an executable PT_LOAD segment with bytes */
bool tp_elf_has_code(Elf *elf);

/* How much a copy of a binary can name, to choose among copies of one identity. */
enum tp_elf_richness {
	TP_ELF_BARE = 0,	/* .dynsym and PLT names at most */
	TP_ELF_SYMTAB,		/* a .symtab */
	TP_ELF_DWARF,		/* DWARF: every function, source lines, inlines */
};
enum tp_elf_richness tp_elf_richness(Elf *elf);
/* the same for the file at path; TP_ELF_BARE when it cannot be read as ELF */
enum tp_elf_richness tp_elf_file_richness(const char *path);

#endif
