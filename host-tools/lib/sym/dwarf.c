/* SPDX-License-Identifier: MIT */
/* DWARF answers for one address: its line-table position and the chain of inlined calls it
 * sits in. Walking DIEs per lookup costs a whole CU (and, for a big function, most of its
 * subtree) every time, so two indexes are built on first use: per CU, the address ranges of
 * its functions; per function, the ranges of its inlined calls with their parents. A lookup
 * is then two binary searches and a walk up a short parent chain. */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"

#define MAX_INLINE 32
#define MAX_SCOPE_DEPTH 64
/* how far back a lookup walks for a range enclosing a later-starting one */
#define ENCLOSING_SCAN 4

/* one DW_TAG_inlined_subroutine of a function */
struct tp_symnode {
	Dwarf_Die die;
	long parent;		/* index of the enclosing inlined call, -1: the function itself */
};

/* one address range of an inlined call; sorted by (lo, depth) */
struct tp_symscope {
	Dwarf_Addr lo, hi;
	size_t node;
	unsigned depth;
};

struct tp_symfnix {
	struct tp_symnode *nodes;
	size_t n_nodes, cap_nodes;
	struct tp_symscope *sc;
	size_t n_sc, cap_sc;
};

struct tp_symfn {
	Dwarf_Addr lo, hi;	/* [lo, hi) in DWARF addresses */
	Dwarf_Die die;		/* the DW_TAG_subprogram, valid while the module's Dwarf lives */
	struct tp_symfnix *ix;	/* its inlined calls, built on first use */
};

struct tp_symcu {
	Dwarf_Off off;		/* of the CU DIE */
	struct tp_symfn *fns;	/* sorted by lo */
	size_t n, cap;
};

static int fn_add(struct tp_symcu *cu, Dwarf_Addr lo, Dwarf_Addr hi, const Dwarf_Die *die)
{
	if (TP_GROW(cu->fns, cu->cap, cu->n + 1, 16))
		return -TP_ERR_NOMEM;
	cu->fns[cu->n++] = (struct tp_symfn){ .lo = lo, .hi = hi, .die = *die, .ix = NULL };
	return 0;
}

/* every out-of-line function of a CU, also inside C++ namespaces and classes */
static int index_scope(struct tp_symcu *cu, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	int err = 0;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;

		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			while (!err && (off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0)
				if (lo < hi)
					err = fn_add(cu, lo, hi, &child);
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			err = index_scope(cu, &child, depth + 1);
			break;
		default:
			break;
		}
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

static int cmp_fn(const void *pa, const void *pb)
{
	const struct tp_symfn *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* the index of cudie's CU, built on first use; NULL and *err set when out of memory */
static struct tp_symcu *cu_index(struct tp_symdso *dso, Dwarf_Die *cudie, int *err)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	size_t lo = 0, hi = dso->n_cus;
	struct tp_symcu *cu;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dso->cus[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < dso->n_cus && dso->cus[lo].off == off)
		return &dso->cus[lo];
	if (TP_GROW(dso->cus, dso->cap_cus, dso->n_cus + 1, 16)) {
		*err = -TP_ERR_NOMEM;
		return NULL;
	}
	memmove(&dso->cus[lo + 1], &dso->cus[lo], (dso->n_cus - lo) * sizeof(*dso->cus));
	dso->n_cus++;
	cu = &dso->cus[lo];
	memset(cu, 0, sizeof(*cu));
	cu->off = off;
	*err = index_scope(cu, cudie, 0);
	if (*err)
		return NULL;
	if (cu->n)
		qsort(cu->fns, cu->n, sizeof(*cu->fns), cmp_fn);
	return cu;
}

static struct tp_symfn *fn_find(struct tp_symcu *cu, Dwarf_Addr pc)
{
	size_t lo = 0, hi = cu->n, k;

	while (lo < hi) {	/* first range starting above pc */
		size_t mid = lo + (hi - lo) / 2;

		if (cu->fns[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < ENCLOSING_SCAN && lo > k; k++)
		if (pc < cu->fns[lo - 1 - k].hi)
			return &cu->fns[lo - 1 - k];
	return NULL;
}

/* the inlined calls under die (through lexical blocks), children of node parent */
static int index_inlines(struct tp_symfnix *ix, Dwarf_Die *die, long parent, unsigned depth)
{
	Dwarf_Die child;
	int err = 0;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		size_t id;

		if (tag == DW_TAG_lexical_block || tag == DW_TAG_try_block ||
		    tag == DW_TAG_catch_block) {
			err = index_inlines(ix, &child, parent, depth);
			continue;
		}
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		err = TP_GROW(ix->nodes, ix->cap_nodes, ix->n_nodes + 1, 16);
		if (err)
			break;
		id = ix->n_nodes++;
		ix->nodes[id] = (struct tp_symnode){ .die = child, .parent = parent };
		while (!err && (off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
			if (lo >= hi)
				continue;
			err = TP_GROW(ix->sc, ix->cap_sc, ix->n_sc + 1, 16);
			if (!err)
				ix->sc[ix->n_sc++] = (struct tp_symscope){ lo, hi, id, depth + 1 };
		}
		if (!err)
			err = index_inlines(ix, &child, (long)id, depth + 1);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

static int cmp_scope(const void *pa, const void *pb)
{
	const struct tp_symscope *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

static void fnix_free(struct tp_symfnix *ix)
{
	if (ix) {
		free(ix->nodes);
		free(ix->sc);
		free(ix);
	}
}

static struct tp_symfnix *fn_inlines(struct tp_symfn *f, int *err)
{
	struct tp_symfnix *ix;

	if (f->ix)
		return f->ix;
	ix = calloc(1, sizeof(*ix));
	*err = ix ? index_inlines(ix, &f->die, -1, 0) : -TP_ERR_NOMEM;
	if (*err) {
		fnix_free(ix);
		return NULL;
	}
	if (ix->n_sc)
		qsort(ix->sc, ix->n_sc, sizeof(*ix->sc), cmp_scope);
	f->ix = ix;
	return ix;
}

/* The innermost inlined call holding pc, or -1. Ranges nest, so it is the call of the last
 * range starting at or below pc (deepest first among equal starts), or one of its ancestors. */
static long innermost(struct tp_symfnix *ix, Dwarf_Addr pc)
{
	size_t lo = 0, hi = ix->n_sc;
	long node;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->sc[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	node = (long)ix->sc[lo - 1].node;
	if (pc < ix->sc[lo - 1].hi)
		return node;
	for (node = ix->nodes[node].parent; node >= 0; node = ix->nodes[node].parent)
		if (dwarf_haspc(&ix->nodes[node].die, pc) == 1)
			return node;
	return -1;
}

static const char *die_name(Dwarf_Die *die)
{
	static const int names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute a;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *n = dwarf_attr_integrate(die, names[i], &a) ? dwarf_formstring(&a) : NULL;

		if (n)
			return n;
	}
	return "??";
}

static int inline_chain(struct tp_symdso *dso, Dwarf_Addr pc, struct tp_symres *r)
{
	struct tp_symfnix *ix;
	struct tp_syminline *inl;
	struct tp_symfn *f;
	struct tp_symcu *cu;
	Dwarf_Files *files = NULL;
	Dwarf_Addr cubias;
	Dwarf_Die *cudie;
	size_t nfiles = 0;
	unsigned n = 0, i;
	long node, k;
	int err = 0;

	cudie = dwfl_module_addrdie(dso->mod, pc, &cubias);
	if (!cudie)
		return 0;
	cu = cu_index(dso, cudie, &err);
	f = cu ? fn_find(cu, pc - cubias) : NULL;
	ix = f ? fn_inlines(f, &err) : NULL;
	if (!ix)
		return err;
	node = innermost(ix, pc - cubias);
	for (k = node; k >= 0 && n < MAX_INLINE; k = ix->nodes[k].parent)
		n++;
	if (!n)
		return 0;
	inl = tp_symarena__alloc(&dso->arena, n * sizeof(*inl));
	if (!inl)
		return -TP_ERR_NOMEM;
	if (dwarf_getsrcfiles(cudie, &files, &nfiles))
		files = NULL;
	for (i = 0, k = node; i < n; i++, k = ix->nodes[k].parent) {	/* innermost first */
		Dwarf_Die *d = &ix->nodes[k].die;
		Dwarf_Attribute a;
		Dwarf_Word w;

		inl[i].func = die_name(d);
		inl[i].call_file = NULL;
		inl[i].call_line = 0;
		if (files && dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &a), &w) == 0 &&
		    w < nfiles)
			inl[i].call_file = dwarf_filesrc(files, w, NULL, NULL);
		if (dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &a), &w) == 0)
			inl[i].call_line = (unsigned)w;
	}
	r->inl = inl;
	r->n_inline = n;
	return 0;
}

int tp_symdwarf__resolve(struct tp_symbolizer *s, struct tp_symdso *dso, Dwarf_Addr pc,
			 struct tp_symres *r)
{
	if (s->conf.want_lines) {
		Dwfl_Line *l = dwfl_module_getsrc(dso->mod, pc);
		int line = 0;

		if (l) {
			r->file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
			r->line = line > 0 ? (unsigned)line : 0;
		}
	}
	return s->conf.want_inlines ? inline_chain(dso, pc, r) : 0;
}

void tp_symdwarf__exit(struct tp_symdso *dso)
{
	size_t i, j;

	for (i = 0; i < dso->n_cus; i++) {
		for (j = 0; j < dso->cus[i].n; j++)
			fnix_free(dso->cus[i].fns[j].ix);
		free(dso->cus[i].fns);
	}
	free(dso->cus);
	dso->cus = NULL;
	dso->n_cus = dso->cap_cus = 0;
}
