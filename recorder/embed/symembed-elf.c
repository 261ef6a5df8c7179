/* SPDX-License-Identifier: MIT */
/* Embedded symbols of the hit user DSOs, read from their ELF symbol tables (symembed.h):
 * .symtab, else .dynsym, with pread and small buffers; with REC_EMBED_MINIDEBUGINFO the
 * .symtab of a MiniDebugInfo; the [vdso]'s from tinyperf's own image. */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/features.h"
#include "perfdata/plt.h"
#include "perfdata/elf-field.h"
#include "recorder/track/buildid.h"
#include "recorder/embed/symembed.h"
#include "recorder/embed/xz.h"

#define SYMBUF		8192u		/* bytes of symbols read at a time */
#define MAX_SEGS	16
#define VDSO_MAX	(1u << 20)
#define AT_SYSINFO_EHDR	33	/* the vdso's address, in the auxiliary vector: every arch */

#define SHT_SYMTAB	2
#define SHT_RELA	4
#define SHT_REL		9
#define SHT_DYNSYM	11
#define PT_LOAD		1
#define STT_FUNC	2
#define STT_GNU_IFUNC	10
#define EM_ARM		40
#define EM_MIPS		8
#define SHT_PROGBITS	1
#define NAME_ALT	(1u << 31)	/* a name in the MiniDebugInfo's string table */
#define NAME_PLT	(1u << 30)	/* "<symbol of .rel[a].plt entry N>@plt", N below */

/* per range: the nearest function symbol at or below its start, the next one above it */
struct egap {
	uint64_t p_addr, p_size, n_addr;
	uint32_t p_name;
	uint8_t p_rank;
	bool has_p;
};
_Static_assert(sizeof(struct egap) <= SYMEMBED_GAP_SIZE, "gap slot");

/* ---- ELF ---- */

struct elf {
	int fd;
	bool is64, be;
	uint16_t machine;
	uint64_t sym_off, sym_size, sym_ent, str_off, str_size;
	uint64_t plt_addr, plt_hdr, plt_ent, rel_off, rel_ent;	/* stubs: plt_setup() */
	uint32_t plt_nr, sym_ndx;
	uint64_t gdd_off, gdd_size;	/* .gnu_debugdata (REC_EMBED_MINIDEBUGINFO), 0: none */
	uint8_t src;
	const uint8_t *mem;		/* the file in memory (MiniDebugInfo), else NULL: read fd */
	uint64_t mem_len;
	const struct elf *alt;		/* MiniDebugInfo read along: names with NAME_ALT are its */
	uint32_t tag;			/* NAME_ALT on the names of a second table read */
	unsigned nr_segs;
	struct { uint64_t vaddr, off, filesz; } seg[MAX_SEGS];
};

/* a field that is 8 bytes at o64 in ELF64 and 4 bytes at o32 in ELF32 */
static TP_NOINLINE uint64_t word(const struct elf *x, const uint8_t *p, unsigned o64, unsigned o32)
{
	return x->is64 ? tp_elf_get(p + o64, 8, x->be) : tp_elf_get(p + o32, 4, x->be);
}

static long elf_pread(const struct elf *x, void *buf, size_t len, uint64_t off)
{
	if (!x->mem)
		return sys_pread(x->fd, buf, len, off);
	if (off >= x->mem_len)
		return 0;
	len = (size_t)TP_MIN((uint64_t)len, x->mem_len - off);
	memcpy(buf, x->mem + off, len);
	return (long)len;
}

static int rd(const struct elf *x, void *buf, size_t len, uint64_t off)
{
	long n = elf_pread(x, buf, len, off);

	return n == (long)len ? 0 : n < 0 ? (int)n : -TP_ENOEXEC;
}

/* ---- sections ---- */

struct esec {
	uint64_t addr, off, size, entsize;
	uint32_t type, link;
};

/* a section header's fields */
static void sec_fields(const struct elf *x, const uint8_t *p, struct esec *out)
{
	out->type = (uint32_t)tp_elf_get(p + 4, 4, x->be);
	out->addr = word(x, p, 16, 12);
	out->off = word(x, p, 24, 16);
	out->size = word(x, p, 32, 20);
	out->link = (uint32_t)tp_elf_get(p + (x->is64 ? 40 : 24), 4, x->be);
	out->entsize = word(x, p, 56, 36);
}

/* whether section header p is called name (NUL included in len), names at shstr */
static bool sec_named(const struct elf *x, const uint8_t *p, uint64_t shstr, const char *name,
		      size_t len)
{
	char n[16];

	return elf_pread(x, n, len, shstr + tp_elf_get(p, 4, x->be)) == (long)len && !memcmp(n, name, len);
}

static void plt_setup(struct elf *x, const struct esec *plt, const struct esec *rel);

/* the header, the load segments, the best symbol table and its strings, with a .dynsym the
 * PLT's sections (plt_setup), and the MiniDebugInfo's section; buf: SYMBUF bytes, the program and section headers read in
 * as few preads as fit in it */
static int elf_open(struct elf *x, uint8_t *buf)
{
	uint64_t phoff, shoff, best = 0, link = 0, shstr = 0;
	unsigned phent, phnum, shent, shnum, per, shstrndx;
	struct esec plt = { 0 }, rel = { 0 };
	int err = rd(x, buf, 64, 0);

	if (err)
		return err;
	if (tp_elf_ident(buf, &x->is64, &x->be))
		return -TP_ENOEXEC;
	x->machine = (uint16_t)tp_elf_get(buf + 18, 2, x->be);
	phoff = word(x, buf, 32, 28);
	shoff = word(x, buf, 40, 32);
	phent = (unsigned)tp_elf_get(buf + (x->is64 ? 54 : 42), 2, x->be);
	phnum = (unsigned)tp_elf_get(buf + (x->is64 ? 56 : 44), 2, x->be);
	shent = (unsigned)tp_elf_get(buf + (x->is64 ? 58 : 46), 2, x->be);
	shnum = (unsigned)tp_elf_get(buf + (x->is64 ? 60 : 48), 2, x->be);
	shstrndx = (unsigned)tp_elf_get(buf + (x->is64 ? 62 : 50), 2, x->be);
	if (phent < (x->is64 ? 56u : 32u) || shent < (x->is64 ? 64u : 40u) ||
	    phent > SYMBUF / 64 * 2 || shent > SYMBUF / 64 * 2)
		return -TP_ENOEXEC;
	if (shstrndx < shnum && !rd(x, buf, shent, shoff + (uint64_t)shstrndx * shent))
		shstr = word(x, buf, 24, 16);	/* the section names (0: none) */
	phnum = TP_MIN(phnum, SYMBUF / phent);
	if (phnum && (err = rd(x, buf, (size_t)phnum * phent, phoff)))
		return err;
	for (unsigned i = 0; i < phnum && x->nr_segs < MAX_SEGS; i++) {
		uint8_t *p = buf + i * phent;

		if (tp_elf_get(p, 4, x->be) != PT_LOAD)
			continue;
		x->seg[x->nr_segs].off = word(x, p, 8, 4);
		x->seg[x->nr_segs].vaddr = word(x, p, 16, 8);
		x->seg[x->nr_segs++].filesz = word(x, p, 32, 16);
	}
	/* .symtab wins over .dynsym (it has the static functions too) */
	per = SYMBUF / shent;
	for (unsigned i = 0; i < shnum && best != SHT_SYMTAB; i++) {
		uint8_t *p = buf + i % per * shent;
		uint32_t type;

		if (i % per == 0 && rd(x, buf, (size_t)TP_MIN(per, shnum - i) * shent,
				       shoff + (uint64_t)i * shent))
			break;
		type = (uint32_t)tp_elf_get(p + 4, 4, x->be);
		if (shstr && type == SHT_PROGBITS && sec_named(x, p, shstr, ".plt", 5))
			sec_fields(x, p, &plt);
		else if (shstr && (type == SHT_RELA || type == SHT_REL) &&
			 (sec_named(x, p, shstr, ".rela.plt", 10) || sec_named(x, p, shstr, ".rel.plt", 9)))
			sec_fields(x, p, &rel);
		else if (IS_ENABLED(CONFIG_REC_EMBED_MINIDEBUGINFO) && shstr &&
			 type == SHT_PROGBITS && sec_named(x, p, shstr, ".gnu_debugdata", 15)) {
			x->gdd_off = word(x, p, 24, 16);
			x->gdd_size = word(x, p, 32, 20);
		}
		if (type != SHT_SYMTAB && type != SHT_DYNSYM)
			continue;
		best = type;
		x->sym_ndx = i;
		x->src = type == SHT_SYMTAB ? TP_SYMTAB_SRC_SYMTAB : TP_SYMTAB_SRC_DYNSYM;
		x->sym_off = word(x, p, 24, 16);
		x->sym_size = word(x, p, 32, 20);
		x->sym_ent = word(x, p, 56, 36);
		link = tp_elf_get(p + (x->is64 ? 40 : 24), 4, x->be);
	}
	if (!best || x->sym_ent < (x->is64 ? 24u : 16u) || x->sym_ent > SYMBUF)
		return -TP_ENODATA;
	if (rd(x, buf, x->is64 ? 64 : 40, shoff + link * shent))
		return -TP_ENOEXEC;
	x->str_off = word(x, buf, 24, 16);
	x->str_size = word(x, buf, 32, 20);
	if (plt.size && rel.size)
		plt_setup(x, &plt, &rel);
	return 0;
}

/* a symbol's value as a file offset, through the load segment that holds it */
static bool to_offset(const struct elf *x, uint64_t v, uint64_t *off)
{
	for (unsigned i = 0; i < x->nr_segs; i++)
		if (v >= x->seg[i].vaddr && v - x->seg[i].vaddr < x->seg[i].filesz) {
			*off = v - x->seg[i].vaddr + x->seg[i].off;
			return true;
		}
	return false;
}

/* up to len bytes of the string table from off (of the MiniDebugInfo's with NAME_ALT) */
static long elf_str(const struct elf *x, uint32_t off, char *buf, size_t len)
{
	if (off & NAME_ALT && x->alt) {
		x = x->alt;
		off &= ~NAME_ALT;
	}
	if (off >= x->str_size)
		return 0;
	return elf_pread(x, buf, (size_t)TP_MIN(x->str_size - off, (uint64_t)len), x->str_off + off);
}

/* the name at offset off of the string table (cut at 511 bytes; "" when unreadable): from
 * the window of it last read, else read with the 4 KiB that follow */
static const char *elf_name(struct symembed *e, const struct elf *x, uint32_t off)
{
	uint64_t at = off - e->name_off;
	long n;

	if (off >= e->name_off && at < e->name_len &&
	    memchr(e->name + at, 0, TP_MIN(e->name_len - at, 512u)))
		return e->name + at;
	n = elf_str(x, off, e->name, SYMEMBED_NAME_MAX - 1);
	e->name_off = off;
	e->name_len = n > 0 ? (uint32_t)n : 0;
	e->name[e->name_len] = '\0';
	if (strlen(e->name) > 511) {
		e->name[511] = '\0';
		e->name_len = 0;	/* the window is cut: read again next time */
	}
	return e->name;
}

/* one function symbol [a, a + size): kept if it overlaps a range; the gap slots learn it */
static void elf_sym(struct symembed *e, uint64_t a, uint64_t size, uint32_t name, char bind)
{
	struct egap *g = e->gaps;
	uint32_t i = symembed__gap_of(e, a);	/* lo[i - 1] < a <= lo[i] */
	uint8_t rank = symembed__rank(size != 0, bind, NULL);
	struct symembed_sel s = { a, size, name, 0, rank };

	/* it starts inside range i - 1, or (sized) reaches range i */
	if ((i && a < symembed__range_end(e, i - 1)) ||
	    (size && i < e->nr_lo && e->lo[i] <= a + size - 1))
		symembed__keep(e, &s);
	if (!g[i].has_p || a > g[i].p_addr || (a == g[i].p_addr && rank < g[i].p_rank))
		g[i] = (struct egap){ a, size, g[i].n_addr, name, rank, true };
	if (a < g[i].n_addr)
		g[i].n_addr = a;
}

/* after the pass: the unsized symbol each uncovered range falls in */
static void elf_unsized(struct symembed *e)
{
	struct egap *g = e->gaps, p = { 0 };
	uint64_t next = ~0ULL, kept = ~0ULL;

	/* the next symbol above each range: a suffix minimum over the later gaps */
	for (uint32_t i = e->nr_lo + 1; i-- > 0;) {
		uint64_t own = g[i].n_addr;

		g[i].n_addr = next;		/* now: the first start above lo[i] */
		next = TP_MIN(next, own);
	}
	for (uint32_t i = 0; i < e->nr_lo; i++) {
		if (g[i].has_p && (!p.has_p || g[i].p_addr >= p.p_addr))
			p = g[i];	/* the nearest at or below lo[i]: a prefix maximum */
		if (p.has_p && !p.p_size && p.p_addr != kept) {	/* once for a run of ranges */
			kept = p.p_addr;
			symembed__keep(e, &(struct symembed_sel){ p.p_addr, g[i].n_addr == ~0ULL ? 0 :
				       g[i].n_addr - p.p_addr, p.p_name, 0, p.p_rank });
		}
	}
}

static int read_syms(struct symembed *e, struct elf *x, uint8_t *buf)
{
	uint64_t per = SYMBUF / x->sym_ent, nr = x->sym_size / x->sym_ent;
	struct egap *g = e->gaps;
	bool thumb = x->machine == EM_ARM || x->machine == EM_MIPS;

	for (uint32_t i = 0; !x->tag && i <= e->nr_lo; i++)	/* (a second table adds) */
		g[i] = (struct egap){ .n_addr = ~0ULL };
	for (uint64_t done = 0; done < nr;) {
		uint64_t n = TP_MIN(per, nr - done);
		int err = rd(x, buf, (size_t)(n * x->sym_ent), x->sym_off + done * x->sym_ent);

		if (err)
			return err;
		for (uint64_t k = 0; k < n; k++) {
			const uint8_t *s = buf + k * x->sym_ent;
			uint8_t info = s[x->is64 ? 4 : 12];
			uint64_t v, size, off;

			if (((info & 15) != STT_FUNC && (info & 15) != STT_GNU_IFUNC) ||
			    !tp_elf_get(s + (x->is64 ? 6 : 14), 2, x->be))
				continue;	/* not a function, or undefined */
			v = word(x, s, 8, 4);
			size = word(x, s, 16, 8);
			if (thumb)
				v &= ~1ULL;	/* Thumb and MIPS16/microMIPS mark bit 0 */
			if (to_offset(x, v, &off))
				elf_sym(e, off, size, (uint32_t)tp_elf_get(s, 4, x->be) | x->tag, info >> 4 == 1 ? 'g' :
					info >> 4 == 2 ? 'w' : 'l');
		}
		done += n;
	}
	for (uint32_t k = 0; k < x->plt_nr; k++) {
		uint64_t off;

		if (to_offset(x, x->plt_addr + x->plt_hdr + k * x->plt_ent, &off))
			elf_sym(e, off, x->plt_ent, NAME_PLT | k, 'g');
	}
	if (!x->alt)	/* (after the second table) */
		elf_unsized(e);
	return 0;
}

static const char *plt_name(struct symembed *e, const struct elf *x, uint32_t n);

/* the names of an ELF block: its string table's (symembed__emit) */
static const char *elf_name_of(struct symembed *e, const void *x, uint32_t off)
{
	if ((off & (NAME_ALT | NAME_PLT)) == NAME_PLT)
		return plt_name(e, x, off & ~NAME_PLT);
	return elf_name(e, x, off);
}

/* the first sorted pair of DSO index d or above */
static uint32_t run_start(const struct symembed *e, uint32_t d)
{
	uint32_t lo = 0, hi = e->nr_ents;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (addrset_dso(e->as->tmp[mid]) < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}


/* ---- MiniDebugInfo ---- */

/* ---- PLT stubs ---- */

/* x's .dynsym is its table: its .plt's stubs are named as perf names them, "memcpy@plt" (""
 * for a slot without a symbol), one per .rela.plt (.rel.plt) entry over .plt laid out as
 * perf 6.1 assumes (perfdata/plt.h). (With a .symtab perf finds the unsized _init stretched
 * over .plt first, as elf_unsized does: no stubs then.) */
static void plt_setup(struct elf *x, const struct esec *plt, const struct esec *rel)
{
	bool rela = rel->type == SHT_RELA;

	if (x->src != TP_SYMTAB_SRC_DYNSYM || rel->link != x->sym_ndx ||
	    rel->entsize != (x->is64 ? 16u : 8u) + (rela ? (x->is64 ? 8u : 4u) : 0))
		return;
	tp_plt_layout(x->machine, plt->entsize, &x->plt_hdr, &x->plt_ent);
	if (!x->plt_ent || plt->size <= x->plt_hdr)
		return;
	x->plt_addr = plt->addr;
	x->rel_off = rel->off;
	x->rel_ent = rel->entsize;
	x->plt_nr = (uint32_t)TP_MIN(rel->size / rel->entsize,
				    TP_MIN((plt->size - x->plt_hdr) / x->plt_ent, (uint64_t)NAME_PLT - 1));
}

/* stub n's name: its relocation's symbol's, "@plt" added */
static const char *plt_name(struct symembed *e, const struct elf *x, uint32_t n)
{
	static char name[512 + 4];
	uint8_t b[24];
	uint64_t sym;
	const char *s = "";

	if (!rd(x, b, (size_t)x->rel_ent, x->rel_off + (uint64_t)n * x->rel_ent)) {
		sym = x->is64 ? tp_elf_get(b + 8, 8, x->be) >> 32 : tp_elf_get(b + 4, 4, x->be) >> 8;
		if (sym && sym < x->sym_size / x->sym_ent &&
		    !rd(x, b, 4, x->sym_off + sym * x->sym_ent))
			s = elf_name(e, x, (uint32_t)tp_elf_get(b, 4, x->be) & ~(NAME_ALT | NAME_PLT));
	}
	tp_snprintf(name, sizeof(name), "%s@plt", s);
	return name;
}

/* ---- MiniDebugInfo ---- */

static uint8_t *map(size_t size)
{
	long m = sys_mmap(NULL, size, TP_PROT_READ | TP_PROT_WRITE,
			  TP_MAP_PRIVATE | TP_MAP_ANONYMOUS | TP_MAP_NORESERVE, -1, 0);

	return m < 0 && m > -4096 ? NULL : (uint8_t *)m;
}

/* x has no .symtab: its MiniDebugInfo's .symtab (and its .dynsym, if any) into e->sel and
 * block b out; false, nothing kept, when there is none or it cannot be read. Memory: the
 * section and the ELF it decodes to (<= XZ_OUT_MAX each), mapped only meanwhile. */
static bool minidebug(struct symembed *e, struct elf *x, uint8_t *buf,
		      const struct tp_symtab_block *b)
{
	struct elf m = { .fd = -1, .tag = x->sym_ent ? NAME_ALT : 0 };
	uint64_t off, size;
	size_t out_size = 0, work;
	uint8_t *in, *out = NULL;
	long n;
	bool done = false;

	off = x->gdd_off;
	size = x->gdd_size;
	if (size < 32 || size > XZ_OUT_MAX ||
	    !(in = map((size_t)size)))
		return false;
	if (rd(x, in, (size_t)size, off) || (n = xz__size(in, (size_t)size)) <= 0)
		goto out_in;
	work = ((size_t)n + 7) & ~(size_t)7;
	out_size = work + sizeof(struct xz_work);
	if (!(out = map(out_size)))
		goto out_in;
	n = xz__decode((struct xz_work *)(out + work), in, (size_t)size, out, (size_t)n);
	sys_munmap(in, (size_t)size);
	in = NULL;
	m.mem = out;
	m.mem_len = n > 0 ? (uint64_t)n : 0;
	if (n <= 0 || elf_open(&m, buf) || m.src != TP_SYMTAB_SRC_SYMTAB)
		goto out_out;
	/* its symbols have the main file's link-time addresses: its load segments place them */
	memcpy(m.seg, x->seg, sizeof(m.seg));
	m.nr_segs = x->nr_segs;
	e->nr_sel = 0;
	if (m.tag)
		x->alt = &m;
	if ((!m.tag || !read_syms(e, x, buf)) && !read_syms(e, &m, buf)) {
		done = true;
		if (e->nr_sel)
			symembed__emit(e, b, &(struct symembed_names){ elf_name_of, m.tag ? x : &m });
	}
	e->nr_sel = 0;
	e->name_len = 0;
	x->alt = NULL;
out_out:
	sys_munmap(out, out_size);
out_in:
	if (in)
		sys_munmap(in, (size_t)size);
	return done;
}

/* [vdso]: the image the kernel maps into every process of this ABI, this one's included (the
 * build-id record/features.c gave is this image's): read in memory, as far as its section
 * headers, which end the image, or its last load segment reach */
static bool vdso_image(struct symembed *e, struct elf *x, uint8_t *buf)
{
	const uint8_t *p = (const uint8_t *)tp_getauxval(AT_SYSINFO_EHDR);
	uint64_t end;

	/* processes of the other word size (32-bit ones beside a 64-bit tinyperf, or the
	 * reverse) have another vdso, which the host cannot tell from this one without their
	 * binaries: then none gets embedded symbols */
	if (e->vdso_classes & (1u << ((uintptr_t)p >> 16 >> 16 == 0)))
		return false;
	if (!p || tp_elf_ident(p, &x->is64, &x->be))
		return false;
	end = (word(x, p, 40, 32)) +
	      tp_elf_get(p + (x->is64 ? 60 : 48), 2, x->be) * tp_elf_get(p + (x->is64 ? 58 : 46), 2, x->be);
	x->mem = p;
	x->mem_len = 4096;	/* the headers are in its first page */
	elf_open(x, buf);	/* its load segments, at least */
	for (unsigned i = 0; i < x->nr_segs; i++)
		end = TP_MAX(end, x->seg[i].off + x->seg[i].filesz);
	x->nr_segs = 0;		/* elf_open runs again, on the whole image */
	x->mem_len = TP_MIN(end, (uint64_t)VDSO_MAX);
	return end > 64;
}

void symembed__dso(struct symembed *e, const char *path, enum track_kind kind,
		   const uint8_t *id, uint8_t id_len, uint64_t hash)
{
	struct tp_symtab_block b = { .kind = TP_SYMTAB_USER, .name = path };
	struct elf x = { .fd = -1 };
	uint32_t d = 0, i;
	uint8_t hdr[SYMBUF];
	long fd;
	int err;

	if (kind == TRACK_KERNEL) {
		e->kernel_id_len = (uint8_t)TP_MIN(id_len, (uint8_t)sizeof(e->kernel_id));
		memcpy(e->kernel_id, id, e->kernel_id_len);
	}
	if (kind != TRACK_USER || (path[0] != '/' && strcmp(path, "[vdso]")) || path[1] == '/')
		return;		/* the kernel's come from kallsyms; "//anon" has none */
	while (d < e->dsos->nr && e->dsos->v[d].name != path)
		d++;
	/* its ranges: the run of the sorted pairs whose top bits are d + 1 */
	i = run_start(e, d);
	e->nr_lo = run_start(e, d + 1) - i;
	if (!e->nr_lo)
		return;
	e->shift = addrset_shift(e->as, d);
	symembed__place(e);
	for (uint32_t k = 0; k < e->nr_lo; k++)
		e->lo[k] = addrset_start(e->as, e->as->tmp[i + k]);
	if (path[0] == '[') {
		if (!vdso_image(e, &x, hdr))
			return;
	} else {
		fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0);
		if (fd < 0)
			return;
		x.fd = (int)fd;
	}
	e->name_len = 0;	/* another file's names */
	e->nr_sel = 0;
	err = elf_open(&x, hdr);
	/* no .symtab: MiniDebugInfo's, when built in and there */
	if (IS_ENABLED(CONFIG_REC_EMBED_MINIDEBUGINFO) &&
	    (err == -TP_ENODATA || (!err && x.src != TP_SYMTAB_SRC_SYMTAB))) {
		if (err)
			x.sym_ent = 0;	/* no .dynsym to read along */
		b.src = TP_SYMTAB_SRC_MINIDEBUGINFO;
		symembed__set_id(&b, id, id_len, hash);
		if (minidebug(e, &x, hdr, &b))
			err = 1;	/* its block is out */
	}
	if (!err && !read_syms(e, &x, hdr) && e->nr_sel) {
		b.src = x.src;
		symembed__set_id(&b, id, id_len, hash);
		symembed__emit(e, &b, &(struct symembed_names){ elf_name_of, &x });
	}
	if (x.fd >= 0)
		sys_close(x.fd);
}
