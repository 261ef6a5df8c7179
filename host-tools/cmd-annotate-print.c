/* SPDX-License-Identifier: MIT */
/* tinyperf annotate's listing, as perf annotate --stdio: per symbol a header, then each
 * instruction with its percent of the symbol's samples, source lines where the line
 * changes. A symbol whose binary was not verified gets one line on stderr instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-annotate.h"
#include "host-tools/lib/common/common.h"

struct printer {
	struct annotate *an;
	const char *path;
	struct tp_annsrc *src;
	struct tp_annelf *elf;		/* of DSO elf_dso */
	uint32_t elf_dso;
	bool *told;			/* by DSO id: its one line printed */
	uint32_t nr_done, nr_failed;
};

/* why a DSO has no binary to disassemble, or NULL when it has one */
static const char *no_binary(const struct tp_cdso *d, const struct tp_symdso_info *in)
{
	if (!d->sd || !in)
		return "no file was looked up for it";
	if (in->status != TP_SYMDSO_OK)
		return d->problem ? d->problem : in->status == TP_SYMDSO_MISMATCH ?
		       "no file with the recorded identity" : "its file was not found";
	if (in->embedded)	/* the host file's problem says more than "embedded" */
		return d->problem ? d->problem : "only the recording's embedded symbols name it";
	if (!in->elf_path)
		return d->kernel ? "symbols from a kallsyms file: no code to read" :
		       "no file with its code";
	return NULL;
}

/* the one line for a DSO whose symbols (sym, or NULL) cannot be annotated */
static void say_no_binary(struct printer *p, uint32_t dso, const char *sym, const char *why)
{
	const struct tp_cdso *d = tp_symcache__dso(p->an->cs.c, dso);

	p->nr_failed++;
	if (p->told[dso])
		return;
	p->told[dso] = true;
	fprintf(stderr, "tinyperf: annotate: %s%s%s%s: no verified binary to disassemble: %s: %s\n",
		sym ? sym : "", sym ? " (" : "", d->name, sym ? ")" : "", why, d->kernel ?
		"give the kernel that ran with --vmlinux, or its build-id cache with --buildid-dir" :
		"give the root it ran from with --sysroot, or keep it with tinyperf buildid-cache");
}

/* the address to ask the symbolizer about for vaddr: a user DSO's file offset, a kernel ip */
static bool lookup_addr(const struct printer *p, const struct tp_cdso *d,
			const struct tp_symdso_info *in, uint64_t vaddr, uint64_t *addr)
{
	if (d->kernel) {
		*addr = vaddr + (uint64_t)in->kernel_reloc;
		return true;
	}
	return !tp_annelf__offset(p->elf, vaddr, addr);
}

static void print_source(struct printer *p, const struct tp_symres *r)
{
	const char *text = tp_annsrc__line(p->src, r->file, r->line);

	if (p->an->print_line || !text)
		printf("         :\t%s:%u\n", r->file, r->line);
	if (text && !p->an->no_source)
		printf("         : %-4u %s\n", r->line, text);
}

/* " <sym+0x20>" after a jump or call to a named address */
static void print_target(struct printer *p, const struct tp_annsym *s, const struct tp_cdso *d,
			 const struct tp_symdso_info *in, const struct tp_insn *x, const char *name)
{
	const struct tp_symres *r = NULL;
	uint64_t addr, off;

	if (x->target >= s->start && x->target - s->start < s->size) {
		off = x->target - s->start;
	} else {
		if (lookup_addr(p, d, in, x->target, &addr))
			r = tp_symcache__where(p->an->cs.c, s->dso, addr);
		if (!r || !r->name)
			return;
		name = r->name;
		off = r->offset;
	}
	if (off)
		printf(" <%s+%#" PRIx64 ">", name, off);
	else
		printf(" <%s>", name);
}

static void print_insns(struct printer *p, const struct tp_annsym *s, const struct tp_cdso *d,
			const struct tp_symdso_info *in, const struct tp_insns *ins, const char *name)
{
	const char *last_file = NULL;
	unsigned last_line = 0;

	for (uint32_t i = 0; i < ins->nr; i++) {
		const struct tp_insn *x = &ins->v[i];
		uint64_t w = tp_annsym__weight(s, x->addr), addr;
		const struct tp_symres *r = NULL;

		if ((!p->an->no_source || p->an->print_line) && lookup_addr(p, d, in, x->addr, &addr))
			r = tp_symcache__where(p->an->cs.c, s->dso, addr);
		if (r && r->file && r->line && (r->line != last_line || !last_file ||
						strcmp(r->file, last_file))) {
			print_source(p, r);
			last_file = r->file;
			last_line = r->line;
		}
		printf("%8.2f :   %4" PRIx64 ":   ",
		       s->total ? 100.0 * (double)w / (double)s->total : 0.0, x->addr);
		printf(x->ops[0] ? "%-6s %s" : "%s", x->mnemonic, x->ops);
		if (x->has_target)
			print_target(p, s, d, in, x, name);
		putchar('\n');
	}
}

static int print_sym(struct printer *p, struct tp_annsym *s)
{
	struct cmd_sym *cs = &p->an->cs;
	const struct tp_cdso *d = tp_symcache__dso(cs->c, s->dso);
	const struct tp_symdso_info *in = d->sd ? tp_symdso__info(d->sd) : NULL;
	const struct tp_csym *sym = tp_symcache__sym(cs->c, s->sym);
	const char *why = no_binary(d, in);
	struct tp_insns ins = { 0 };
	char evbuf[64], head[512];
	uint64_t size = s->size;
	int err, n;

	if (why) {
		say_no_binary(p, s->dso, sym->name, why);
		return 0;
	}
	if (!p->elf || p->elf_dso != s->dso) {
		tp_annelf__close(p->elf);
		p->elf = NULL;
		err = tp_annelf__open(&p->elf, in->elf_path, in->sym_path);
		if (err == -TP_ERR_NOMEM)
			return err;
		if (err) {
			char why[512];

			snprintf(why, sizeof(why), "cannot read %s: %s", in->elf_path,
				 tp_strerror(err));
			say_no_binary(p, s->dso, sym->name, why);
			return 0;
		}
		p->elf_dso = s->dso;
	}
	tp_annsym__to_vaddr(s, p->elf, !d->kernel, d->kernel ? in->kernel_reloc : 0);
	/* an unsized symbol (hand-written assembly): up to its last sample */
	if (!size && s->nr_hits && s->hits[s->nr_hits - 1].addr >= s->start)
		size = s->hits[s->nr_hits - 1].addr - s->start + 16;
	err = tp_annelf__disasm(p->elf, s->start, size, false, &ins);
	if (err) {
		tp_insns__release(&ins);
		p->nr_failed++;
		fprintf(stderr, "tinyperf: annotate: %s: cannot disassemble %s at %#" PRIx64 ": %s\n",
			sym->name, in->elf_path, s->start, err == -ENOEXEC ?
			"not a machine Capstone decodes here" : err == -ENOSYS ?
			"this tinyperf was built without Capstone (make host HOST_CAPSTONE=n)" :
			tp_strerror(err));
		return err == -TP_ERR_NOMEM ? err : 0;
	}
	n = snprintf(head, sizeof(head), " Percent |\tSource code & Disassembly of %s for %s (%"
		     PRIu64 " samples, percent: local period)", d->short_name,
		     cmd_sym__event_name(tp_reader__attr(p->an->ci.r, s->attr), evbuf,
					 sizeof(evbuf)), s->nr_samples);
	printf("%s\n", head);
	for (int i = 0; i < n + 7 && i < (int)sizeof(head) + 7; i++)	/* the tab: 8 columns */
		putchar('-');
	printf("\n         :\t%0*" PRIx64 " <%s>:\n", p->elf && tp_annelf__arch(p->elf)[0] &&
	       (strstr(tp_annelf__arch(p->elf), "64")) ? 16 : 8, s->start, sym->name);
	print_insns(p, s, d, in, &ins, sym->name);
	tp_insns__release(&ins);
	p->nr_done++;
	return 0;
}

/* Samples a DSO's symbols could not name because its binary is not the one that ran:
 * each such DSO gets its line; for named symbols none of which was found, only the DSO
 * with the most of them (where the symbols most likely are); none when they were found */
static void say_unresolved(struct printer *p)
{
	struct annotate *an = p->an;
	uint32_t best = 0;

	for (uint32_t dso = 1; dso < an->nr_unresolved; dso++) {
		const struct tp_cdso *d = tp_symcache__dso(an->cs.c, dso);
		const char *why = d->sd ? no_binary(d, tp_symdso__info(d->sd)) : NULL;

		if (!an->unresolved[dso] || !why || (an->named && an->hits.nr_syms))
			continue;
		if (!an->named)
			say_no_binary(p, dso, NULL, why);
		else if (!best || an->unresolved[dso] > an->unresolved[best])
			best = dso;
	}
	if (best)
		say_no_binary(p, best, NULL, no_binary(tp_symcache__dso(an->cs.c, best),
						      tp_symdso__info(tp_symcache__dso(an->cs.c,
										       best)->sd)));
}

int annotate__print(struct annotate *an, const char *path)
{
	struct printer p = { .an = an, .path = path };
	struct tp_annhits *h = &an->hits;
	int err = 0;

	p.told = calloc(tp_symcache__nr_dsos(an->cs.c) + 1, sizeof(*p.told));
	if (!p.told || tp_annsrc__new(&p.src)) {
		free(p.told);
		return cmd_input__fail(&an->ci, -TP_ERR_NOMEM);
	}
	for (uint32_t i = 0; !err && i < h->nr_syms; i++) {
		if (an->percent_limit > 0 && h->total &&
		    100.0 * (double)h->syms[i].total / (double)h->total < an->percent_limit)
			continue;
		err = print_sym(&p, &h->syms[i]);
	}
	if (!err)
		say_unresolved(&p);
	tp_annelf__close(p.elf);
	tp_annsrc__delete(p.src);
	free(p.told);
	if (err)
		return cmd_input__fail(&an->ci, err);
	if (!h->nr_syms && !p.nr_failed)
		fprintf(stderr, "tinyperf: annotate: %s: no samples in %s: see tinyperf report "
			"for where they went\n", an->ci.name,
			an->named ? "the symbols asked for" : "a named symbol");
	/* the symbols not annotated each had their DSO's line */
	return !p.nr_done || (an->named && p.nr_failed) ? 1 : 0;
}
