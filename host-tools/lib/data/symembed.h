/* SPDX-License-Identifier: MIT */
/* Embedded symbols (TP_FEAT_SYMTAB, perfdata/symtab.h) on the host: the section decoded into
 * per-DSO sorted tables, found by the identity of a recorded DSO. The symbolizer uses them as
 * its last source, after every file the host could find (symbolizer.h). */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_SYMEMBED_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_SYMEMBED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/symtab.h"

struct tp_embsym {
	uint64_t addr, size;		/* size 0: up to the next symbol */
	const char *name;
};

struct tp_embdso {
	struct tp_symtab_block b;	/* kind, src, identity, name */
	struct tp_embsym *syms;		/* b.nr_syms, sorted */
};

struct tp_embsyms {
	uint8_t shift;			/* the recorder's address granularity (0: exact) */
	uint16_t flags;			/* TP_SYMTAB_F_* */
	uint32_t nr_dsos;
	uint64_t nr_syms;
	struct tp_embdso *dsos;
	struct tp_embsym *all;
};

/* Decode and check a section (names point into data, which must outlive the result):
 * 0, -TP_ERR_BAD_FEATURE with *why, or -TP_ERR_NOMEM. */
int tp_embsyms__parse(const void *data, size_t size, bool swap, struct tp_embsyms **out,
		      const char **why);
void tp_embsyms__free(struct tp_embsyms *e);

/* The block recorded for this DSO: same kind (TP_SYMTAB_*) and name, and the same identity:
 * the build-id (a shorter one zero-padded matches), else the text hash; a block and a DSO
 * that both have no identity match by name. NULL if none. */
const struct tp_embdso *tp_embsyms__find(const struct tp_embsyms *e, int kind, const char *name,
					 const uint8_t *build_id, size_t build_id_len,
					 uint64_t text_hash);

/* "symtab", "dynsym", "minidebuginfo", "kallsyms" */
const char *tp_embsrc_str(uint8_t src);

#endif
