/* SPDX-License-Identifier: MIT */
/* A binary or debug file without its DWARF, for archives: a report needs the code's layout
 * and the symbol tables, and DWARF (often most of an unstripped sysroot file) only for source
 * lines and inlines. Everything up to the first DWARF section stays byte for byte (ELF and
 * program headers, loadable segments, notes: the build-id and tinyperf's text hash still
 * match); the .debug_* and .zdebug_* sections become SHT_NOBITS (so section indexes and
 * links stay valid) and the sections after them (.symtab, .strtab, ...) move up. */
#ifndef TINYPERF_HOST_TOOLS_LIB_ARCHIVE_ELFSLIM_H
#define TINYPERF_HOST_TOOLS_LIB_ARCHIVE_ELFSLIM_H

#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

/* 0 and the slim image in *out (free() it), *len; 1 when there is nothing to drop or the
 * layout does not allow it safely (a segment or an allocated section after the DWARF):
 * use the file as it is; -errno / -TP_ERR_IO / -TP_ERR_NOMEM (logged). */
int tp_elfslim(const char *path, uint8_t **out, size_t *len, const struct tp_log *log);

#endif
