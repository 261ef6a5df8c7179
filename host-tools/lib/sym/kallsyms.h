/* SPDX-License-Identifier: MIT */
/* A kallsyms text file ("<hex address> <type> <name>[\t[<module>]]" per line, /proc/kallsyms'
 * format) parsed from memory into a symbol table. libdwfl does not read kallsyms. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_KALLSYMS_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/sym/symtab.h"

struct tp_kallsyms {
	struct tp_symtab tab;	/* text and data symbols; tp_sym.module indexes modules[] */
	char *strings;		/* a copy of the file, names NUL-terminated in place */
	const char **modules;	/* modules[0] = NULL (core kernel), then names without [] */
	size_t n_modules;
	bool has_ref;		/* ref_name was found in the core kernel */
	uint64_t ref_addr;
	size_t n_bad;		/* lines that were not understood (skipped) */
	size_t n_syms;		/* symbols, once aliases are folded */
	/* tp_kallsyms__open(): instead of tab and strings, where each symbol tab would hold
	 * is, in tab's order, its line read again once an address falls in it: made[] holds
	 * what it folds to, none if it cannot be */
	bool lazy, sorted;
	int fd;
	struct tp_ksidx {
		uint64_t start, off;	/* the address, the file offset of the line */
	} *idx;
	size_t n_idx;
	struct tp_sym **made;	/* by the index of an address's first symbol; made[n_idx]
				 * heads the list of them (kallsyms.c) */
	struct tp_sym none;
};

/* Parse buf[0..len). ref_name (e.g. "_text") is looked up among core kernel symbols into
 * ref_addr. Lines with a zero address (kptr_restrict) are skipped. Returns 0, -TP_ERR_NOMEM,
 * or -TP_ERR_EMPTY when no symbol with an address was found. */
int tp_kallsyms__parse(struct tp_kallsyms *k, const char *buf, size_t len, const char *ref_name);
/* The same on a buffer of len + 1 bytes at least, which k takes over whatever the result (it
 * is freed with k, or at once on an error): the names stay where they were read, where a copy
 * would double a 5 MB kallsyms at the peak of a report. */
int tp_kallsyms__parse_owned(struct tp_kallsyms *k, char *buf, size_t len, const char *ref_name);
/* The kallsyms file at path, read the lazy way: the file stays open, only the address and
 * place of each symbol are kept (16 bytes, where tab holds 40 and strings the whole text),
 * and a symbol is read again the first time an address falls in it, with what tab would
 * have made of it. Returns as tp_kallsyms__parse(), or -TP_ERR_IO, or -TP_ERR_NOT_REGULAR. */
int tp_kallsyms__open(struct tp_kallsyms *k, const char *path, const char *ref_name);
/* the function containing addr (of module >= 0 only), as tp_symtab__find() on tab, or NULL */
const struct tp_sym *tp_kallsyms__find(const struct tp_kallsyms *k, uint64_t addr, long module);
/* index of module "name" (no brackets) or -1 */
long tp_kallsyms__module(const struct tp_kallsyms *k, const char *name);
void tp_kallsyms__exit(struct tp_kallsyms *k);

#endif
