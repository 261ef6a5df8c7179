/* What an ELF file holds, for deciding what a file can serve (the build-id cache's kinds, the
 * symbolizer's candidates): a named section with contents, and executable code. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_ELFINFO_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_ELFINFO_H

#include <gelf.h>
#include <stdbool.h>

/* is there a section called name (with bytes in the file, when need_bits)? */
bool tp_elf_has_section(Elf *elf, const char *name, bool need_bits);
/* executable code: an SHF_EXECINSTR section with bytes, or, in a file without section headers,
 * an executable PT_LOAD segment with bytes */
bool tp_elf_has_code(Elf *elf);

#endif
