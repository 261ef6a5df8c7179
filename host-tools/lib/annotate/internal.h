/* SPDX-License-Identifier: MIT */
/* Library-internal to annotate/: the opened binary that elf.c fills and disasm.c reads. */
#ifndef TINYPERF_HOST_TOOLS_LIB_ANNOTATE_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_ANNOTATE_INTERNAL_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "host-tools/lib/annotate/annotate.h"

struct annelf_seg {
	uint64_t vaddr, offset, filesz;
};

/* an ARM/AArch64 mapping symbol: from addr on, the code is ARM ('a'), Thumb ('t'),
 * A64 ('x') or data ('d') */
struct annelf_map {
	uint64_t addr;
	char kind;
};

struct tp_annelf {
	int fd;
	Elf *elf;
	uint16_t machine;
	uint32_t flags;		/* e_flags */
	bool is64, big_endian;
	struct annelf_seg *segs;
	uint32_t nr_segs, cap_segs;
	struct annelf_map *maps;	/* sorted by address */
	uint32_t nr_maps, cap_maps;
	uint64_t *thumb_funcs;	/* ARM: starts of STT_FUNC symbols with bit 0 set, sorted */
	uint32_t nr_thumb_funcs, cap_thumb_funcs;
};

/* the bytes of [vaddr, vaddr + *size) in the file (*size cut to what the segment holds):
 * NULL when vaddr is in no segment with file bytes */
const uint8_t *annelf_bytes(struct tp_annelf *e, uint64_t vaddr, uint64_t *size);
/* the mapping symbol in force at addr ('\0' if none); *next: the next one's address
 * (UINT64_MAX if none) */
char annelf_map_at(const struct tp_annelf *e, uint64_t addr, uint64_t *next);
bool annelf_thumb_func(const struct tp_annelf *e, uint64_t addr);

#endif
