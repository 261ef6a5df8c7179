/* SPDX-License-Identifier: MIT */
/* The CFI rows of a binary, kept: what libdw says of a PC (dwarf_cfi_addrframe, then
 * _frame_info, _frame_cfa and, once a step gets that far, _frame_register of every tracked
 * register) copied once into a row, in a small cache per binary keyed by the PC, so a report that meets the same return
 * addresses in every sample executes the CIE and FDE instructions once per address, not
 * once per sample and frame. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/unwind/internal.h"

/* the short shape of ops into u (base, reg, off, value), as step.c's general evaluation
 * would compute it: "reg + n" or "CFA [+ n]", made a value by a last DW_OP_stack_value;
 * u->base stays NONE for any other shape, or an offset that is no int32 */
static void shape(struct tp_uwrule *u, const Dwarf_Op *ops, size_t nops)
{
	bool value = false;
	uint64_t reg = 0, off;

	if (nops >= 2 && ops[nops - 1].atom == DW_OP_stack_value) {
		value = true;
		nops--;
	}
	if (nops == 1 && ops->atom >= DW_OP_breg0 && ops->atom <= DW_OP_breg31) {
		reg = ops->atom - DW_OP_breg0;
		off = ops->number;
	} else if (nops == 1 && ops->atom == DW_OP_bregx) {
		reg = ops->number;
		off = ops->number2;
	} else if (ops->atom == DW_OP_call_frame_cfa &&
		   (nops == 1 || (nops == 2 && ops[1].atom == DW_OP_plus_uconst))) {
		off = nops == 2 ? ops[1].number : 0;
	} else {
		return;
	}
	if ((int64_t)off != (int32_t)off)
		return;
	u->base = ops->atom == DW_OP_call_frame_cfa ? TP_UWB_CFA : TP_UWB_REG;
	u->reg = reg < UINT8_MAX ? (uint8_t)reg : UINT8_MAX;
	u->off = (int32_t)off;
	u->value = value;
}

/* the ops (ops, nops) into the row's array: the rule; a copy, as libdw's may live in mem[].
 * *fail set when out of memory. */
static struct tp_uwrule keep(struct tp_uwrow *r, int kind, const Dwarf_Op *ops, size_t nops,
			     bool *fail)
{
	struct tp_uwrule u = { .kind = (uint8_t)kind };

	if (kind != TP_UWR_OPS)
		return u;
	if (!nops) {		/* no ops evaluate to nothing: as if the call had failed */
		u.kind = TP_UWR_ERR;
		return u;
	}
	if (nops > UINT16_MAX || r->nops > UINT16_MAX - nops ||
	    TP_GROW(r->ops, r->cap_ops, (size_t)r->nops + nops, 8)) {
		*fail = true;
		return u;
	}
	memcpy(r->ops + r->nops, ops, nops * sizeof(*ops));
	u.first = r->nops;
	u.n = (uint16_t)nops;
	shape(&u, ops, nops);
	r->nops = (uint16_t)(r->nops + nops);
	return u;
}

static struct tp_uwrule reg_rule(struct tp_uwrow *r, int reg, bool *fail)
{
	Dwarf_Op mem[3], *ops = NULL;
	size_t nops = 0;

	if (dwarf_frame_register(r->fr, reg, mem, &ops, &nops))
		return keep(r, TP_UWR_ERR, NULL, 0, fail);
	if (!nops)	/* NULL ops: "same value"; else undefined */
		return keep(r, ops ? TP_UWR_UNDEF : TP_UWR_SAME, NULL, 0, fail);
	return keep(r, TP_UWR_OPS, ops, nops, fail);
}

/* the first part of the row of frame fr into r, which keeps fr: the return address column,
 * the signal flag and the CFA rule (asked in the order a step needs them, and not at all
 * past one that fails: libdw reads hostile CFI only as far as a step would) */
static int build(struct tp_uwrow *r, Dwarf_Frame *fr)
{
	Dwarf_Op *ops = NULL;
	size_t nops = 0;
	bool signal = false, fail = false;

	r->fr = fr;
	r->ra_col = dwarf_frame_info(fr, NULL, NULL, &signal);
	r->signal = signal;
	r->cfa.kind = TP_UWR_ERR;
	if (r->ra_col >= 0 && !dwarf_frame_cfa(fr, &ops, &nops))
		r->cfa = keep(r, TP_UWR_OPS, ops, nops, &fail);
	return fail ? -TP_ERR_NOMEM : 0;
}

int tp_uwrow__regs(struct tp_uwrow *r, const struct tp_uwarch *a)
{
	bool fail = false;

	if (r->regs_done)
		return 0;
	for (int reg = 0; reg < a->nregs; reg++) {
		uint8_t kind;

		r->reg[reg] = reg_rule(r, reg, &fail);
		kind = r->reg[reg].kind;
		/* undefined is "same" on a target without ABI rules (see tp_uwarch.no_abi) */
		if (kind == TP_UWR_SAME || (kind == TP_UWR_UNDEF && a->no_abi))
			r->keep_mask |= 1ull << reg;
		else if (kind == TP_UWR_OPS && r->reg[reg].base != TP_UWB_NONE)
			r->shape_mask |= 1ull << reg;
		else if (kind == TP_UWR_OPS)
			r->ops_mask |= 1ull << reg;
	}
	if (r->ra_col >= a->nregs)
		r->ra = reg_rule(r, r->ra_col, &fail);
	if (fail)
		return -TP_ERR_NOMEM;
	r->regs_done = true;
	return 0;
}

static void clear(struct tp_uwrow *r)
{
	free(r->ops);
	free(r->fr);
	memset(r, 0, sizeof(*r));
}


int tp_uwrow__get(struct tp_uwtab *t, const struct tp_uwarch *a, uint64_t lpc,
		  struct tp_uwrow **out, struct tp_uwrow *tmp)
{
	struct tp_uwrow *r = tmp;
	Dwarf_Frame *fr = NULL;
	int err;

	*out = NULL;
	if (!t->rows)
		t->rows = calloc(TP_UWROWS, sizeof(*t->rows));
	if (t->rows) {
		r = &t->rows[tp_uwrow__slot(lpc)];
		if (r->used && r->lpc == lpc && r->arch == a) {
			*out = r;
			return 1;
		}
	}
	if (t->eh && (!t->eh_lazy || tp_uwcfi__lazy_ok(t->eh_lazy, lpc)) &&
	    dwarf_cfi_addrframe(t->eh, lpc, &fr))
		fr = NULL;
	if (!fr && t->df && dwarf_cfi_addrframe(t->df, lpc, &fr))
		fr = NULL;
	if (r != tmp)		/* the slot's old row goes */
		clear(r);
	else
		memset(r, 0, sizeof(*r));
	r->lpc = lpc;
	r->arch = a;
	r->used = true;
	r->none = !fr;
	err = fr ? build(r, fr) : 0;
	if (err) {
		clear(r);
		return err;
	}
	*out = r;
	return 1;
}

void tp_uwrow__release(struct tp_uwrow *tmp)
{
	if (tmp->used)
		clear(tmp);
}

void tp_uwrow__drop(struct tp_uwtab *t)
{
	if (!t->rows)
		return;
	for (size_t i = 0; i < TP_UWROWS; i++)
		clear(&t->rows[i]);
	free(t->rows);
	t->rows = NULL;
}
