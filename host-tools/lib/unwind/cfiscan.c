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
