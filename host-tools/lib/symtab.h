/* A sorted array of symbols with binary-search lookup: what every symbol source (an ELF's
 * symbol table through libdwfl, a kallsyms file) is turned into, so lookups cost O(log n). */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYMTAB_H
#define TINYPERF_HOST_TOOLS_LIB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* Lower ranks win when several symbols share an address (aliases). */
enum tp_symrank {
	TP_SYMRANK_GLOBAL = 0,
	TP_SYMRANK_WEAK = 1,
	TP_SYMRANK_LOCAL = 2,
	TP_SYMRANK_LABEL = 3,	/* STT_NOTYPE in code: linker and assembler labels */
	TP_SYMRANK_DATA = 4,	/* kallsyms data symbols: bound the size of text, never returned */
};

struct tp_sym {
	uint64_t start;
	uint64_t size;		/* 0 = unknown until tp_symtab__finish() */
	uint64_t limit;		/* end of the symbol's section; 0 = unknown */
	const char *name;	/* not owned */
	uint32_t module;	/* kallsyms module index, 0 = core kernel or an ELF */
	uint8_t rank;
};

struct tp_symtab {
	struct tp_sym *syms;
	size_t n, cap;
};

/* Returns 0 or -TP_ERR_NOMEM. */
int tp_symtab__add(struct tp_symtab *t, const struct tp_sym *s);
/* Sort, fold aliases (keeping the best name and the largest size) and give unsized symbols
 * the room up to the next symbol, their section end, or last_size for the very last one. */
void tp_symtab__finish(struct tp_symtab *t, uint64_t last_size);
/* The function containing addr, or NULL. module >= 0 restricts to one kallsyms module. */
const struct tp_sym *tp_symtab__find(const struct tp_symtab *t, uint64_t addr, long module);
void tp_symtab__exit(struct tp_symtab *t);

#endif
