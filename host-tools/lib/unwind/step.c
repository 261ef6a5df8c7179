/* SPDX-License-Identifier: MIT */
/* The stepping loop of the host unwinder, one for all targets: per frame, the row of the
 * PC's binary's CFI (libdw's reader: dwarf_cfi_addrframe, _frame_cfa, _frame_register,
 * _frame_info, kept per PC by row.c), the CFA and the caller's registers computed here from their DWARF
 * expressions over the sample's stack copy; ARM EHABI for ARM binaries whose CFI does not
 * cover the PC. Bounded everywhere: steps, expression length and stack, memory reads only
 * inside the copy. */
#include <dwarf.h>
#include <errno.h>
#include <string.h>

#include "host-tools/lib/unwind/internal.h"

#define EXPR_STACK	64
#define EXPR_STEPS	256

/* a word of the arch's size from the stack copy: 0 or -EFAULT (inline: it reads every
 * saved register) */
static inline int uw_read(const struct tp_uwinput *in, uint64_t sp0, uint64_t addr,
			  unsigned size, uint64_t *val)
{
	const uint8_t *p;
	uint64_t v = 0;

	if (size == 0 || size > 8 || addr < sp0 || addr - sp0 > in->stack_size ||
	    in->stack_size - (addr - sp0) < size)
		return -EFAULT;
	p = in->stack + (addr - sp0);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!in->arch->big_endian && (size == 8 || size == 4)) {	/* a word, as it lies */
		uint32_t w;

		if (size == 8) {
			memcpy(&v, p, 8);
		} else {
			memcpy(&w, p, 4);
			v = w;
		}
		*val = v;
		return 0;
	}
#endif
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)p[in->arch->big_endian ? size - 1 - i : i] << (8 * i);
	*val = v;
	return 0;
}

struct ctx {
	const struct tp_uwinput *in;
	const struct tp_uwarch *a;
	uint64_t sp0;
	uint64_t mask;			/* of an address: 32 bits on 32-bit targets */
	const struct tp_uwregs *st;	/* the callee's registers */
	uint64_t cfa;
	bool have_cfa;
	bool native;			/* a word of the stack is read as it lies (4 or 8
					 * little-endian bytes on a little-endian host) and the
					 * copy holds one at least */
	uint64_t last;			/* native: the offset of the copy's last word */
};

/* uw_read() of a word of the arch, the case of every saved register */
static inline bool read_word(const struct ctx *c, uint64_t addr, uint64_t *val)
{
	uint64_t off = addr - c->sp0;
	const uint8_t *p;

	if (!c->native)
		return !uw_read(c->in, c->sp0, addr, c->a->word, val);
	if (addr < c->sp0 || off > c->last)
		return false;
	p = c->in->stack + off;
	if (c->a->word == 8) {
		memcpy(val, p, 8);
	} else {
		uint32_t w;

		memcpy(&w, p, 4);
		*val = w;
	}
	return true;
}

static bool reg_get(const struct ctx *c, uint64_t reg, uint64_t *v)
{
	if (reg >= c->a->nregs || !(c->st->valid & (1ull << reg)))
		return false;
	*v = c->st->r[reg];
	return true;
}

static const Dwarf_Op *op_at(const Dwarf_Op *ops, size_t nops, Dwarf_Word offset)
{
	for (size_t i = 0; i < nops; i++)
		if (ops[i].offset == offset)
			return &ops[i];
	return NULL;
}

/* The rows' usual shapes at once, as the general evaluation below would compute them:
 * "reg + n" (DW_OP_breg*, DW_OP_bregx), "CFA", "CFA + n". 1 and *out, 0 when the shape is
 * another, -1 when it cannot be evaluated. */
static inline int eval_short(const struct ctx *c, const Dwarf_Op *ops, size_t nops, uint64_t *out)
{
	uint64_t a;

	if (nops == 1 && ops->atom >= DW_OP_breg0 && ops->atom <= DW_OP_breg31) {
		if (!reg_get(c, ops->atom - DW_OP_breg0, &a))
			return -1;
		*out = (a + ops->number) & c->mask;
		return 1;
	}
	if (nops == 1 && ops->atom == DW_OP_bregx) {
		if (!reg_get(c, ops->number, &a))
			return -1;
		*out = (a + ops->number2) & c->mask;
		return 1;
	}
	if (ops->atom != DW_OP_call_frame_cfa || nops > 2 ||
	    (nops == 2 && ops[1].atom != DW_OP_plus_uconst))
		return 0;
	if (!c->have_cfa)
		return -1;
	*out = (c->cfa + (nops == 2 ? ops[1].number : 0)) & c->mask;
	return 1;
}

/* eval() of any other expression (its own function: the stack array's cost is then paid
 * only here) */
static bool eval_long(const struct ctx *c, const Dwarf_Op *ops, size_t nops, uint64_t *out,
		      bool *is_value)
{
	uint64_t st[EXPR_STACK], a, b;
	size_t sp = 0, steps = 0;
	const Dwarf_Op *op, *end;

	op = ops;
	end = ops + nops;
#define PUSH(x) do { uint64_t v_ = (x); if (sp == EXPR_STACK) return false; st[sp] = v_; sp++; } while (0)
#define POP(x) do { if (!sp) return false; (x) = st[--sp]; } while (0)
	for (; op < end; op++) {
		uint8_t at = op->atom;

		if (++steps > EXPR_STEPS)
			return false;
		if (at >= DW_OP_lit0 && at <= DW_OP_lit31) {
			PUSH(at - DW_OP_lit0);
		} else if (at >= DW_OP_breg0 && at <= DW_OP_breg31) {
			if (!reg_get(c, at - DW_OP_breg0, &a))
				return false;
			PUSH(a + op->number);
		} else if (at >= DW_OP_reg0 && at <= DW_OP_reg31) {
			if (!reg_get(c, at - DW_OP_reg0, &a) || nops != 1)
				return false;
			*out = a;
			*is_value = true;
			return true;
		} else {
			switch (at) {
			case DW_OP_regx:
				if (!reg_get(c, op->number, &a) || nops != 1)
					return false;
				*out = a;
				*is_value = true;
				return true;
			case DW_OP_bregx:
				if (!reg_get(c, op->number, &a))
					return false;
				PUSH(a + op->number2);
				break;
			case DW_OP_call_frame_cfa:
				if (!c->have_cfa)
					return false;
				PUSH(c->cfa);
				break;
			case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s:
			case DW_OP_const2u: case DW_OP_const2s: case DW_OP_const4u:
			case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
			case DW_OP_constu: case DW_OP_consts:
				PUSH(op->number);
				break;
			case DW_OP_plus_uconst:
				POP(a);
				PUSH(a + op->number);
				break;
			case DW_OP_dup:
				if (!sp)
					return false;
				PUSH(st[sp - 1]);
				break;
			case DW_OP_drop:
				POP(a);
				break;
			case DW_OP_over:
				if (sp < 2)
					return false;
				PUSH(st[sp - 2]);
				break;
			case DW_OP_pick:
				if (op->number >= sp)
					return false;
				PUSH(st[sp - 1 - op->number]);
				break;
			case DW_OP_swap:
				POP(a);
				POP(b);
				PUSH(a);
				PUSH(b);
				break;
			case DW_OP_rot:
				if (sp < 3)
					return false;
				a = st[sp - 1];
				st[sp - 1] = st[sp - 2];
				st[sp - 2] = st[sp - 3];
				st[sp - 3] = a;
				break;
			case DW_OP_deref:
			case DW_OP_deref_size: {
				unsigned size = at == DW_OP_deref ? c->a->word : (unsigned)op->number;

				POP(a);
				if (uw_read(c->in, c->sp0, a & c->mask, size, &b))
					return false;
				PUSH(b);
				break;
			}
			case DW_OP_abs: POP(a); PUSH((int64_t)a < 0 ? -a : a); break;
			case DW_OP_neg: POP(a); PUSH(-a); break;
			case DW_OP_not: POP(a); PUSH(~a); break;
			case DW_OP_plus: POP(b); POP(a); PUSH(a + b); break;
			case DW_OP_minus: POP(b); POP(a); PUSH(a - b); break;
			case DW_OP_mul: POP(b); POP(a); PUSH(a * b); break;
			case DW_OP_and: POP(b); POP(a); PUSH(a & b); break;
			case DW_OP_or: POP(b); POP(a); PUSH(a | b); break;
			case DW_OP_xor: POP(b); POP(a); PUSH(a ^ b); break;
			case DW_OP_shl: POP(b); POP(a); PUSH(b < 64 ? a << b : 0); break;
			case DW_OP_shr: POP(b); POP(a); PUSH(b < 64 ? a >> b : 0); break;
			case DW_OP_shra:
				POP(b);
				POP(a);
				PUSH(b < 64 ? (uint64_t)((int64_t)a >> b) : ((int64_t)a < 0 ? ~0ull : 0));
				break;
			case DW_OP_div:
				POP(b);
				POP(a);
				if (!b || ((int64_t)a == INT64_MIN && (int64_t)b == -1))
					return false;
				PUSH((uint64_t)((int64_t)a / (int64_t)b));
				break;
			case DW_OP_mod:
				POP(b);
				POP(a);
				if (!b)
					return false;
				PUSH(a % b);
				break;
			case DW_OP_eq: POP(b); POP(a); PUSH(a == b); break;
			case DW_OP_ne: POP(b); POP(a); PUSH(a != b); break;
			case DW_OP_lt: POP(b); POP(a); PUSH((int64_t)a < (int64_t)b); break;
			case DW_OP_le: POP(b); POP(a); PUSH((int64_t)a <= (int64_t)b); break;
			case DW_OP_gt: POP(b); POP(a); PUSH((int64_t)a > (int64_t)b); break;
			case DW_OP_ge: POP(b); POP(a); PUSH((int64_t)a >= (int64_t)b); break;
			case DW_OP_skip:
			case DW_OP_bra: {
				const Dwarf_Op *to;

				if (at == DW_OP_bra) {
					POP(a);
					if (!a)
						break;
				}
				/* number: the 2-byte offset from the end of this op */
				to = op_at(ops, nops,
					   op->offset + 3 + (Dwarf_Word)(int64_t)(int16_t)op->number);
				if (!to)
					return false;
				op = to - 1;
				break;
			}
			case DW_OP_nop:
				break;
			case DW_OP_stack_value:
				if (op + 1 != end)
					return false;
				*is_value = true;
				break;
			default:
				return false;
			}
		}
	}
#undef PUSH
#undef POP
	if (!sp)
		return false;
	*out = st[sp - 1] & c->mask;
	return true;
}

/* Evaluates a DWARF expression of the CFI: *is_value is false when the result is the
 * address the value is stored at. false when it cannot be evaluated. */
static inline bool eval(const struct ctx *c, const Dwarf_Op *ops, size_t nops, uint64_t *out,
			bool *is_value)
{
	int r;

	*is_value = false;
	if (!ops || !nops)
		return false;
	/* a short shape, or one made a value ("SP = CFA": libdw's val_offset, and the
	 * register rules that say "reg + n") */
	if (nops >= 2 && ops[nops - 1].atom == DW_OP_stack_value) {
		r = eval_short(c, ops, nops - 1, out);
		if (r)
			return *is_value = r > 0;
	}
	r = eval_short(c, ops, nops, out);
	if (r)
		return r > 0;
	return eval_long(c, ops, nops, out, is_value);
}

/* eval() of rule u (TP_UWR_OPS) of row: its short shape at once (see tp_uwrule.base), or
 * its ops */
static inline bool eval_rule(const struct ctx *c, const struct tp_uwrow *row,
			     const struct tp_uwrule *u, uint64_t *out, bool *is_value)
{
	uint64_t a;

	if (u->base == TP_UWB_NONE)
		return eval(c, row->ops + u->first, u->n, out, is_value);
	if (u->base == TP_UWB_CFA) {
		if (!c->have_cfa)
			return false;
		a = c->cfa;
	} else if (!reg_get(c, u->reg, &a)) {
		return false;
	}
	*out = (a + (uint64_t)(int64_t)u->off) & c->mask;
	*is_value = u->value;
	return true;
}

/* the caller's value of a register under rule u of row: true and *v, or false (undefined) */
static inline bool caller_reg(const struct ctx *c, const struct tp_uwrow *row,
			      const struct tp_uwrule *u, int reg, uint64_t *v)
{
	bool is_value;
	uint64_t x;

	if (u->kind == TP_UWR_ERR)
		return false;
	if (u->kind != TP_UWR_OPS) {
		/* "same value"; else undefined, which on a target without ABI rules is only
		 * what the CFI did not mention (see tp_uwarch.no_abi) */
		if (u->kind == TP_UWR_UNDEF && !c->a->no_abi)
			return false;
		return reg_get(c, (uint64_t)reg, v);
	}
	if (!eval_rule(c, row, u, &x, &is_value))
		return false;
	if (is_value) {
		*v = x;
		return true;
	}
	if (uw_read(c->in, c->sp0, x, c->a->word, v))
		return false;
	return true;
}

/* one step through a CFI row: 0, or -1 (no CFA, no return address) */
static int step_cfi(struct ctx *c, struct tp_uwrow *row, struct tp_uwregs *caller,
		    bool *signal)
{
	const struct tp_uwarch *a = c->a;
	bool is_value;
	int ra_col = row->ra_col;
	uint64_t v;

	*signal = row->signal;
	if (ra_col < 0 || row->cfa.kind != TP_UWR_OPS ||
	    !eval_rule(c, row, &row->cfa, &c->cfa, &is_value))
		return -1;
	c->have_cfa = true;
	if (!row->regs_done && tp_uwrow__regs(row, a))
		return -1;
	/* r[] is read only where valid says so; the registers the row keeps, then those it
	 * computes (each from the callee's state only, so in any order) */
	caller->valid = row->keep_mask & c->st->valid;
	caller->pc = 0;
	/* all at once (a fixed size, copied inline: x86_64's 17 or all): only the kept ones
	 * are valid; every value in a state is masked already */
	if (a->nregs <= 17)
		memcpy(caller->r, c->st->r, 17 * sizeof(caller->r[0]));
	else
		memcpy(caller->r, c->st->r, sizeof(caller->r));
	/* "base + off", or the word stored there: as caller_reg() would compute them */
	for (uint64_t m = row->shape_mask; m; m &= m - 1) {
		int r = __builtin_ctzll(m);
		const struct tp_uwrule *u = &row->reg[r];

		if (u->base == TP_UWB_CFA)
			v = c->cfa;
		else if (u->reg < 64 && (c->st->valid & (1ull << u->reg)))
			v = c->st->r[u->reg];	/* valid: a tracked register (< nregs) */
		else
			continue;
		v = (v + (uint64_t)(int64_t)u->off) & c->mask;
		if (!u->value && !read_word(c, v, &v))
			continue;
		caller->r[r] = v;	/* a word read, or masked above */
		caller->valid |= 1ull << r;
	}
	for (uint64_t m = row->ops_mask; m; m &= m - 1) {
		int r = __builtin_ctzll(m);

		if (caller_reg(c, row, &row->reg[r], r, &v)) {
			caller->r[r] = v & c->mask;
			caller->valid |= 1ull << r;
		}
	}
	/* the ABI of every target: the caller's SP is the CFA unless the CFI says otherwise */
	if ((!(caller->valid & (1ull << a->sp)) || !(c->st->valid & (1ull << a->sp)) ||
	     caller->r[a->sp] == c->st->r[a->sp]) && row->reg[a->sp].kind != TP_UWR_OPS) {
		caller->r[a->sp] = c->cfa;
		caller->valid |= 1ull << a->sp;
	}
	if (ra_col < a->nregs) {
		if (!(caller->valid & (1ull << ra_col)))
			return -1;
		v = caller->r[ra_col];
	} else if (!caller_reg(c, row, &row->ra, ra_col, &v)) {
		return -1;
	}
	caller->pc = v & c->mask;
	return 0;
}

static int ehabi_read(void *p, uint32_t addr, uint32_t *word)
{
	const struct ctx *c = p;
	uint64_t v;

	if (uw_read(c->in, c->sp0, addr, 4, &v))
		return -EFAULT;
	*word = (uint32_t)v;
	return 0;
}

/* one step through ARM EHABI: 0, or -1 */
static int step_ehabi(struct ctx *c, const struct tp_uwtab *t, uint64_t lpc,
		      struct tp_uwregs *caller)
{
	struct tp_arm_regs r = { { 0 }, 0 };

	for (int i = 0; i < 16; i++)
		if (c->st->valid & (1ull << i)) {
			r.r[i] = (uint32_t)c->st->r[i];
			r.valid |= 1u << i;
		}
	r.r[15] = (uint32_t)c->st->pc;
	r.valid |= 1u << 15;
	if (tp_ehabi_step(&t->ehabi, (uint32_t)lpc, &r, ehabi_read, c) != 1 ||
	    !(r.valid & (1u << 13)) || !(r.valid & (1u << 15)))
		return -1;
	memset(caller, 0, sizeof(*caller));
	for (int i = 0; i < 16; i++)
		if (r.valid & (1u << i)) {
			caller->r[i] = r.r[i];
			caller->valid |= 1ull << i;
		}
	caller->pc = r.r[15];
	return 0;
}

static bool load_input(const struct tp_uwinput *in, struct tp_uwregs *st, uint64_t mask)
{
	const struct tp_uwarch *a = in->arch;
	uint64_t vals[64];
	uint32_t n = 0;

	for (uint64_t m = in->reg_mask; m; m &= m - 1)	/* only the sampled ones are read */
		vals[__builtin_ctzll(m)] = n < in->nr_regs ? in->regs[n++] & mask : 0;
	if (n < in->nr_regs || !(in->reg_mask & (1ull << a->pc_perf)) ||
	    !(in->reg_mask & (1ull << a->perf_of[a->sp])))
		return false;
	memset(st, 0, sizeof(*st));
	for (int d = 0; d < a->nregs; d++) {
		int p = a->perf_of[d];

		if (p >= 0 && (in->reg_mask & (1ull << p))) {
			st->r[d] = vals[p];
			st->valid |= 1ull << d;
		}
	}
	st->pc = vals[a->pc_perf];
	return true;
}

uint32_t tp_unwind(const struct tp_uwinput *in, tp_uwfind_fn find, void *ctx,
		   struct tp_uwframe *frames, uint32_t max)
{
	struct ctx c = { .in = in, .a = in->arch };
	struct tp_uwrow tmp;		/* a row where no cache could be had */
	/* the callee's and the caller's registers, swapped at each step rather than copied */
	struct tp_uwregs regs[2], *st = &regs[0], *caller = &regs[1], *swap;
	bool activation = true, flat = false;
	uint32_t n = 0;

	if (!c.a || !max || (!in->stack && in->stack_size))
		return 0;
	c.mask = c.a->word == 4 ? 0xffffffffull : ~0ull;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	c.native = !c.a->big_endian && (c.a->word == 8 || c.a->word == 4) &&
		   in->stack_size >= c.a->word;
#endif
	c.last = c.native ? in->stack_size - c.a->word : 0;
	if (in->nr_regs > 64 || !load_input(in, st, c.mask))
		return 0;
	c.sp0 = st->r[c.a->sp];
	memset(caller, 0, sizeof(*caller));	/* then only its valid registers are read */
	for (uint32_t steps = 0; steps < TP_UW_MAX_STEPS && n < max; steps++) {
		struct tp_uwtab *t;
		struct tp_uwrow *row;
		uint64_t pc = c.a->thumb ? st->pc & ~1ull : st->pc, bias, lpc;
		bool signal = false;
		int err = -1;

		if (!pc)
			break;
		frames[n++] = (struct tp_uwframe){ activation ? pc : pc - 1 };
		if (n == max || find(ctx, pc, &t, &bias) < 0 || !t)
			break;
		lpc = ((activation ? pc : pc - 1) - bias) & c.mask;
		tmp.used = false;
		row = tp_uwrow__cached(t, c.a, lpc);
		if (!row && tp_uwrow__get(t, c.a, lpc, &row, &tmp) < 0)
			break;
		c.st = st;
		c.have_cfa = false;
		if (!row->none)
			err = step_cfi(&c, row, caller, &signal);
		else if (t->ehabi.exidx)
			err = step_ehabi(&c, t, lpc, caller);
		if (tmp.used)
			tp_uwrow__release(&tmp);
		if (err || !(caller->valid & (1ull << c.a->sp)))
			break;
		/* the stack grows down on every target: a caller's frame is above */
		if (caller->r[c.a->sp] < st->r[c.a->sp])
			break;
		if (caller->r[c.a->sp] == st->r[c.a->sp]) {
			/* a leaf without a frame of its own, once: not twice in a row */
			if (flat || caller->pc == st->pc)
				break;
			flat = true;
		} else {
			flat = false;
		}
		activation = signal;
		swap = st;
		st = caller;
		caller = swap;
	}
	return n;
}
