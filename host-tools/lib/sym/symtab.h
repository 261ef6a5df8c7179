/* SPDX-License-Identifier: MIT */
/* A sorted array of symbols with binary-search lookup: what every symbol source (an ELF's
 * symbol table through libdwfl, a kallsyms file) is turned into, so lookups cost O(log n). */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_SYMTAB_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* The binding, as perf ranks aliases: global before local before weak. */
enum tp_symrank {
	TP_SYMRANK_GLOBAL = 0,
	TP_SYMRANK_LOCAL = 1,
	TP_SYMRANK_WEAK = 2,
	TP_SYMRANK_DATA = 3,	/* kallsyms data symbols: bound the size of text, never returned */
};

/* How tp_symtab__finish() sizes the very last symbol, as perf does for each kind of source. */
enum tp_symtab_kind {
	TP_SYMTAB_ELF,		/* to the end of the page after the one it starts in */
	TP_SYMTAB_KALLSYMS,	/* last_size bytes */
};

struct tp_sym {
	uint64_t start;
	uint64_t size;		/* 0 = unknown until tp_symtab__finish() */
	const char *name;	/* not owned */
	uint32_t module;	/* kallsyms module index, 0 = core kernel or an ELF */
	uint32_t seq;		/* order of tp_symtab__add(): the last tie-break */
	uint8_t rank;
};

struct tp_symtab {
	struct tp_sym *syms;
	size_t n, cap;
};

/* Returns 0 or -TP_ERR_NOMEM. */
int tp_symtab__add(struct tp_symtab *t, const struct tp_sym *s);
/* Sort, give unsized symbols a size and fold aliases to one symbol each, as perf does
 * (symbols__fixup_end, then symbols__fixup_duplicate). An unsized symbol reaches the next
 * symbol's start (across ELF sections: _init covers the .plt). Sizing comes first, so of
 * several unsized aliases only the last one added gets a size. The best alias is then the one
 * with a size, then not weak, then global, then with fewer leading underscores, then the
 * longer name, then the first added (kallsyms: memcpy and __pi_memcpy at one address, both
 * unsized, give __pi_memcpy, the later). last_size: TP_SYMTAB_KALLSYMS's. */
void tp_symtab__finish(struct tp_symtab *t, enum tp_symtab_kind kind, uint64_t last_size);
/* The function containing addr, or NULL. module >= 0 restricts to one kallsyms module. */
const struct tp_sym *tp_symtab__find(const struct tp_symtab *t, uint64_t addr, long module);
void tp_symtab__exit(struct tp_symtab *t);

#endif
