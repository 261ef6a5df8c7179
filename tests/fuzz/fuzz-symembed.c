/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the embedded-symbol section (TP_FEAT_SYMTAB): the host's decoder
 * (host-tools/lib/data/symembed.c, with perfdata/symtab.c's checks) and the symbolizer using
 * what it decoded, as `tinyperf report` does for a DSO the host has no file of: every block is
 * looked up by its identity, then every symbol's first and last byte resolved. The first byte
 * of the input says the byte order (bit 0: swapped); the rest is the section. */
#include "tests/fuzz/fuzz.h"

#include "host-tools/lib/data/symembed.h"
#include "host-tools/lib/sym/symbolizer.h"

static void resolve(struct tp_symbolizer *sym, struct tp_symdso *dso, const struct tp_embdso *d)
{
	const struct tp_symres *res;

	for (uint32_t i = 0; i < d->b.nr_syms && i < 64; i++) {
		uint64_t a = d->syms[i].addr;

		if (!tp_symbolizer__lookup(sym, dso, a, &res) && res->name)
			sink += strlen(res->name) + res->offset;
		if (d->syms[i].size &&
		    !tp_symbolizer__lookup(sym, dso, a + d->syms[i].size - 1, &res) && res->name)
			sink += res->offset;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_symconf conf = { .sysroot = fuzz_dir(), .buildid_dir = "", .offline = true,
				   .log = fuzz_log };
	struct tp_symbolizer *sym;
	struct tp_embsyms *e;
	struct tp_symdso *kernel = NULL;
	const char *why;
	uint32_t nr_blocks;
	uint64_t nr_syms;

	if (size < 1)
		return 0;
	if (!tp_symtab_validate(data + 1, size - 1, data[0] & 1, &nr_blocks, &nr_syms, &why))
		sink += nr_blocks + nr_syms;
	if (tp_embsyms__parse(data + 1, size - 1, data[0] & 1, &e, &why))
		return 0;
	conf.embedded = e;
	sym = tp_symbolizer__new(&conf);
	if (!sym)
		abort();
	for (uint32_t i = 0; i < e->nr_dsos && i < 16; i++) {
		const struct tp_embdso *d = &e->dsos[i];
		struct tp_symdso *dso = NULL;
		uint64_t hash = d->b.id_type == TP_SYMTAB_ID_TEXT_HASH ? d->b.text_hash : 0;
		size_t id_len = d->b.id_type == TP_SYMTAB_ID_BUILD_ID ? d->b.id_len : 0;

		sink += strlen(tp_embsrc_str(d->b.src));
		if (tp_embsyms__find(e, d->b.kind, d->b.name, d->b.id, id_len, hash) == NULL)
			abort();	/* a block is found by its own identity */
		if (d->b.kind == TP_SYMTAB_USER) {
			if (tp_symbolizer__dso(sym, d->b.name, d->b.id, id_len, hash, &dso))
				continue;
		} else if (d->b.kind == TP_SYMTAB_KERNEL) {
			if (!kernel && tp_symbolizer__kernel(sym, "6.1.0-fuzz", d->b.id, id_len,
							     NULL, 0, &kernel))
				continue;
			dso = kernel;
		} else {
			if (!kernel && tp_symbolizer__kernel(sym, "6.1.0-fuzz", NULL, 0, NULL, 0,
							     &kernel))
				continue;
			if (tp_symbolizer__kmodule(sym, d->b.name, &dso))
				continue;
		}
		sink += tp_symdso__info(dso)->n_syms;
		resolve(sym, dso, d);
	}
	tp_symbolizer__delete(sym);
	tp_embsyms__free(e);
	return 0;
}
