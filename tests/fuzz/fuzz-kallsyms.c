/* SPDX-License-Identifier: MIT */
/* libFuzzer target for kallsyms text (host-tools/lib/sym/kallsyms.c): the input parsed from
 * memory and every symbol looked up at its first and last byte, then the same text as the
 * symbolizer reads it for `tinyperf report --kallsyms FILE`: the kernel and a module named in
 * it loaded, addresses resolved through the _text relocation. That file read lazily
 * (tp_kallsyms__open) must find, at every symbol's first and last byte, what the whole table
 * finds. */
#include "tests/fuzz/fuzz.h"

#include "host-tools/lib/sym/kallsyms.h"
#include "host-tools/lib/sym/symbolizer.h"

static void symbolize(const char *path, const struct tp_kallsyms *k)
{
	struct tp_symconf conf = { .sysroot = fuzz_dir(), .buildid_dir = "", .offline = true,
				   .kallsyms = path, .log = fuzz_log };
	struct tp_symbolizer *sym = tp_symbolizer__new(&conf);
	struct tp_symdso *kernel, *mod;
	const struct tp_symres *res;

	if (!sym)
		abort();
	/* relocated by 0x1000 when the text has a _text */
	if (!tp_symbolizer__kernel(sym, "6.1.0-fuzz", NULL, 0, "_text",
				   k->has_ref ? k->ref_addr + 0x1000 : 0, &kernel)) {
		for (size_t i = 0; i < k->tab.n && i < 64; i++)
			if (!tp_symbolizer__lookup(sym, kernel, k->tab.syms[i].start + 0x1000, &res) &&
			    res->name)
				sink += res->offset + strlen(res->name);
		if (k->n_modules > 1 && !tp_symbolizer__kmodule(sym, k->modules[1], &mod))
			for (size_t i = 0; i < k->tab.n && i < 64; i++)
				if (!tp_symbolizer__lookup(sym, mod, k->tab.syms[i].start, &res))
					sink += res->offset;
	}
	tp_symbolizer__delete(sym);
}

/* the lazy reading finds what the whole table finds, or the fuzzer stops there */
static void same(const struct tp_kallsyms *k, const struct tp_kallsyms *lazy, uint64_t addr,
		 long module)
{
	const struct tp_sym *a = tp_kallsyms__find(k, addr, module);
	const struct tp_sym *b = tp_kallsyms__find(lazy, addr, module);

	if (!a != !b || (a && (a->start != b->start || a->size != b->size ||
			       strcmp(a->name, b->name))))
		abort();
}

static void compare_lazy(const char *path, const struct tp_kallsyms *k)
{
	struct tp_kallsyms lazy;
	int err = tp_kallsyms__open(&lazy, path, "_text");

	if (err == -TP_ERR_NOMEM)
		return;
	if (err || lazy.n_syms != k->n_syms || lazy.n_bad != k->n_bad ||
	    lazy.has_ref != k->has_ref || lazy.ref_addr != k->ref_addr ||
	    lazy.n_modules != k->n_modules)
		abort();
	for (size_t i = 0; i < k->tab.n && i < 256; i++) {
		const struct tp_sym *s = &k->tab.syms[i];

		same(k, &lazy, s->start, -1);
		same(k, &lazy, s->start + s->size - 1, (long)s->module);
		same(k, &lazy, s->start - 1, -1);
	}
	tp_kallsyms__exit(&lazy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[300];
	struct tp_kallsyms k;

	memset(&k, 0, sizeof(k));
	if (tp_kallsyms__parse(&k, (const char *)data, size, "_text"))
		return 0;
	for (size_t i = 0; i < k.tab.n; i++) {
		const struct tp_sym *s = &k.tab.syms[i], *f;

		f = tp_symtab__find(&k.tab, s->start, s->module);
		if (f)
			sink += strlen(f->name);
		if (s->size && tp_symtab__find(&k.tab, s->start + s->size - 1, s->module))
			sink++;
	}
	for (size_t i = 1; i < k.n_modules; i++)
		if (tp_kallsyms__module(&k, k.modules[i]) < 0)
			abort();
	if (!path[0])
		snprintf(path, sizeof(path), "%s/kallsyms", fuzz_dir());
	fuzz_write(path, data, size);
	compare_lazy(path, &k);
	symbolize(path, &k);
	tp_kallsyms__exit(&k);
	return 0;
}
