/* SPDX-License-Identifier: MIT */
/* Symbol table folding and sizing, against perf's rules (symbols__fixup_end before
 * symbols__fixup_duplicate): which alias names an address, how far an unsized symbol
 * reaches, and that lookups land on the right symbol. Cases taken from real files: _init
 * covering the .plt, kallsyms' memcpy/__pi_memcpy and __ia32_/__x64_sys_getppid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/sym/symtab.h"
#include "tests/unit/check.h"

struct s {
	uint64_t start, size;
	const char *name;
	enum tp_symrank rank;
};

static void build(struct tp_symtab *t, const struct s *syms, size_t n,
		  enum tp_symtab_kind kind)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		struct tp_sym s = { .start = syms[i].start, .size = syms[i].size,
				    .name = syms[i].name, .rank = (uint8_t)syms[i].rank };

		if (tp_symtab__add(t, &s))
			abort();
	}
	tp_symtab__finish(t, kind, 0x100);
}

/* the name at addr ("" if none) */
static const char *at(const struct tp_symtab *t, uint64_t addr)
{
	const struct tp_sym *s = tp_symtab__find(t, addr, -1);

	return s ? s->name : "";
}

static void expect_name(struct tcase *c, const struct tp_symtab *t, uint64_t addr,
			const char *want)
{
	char what[64];

	if (c->failed || !strcmp(want, at(t, addr)))
		return;
	c->failed = true;
	snprintf(what, sizeof(what), "the symbol at %#llx", (unsigned long long)addr);
	printf("[FAIL] %s: %s: expected '%s', got '%s'\n", c->name, what, want, at(t, addr));
}

static void test_elf_sizes(void)
{
	/* sysc's layout: _init (unsized, .init) then .plt, main sized, _fini unsized last */
	static const struct s syms[] = {
		{ 0x1070, 197, "main", TP_SYMRANK_GLOBAL },
		{ 0x1000, 0, "_init", TP_SYMRANK_GLOBAL },
		{ 0x1170, 0, "deregister_tm_clones", TP_SYMRANK_LOCAL },
		{ 0x128c, 0, "_fini", TP_SYMRANK_GLOBAL },
	};
	struct tcase c = case_begin("elf: unsized symbols reach the next one, across sections");
	struct tp_symtab t;

	build(&t, syms, ARRAY_SIZE(syms), TP_SYMTAB_ELF);
	expect_u64(&c, "symbols", 4, t.n);
	expect_name(&c, &t, 0x1050, "_init");	/* a .plt entry */
	expect_name(&c, &t, 0x106f, "_init");
	expect_name(&c, &t, 0x1070 + 196, "main");
	expect_name(&c, &t, 0x1070 + 197, "");	/* main has its own size */
	expect_name(&c, &t, 0x1200, "deregister_tm_clones");
	expect_name(&c, &t, 0x2fff, "_fini");	/* the last: to the end of the next page */
	expect_name(&c, &t, 0x3000, "");
	tp_symtab__exit(&t);
	case_end(&c);
}

static void test_elf_aliases(void)
{
	static const struct s syms[] = {
		/* a sized symbol beats unsized aliases, whatever the binding (an unsized one
		 * added last would get the room to 0x200, and with it a size) */
		{ 0x100, 0, "alias_a", TP_SYMRANK_GLOBAL },
		{ 0x100, 0, "alias_b", TP_SYMRANK_GLOBAL },
		{ 0x100, 16, "sized_local", TP_SYMRANK_LOCAL },
		/* all sized: not weak first, even over global names with fewer underscores */
		{ 0x200, 16, "weak_one", TP_SYMRANK_WEAK },
		{ 0x200, 16, "__local_one", TP_SYMRANK_LOCAL },
		/* global over local */
		{ 0x300, 16, "loc", TP_SYMRANK_LOCAL },
		{ 0x300, 16, "__glob", TP_SYMRANK_GLOBAL },
		/* fewer underscores, then the longer name, then the first */
		{ 0x400, 16, "__x", TP_SYMRANK_GLOBAL },
		{ 0x400, 16, "_xy", TP_SYMRANK_GLOBAL },
		{ 0x500, 16, "short", TP_SYMRANK_GLOBAL },
		{ 0x500, 16, "longer", TP_SYMRANK_GLOBAL },
		{ 0x600, 16, "first", TP_SYMRANK_GLOBAL },
		{ 0x600, 16, "secnd", TP_SYMRANK_GLOBAL },
		/* all unsized: the last one gets the room, so it wins */
		{ 0x700, 0, "early", TP_SYMRANK_GLOBAL },
		{ 0x700, 0, "__late", TP_SYMRANK_WEAK },
		{ 0x800, 16, "end", TP_SYMRANK_GLOBAL },
	};
	struct tcase c = case_begin("elf: aliases folded as perf's choose_best_symbol");
	struct tp_symtab t;

	build(&t, syms, ARRAY_SIZE(syms), TP_SYMTAB_ELF);
	expect_u64(&c, "symbols", 8, t.n);
	expect_name(&c, &t, 0x100, "sized_local");
	expect_name(&c, &t, 0x200, "__local_one");
	expect_name(&c, &t, 0x300, "__glob");
	expect_name(&c, &t, 0x400, "_xy");
	expect_name(&c, &t, 0x500, "longer");
	expect_name(&c, &t, 0x600, "first");
	expect_name(&c, &t, 0x7ff, "__late");
	tp_symtab__exit(&t);
	case_end(&c);
}

static void test_kallsyms(void)
{
	/* /proc/kallsyms order on this kind of kernel */
	static const struct s syms[] = {
		{ 0xffffffff81377d40, 0, "__ia32_sys_getppid", TP_SYMRANK_GLOBAL },
		{ 0xffffffff81377d40, 0, "__x64_sys_getppid", TP_SYMRANK_GLOBAL },
		{ 0xffffffff81377d60, 0, "next_fn", TP_SYMRANK_LOCAL },
		{ 0xffffffff821f4320, 0, "memcpy", TP_SYMRANK_GLOBAL },
		{ 0xffffffff821f4320, 0, "__pi_memcpy", TP_SYMRANK_GLOBAL },
		{ 0xffffffff821f4400, 0, "some_data", TP_SYMRANK_DATA },
	};
	struct tcase c = case_begin("kallsyms: the last of unsized aliases, as perf");
	struct tp_symtab t;

	build(&t, syms, ARRAY_SIZE(syms), TP_SYMTAB_KALLSYMS);
	expect_name(&c, &t, 0xffffffff81377d45, "__x64_sys_getppid");
	expect_name(&c, &t, 0xffffffff81377d60, "next_fn");
	expect_name(&c, &t, 0xffffffff821f4330, "__pi_memcpy");
	expect_name(&c, &t, 0xffffffff821f4400, "");	/* data is never a function */
	tp_symtab__exit(&t);
	case_end(&c);
}

static void add(struct tp_symtab *t, uint64_t start, const char *name)
{
	struct tp_sym s = { .start = start, .name = name, .rank = TP_SYMRANK_GLOBAL };

	if (tp_symtab__add(t, &s))
		abort();
}

/* A finished table that takes more symbols (the PLT's, plt.c) is sorted again on (start,
 * seq), where a folded survivor keeps the seq it was added with, above the new ones' or
 * below: the last in that order, not the last in the array, counts as sized. Starts that
 * differ in three bytes, added out of order. */
static void test_refinish(void)
{
	enum { N = 300 };
	static char names[3][N][8];
	struct tcase c = case_begin("elf: a finished table sorted again on (start, seq)");
	struct tp_symtab t = { 0 };
	uint64_t start[N];

	for (int i = 0; i < N; i++) {
		start[i] = 0x400000 + (uint64_t)((i * 7919) % N) * 0x10101;
		snprintf(names[0][i], sizeof(names[0][i]), "p%d", i);
		snprintf(names[1][i], sizeof(names[1][i]), "q%d", i);
		snprintf(names[2][i], sizeof(names[2][i]), "rr%d", i);
	}
	/* p (seq i) and q (seq N + i) at each start: q, the later, wins, keeps its seq and
	 * gets its room as a size */
	for (int i = 0; i < N; i++)
		add(&t, start[i], names[0][i]);
	for (int i = 0; i < N; i++)
		add(&t, start[i], names[1][i]);
	tp_symtab__finish(&t, TP_SYMTAB_ELF, 0);
	expect_u64(&c, "symbols after the first finish", N, t.n);
	/* rr at start[i] gets seq N + (N - 1 - i): above q's up to i = 149, below from 150.
	 * Last in the order, it counts as sized and its longer name beats q; else q, sized,
	 * beats it unsized */
	for (int i = N - 1; i >= 0; i--)
		add(&t, start[i], names[2][i]);
	tp_symtab__finish(&t, TP_SYMTAB_ELF, 0);
	expect_u64(&c, "symbols after the second", N, t.n);
	for (int i = 0; i < N; i++)
		expect_name(&c, &t, start[i], names[i < N / 2 ? 2 : 1][i]);
	tp_symtab__exit(&t);
	case_end(&c);
}

int main(void)
{
	test_elf_sizes();
	test_elf_aliases();
	test_kallsyms();
	test_refinish();
	return check_summary("test-symtab");
}
