/* SPDX-License-Identifier: MIT */
/* ELF files without DWARF (elfslim.h): a verbatim prefix, the trailing non-DWARF sections
 * repacked, a new section header table; either byte order, 32 or 64 bits (libelf reads the
 * headers and translates the new table to the file's representation). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/archive/elfslim.h"
#include "host-tools/lib/common/common.h"

/* .debug_frame stays: it is an unwind table (the only one of MIPS code, which GCC builds
 * without .eh_frame), small, and what the host unwinder needs from an archived binary */
static bool is_dwarf(const char *name)
{
	if (name && (!strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame")))
		return false;
	return name && (!strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8) ||
			!strncmp(name, ".gnu.debuglto_", 14));
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* whether [off, off + len) ends past end, computed without a sum that can wrap (a size near
 * 2^64 wrapped past it: found by fuzz-elf) */
static bool past(uint64_t off, uint64_t len, uint64_t end)
{
	return off > end || len > end - off;
}

/* e_shoff in the file's byte order, at its place in the ELF header */
static void put_shoff(uint8_t *img, bool is64, bool msb, uint64_t v)
{
	size_t off = is64 ? 0x28 : 0x20, n = is64 ? 8 : 4;

	for (size_t i = 0; i < n; i++)
		img[off + (msb ? n - 1 - i : i)] = (uint8_t)(v >> (8 * i));
}

/* the new section header table at out + pos, in the file's representation */
static int put_shdrs(Elf *elf, const GElf_Shdr *sh, size_t n, bool is64, uint8_t *out)
{
	size_t one = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	void *mem = calloc(n, one);
	Elf_Data src = { .d_buf = mem, .d_type = ELF_T_SHDR, .d_size = n * one,
			 .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = out, .d_size = n * one, .d_version = EV_CURRENT };
	int ok;

	if (!mem)
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		if (is64) {
			((Elf64_Shdr *)mem)[i] = sh[i];
			continue;
		}
		Elf32_Shdr *s = &((Elf32_Shdr *)mem)[i];

		s->sh_name = sh[i].sh_name;
		s->sh_type = sh[i].sh_type;
		s->sh_flags = (Elf32_Word)sh[i].sh_flags;
		s->sh_addr = (Elf32_Addr)sh[i].sh_addr;
		s->sh_offset = (Elf32_Off)sh[i].sh_offset;
		s->sh_size = (Elf32_Word)sh[i].sh_size;
		s->sh_link = sh[i].sh_link;
		s->sh_info = sh[i].sh_info;
		s->sh_addralign = (Elf32_Word)sh[i].sh_addralign;
		s->sh_entsize = (Elf32_Word)sh[i].sh_entsize;
	}
	ok = gelf_xlatetof(elf, &dst, &src, elf_getident(elf, NULL)[EI_DATA]) != NULL;
	free(mem);
	return ok ? 0 : -TP_ERR_IO;
}

static int slim(Elf *elf, const uint8_t *img, size_t size, uint8_t **out, size_t *len)
{
	GElf_Ehdr eh;
	GElf_Shdr *sh = NULL;
	size_t n, shstrndx, phnum, one, cap;
	uint64_t cut = UINT64_MAX, pos, *orig = NULL;
	bool is64, msb;
	uint8_t *o = NULL;
	int err = 1;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &n) || n < 2 ||
	    elf_getshdrstrndx(elf, &shstrndx) || elf_getphdrnum(elf, &phnum))
		return 1;
	is64 = gelf_getclass(elf) == ELFCLASS64;
	msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	one = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (n > size / one || eh.e_shnum == 0)
		return 1;	/* extended numbering: leave it alone */
	sh = calloc(n, sizeof(*sh));
	if (!sh)
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);

		if (!scn || !gelf_getshdr(scn, &sh[i]))
			goto out;
		if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_size &&
		    is_dwarf(elf_strptr(elf, shstrndx, sh[i].sh_name)) && sh[i].sh_offset < cut)
			cut = sh[i].sh_offset;
	}
	if (cut == UINT64_MAX || cut > size || eh.e_phoff + (uint64_t)phnum * eh.e_phentsize > cut)
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		/* a debug file's segments keep their sizes but not their bytes: only the ones
		 * with content must lie before the cut */
		if (!gelf_getphdr(elf, (int)i, &ph) ||
		    (ph.p_filesz && past(ph.p_offset, ph.p_filesz, cut)))
			goto out;
	}
	for (size_t i = 1; i < n; i++)
		if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_type != SHT_NOBITS && sh[i].sh_size &&
		    past(sh[i].sh_offset, sh[i].sh_size, cut))
			goto out;
	cap = size + one * n + 64;
	o = malloc(cap);
	orig = malloc(n * sizeof(*orig));
	if (!o || !orig) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		orig[i] = sh[i].sh_type == SHT_NOBITS || sh[i].sh_offset < cut ? UINT64_MAX :
			  sh[i].sh_offset;
	memcpy(o, img, cut);
	pos = cut;
	/* the sections after the cut, in file order: DWARF becomes NOBITS, the rest moves up */
	for (;;) {
		size_t next = 0;

		for (size_t i = 1; i < n; i++)
			if (orig[i] != UINT64_MAX && (!next || orig[i] < orig[next]))
				next = i;
		if (!next)
			break;
		orig[next] = UINT64_MAX;	/* placed */
		if (past(sh[next].sh_offset, sh[next].sh_size, size)) {
			err = 1;
			goto out;
		}
		if (is_dwarf(elf_strptr(elf, shstrndx, sh[next].sh_name))) {
			sh[next].sh_type = SHT_NOBITS;
			sh[next].sh_offset = pos;
			continue;
		}
		if (sh[next].sh_addralign > cap) {
			err = 1;
			goto out;
		}
		pos = align_up(pos, sh[next].sh_addralign);
		if (past(pos, sh[next].sh_size, cap) ||
		    cap - pos - sh[next].sh_size < one * n + 8) {
			err = 1;
			goto out;
		}
		memcpy(o + pos, img + sh[next].sh_offset, sh[next].sh_size);
		sh[next].sh_offset = pos;
		pos += sh[next].sh_size;
	}
	pos = align_up(pos, is64 ? 8 : 4);
	err = put_shdrs(elf, sh, n, is64, o + pos);
	if (err)
		goto out;
	put_shoff(o, is64, msb, pos);
	*out = o;
	*len = pos + n * one;
	o = NULL;
out:
	free(o);
	free(orig);
	free(sh);
	return err;
}

int tp_elfslim(const char *path, uint8_t **out, size_t *len, const struct tp_log *log)
{
	struct stat st;
	void *img = MAP_FAILED;
	Elf *elf = NULL;
	int fd, err = 1;

	*out = NULL;
	*len = 0;
	fd = tp_fs__open_regular(path, &st);
	if (fd < 0) {
		tp_log__error(log, "cannot read %s: %s", path, tp_strerror(fd));
		return fd;
	}
	if (st.st_size > 64 && (uint64_t)st.st_size < SIZE_MAX / 2)
		img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return 1;
	elf_version(EV_CURRENT);
	elf = elf_memory(img, (size_t)st.st_size);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		err = slim(elf, img, (size_t)st.st_size, out, len);
	elf_end(elf);
	munmap(img, (size_t)st.st_size);
	return err;
}
