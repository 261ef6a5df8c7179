/* SPDX-License-Identifier: MIT */
/* A CFI section (.eh_frame, .debug_frame) checked once before libdw runs it: every register
 * its instructions name, and each CIE's return-address column, must be below
 * TP_UW_CFI_MAX_REG, and every instruction must be one we can walk. libdw 0.188 grows a
 * frame's register table to the highest register an executed instruction names, so a single
 * DW_CFA_offset_extended of register 2^24 in a hostile table made it ask for 285 MB (found by
 * the fuzz-unwind target); real tables name fewer than 300 (ARM's VFP registers at 256-287). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "host-tools/lib/unwind/internal.h"

#define TP_UW_CFI_MAX_REG	1024

static bool uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

static bool skip(const uint8_t **p, const uint8_t *end, uint64_t n)
{
	if ((uint64_t)(end - *p) < n)
		return false;
	*p += n;
	return true;
}

/* a register operand: read and bounded */
static bool reg(const uint8_t **p, const uint8_t *end)
{
	uint64_t r;

	return uleb(p, end, &r) && r < TP_UW_CFI_MAX_REG;
}

/* the instructions [p, end) */
static bool insns_ok(const uint8_t *p, const uint8_t *end)
{
	uint64_t x;

	while (p < end) {
		uint8_t op = *p++;
		bool ok;

		if (op >> 6 == 1 || op >> 6 == 3)	/* advance_loc, restore (6-bit register) */
			continue;
		/* offset (6-bit register), def_cfa_offset: a ULEB, nearly always of one byte */
		if (op >> 6 == 2 || op == 0x0e) {
			if (p < end && !(*p & 0x80))
				p++;
			else if (!uleb(&p, end, &x))
				return false;
			continue;
		}
		switch (op) {
		case 0x00: case 0x0a: case 0x0b:	/* nop, remember_state, restore_state */
		case 0x2d:		/* GNU_window_save, AArch64's negate_ra_state */
			ok = true;
			break;
		case 0x02: ok = skip(&p, end, 1); break;	/* advance_loc1 */
		case 0x03: ok = skip(&p, end, 2); break;	/* advance_loc2 */
		case 0x04: ok = skip(&p, end, 4); break;	/* advance_loc4 */
		case 0x1d: ok = skip(&p, end, 8); break;	/* MIPS_advance_loc8 */
		case 0x13: case 0x2e:		/* def_cfa_offset_sf, GNU_args_size */
			ok = uleb(&p, end, &x);		/* (an SLEB has the same extent) */
			break;
		case 0x0f:				/* def_cfa_expression */
			ok = uleb(&p, end, &x) && skip(&p, end, x);
			break;
		case 0x06: case 0x07: case 0x08: case 0x0d:
			/* restore_extended, undefined, same_value, def_cfa_register */
			ok = reg(&p, end);
			break;
		case 0x05: case 0x0c: case 0x11: case 0x12: case 0x14: case 0x15: case 0x2f:
			/* offset_extended(_sf), def_cfa(_sf), val_offset(_sf),
			 * GNU_negative_offset_extended: a register, then a LEB */
			ok = reg(&p, end) && uleb(&p, end, &x);
			break;
		case 0x09:				/* register: two registers */
			ok = reg(&p, end) && reg(&p, end);
			break;
		case 0x10: case 0x16:			/* expression, val_expression */
			ok = reg(&p, end) && uleb(&p, end, &x) && skip(&p, end, x);
			break;
		default:	/* set_loc (no compiler emits it; its operand is the FDE's
				 * pointer encoding) and anything unknown: not walked, refused */
			ok = false;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* bytes of a pointer in encoding ENC (DW_EH_PE_*): 0 for a LEB, -1 unknown */
static int enc_size(uint8_t enc, int addr)
{
	switch (enc & 0x0f) {
	case 0x00: return addr;			/* absptr */
	case 0x01: case 0x09: return 0;		/* uleb128, sleb128 */
	case 0x02: case 0x0a: return 2;
	case 0x03: case 0x0b: return 4;
	case 0x04: case 0x0c: return 8;
	default: return -1;
	}
}

static bool skip_ptr(const uint8_t **p, const uint8_t *end, uint8_t enc, int addr)
{
	int n = enc_size(enc, addr);
	uint64_t x;

	return n < 0 ? false : n ? skip(p, end, (uint64_t)n) : uleb(p, end, &x);
}

/* an FDE's instructions, past its location, range and augmentation data */
static bool fde_ok(const Dwarf_CIE *cie, const Dwarf_FDE *fde, bool eh, int addr)
{
	const uint8_t *p = fde->start, *end = fde->end;
	const uint8_t *ad = cie->augmentation_data;
	const uint8_t *ad_end = ad ? ad + cie->augmentation_data_size : NULL;
	const char *aug = cie->augmentation ? cie->augmentation : "";
	uint8_t renc = 0;	/* absptr: .debug_frame's, and .eh_frame's without 'R' */
	uint64_t n;

	if (eh && aug[0] == 'z') {
		for (const char *a = aug + 1; *a; a++) {
			if (*a == 'S' || *a == 'B')
				continue;
			if (!ad || ad >= ad_end)
				return false;
			if (*a == 'L') {
				ad++;
			} else if (*a == 'R') {
				renc = *ad++;
			} else if (*a == 'P') {
				uint8_t penc = *ad++;

				if (!skip_ptr(&ad, ad_end, penc, addr))
					return false;
			} else {
				return false;
			}
		}
	}
	if (!skip_ptr(&p, end, renc, addr) || !skip_ptr(&p, end, renc & 0x0f, addr))
		return false;
	if (aug[0] == 'z') {
		if (!uleb(&p, end, &n) || !skip(&p, end, n))
			return false;
	} else if (!skip(&p, end, cie->fde_augmentation_data_size)) {
		return false;
	}
	return insns_ok(p, end);
}

/* a CIE's own part: its return-address column and initial instructions */
static bool cie_ok(const Dwarf_CIE *cie)
{
	return cie->return_address_register < TP_UW_CFI_MAX_REG &&
	       insns_ok(cie->initial_instructions, cie->initial_instructions_end);
}

/* the CIEs that FDEs name, read and checked once each (most FDEs of a binary share one or
 * two, where reading the CIE again for every FDE was a fifth of the scan) */
#define CIE_SLOTS	8

struct cie_memo {
	Dwarf_Off off;
	bool used, ok;
	Dwarf_CIE cie;			/* its pointers are into the section's data */
};

/* the CIE at off, when it is one and sane, else NULL */
static const Dwarf_CIE *cie_at(const unsigned char *ident, Elf_Data *data, bool eh,
			       Dwarf_Off off, struct cie_memo *memo)
{
	struct cie_memo *m = &memo[(off >> 2) % CIE_SLOTS];

	if (!m->used || m->off != off) {
		Dwarf_CFI_Entry c;
		Dwarf_Off dummy;

		m->used = true;
		m->off = off;
		m->ok = !dwarf_next_cfi(ident, data, eh, off, &dummy, &c) && dwarf_cfi_cie_p(&c) &&
			cie_ok(&c.cie);
		if (m->ok)
			m->cie = c.cie;
	}
	return m->ok ? &m->cie : NULL;
}

bool tp_uwcfi__sane(Elf *elf, Elf_Data *data, bool eh)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	int addr = ident && ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	struct cie_memo memo[CIE_SLOTS] = { 0 };
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;

	if (!ident || !data)
		return false;
	for (;;) {
		int r = dwarf_next_cfi(ident, data, eh, off, &next, &e);

		if (r > 0)
			return true;		/* the end */
		if (r < 0 || next <= off)
			return false;
		if (dwarf_cfi_cie_p(&e)) {
			if (!cie_ok(&e.cie))
				return false;
		} else {
			/* the CIE it names is checked as a CIE too, wherever it is */
			const Dwarf_CIE *c = cie_at(ident, data, eh, e.fde.CIE_pointer, memo);

			if (!c || !fde_ok(c, &e.fde, eh, addr))
				return false;
		}
		off = next;
	}
}

/* ---- one FDE at a time, found through .eh_frame_hdr ----
 * Scanning a whole .eh_frame up front checked thousands of FDEs of which a profile uses a
 * few dozen (a third of python3's libpython-size table cost more than its unwinding). When
 * .eh_frame_hdr has the search table every linker writes (version 1, the .eh_frame pointer
 * pcrel sdata4, the count udata4, the entries datarel sdata4) and comes before .eh_frame in
 * the section table (the caller's part, table.c: libdw 0.188 walks the whole section for a
 * header placed after it), libdw finds a PC's FDE by a binary search of that table and runs
 * only that FDE and its CIE; the FDEs it keeps for later lookups are ones it ran, and so
 * were checked. So when the table is strictly increasing (every binary search then lands on
 * the same entry, libdw's too) and no address in it wraps, the FDE of a PC is checked as the
 * scan would check it, before libdw sees the PC; any other table keeps the whole scan. */
struct tp_uwlazy {
	const unsigned char *ident;
	Elf_Data *data;			/* .eh_frame */
	const uint8_t *table;		/* (start, FDE) pairs */
	uint32_t n;
	uint64_t hdr_addr, eh_addr;
	int addr;
	bool be;
	struct cie_memo memo[CIE_SLOTS];
	uint8_t ok[];			/* bit i: entry i's FDE passed */
};

static uint32_t rd32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
		    (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* base + the sdata4 at p, false when it leaves the address space of the ELF class (then a
 * reader that truncates to 32 bits and one that does not would differ) */
static bool rel_addr(uint64_t base, const uint8_t *p, bool be, bool is32, uint64_t *out)
{
	int64_t v = (int32_t)rd32(p, be);
	uint64_t a = base + (uint64_t)v;

	if (v < 0 ? a > base : a < base)
		return false;
	if (is32 && a > UINT32_MAX)
		return false;
	*out = a;
	return true;
}

bool tp_uwcfi__hdr_table(const Elf_Data *hdr)
{
	const uint8_t *h = hdr ? hdr->d_buf : NULL;

	/* DW_EH_PE_omit is 0xff; a table of ULEBs is refused by libdw as well */
	return h && hdr->d_size >= 4 && h[0] == 1 && h[1] != 0xff && h[2] != 0xff &&
	       h[3] != 0xff && (h[3] & ~0x08) != 0x01;
}

struct tp_uwlazy *tp_uwcfi__lazy(Elf *elf, Elf_Data *eh, uint64_t eh_addr, Elf_Data *hdr,
				 uint64_t hdr_addr)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	const uint8_t *h = hdr ? hdr->d_buf : NULL;
	struct tp_uwlazy *lz;
	uint64_t ptr, prev = 0, start, fde;
	bool be, is32;
	uint32_t n;

	if (!ident || !eh || !h || hdr->d_size < 12 || h[0] != 1 || h[1] != 0x1b ||
	    h[2] != 0x03 || h[3] != 0x3b)
		return NULL;
	be = ident[EI_DATA] == ELFDATA2MSB;
	is32 = ident[EI_CLASS] != ELFCLASS64;
	if (!rel_addr(hdr_addr + 4, h + 4, be, is32, &ptr) || ptr != eh_addr)
		return NULL;
	n = rd32(h + 8, be);
	if (!n || n > (hdr->d_size - 12) / 8)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		if (!rel_addr(hdr_addr, h + 12 + 8 * (size_t)i, be, is32, &start) ||
		    !rel_addr(hdr_addr, h + 16 + 8 * (size_t)i, be, is32, &fde) ||
		    (i && start <= prev))
			return NULL;
		prev = start;
	}
	lz = calloc(1, sizeof(*lz) + n / 8 + 1);
	if (!lz)
		return NULL;
	*lz = (struct tp_uwlazy){ .ident = ident, .data = eh, .table = h + 12, .n = n,
				  .hdr_addr = hdr_addr, .eh_addr = eh_addr,
				  .addr = is32 ? 4 : 8, .be = be };
	return lz;
}

bool tp_uwcfi__lazy_ok(struct tp_uwlazy *lz, uint64_t pc)
{
	bool is32 = lz->addr == 4;
	uint32_t lo = 0, hi = lz->n;
	uint64_t start, fde;
	Dwarf_Off off, next;
	Dwarf_CFI_Entry e;
	const Dwarf_CIE *c;

	/* the last entry whose start is at or below pc (the table was checked increasing) */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		rel_addr(lz->hdr_addr, lz->table + 8 * (size_t)mid, lz->be, is32, &start);
		if (start <= pc)
			lo = mid;
		else
			hi = mid;
	}
	rel_addr(lz->hdr_addr, lz->table + 8 * (size_t)lo, lz->be, is32, &start);
	if (start > pc)
		return true;		/* no FDE: libdw runs nothing */
	if (lz->ok[lo / 8] & (1u << (lo % 8)))
		return true;
	rel_addr(lz->hdr_addr, lz->table + 8 * (size_t)lo + 4, lz->be, is32, &fde);
	off = fde - lz->eh_addr;
	/* as libdw reads it: an FDE at that offset, or nothing is run */
	if (fde < lz->eh_addr || off >= lz->data->d_size ||
	    dwarf_next_cfi(lz->ident, lz->data, true, off, &next, &e) || dwarf_cfi_cie_p(&e))
		return false;
	c = cie_at(lz->ident, lz->data, true, e.fde.CIE_pointer, lz->memo);
	if (!c || !fde_ok(c, &e.fde, true, lz->addr))
		return false;
	lz->ok[lo / 8] |= (uint8_t)(1u << (lo % 8));
	return true;
}
