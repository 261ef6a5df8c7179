/* SPDX-License-Identifier: MIT */
/* The binary to disassemble: its loadable segments (file offsets to addresses and back, the
 * bytes at an address) and, on ARM, the mapping symbols that say where code is Thumb. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/annotate/internal.h"
#include "host-tools/lib/common/common.h"

static int add_seg(struct tp_annelf *e, uint64_t vaddr, uint64_t offset, uint64_t filesz)
{
	if (tp_grow((void **)&e->segs, &e->cap_segs, e->nr_segs + 1, sizeof(*e->segs)))
		return -TP_ERR_NOMEM;
	e->segs[e->nr_segs++] = (struct annelf_seg){ vaddr, offset, filesz };
	return 0;
}

/* PT_LOAD segments; a file without them (a relocatable object) by its allocated sections */
static int read_segments(struct tp_annelf *e)
{
	size_t n = 0;
	Elf_Scn *scn = NULL;

	if (!elf_getphdrnum(e->elf, &n)) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !ph.p_filesz)
				continue;
			if (add_seg(e, ph.p_vaddr, ph.p_offset, ph.p_filesz))
				return -TP_ERR_NOMEM;
		}
	}
	if (e->nr_segs)
		return 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		if (add_seg(e, sh.sh_addr, sh.sh_offset, sh.sh_size))
			return -TP_ERR_NOMEM;
	}
	return 0;
}

static bool is_map_symbol(const char *name, bool aarch64)
{
	if (!name || name[0] != '$' || !strchr(aarch64 ? "xd" : "atd", name[1]) || !name[1])
		return false;
	return name[2] == '\0' || name[2] == '.';
}

/* the mapping symbols and Thumb function starts of one symbol table */
static int read_symtab(struct tp_annelf *e, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	bool aarch64 = e->machine == EM_AARCH64;
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 1; d && i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (GELF_ST_TYPE(s.st_info) == STT_NOTYPE && is_map_symbol(name, aarch64)) {
			if (tp_grow((void **)&e->maps, &e->cap_maps, e->nr_maps + 1,
				    sizeof(*e->maps)))
				return -TP_ERR_NOMEM;
			e->maps[e->nr_maps++] = (struct annelf_map){ s.st_value, name[1] };
		} else if (!aarch64 && GELF_ST_TYPE(s.st_info) == STT_FUNC && (s.st_value & 1)) {
			if (tp_grow((void **)&e->thumb_funcs, &e->cap_thumb_funcs,
				    e->nr_thumb_funcs + 1, sizeof(*e->thumb_funcs)))
				return -TP_ERR_NOMEM;
			e->thumb_funcs[e->nr_thumb_funcs++] = s.st_value & ~1ULL;
		}
	}
	return 0;
}

/* both tables of elf; *had_symtab: it has a .symtab */
static int read_symbols(struct tp_annelf *e, Elf *elf, bool *had_symtab)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB &&
						sh.sh_type != SHT_DYNSYM))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			*had_symtab = true;
		err = read_symtab(e, elf, scn, &sh);
	}
	return err;
}

static int cmp_map(const void *a, const void *b)
{
	const struct annelf_map *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* mapping symbols from the binary, else from the file the symbols came from */
static int read_arm_symbols(struct tp_annelf *e, const char *sym_path)
{
	bool had_symtab = false;
	int err = read_symbols(e, e->elf, &had_symtab);

	if (!err && !had_symtab && sym_path) {
		int fd = open(sym_path, O_RDONLY | O_CLOEXEC);
		Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);

		if (elf && elf_kind(elf) == ELF_K_ELF)
			err = read_symbols(e, elf, &had_symtab);
		if (elf)
			elf_end(elf);
		if (fd >= 0)
			close(fd);
	}
	if (err)
		return err;
	if (e->nr_maps)
		qsort(e->maps, e->nr_maps, sizeof(*e->maps), cmp_map);
	if (e->nr_thumb_funcs)
		qsort(e->thumb_funcs, e->nr_thumb_funcs, sizeof(*e->thumb_funcs), cmp_u64);
	return 0;
}

int tp_annelf__open(struct tp_annelf **out, const char *elf_path, const char *sym_path)
{
	struct tp_annelf *e;
	GElf_Ehdr eh;
	int err;

	*out = NULL;
	if (!elf_path)
		return -TP_ERR_INVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -TP_ERR_NOMEM;
	elf_version(EV_CURRENT);
	e->fd = open(elf_path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0) {
		err = -errno;
		goto out_free;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &eh)) {
		err = -ENOEXEC;
		goto out_close;
	}
	e->machine = eh.e_machine;
	e->flags = eh.e_flags;
	e->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	e->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	err = read_segments(e);
	if (!err && (e->machine == EM_ARM || e->machine == EM_AARCH64))
		err = read_arm_symbols(e, sym_path && strcmp(sym_path, elf_path) ? sym_path : NULL);
	if (err)
		goto out_close;
	*out = e;
	return 0;
out_close:
	tp_annelf__close(e);
	return err;
out_free:
	free(e);
	return err;
}

void tp_annelf__close(struct tp_annelf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->segs);
	free(e->maps);
	free(e->thumb_funcs);
	free(e);
}

/* through the segment holding x: a file offset to an address (to_vaddr) or back */
static int translate(const struct tp_annelf *e, uint64_t x, bool to_vaddr, uint64_t *out)
{
	for (uint32_t i = 0; i < e->nr_segs; i++) {
		const struct annelf_seg *s = &e->segs[i];
		uint64_t from = to_vaddr ? s->offset : s->vaddr, to = to_vaddr ? s->vaddr : s->offset;

		if (x >= from && x - from < s->filesz) {
			*out = x - from + to;
			return 0;
		}
	}
	return -ERANGE;
}

int tp_annelf__vaddr(const struct tp_annelf *e, uint64_t off, uint64_t *vaddr)
{
	return translate(e, off, true, vaddr);
}

int tp_annelf__offset(const struct tp_annelf *e, uint64_t vaddr, uint64_t *off)
{
	return translate(e, vaddr, false, off);
}

const uint8_t *annelf_bytes(struct tp_annelf *e, uint64_t vaddr, uint64_t *size)
{
	for (uint32_t i = 0; i < e->nr_segs; i++) {
		const struct annelf_seg *s = &e->segs[i];
		Elf_Data *d;

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz)
			continue;
		if (*size > s->filesz - (vaddr - s->vaddr))
			*size = s->filesz - (vaddr - s->vaddr);
		d = elf_getdata_rawchunk(e->elf, (int64_t)(s->offset + (vaddr - s->vaddr)), *size,
					 ELF_T_BYTE);
		return d && d->d_size == *size ? d->d_buf : NULL;
	}
	return NULL;
}

char annelf_map_at(const struct tp_annelf *e, uint64_t addr, uint64_t *next)
{
	uint32_t at = 0, n = e->nr_maps;

	/* at: how many mapping symbols are at or below addr (halving what is left to see) */
	while (n) {
		uint32_t half = n / 2;

		if (e->maps[at + half].addr <= addr) {
			at += half + 1;
			n -= half + 1;
		} else {
			n = half;
		}
	}
	*next = at < e->nr_maps ? e->maps[at].addr : UINT64_MAX;
	return at ? e->maps[at - 1].kind : '\0';
}

bool annelf_thumb_func(const struct tp_annelf *e, uint64_t addr)
{
	return e->nr_thumb_funcs && bsearch(&addr, e->thumb_funcs, e->nr_thumb_funcs,
					    sizeof(*e->thumb_funcs), cmp_u64);
}

const char *tp_annelf__arch(const struct tp_annelf *e)
{
	switch (e->machine) {
	case EM_X86_64: return "x86_64";
	case EM_386: return "i386";
	case EM_ARM: return e->big_endian ? "arm (big-endian)" : "arm";
	case EM_AARCH64: return e->big_endian ? "aarch64 (big-endian)" : "aarch64";
	case EM_MIPS:
		if (e->is64)
			return e->big_endian ? "mips64 (big-endian)" : "mips64el";
		return e->big_endian ? "mips (big-endian)" : "mipsel";
	default: return "unknown";
	}
}
