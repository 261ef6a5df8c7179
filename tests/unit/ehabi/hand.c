/* SPDX-License-Identifier: MIT */
/* Hand-built .ARM.exidx/.ARM.extab tables for test-ehabi.c: every opcode class, inline and
 * .ARM.extab entries (pr0, pr1, pr2, generic model), EXIDX_CANTUNWIND, the index search, and
 * malformed, out-of-range and truncated tables, each in both byte orders. The expected values
 * are worked out by hand from the opcode table of the EHABI specification (IHI 0038). */

#define EXIDX_ADDR	0x20000u
#define EXTAB_ADDR	0x21000u
#define STACK		0x7ff000u
#define LR_IN		0x9001u		/* a Thumb return address: bit 0 must survive */
#define PC_IN		0x8011u

struct tb {
	uint32_t ix[32], et[300];
	size_t nix, net;
	uint8_t ixb[128], etb[1200];
	struct tp_ehabi_tables t;
};

struct stk {
	uint32_t base;
	uint32_t w[64];
	size_t n;
};

static int stk_read(void *ctx, uint32_t addr, uint32_t *word)
{
	const struct stk *s = ctx;

	if (addr < s->base || (addr - s->base) % 4 || (addr - s->base) / 4 >= s->n)
		return -EFAULT;
	*word = s->w[(addr - s->base) / 4];
	return 0;
}

/* an index entry for the function at FN whose second word is W1 */
static void tb_fn(struct tb *b, uint32_t fn, uint32_t w1)
{
	b->ix[b->nix] = (fn - (EXIDX_ADDR + 4 * (uint32_t)b->nix)) & 0x7fffffffu;
	b->ix[b->nix + 1] = w1;
	b->nix += 2;
}

/* an index entry for FN pointing at the .ARM.extab word number WORD */
static void tb_fn_ext(struct tb *b, uint32_t fn, size_t word)
{
	uint32_t place = EXIDX_ADDR + 4 * (uint32_t)b->nix + 4;

	tb_fn(b, fn, 0);
	b->ix[b->nix - 1] = (EXTAB_ADDR + 4 * (uint32_t)word - place) & 0x7fffffffu;
}

static void put32(uint8_t *p, uint32_t v, int be)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (be ? 24 - 8 * i : 8 * i));
}

static const struct tp_ehabi_tables *tb_done(struct tb *b, int be)
{
	for (size_t i = 0; i < b->nix; i++)
		put32(b->ixb + 4 * i, b->ix[i], be);
	for (size_t i = 0; i < b->net; i++)
		put32(b->etb + 4 * i, b->et[i], be);
	b->t = (struct tp_ehabi_tables){ .exidx = b->ixb, .exidx_size = 4 * b->nix,
		.exidx_addr = EXIDX_ADDR, .extab = b->net ? b->etb : NULL,
		.extab_size = 4 * b->net, .extab_addr = EXTAB_ADDR, .big_endian = be };
	return &b->t;
}

static struct tp_arm_regs regs_in(void)
{
	struct tp_arm_regs r = { .valid = 0xffff };

	for (int i = 0; i < 16; i++)
		r.r[i] = 0x100 * (uint32_t)i + 0xa;
	r.r[13] = STACK;
	r.r[14] = LR_IN;
	r.r[15] = PC_IN;
	return r;
}

/* a stack of N words at STACK, word i holding 0x5000 + 4 * i */
static struct stk stack_of(size_t n)
{
	struct stk s = { .base = STACK, .n = n };

	for (size_t i = 0; i < n; i++)
		s.w[i] = 0x5000 + (uint32_t)i * 4;
	return s;
}

static char hname[160];

static const char *hn(const char *what, int be)
{
	snprintf(hname, sizeof(hname), "ehabi %s (%s)", what, be ? "big-endian" : "little-endian");
	return hname;
}

/* one inline (pr0) entry at 0x8000 with opcode word W1, run on a 64-word stack */
static int step_inline(int be, uint32_t w1, struct tp_arm_regs *r, struct stk *s)
{
	struct tb b = { 0 };

	tb_fn(&b, 0x8000, w1);
	return tp_ehabi_step(tb_done(&b, be), 0x8010, r, stk_read, s);
}

/* expect a step of inline word W1 to succeed with SP = STACK + SP_OFF and PC = PC */
static void expect_inline(int be, const char *what, uint32_t w1, uint32_t sp_off, uint32_t pc)
{
	struct tcase c = case_begin(hn(what, be));
	struct tp_arm_regs r = regs_in();
	struct stk s = stack_of(64);

	EXPECT(&c, "return", 1, step_inline(be, w1, &r, &s));
	EXPECT(&c, "SP", STACK + sp_off, r.r[13]);
	EXPECT(&c, "PC", pc, r.r[15]);
	EXPECT_TRUE(&c, "SP and PC valid", (r.valid & 0xa000) == 0xa000);
	case_end(&c);
}

/* expect inline word W1 to fail with ERR and leave the registers as they were */
static void expect_inline_err(int be, const char *what, uint32_t w1, int err)
{
	struct tcase c = case_begin(hn(what, be));
	struct tp_arm_regs r = regs_in(), r0 = r;
	struct stk s = stack_of(64);

	EXPECT(&c, "return", (int64_t)err, (int64_t)step_inline(be, w1, &r, &s));
	EXPECT_TRUE(&c, "registers unchanged", !memcmp(&r, &r0, sizeof(r)));
	case_end(&c);
}

static void hand_opcodes(int be)
{
	struct tcase c;
	struct tp_arm_regs r;
	struct stk s;

	/* 0xa8 pop {r4, r14}: caller's PC is the popped r14, SP 8 up */
	c = case_begin(hn("pop r4-r4,r14 (0xa8)", be));
	r = regs_in();
	s = stack_of(64);
	s.w[0] = 0x1234;
	s.w[1] = 0xabcd1;
	EXPECT(&c, "return", 1, step_inline(be, 0x80a8b0b0, &r, &s));
	EXPECT(&c, "SP", STACK + 8, r.r[13]);
	EXPECT(&c, "PC (Thumb bit kept)", 0xabcd1, r.r[15]);
	EXPECT(&c, "r4", 0x1234, r.r[4]);
	EXPECT(&c, "r14", 0xabcd1, r.r[14]);
	EXPECT_TRUE(&c, "r5 kept valid", (r.valid & (1u << 5)) && r.r[5] == 0x50a);
	EXPECT_TRUE(&c, "r0-r3, r12 now unknown", !(r.valid & 0x100f));
	case_end(&c);

	/* 0xa3 pop {r4-r7}, no r14: PC comes from the LR we had */
	c = case_begin(hn("pop r4-r7 (0xa3), PC = LR", be));
	r = regs_in();
	s = stack_of(64);
	EXPECT(&c, "return", 1, step_inline(be, 0x80a3b0b0, &r, &s));
	EXPECT(&c, "SP", STACK + 16, r.r[13]);
	EXPECT(&c, "PC", LR_IN, r.r[15]);
	EXPECT(&c, "r7", 0x500c, r.r[7]);
	EXPECT_TRUE(&c, "r14 unknown", !(r.valid & (1u << 14)));
	case_end(&c);

	expect_inline(be, "vsp += (0x02: 12)", 0x8002b0b0, 12, LR_IN);
	expect_inline(be, "vsp += (0x3f: 256)", 0x803fb0b0, 256, LR_IN);
	expect_inline(be, "vsp += 16, vsp -= 8 twice (0x03 0x41 0x41)", 0x80034141, 0, LR_IN);
	/* 0x84 0x03 = mask 0x403: r4, r5, r14 (words 0-2), then PC = popped r14 = 0x5008 */
	expect_inline(be, "pop under mask r4,r5,r14 (0x84 0x03)", 0x808403b0, 12, 0x5008);
	/* 0x88 0x01 = r4 and r15 popped: PC = 0x5004, LR is not consulted */
	expect_inline(be, "pop under mask r4,r15 (0x88 0x01)", 0x808801b0, 8, 0x5004);
	/* 0x82 0x00 = r13 popped: vsp becomes the popped value 0x5000 */
	expect_inline(be, "pop r13 under mask (0x82 0x00)", 0x808200b0, 0x5000 - STACK, LR_IN);
	/* 0x97 vsp = r7 (0x70a in regs_in), then pop {r4, r14} at r7's place: outside our stack */
	expect_inline(be, "vsp = r7 (0x97)", 0x8097b0b0, 0x70a - STACK, LR_IN);
	expect_inline(be, "pop r0-r3 under mask (0xb1 0x0f)", 0x80b10fb0, 16, LR_IN);
	/* 0xb2 0x81 0x01: uleb128 129: vsp += 0x204 + 129 * 4 */
	expect_inline(be, "vsp += 0x204 + uleb128 << 2 (0xb2)", 0x80b28101, 0x204 + 129 * 4, LR_IN);
	expect_inline(be, "finish stops the opcodes (0xb0 0x02 0x02)", 0x80b00202, 0, LR_IN);
	/* VFP and WMMX pops only move vsp */
	expect_inline(be, "FSTMFDX D[1]-D[3] (0xb3 0x12)", 0x80b312b0, 3 * 8 + 4, LR_IN);
	expect_inline(be, "FSTMFDX D[8]-D[10] (0xba)", 0x80bab0b0, 3 * 8 + 4, LR_IN);
	expect_inline(be, "WMMX wR[10]-wR[12] (0xc2)", 0x80c2b0b0, 3 * 8, LR_IN);
	expect_inline(be, "WMMX wR[2]-wR[6] (0xc6 0x24)", 0x80c624b0, 5 * 8, LR_IN);
	expect_inline(be, "WMMX wCGR under mask (0xc7 0x05)", 0x80c705b0, 2 * 4, LR_IN);
	expect_inline(be, "VPUSH D[16]-D[17] (0xc8 0x01)", 0x80c801b0, 2 * 8, LR_IN);
	expect_inline(be, "VPUSH D[8]-D[13] (0xc9 0x85)", 0x80c985b0, 6 * 8, LR_IN);
	expect_inline(be, "VPUSH D[8]-D[15] (0xd7)", 0x80d7b0b0, 8 * 8, LR_IN);

	/* vsp = r7 pointing into the stack, then pop {r4, r14} from there */
	c = case_begin(hn("vsp = r7, then pop from there (0x97 0xa8)", be));
	r = regs_in();
	r.r[7] = STACK + 8;
	s = stack_of(64);
	EXPECT(&c, "return", 1, step_inline(be, 0x8097a8b0, &r, &s));
	EXPECT(&c, "SP", STACK + 16, r.r[13]);
	EXPECT(&c, "PC", 0x500c, r.r[15]);
	EXPECT(&c, "r4", 0x5008, r.r[4]);
	case_end(&c);

	/* refuse to unwind: the bottom, not an error */
	expect_inline_err(be, "refuse to unwind (0x80 0x00)", 0x808000b0, 0);
	expect_inline_err(be, "vsp = r13 is reserved (0x9d)", 0x809db0b0, -EINVAL);
	expect_inline_err(be, "vsp = r15 is reserved (0x9f)", 0x809fb0b0, -EINVAL);
	expect_inline_err(be, "spare 0xb1 0x00", 0x80b100b0, -EINVAL);
	expect_inline_err(be, "spare 0xb1 0x10", 0x80b110b0, -EINVAL);
	expect_inline_err(be, "spare 0xb4", 0x80b4b0b0, -EINVAL);
	expect_inline_err(be, "spare 0xc7 0x00", 0x80c700b0, -EINVAL);
	expect_inline_err(be, "spare 0xc7 0x10", 0x80c710b0, -EINVAL);
	expect_inline_err(be, "spare 0xca", 0x80cab0b0, -EINVAL);
	expect_inline_err(be, "spare 0xd8", 0x80d8b0b0, -EINVAL);
	expect_inline_err(be, "spare 0xff", 0x80ffb0b0, -EINVAL);
	expect_inline_err(be, "0x84 without its second byte", 0x80020284, -EINVAL);
	expect_inline_err(be, "0xb2 with an unfinished uleb128", 0x8000b280, -EINVAL);
	expect_inline_err(be, "vsp -= below 0 (0x7f after vsp = r0)", 0x80907fb0, -EINVAL);
	/* nothing popped, SP unchanged and LR == PC: no progress */
	c = case_begin(hn("a step that neither moves SP nor PC", be));
	r = regs_in();
	r.r[14] = r.r[15];
	s = stack_of(64);
	EXPECT(&c, "return", (int64_t)-EINVAL, (int64_t)step_inline(be, 0x80b0b0b0, &r, &s));
	case_end(&c);
	/* a return address of 0 ends the chain */
	c = case_begin(hn("popped PC of 0 is the bottom", be));
	r = regs_in();
	s = stack_of(64);
	s.w[1] = 0;
	EXPECT(&c, "return", 0, step_inline(be, 0x80a8b0b0, &r, &s));
	EXPECT(&c, "SP unchanged", STACK, r.r[13]);
	case_end(&c);
	/* registers the opcodes need but we do not know */
	c = case_begin(hn("vsp = r7 with r7 unknown", be));
	r = regs_in();
	r.valid &= ~(1u << 7);
	s = stack_of(64);
	EXPECT(&c, "return", (int64_t)-EINVAL, (int64_t)step_inline(be, 0x8097b0b0, &r, &s));
	case_end(&c);
	c = case_begin(hn("PC = LR with LR unknown", be));
	r = regs_in();
	r.valid &= ~(1u << 14);
	s = stack_of(64);
	EXPECT(&c, "return", (int64_t)-EINVAL, (int64_t)step_inline(be, 0x80a3b0b0, &r, &s));
	case_end(&c);
	c = case_begin(hn("SP unknown", be));
	r = regs_in();
	r.valid &= ~(1u << 13);
	s = stack_of(64);
	EXPECT(&c, "return", (int64_t)-EINVAL, (int64_t)step_inline(be, 0x80a8b0b0, &r, &s));
	case_end(&c);
	/* the stack ends before the words popped */
	c = case_begin(hn("stack word not readable", be));
	r = regs_in();
	s = stack_of(1);
	EXPECT(&c, "return", (int64_t)-EFAULT, (int64_t)step_inline(be, 0x80a8b0b0, &r, &s));
	EXPECT(&c, "SP unchanged", STACK, r.r[13]);
	case_end(&c);
}

/* the table of hand_tables(): one function per 0x100 bytes from 0x8000 */
static const struct tp_ehabi_tables *multi(struct tb *b, int be)
{
	memset(b, 0, sizeof(*b));
	tb_fn(b, 0x8000, 0x80a8b0b0);		/* inline pr0 */
	tb_fn(b, 0x8100, 1);			/* EXIDX_CANTUNWIND */
	b->et[0] = 0x80a9b0b0;			/* pr0 in .ARM.extab */
	tb_fn_ext(b, 0x8200, 0);
	b->et[1] = 0x81010203;			/* pr1: 1 more word; vsp += 12, += 16 */
	b->et[2] = 0xa8b0b0b0;
	tb_fn_ext(b, 0x8300, 1);
	b->et[3] = 0x82020001;			/* pr2: 2 more words */
	b->et[4] = 0x02020202;
	b->et[5] = 0xa8b0b0b0;
	tb_fn_ext(b, 0x8400, 3);
	b->et[6] = 0x00001234;			/* generic: personality, count 1 and 3 opcodes */
	b->et[7] = 0x0102a8b0;
	b->et[8] = 0xb0b0b0b0;
	b->et[9] = 0xdeadbeef;			/* (the LSDA, not ours to read) */
	tb_fn_ext(b, 0x8500, 6);
	tb_fn(b, 0x8600, 0x8002b0b0);		/* inline vsp += 12 */
	b->net = 10;
	return tb_done(b, be);
}

static void expect_at(int be, const char *what, struct tb *b, uint32_t pc, int ret,
		      uint32_t sp_off, uint32_t new_pc)
{
	struct tcase c = case_begin(hn(what, be));
	struct tp_arm_regs r = regs_in(), r0 = r;
	struct stk s = stack_of(64);

	EXPECT(&c, "return", (int64_t)ret, (int64_t)tp_ehabi_step(&b->t, pc, &r, stk_read, &s));
	if (ret == 1) {
		EXPECT(&c, "SP", STACK + sp_off, r.r[13]);
		EXPECT(&c, "PC", new_pc, r.r[15]);
	} else {
		EXPECT_TRUE(&c, "registers unchanged", !memcmp(&r, &r0, sizeof(r)));
	}
	case_end(&c);
}

static void hand_tables(int be)
{
	struct tb b;

	multi(&b, be);
	expect_at(be, "pc before the first function", &b, 0x7fff, -ENOENT, 0, 0);
	expect_at(be, "pc at a function's first byte", &b, 0x8000, 1, 8, 0x5004);
	expect_at(be, "pc at a function's last byte", &b, 0x80ff, 1, 8, 0x5004);
	expect_at(be, "EXIDX_CANTUNWIND", &b, 0x8180, 0, 0, 0);
	expect_at(be, ".ARM.extab pr0", &b, 0x8204, 1, 12, 0x5008);
	expect_at(be, ".ARM.extab pr1 long form", &b, 0x8304, 1, 36, 0x5020);
	expect_at(be, ".ARM.extab pr2 long form, 2 words", &b, 0x8404, 1, 68, 0x5040);
	expect_at(be, ".ARM.extab generic model", &b, 0x8504, 1, 20, 0x5010);
	expect_at(be, "pc past the last function: the last entry", &b, 0x9000, 1, 12, LR_IN);

	multi(&b, be);
	b.t.exidx_size += 3;			/* a partial entry at the end is not one */
	expect_at(be, "exidx size not a multiple of 8", &b, 0x8604, 1, 12, LR_IN);
	b.t.exidx_size = 0;
	expect_at(be, "empty index", &b, 0x8604, -ENOENT, 0, 0);

	multi(&b, be);
	b.ix[0] |= 0x80000000u;			/* bit 31 of a function word */
	tb_done(&b, be);
	expect_at(be, "function word with bit 31 set", &b, 0x8000, -EINVAL, 0, 0);
	multi(&b, be);
	b.ix[1] = 0x81a8b0b0;			/* inline entries are pr0 only */
	tb_done(&b, be);
	expect_at(be, "inline entry with personality 1", &b, 0x8000, -EINVAL, 0, 0);
	multi(&b, be);
	b.et[0] = 0x83a8b0b0;			/* personality routines 3-15: reserved */
	tb_done(&b, be);
	expect_at(be, "extab compact entry, personality 3", &b, 0x8204, -EINVAL, 0, 0);
	multi(&b, be);
	b.et[0] = 0x90a8b0b0;			/* bits 30-28 of a compact entry are 0 */
	tb_done(&b, be);
	expect_at(be, "extab compact entry, bits 30-28 set", &b, 0x8204, -EINVAL, 0, 0);

	/* prel31s that leave .ARM.extab, or miss a word boundary */
	multi(&b, be);
	b.ix[5] = (b.ix[5] + 4 * 10) & 0x7fffffffu;	/* one past the last word */
	tb_done(&b, be);
	expect_at(be, "extab prel31 past the section", &b, 0x8204, -EINVAL, 0, 0);
	multi(&b, be);
	b.ix[5] = (b.ix[5] - 4) & 0x7fffffffu;	/* just before it */
	tb_done(&b, be);
	expect_at(be, "extab prel31 before the section", &b, 0x8204, -EINVAL, 0, 0);
	multi(&b, be);
	b.ix[5] = (b.ix[5] + 2) & 0x7fffffffu;
	tb_done(&b, be);
	expect_at(be, "extab prel31 not word-aligned", &b, 0x8204, -EINVAL, 0, 0);
	multi(&b, be);
	b.ix[5] = 0x40000000;			/* far below, negative */
	tb_done(&b, be);
	expect_at(be, "extab prel31 far out", &b, 0x8204, -EINVAL, 0, 0);
	multi(&b, be);
	b.t.extab = NULL;
	expect_at(be, "extab entry without an .ARM.extab", &b, 0x8204, -EINVAL, 0, 0);
	expect_at(be, "inline entry without an .ARM.extab", &b, 0x8004, 1, 8, 0x5004);

	/* words the counts promise but the section lacks */
	multi(&b, be);
	b.t.extab_size = 4 * 2;			/* pr1 at word 1 wants word 2 too */
	expect_at(be, "pr1 word count past the section", &b, 0x8304, -EINVAL, 0, 0);
	multi(&b, be);
	b.et[1] = 0x81ff0203;			/* 255 more words */
	tb_done(&b, be);
	expect_at(be, "pr1 count 255 in a short section", &b, 0x8304, -EINVAL, 0, 0);
	multi(&b, be);
	b.t.extab_size = 4 * 8;			/* generic: personality and the count word only */
	expect_at(be, "generic model count past the section", &b, 0x8504, -EINVAL, 0, 0);
	b.t.extab_size = 4 * 8 - 1;		/* its count word cut */
	expect_at(be, "generic model count word truncated", &b, 0x8504, -EINVAL, 0, 0);

	multi(&b, be);
	b.t.exidx_addr = 0x100000000ull;
	expect_at(be, "exidx address beyond 32 bits", &b, 0x8004, -EINVAL, 0, 0);
	multi(&b, be);
	b.t.extab_addr = 0xfffffff0u;
	b.t.extab_size = 0x20;
	expect_at(be, "extab past the end of the address space", &b, 0x8004, -EINVAL, 0, 0);
}

static void hand_misc(void)
{
	struct tcase c = case_begin("ehabi NULL tables or callback");
	struct tp_arm_regs r = regs_in();
	struct stk s = stack_of(64);
	struct tb b;

	multi(&b, 0);
	EXPECT(&c, "NULL tables", (int64_t)-EINVAL, (int64_t)tp_ehabi_step(NULL, 0x8000, &r, stk_read, &s));
	EXPECT(&c, "NULL read", (int64_t)-EINVAL, (int64_t)tp_ehabi_step(&b.t, 0x8000, &r, NULL, &s));
	EXPECT(&c, "NULL regs", (int64_t)-EINVAL, (int64_t)tp_ehabi_step(&b.t, 0x8000, NULL, stk_read, &s));
	case_end(&c);
}
