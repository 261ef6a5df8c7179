/* SPDX-License-Identifier: MIT */
/* One binary's unwind tables, opened once: libdw's CFI readers over .eh_frame and
 * .debug_frame (of the file or of its separate debug file), the raw ARM EHABI sections, and
 * the PT_LOAD segments that turn a file offset into a link-time address. For a target libdw
 * 0.188 has no ABI rules for (MIPS: its CFI reader then refuses every lookup), libdw reads a
 * small ELF image holding just the frame sections, labelled as a 32-bit ARM file so that its
 * generic CIE start-up applies; the rules themselves come from the CIEs and FDEs, and the
 * stepping loop treats a register without a rule as keeping its value. */
#define _GNU_SOURCE		/* O_CLOEXEC */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/unwind/internal.h"

/* the section's bytes if it is in the file (not NOBITS) and not empty */
static Elf_Data *scn_bytes(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = tp_elf_section(elf, name, sh);
	Elf_Data *d;

	if (!scn || sh->sh_type == SHT_NOBITS || !sh->sh_size)
		return NULL;
	d = elf_rawdata(scn, NULL);
	return d && d->d_buf && d->d_size ? d : NULL;
}

static void put(uint8_t *p, uint64_t v, unsigned n, bool be)
{
	for (unsigned i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* An ELF32 image (see the top of this file) of the named sections of elf that exist, at
 * their addresses: the malloc'ed image or NULL (none of them, or no memory). */
static void *frame_image(Elf *elf, const char *const *names, size_t n, bool be, size_t *size)
{
	static const char strtab[] = "\0.shstrtab\0.eh_frame_hdr\0.eh_frame\0.debug_frame";
	Elf_Data *d[3];
	GElf_Shdr sh[3];
	size_t off = 52, nsec = 0, shoff, total;
	uint8_t *img;

	for (size_t i = 0; i < n; i++) {
		d[i] = scn_bytes(elf, names[i], &sh[i]);
		if (d[i]) {
			nsec++;
			off += (d[i]->d_size + 3) & ~(size_t)3;
		}
	}
	if (!nsec)
		return NULL;
	shoff = (off + sizeof(strtab) + 3) & ~(size_t)3;
	total = shoff + 40 * (nsec + 2);
	img = calloc(1, total);
	if (!img)
		return NULL;
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = ELFCLASS32;
	img[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;
	put(img + 16, ET_DYN, 2, be);
	put(img + 18, EM_ARM, 2, be);
	put(img + 20, EV_CURRENT, 4, be);
	put(img + 32, shoff, 4, be);
	put(img + 40, 52, 2, be);		/* e_ehsize */
	put(img + 46, 40, 2, be);		/* e_shentsize */
	put(img + 48, nsec + 2, 2, be);		/* e_shnum */
	put(img + 50, nsec + 1, 2, be);		/* e_shstrndx: the last one */
	off = 52;
	for (size_t i = 0, k = 1; i < n; i++) {
		uint8_t *s = img + shoff + 40 * k;

		if (!d[i])
			continue;
		memcpy(img + off, d[i]->d_buf, d[i]->d_size);
		/* the name's own entry: ".eh_frame" is also the tail of ".eh_frame_hdr" */
		for (size_t o = 1; o < sizeof(strtab); o += strlen(strtab + o) + 1)
			if (!strcmp(strtab + o, names[i]))
				put(s, o, 4, be);
		put(s + 4, SHT_PROGBITS, 4, be);
		put(s + 8, sh[i].sh_flags & SHF_ALLOC, 4, be);
		put(s + 12, sh[i].sh_addr, 4, be);
		put(s + 16, off, 4, be);
		put(s + 20, d[i]->d_size, 4, be);
		put(s + 32, 4, 4, be);		/* sh_addralign */
		off += (d[i]->d_size + 3) & ~(size_t)3;
		k++;
	}
	memcpy(img + off, strtab, sizeof(strtab));
	put(img + shoff + 40 * (nsec + 1), 1, 4, be);
	put(img + shoff + 40 * (nsec + 1) + 4, SHT_STRTAB, 4, be);
	put(img + shoff + 40 * (nsec + 1) + 16, off, 4, be);
	put(img + shoff + 40 * (nsec + 1) + 20, sizeof(strtab), 4, be);
	*size = total;
	return img;
}

static int load_segments(struct tp_uwtab *t)
{
	size_t n;

	if (elf_getphdrnum(t->elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		void *p;

		if (!gelf_getphdr(t->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		p = realloc(t->segs, (t->n_segs + 1) * sizeof(*t->segs));
		if (!p)
			return -TP_ERR_NOMEM;
		t->segs = p;
		t->segs[t->n_segs++] = (struct tp_uwseg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

static bool has_scn(Elf *elf, const char *name)
{
	GElf_Shdr sh;

	return scn_bytes(elf, name, &sh) != NULL;
}

/* where .eh_frame_hdr and .eh_frame are in the section table: -1 when either name is on more
 * than one section (libdw versions differ in which they take, so no check can be sure to
 * cover the one libdw runs), 1 when the one .eh_frame_hdr comes before the one .eh_frame (the
 * linkers' order, and the only one in which libdw 0.188 uses the header's search table: it
 * takes the last .eh_frame_hdr met before the first .eh_frame), else 0 */
static int eh_layout(Elf *elf)
{
	size_t shstrndx, hdr_at = 0, eh_at = 0, n_hdr = 0, n_eh = 0, i = 0;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) :
							 NULL;

		i++;
		if (n && !strcmp(n, ".eh_frame_hdr") && !n_hdr++)
			hdr_at = i;
		else if (n && !strcmp(n, ".eh_frame") && !n_eh++)
			eh_at = i;
	}
	if (n_hdr > 1 || n_eh > 1)
		return -1;
	return n_hdr && n_eh && hdr_at < eh_at;
}

/* libdw over the frame sections of the file, the ways that work for the arch */
static int load_cfi(struct tp_uwtab *t)
{
	static const char *const eh_names[] = { ".eh_frame" };	/* no header: see below */
	static const char *const df_names[] = { ".debug_frame" };
	Elf *df_elf = has_scn(t->elf, ".debug_frame") ? t->elf :
		      t->dbg_elf && has_scn(t->dbg_elf, ".debug_frame") ? t->dbg_elf : NULL;
	GElf_Shdr sh, hsh;
	Elf_Data *eh = scn_bytes(t->elf, ".eh_frame", &sh);
	Elf_Data *hdr = eh && !t->arch->no_abi ? scn_bytes(t->elf, ".eh_frame_hdr", &hsh) : NULL;
	int layout = eh ? eh_layout(t->elf) : 0;

	/* a table libdw could not run within bounds is not used (cfiscan.c). Where libdw
	 * searches an .eh_frame_hdr table, it reads the FDE at whatever offset the table gives
	 * (past a zero terminator, inside another FDE), which no walk of the section sees: then
	 * only the per-FDE check of the usual table, in the place where libdw uses it, lets
	 * libdw have .eh_frame. Without a table libdw walks the section as tp_uwcfi__sane()
	 * does; the images of no_abi arches carry no header for that reason (their addresses
	 * are the image's). */
	if (hdr && layout > 0)
		t->eh_lazy = tp_uwcfi__lazy(t->elf, eh, sh.sh_addr, hdr, hsh.sh_addr);
	if (eh && (layout < 0 || (!t->eh_lazy && hdr && tp_uwcfi__hdr_table(hdr)) ||
		   (!t->eh_lazy && !tp_uwcfi__sane(t->elf, eh, true))))
		t->eh_refused = true;
	if (df_elf && !tp_uwcfi__sane(df_elf, scn_bytes(df_elf, ".debug_frame", &sh), false))
		df_elf = NULL;

	if (!t->arch->no_abi) {
		if (has_scn(t->elf, ".eh_frame") && !t->eh_refused)
			t->eh = dwarf_getcfi_elf(t->elf);
		if (df_elf && (t->dwarf = dwarf_begin_elf(df_elf, DWARF_C_READ, NULL)))
			t->df = dwarf_getcfi(t->dwarf);
		return 0;
	}
	for (int k = 0; k < 2; k++) {
		Elf *from = k ? df_elf : t->eh_refused ? NULL : t->elf;
		size_t size = 0;

		if (!from)
			continue;
		t->img[k] = k ? frame_image(from, df_names, 1, t->arch->big_endian, &size) :
				frame_image(from, eh_names, 1, t->arch->big_endian, &size);
		if (!t->img[k])
			continue;
		t->img_elf[k] = elf_memory(t->img[k], size);
		if (!t->img_elf[k])
			continue;
		if (!k) {
			t->eh = dwarf_getcfi_elf(t->img_elf[k]);
		} else if ((t->dwarf = dwarf_begin_elf(t->img_elf[k], DWARF_C_READ, NULL))) {
			t->df = dwarf_getcfi(t->dwarf);
		}
	}
	return 0;
}

static void load_ehabi(struct tp_uwtab *t)
{
	GElf_Shdr sx, st;
	Elf_Data *x, *e;

	if (t->arch->machine != EM_ARM)
		return;
	x = scn_bytes(t->elf, ".ARM.exidx", &sx);
	if (!x)
		return;
	e = scn_bytes(t->elf, ".ARM.extab", &st);
	t->ehabi = (struct tp_ehabi_tables){
		.exidx = x->d_buf, .exidx_size = x->d_size, .exidx_addr = sx.sh_addr,
		.extab = e ? e->d_buf : NULL, .extab_size = e ? e->d_size : 0,
		.extab_addr = e ? st.sh_addr : 0, .big_endian = t->arch->big_endian,
	};
}

static int setup(struct tp_uwtab *t)
{
	GElf_Ehdr eh;
	int err;

	if (!gelf_getehdr(t->elf, &eh))
		return -TP_ERR_INVAL;
	t->arch = tp_uwarch__of_elf(eh.e_machine, eh.e_ident[EI_CLASS],
				    eh.e_ident[EI_DATA] == ELFDATA2MSB);
	if (!t->arch)
		return -TP_ERR_INVAL;
	err = load_segments(t);
	if (!err)
		err = load_cfi(t);
	if (!err)
		load_ehabi(t);
	return err;
}

static struct tp_uwtab *alloc_tab(void)
{
	struct tp_uwtab *t = calloc(1, sizeof(*t));

	if (t)
		t->fd = t->dbg_fd = -1;
	return t;
}

int tp_uwtab__open(struct tp_uwtab **out, const char *elf_path, const char *debug_path)
{
	struct tp_uwtab *t = alloc_tab();
	int err;

	*out = NULL;
	if (!t)
		return -TP_ERR_NOMEM;
	elf_version(EV_CURRENT);
	t->fd = open(elf_path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		err = -errno;
		goto fail;
	}
	t->elf = elf_begin(t->fd, ELF_C_READ_MMAP, NULL);
	if (!t->elf || elf_kind(t->elf) != ELF_K_ELF) {
		err = -TP_ERR_INVAL;
		goto fail;
	}
	if (debug_path && (t->dbg_fd = open(debug_path, O_RDONLY | O_CLOEXEC)) >= 0) {
		t->dbg_elf = elf_begin(t->dbg_fd, ELF_C_READ_MMAP, NULL);
		if (t->dbg_elf && elf_kind(t->dbg_elf) != ELF_K_ELF) {
			elf_end(t->dbg_elf);
			t->dbg_elf = NULL;
		}
	}
	err = setup(t);
	if (err)
		goto fail;
	/* the files are mapped whole: no descriptor stays open per binary (a system-wide
	 * recording reaches hundreds) */
	if (t->dbg_elf && !elf_cntl(t->dbg_elf, ELF_C_FDDONE)) {
		close(t->dbg_fd);
		t->dbg_fd = -1;
	}
	if (!elf_cntl(t->elf, ELF_C_FDDONE)) {
		close(t->fd);
		t->fd = -1;
	}
	*out = t;
	return 0;
fail:
	tp_uwtab__delete(t);
	return err;
}

int tp_uwtab__from_mem(struct tp_uwtab **out, void *image, size_t size)
{
	struct tp_uwtab *t = alloc_tab();
	int err;

	*out = NULL;
	if (!t)
		return -TP_ERR_NOMEM;
	elf_version(EV_CURRENT);
	t->elf = elf_memory(image, size);
	if (!t->elf || elf_kind(t->elf) != ELF_K_ELF) {
		tp_uwtab__delete(t);
		return -TP_ERR_INVAL;
	}
	err = setup(t);
	if (err) {
		tp_uwtab__delete(t);
		return err;
	}
	*out = t;
	return 0;
}

void tp_uwtab__delete(struct tp_uwtab *t)
{
	if (!t)
		return;
	tp_uwrow__drop(t);
	free(t->eh_lazy);
	/* a CFI of dwarf_getcfi() belongs to its Dwarf; one of dwarf_getcfi_elf() to us */
	if (t->eh)
		dwarf_cfi_end(t->eh);
	if (t->dwarf)
		dwarf_end(t->dwarf);
	for (int k = 0; k < 2; k++) {
		if (t->img_elf[k])
			elf_end(t->img_elf[k]);
		free(t->img[k]);
	}
	if (t->dbg_elf)
		elf_end(t->dbg_elf);
	if (t->elf)
		elf_end(t->elf);
	if (t->dbg_fd >= 0)
		close(t->dbg_fd);
	if (t->fd >= 0)
		close(t->fd);
	free(t->segs);
	free(t);
}

const struct tp_uwarch *tp_uwtab__arch(const struct tp_uwtab *t)
{
	return t->arch;
}

int tp_uwtab__vaddr(const struct tp_uwtab *t, uint64_t off, uint64_t *vaddr)
{
	uint64_t lo, hi;

	return tp_uwtab__seg(t, off, vaddr, &lo, &hi);
}

int tp_uwtab__seg(const struct tp_uwtab *t, uint64_t off, uint64_t *vaddr, uint64_t *lo,
		  uint64_t *hi)
{
	for (size_t i = 0; i < t->n_segs; i++) {
		const struct tp_uwseg *g = &t->segs[i];

		if (off < g->off || off - g->off >= g->filesz)
			continue;
		*vaddr = off - g->off + g->vaddr;
		/* the segment, less what an earlier one (which does not hold off) takes */
		*lo = g->off;
		*hi = g->off + g->filesz < g->off ? UINT64_MAX : g->off + g->filesz;
		for (size_t j = 0; j < i; j++) {
			const struct tp_uwseg *e = &t->segs[j];
			uint64_t end = e->off + e->filesz < e->off ? UINT64_MAX : e->off + e->filesz;

			if (!e->filesz)
				continue;
			if (end <= off && end > *lo)
				*lo = end;
			else if (e->off > off && e->off < *hi)
				*hi = e->off;
		}
		return 0;
	}
	return -1;
}

unsigned tp_uwtab__kinds(const struct tp_uwtab *t)
{
	return (t->eh ? 1u : 0) | (t->df ? 2u : 0) | (t->ehabi.exidx ? 4u : 0);
}
