/* SPDX-License-Identifier: MIT */
/* ARM EHABI one-frame unwinding: finds the .ARM.exidx entry of a PC, gathers the entry's unwind
 * opcodes (inline, compact pr0/pr1/pr2 or generic model in .ARM.extab) and runs them on the
 * sampled stack to produce the caller's SP, PC and the core registers the function saved. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/unwind/ehabi.h"

/* the entry word that says "this function cannot be unwound" (the bottom of a stack) */
#define EXIDX_CANTUNWIND	1u
/* at most 3 opcode bytes in the first word, then up to 255 words of 4 */
#define EHABI_MAX_OPS		(3 + 4 * 255)

#define REG_SP	13
#define REG_LR	14
#define REG_PC	15
#define BIT(n)	(1u << (n))
/* AAPCS: r0-r3, r12 and r14 are not preserved across a call, so an unwound caller's copies
 * are unknown unless the opcodes restored them */
#define SCRATCH_REGS	(BIT(0) | BIT(1) | BIT(2) | BIT(3) | BIT(12) | BIT(REG_LR))

struct ops {
	uint8_t b[EHABI_MAX_OPS];
	size_t n;
};

/* the state the opcodes work on: a copy of the frame's registers and the virtual SP */
struct vrs {
	struct tp_arm_regs regs;
	uint32_t vsp;
	uint32_t popped;	/* the registers the opcodes loaded from the stack */
	tp_ehabi_read_fn read;
	void *ctx;
};

static uint32_t get32(const uint8_t *p, int big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* a prel31 field: a 31-bit signed offset from the field's own address (32-bit wrap-around,
 * as the linker computed it) */
static uint32_t prel31(uint32_t word, uint32_t place)
{
	uint32_t off = word & 0x7fffffffu;

	if (off & 0x40000000u)
		off |= 0x80000000u;
	return place + off;
}

static void add_ops(struct ops *o, uint32_t word, int nbytes)
{
	/* opcodes are taken from the most significant byte of each word down */
	for (int i = nbytes - 1; i >= 0; i--)
		o->b[o->n++] = (uint8_t)(word >> (8 * i));
}

/* the word at link-time address ADDR of .ARM.extab */
static int extab_word(const struct tp_ehabi_tables *t, uint32_t addr, uint32_t *w)
{
	uint32_t off = addr - (uint32_t)t->extab_addr;

	if (!t->extab || (addr & 3) || off > t->extab_size || t->extab_size - off < 4)
		return -EINVAL;
	*w = get32(t->extab + off, t->big_endian);
	return 0;
}

/* the opcodes of the .ARM.extab entry at ADDR: compact pr0 (3 bytes), pr1/pr2 (2 bytes and a
 * count of words), or the generic model in GCC's layout (personality, then a word with the
 * count in its top byte and 3 opcodes, then the words) */
static int extab_ops(const struct tp_ehabi_tables *t, uint32_t addr, struct ops *o)
{
	uint32_t w, count;
	int err = extab_word(t, addr, &w);

	if (err)
		return err;
	if (w & 0x80000000u) {
		if ((w >> 28) != 8)
			return -EINVAL;
		switch ((w >> 24) & 0xf) {
		case 0:
			add_ops(o, w, 3);
			return 0;
		case 1:
		case 2:
			count = (w >> 16) & 0xff;
			add_ops(o, w, 2);
			break;
		default:	/* personality routines 3-15 are reserved */
			return -EINVAL;
		}
	} else {
		addr += 4;
		err = extab_word(t, addr, &w);
		if (err)
			return err;
		count = w >> 24;
		add_ops(o, w, 3);
	}
	while (count--) {
		addr += 4;
		err = extab_word(t, addr, &w);
		if (err)
			return err;
		add_ops(o, w, 4);
	}
	return 0;
}

/* the index of the last .ARM.exidx entry whose function starts at or below PC */
static int exidx_find(const struct tp_ehabi_tables *t, uint32_t pc, size_t *index)
{
	size_t lo = 0, hi = t->exidx_size / 8;
	bool found = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t w = get32(t->exidx + 8 * mid, t->big_endian);

		if (w & 0x80000000u)	/* bit 31 of the function word is always clear */
			return -EINVAL;
		if (prel31(w, (uint32_t)t->exidx_addr + 8 * (uint32_t)mid) <= pc) {
			*index = mid;
			found = true;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return found ? 0 : -ENOENT;
}

static int pop_word(struct vrs *s, uint32_t *w)
{
	if (s->vsp > UINT32_MAX - 4)
		return -EFAULT;
	if (s->read(s->ctx, s->vsp, w) < 0)
		return -EFAULT;
	s->vsp += 4;
	return 0;
}

/* pop the core registers of MASK, lowest number at the lowest address; a popped r13 becomes
 * the new vsp once the pop is done */
static int pop_core(struct vrs *s, uint32_t mask)
{
	uint32_t w;

	for (int i = 0; i < 16; i++) {
		if (!(mask & BIT(i)))
			continue;
		int err = pop_word(s, &w);

		if (err)
			return err;
		s->regs.r[i] = w;
		s->regs.valid |= BIT(i);
		s->popped |= BIT(i);
	}
	if (mask & BIT(REG_SP))
		s->vsp = s->regs.r[REG_SP];
	return 0;
}

static int vsp_add(struct vrs *s, uint64_t n)
{
	if (n > UINT32_MAX - s->vsp)
		return -EINVAL;
	s->vsp += (uint32_t)n;
	return 0;
}

/* the VFP and WMMX pops: their registers are not tracked, only the stack space they take */
static int pop_other(struct vrs *s, uint8_t op, const struct ops *o, size_t *i)
{
	uint8_t b = 0;

	/* the two-byte forms: 0xb3, 0xc6, 0xc7, 0xc8, 0xc9 */
	if (op == 0xb3 || (op >= 0xc6 && op <= 0xc9)) {
		if (*i >= o->n)
			return -EINVAL;
		b = o->b[(*i)++];
	}
	if (op == 0xb3)			/* D[ssss]-D[ssss+cccc] saved by FSTMFDX */
		return vsp_add(s, 8u * ((b & 0xf) + 1) + 4);
	if ((op & 0xf8) == 0xb8)	/* D[8]-D[8+nnn] saved by FSTMFDX */
		return vsp_add(s, 8u * ((op & 7) + 1) + 4);
	if (op == 0xc6 || op == 0xc8 || op == 0xc9)	/* wR[ssss]..., D[16+ssss]..., D[ssss]... */
		return vsp_add(s, 8u * ((b & 0xf) + 1));
	if (op == 0xc7) {		/* wCGR registers under a mask */
		if (b == 0 || (b & 0xf0))
			return -EINVAL;
		return vsp_add(s, 4u * (uint32_t)__builtin_popcount(b));
	}
	if ((op & 0xf8) == 0xc0 || (op & 0xf8) == 0xd0)	/* wR[10]-wR[10+nnn], D[8]-D[8+nnn] */
		return vsp_add(s, 8u * ((op & 7) + 1));
	return -EINVAL;			/* 0xb4-0xb7, 0xca-0xcf, 0xd8-0xff: spare */
}

/* Runs the opcodes: 1 when they finished (a 0xb0 or their end), 0 when they refuse to unwind,
 * or a negative error. Each opcode consumes at least one byte: bounded by o->n. */
static int run_ops(struct vrs *s, const struct ops *o)
{
	size_t i = 0;
	int err = 0;

	while (i < o->n && !err) {
		uint8_t op = o->b[i++], b;

		if ((op & 0xc0) == 0x00) {
			err = vsp_add(s, ((uint32_t)(op & 0x3f) << 2) + 4);
		} else if ((op & 0xc0) == 0x40) {
			uint32_t n = ((uint32_t)(op & 0x3f) << 2) + 4;

			if (s->vsp < n)
				return -EINVAL;
			s->vsp -= n;
		} else if ((op & 0xf0) == 0x80) {
			if (i >= o->n)
				return -EINVAL;
			b = o->b[i++];
			if (op == 0x80 && b == 0)
				return 0;
			err = pop_core(s, ((uint32_t)(op & 0xf) << 8 | b) << 4);
		} else if ((op & 0xf0) == 0x90) {
			unsigned n = op & 0xf;

			if (n == REG_SP || n == REG_PC || !(s->regs.valid & BIT(n)))
				return -EINVAL;
			s->vsp = s->regs.r[n];
		} else if ((op & 0xf0) == 0xa0) {
			uint32_t mask = (BIT((op & 7) + 5) - 1) & ~0xfu;

			err = pop_core(s, (op & 8) ? mask | BIT(REG_LR) : mask);
		} else if (op == 0xb0) {
			return 1;
		} else if (op == 0xb1) {
			if (i >= o->n)
				return -EINVAL;
			b = o->b[i++];
			if (b == 0 || (b & 0xf0))
				return -EINVAL;
			err = pop_core(s, b);
		} else if (op == 0xb2) {
			uint64_t v = 0;
			unsigned shift = 0;

			do {
				if (i >= o->n || shift > 28)
					return -EINVAL;
				b = o->b[i++];
				v |= (uint64_t)(b & 0x7f) << shift;
				shift += 7;
			} while (b & 0x80);
			err = vsp_add(s, 0x204 + (v << 2));
		} else {
			err = pop_other(s, op, o, &i);
		}
	}
	return err ? err : 1;
}

/* the opcodes of the entry covering PC: 1 and O filled, 0 for EXIDX_CANTUNWIND, or an error */
static int entry_ops(const struct tp_ehabi_tables *t, uint32_t pc, struct ops *o)
{
	size_t i;
	uint32_t w;
	int err;

	if (!t || !t->exidx || t->exidx_addr > UINT32_MAX ||
	    t->exidx_size > (uint64_t)UINT32_MAX + 1 - t->exidx_addr ||
	    (t->extab && (t->extab_addr > UINT32_MAX ||
			  t->extab_size > (uint64_t)UINT32_MAX + 1 - t->extab_addr)))
		return -EINVAL;
	err = exidx_find(t, pc, &i);
	if (err)
		return err;
	w = get32(t->exidx + 8 * i + 4, t->big_endian);
	if (w == EXIDX_CANTUNWIND)
		return 0;
	o->n = 0;
	if (w & 0x80000000u) {
		if ((w >> 24) != 0x80)	/* inline entries are compact model pr0 only */
			return -EINVAL;
		add_ops(o, w, 3);
		return 1;
	}
	err = extab_ops(t, prel31(w, (uint32_t)t->exidx_addr + 8 * (uint32_t)i + 4), o);
	return err ? err : 1;
}

int tp_ehabi_step(const struct tp_ehabi_tables *t, uint32_t pc, struct tp_arm_regs *regs,
		  tp_ehabi_read_fn read, void *ctx)
{
	struct vrs s = { .read = read, .ctx = ctx };
	struct ops o;
	uint32_t *r = s.regs.r;
	int ret;

	if (!regs || !read || !(regs->valid & BIT(REG_SP)))
		return -EINVAL;
	ret = entry_ops(t, pc, &o);
	if (ret <= 0)
		return ret;
	s.regs = *regs;
	s.vsp = regs->r[REG_SP];
	ret = run_ops(&s, &o);
	if (ret <= 0)
		return ret;
	if (!(s.popped & BIT(REG_PC))) {
		if (!(s.regs.valid & BIT(REG_LR)))
			return -EINVAL;
		r[REG_PC] = r[REG_LR];
	}
	r[REG_SP] = s.vsp;
	s.regs.valid = (s.regs.valid & ~SCRATCH_REGS) | s.popped | BIT(REG_SP) | BIT(REG_PC);
	/* a return address of 0 is where the outermost frame (_start, a thread) says stop */
	if (r[REG_PC] == 0)
		return 0;
	if (r[REG_SP] <= regs->r[REG_SP] &&
	    (!(regs->valid & BIT(REG_PC)) || r[REG_PC] == regs->r[REG_PC]))
		return -EINVAL;
	*regs = s.regs;
	return 1;
}
