/* SPDX-License-Identifier: MIT */
/* Embedded symbols decoded for the symbolizer (symembed.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/feature-ops.h"
#include "host-tools/lib/data/symembed.h"

const char *tp_embsrc_str(uint8_t src)
{
	switch (src) {
	case TP_SYMTAB_SRC_SYMTAB: return "symtab";
	case TP_SYMTAB_SRC_DYNSYM: return "dynsym";
	case TP_SYMTAB_SRC_MINIDEBUGINFO: return "minidebuginfo";
	case TP_SYMTAB_SRC_KALLSYMS: return "kallsyms";
	}
	return "unknown";
}

void tp_embsyms__free(struct tp_embsyms *e)
{
	if (!e)
		return;
	free(e->dsos);
	free(e->all);
	free(e);
}

int tp_embsyms__parse(const void *data, size_t size, bool swap, struct tp_embsyms **out,
		      const char **why)
{
	struct tp_symtab_dec d;
	struct tp_embsyms *e;
	uint32_t nr_blocks, i = 0;
	uint64_t nr_syms, k = 0;
	int r;

	*out = NULL;
	/* a first pass checks everything and counts, so the second cannot fail */
	if (tp_symtab_validate(data, size, swap, &nr_blocks, &nr_syms, why))
		return -TP_ERR_BAD_FEATURE;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -TP_ERR_NOMEM;
	e->dsos = calloc(nr_blocks ? nr_blocks : 1, sizeof(*e->dsos));
	e->all = nr_syms <= SIZE_MAX / sizeof(*e->all) ?
		 calloc(nr_syms ? nr_syms : 1, sizeof(*e->all)) : NULL;
	if (!e->dsos || !e->all) {
		tp_embsyms__free(e);
		return -TP_ERR_NOMEM;
	}
	tp_symtab_dec__init(&d, data, size, swap);
	e->shift = d.shift;
	e->flags = d.flags;
	while ((r = tp_symtab_dec__block(&d, &e->dsos[i].b)) == 1) {
		struct tp_symtab_sym s;

		e->dsos[i].syms = e->all + k;
		while (tp_symtab_dec__sym(&d, &s) == 1)
			e->all[k++] = (struct tp_embsym){ s.addr, s.size, s.name };
		i++;
	}
	e->nr_dsos = i;
	e->nr_syms = k;
	*out = e;
	return 0;
}

static bool id_equal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;

	if (!alen || !blen || memcmp(a, b, n))
		return false;
	for (size_t i = n; i < alen; i++)
		if (a[i])
			return false;
	for (size_t i = n; i < blen; i++)
		if (b[i])
			return false;
	return true;
}

const struct tp_embdso *tp_embsyms__find(const struct tp_embsyms *e, int kind, const char *name,
					 const uint8_t *build_id, size_t build_id_len,
					 uint64_t text_hash)
{
	for (uint32_t i = 0; e && i < e->nr_dsos; i++) {
		const struct tp_symtab_block *b = &e->dsos[i].b;

		if (b->kind != kind || strcmp(b->name, name))
			continue;
		switch (b->id_type) {
		case TP_SYMTAB_ID_BUILD_ID:
			if (id_equal(b->id, b->id_len, build_id, build_id_len))
				return &e->dsos[i];
			break;
		case TP_SYMTAB_ID_TEXT_HASH:
			if (!build_id_len && text_hash && b->text_hash == text_hash)
				return &e->dsos[i];
			break;
		default:
			if (!build_id_len && !text_hash)
				return &e->dsos[i];
		}
	}
	return NULL;
}

/* tinyperf header: a summary line, then one line per DSO */
void tp_feature_print_symtab(const struct tp_features *f, uint32_t id,
			     const struct tp_printer *out)
{
	const struct tp_embsyms *e = f->embsyms;
	char hex[2 * TP_SYMTAB_ID_MAX + 1];

	(void)id;
	if (!e)
		return;
	if (e->shift)
		tp_printer__printf(out, "# embedded symbols : %u DSOs, %llu symbols, covering the "
				   "sampled addresses (the busiest DSOs' in ranges of up to %llu "
				   "bytes)%s", e->nr_dsos,
				   (unsigned long long)e->nr_syms, 1ULL << (e->shift < 64 ? e->shift : 63),
				   e->flags & TP_SYMTAB_F_INCOMPLETE ? " (incomplete: size cap)" : "");
	else
		tp_printer__printf(out, "# embedded symbols : %u DSOs, %llu symbols, covering the "
				   "sampled addresses%s", e->nr_dsos, (unsigned long long)e->nr_syms,
				   e->flags & TP_SYMTAB_F_INCOMPLETE ? " (incomplete: size cap)" : "");
	for (uint32_t i = 0; i < e->nr_dsos; i++) {
		const struct tp_symtab_block *b = &e->dsos[i].b;

		if (b->id_type == TP_SYMTAB_ID_TEXT_HASH)
			snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)b->text_hash);
		else
			tp_build_id_hex(b->id, b->id_len, hex);
		tp_printer__printf(out, "#   %s: %u symbols from its %s%s%s", b->name, b->nr_syms,
				   tp_embsrc_str(b->src),
				   b->id_type == TP_SYMTAB_ID_BUILD_ID ? ", build-id " :
				   b->id_type == TP_SYMTAB_ID_TEXT_HASH ? ", text hash " : "", hex);
	}
}
