/* SPDX-License-Identifier: MIT */
/* For the unwinder's tests (test-unwind.c, tests/fuzz/fuzz-unwind.c): CFI written byte by
 * byte (a CIE and FDEs of .eh_frame, with pc-relative sdata4 addresses) and an ELF image of any
 * of the six targets holding it as its .eh_frame section (and a given .eh_frame_hdr), for
 * tp_uwtab__from_mem(). */
#ifndef TINYPERF_TESTS_UNIT_UW_IMAGE_H
#define TINYPERF_TESTS_UNIT_UW_IMAGE_H

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct uwbuf {
	uint8_t b[4096];
	size_t n;
	bool be;
};

static inline void uw_put(struct uwbuf *w, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size && w->n < sizeof(w->b); i++)
		w->b[w->n++] = (uint8_t)(v >> (8 * (w->be ? size - 1 - i : i)));
}

static inline void uw_bytes(struct uwbuf *w, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n && w->n < sizeof(w->b); i++)
		w->b[w->n++] = p[i];
}

static inline void uw_set32(struct uwbuf *w, size_t at, uint32_t v)
{
	size_t n = w->n;

	w->n = at;
	uw_put(w, v, 4);
	w->n = n;
}

/* a CIE, at the current end: augmentation "zR" (FDE addresses pcrel sdata4), code alignment
 * 1, the given data alignment and return-address column, then its initial instructions;
 * returns its offset */
static inline size_t uw_cie(struct uwbuf *w, int daf, unsigned ra, const uint8_t *ins,
			    size_t n_ins)
{
	size_t at = w->n;

	uw_put(w, 0, 4);		/* length, set below */
	uw_put(w, 0, 4);		/* CIE id */
	uw_put(w, 1, 1);		/* version */
	uw_bytes(w, (const uint8_t *)"zR", 3);
	uw_put(w, 1, 1);		/* code alignment */
	uw_put(w, (uint8_t)(daf & 0x7f), 1);	/* data alignment, a one-byte sleb128 */
	uw_put(w, ra, 1);
	uw_put(w, 1, 1);		/* augmentation data length */
	uw_put(w, 0x1b, 1);		/* DW_EH_PE_pcrel | DW_EH_PE_sdata4 */
	uw_bytes(w, ins, n_ins);
	while ((w->n - at) % 4)
		uw_put(w, 0, 1);	/* DW_CFA_nop */
	uw_set32(w, at, (uint32_t)(w->n - at - 4));
	return at;
}

/* an FDE of the CIE at cie for [pc, pc + len), the section being at addr */
static inline void uw_fde(struct uwbuf *w, size_t cie, uint64_t addr, uint64_t pc, uint32_t len,
			  const uint8_t *ins, size_t n_ins)
{
	size_t at = w->n;

	uw_put(w, 0, 4);
	uw_put(w, (uint32_t)(w->n - cie), 4);	/* back to the CIE */
	uw_put(w, (uint32_t)(pc - (addr + w->n)), 4);
	uw_put(w, len, 4);
	uw_put(w, 0, 1);		/* augmentation data length */
	uw_bytes(w, ins, n_ins);
	while ((w->n - at) % 4)
		uw_put(w, 0, 1);
	uw_set32(w, at, (uint32_t)(w->n - at - 4));
}

/* A malloc'ed ELF (ET_EXEC; machine, 32/64-bit, byte order) whose sections are .eh_frame with
 * the given bytes at addr and, when hdr is not NULL, .eh_frame_hdr with hdr_size bytes at
 * hdr_addr: before .eh_frame in the section table when hdr_first (as linkers place it),
 * after it otherwise; one PT_LOAD segment maps file offset 0 at 0. */
static inline uint8_t *uw_image_hdr(unsigned machine, bool is64, bool be, const uint8_t *eh,
				    size_t eh_size, uint64_t addr, const uint8_t *hdr,
				    size_t hdr_size, uint64_t hdr_addr, bool hdr_first, size_t *size)
{
	static const char strtab[] = "\0.shstrtab\0.eh_frame\0.eh_frame_hdr";
	struct uwbuf *w = calloc(1, sizeof(*w));
	size_t ehsz = is64 ? 64 : 52, phsz = is64 ? 56 : 32, shsz = is64 ? 64 : 40;
	size_t data = ehsz + phsz, hd = data + eh_size, str = hd + (hdr ? hdr_size : 0);
	size_t sh = (str + sizeof(strtab) + 7) & ~7ul;
	unsigned nsec = hdr ? 4 : 3;
	uint8_t *img;
	unsigned a = is64 ? 8 : 4;

	if (!w)
		return NULL;
	*size = sh + nsec * shsz;
	img = calloc(1, *size);
	if (!img) {
		free(w);
		free(img);
		return NULL;
	}
	w->be = be;
	uw_bytes(w, (const uint8_t *)ELFMAG, SELFMAG);
	uw_put(w, is64 ? ELFCLASS64 : ELFCLASS32, 1);
	uw_put(w, be ? ELFDATA2MSB : ELFDATA2LSB, 1);
	uw_put(w, EV_CURRENT, 1);
	w->n = 16;
	uw_put(w, ET_EXEC, 2);
	uw_put(w, machine, 2);
	uw_put(w, EV_CURRENT, 4);
	uw_put(w, 0, a);		/* e_entry */
	uw_put(w, ehsz, a);		/* e_phoff */
	uw_put(w, sh, a);		/* e_shoff */
	uw_put(w, 0, 4);		/* e_flags */
	uw_put(w, ehsz, 2);
	uw_put(w, phsz, 2);
	uw_put(w, 1, 2);
	uw_put(w, shsz, 2);
	uw_put(w, nsec, 2);
	uw_put(w, 2, 2);		/* e_shstrndx */
	/* the PT_LOAD */
	uw_put(w, PT_LOAD, 4);
	if (is64)
		uw_put(w, PF_R | PF_X, 4);
	uw_put(w, 0, a);		/* p_offset */
	uw_put(w, 0, a);		/* p_vaddr */
	uw_put(w, 0, a);		/* p_paddr */
	uw_put(w, 0x100000, a);		/* p_filesz */
	uw_put(w, 0x100000, a);		/* p_memsz */
	if (!is64)
		uw_put(w, PF_R | PF_X, 4);
	uw_put(w, 0x1000, a);		/* p_align */
	memcpy(img, w->b, w->n);
	memcpy(img + data, eh, eh_size);
	if (hdr)
		memcpy(img + hd, hdr, hdr_size);
	memcpy(img + str, strtab, sizeof(strtab));
	for (unsigned k = 1; k < nsec; k++) {
		/* s: 1 .eh_frame, 2 .shstrtab, 3 .eh_frame_hdr; section k holds s */
		static const unsigned name[] = { 0, 11, 1, 21 };
		unsigned s = hdr && hdr_first && k != 2 ? 4 - k : k;
		bool str_s = s == 2;

		w->n = 0;
		uw_put(w, name[s], 4);	/* sh_name */
		uw_put(w, str_s ? SHT_STRTAB : SHT_PROGBITS, 4);
		uw_put(w, str_s ? 0 : SHF_ALLOC, a);
		uw_put(w, s == 1 ? addr : s == 3 ? hdr_addr : 0, a);
		uw_put(w, s == 1 ? data : s == 3 ? hd : str, a);
		uw_put(w, s == 1 ? eh_size : s == 3 ? hdr_size : sizeof(strtab), a);
		uw_put(w, 0, 4);
		uw_put(w, 0, 4);
		uw_put(w, str_s ? 1 : s == 1 ? a : 4, a);
		uw_put(w, 0, a);
		memcpy(img + sh + k * shsz, w->b, w->n);
	}
	free(w);
	return img;
}

/* the same with .eh_frame alone */
static inline uint8_t *uw_image(unsigned machine, bool is64, bool be, const uint8_t *eh,
				size_t eh_size, uint64_t addr, size_t *size)
{
	return uw_image_hdr(machine, is64, be, eh, eh_size, addr, NULL, 0, 0, false, size);
}

#endif
