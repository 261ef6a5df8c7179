/* SPDX-License-Identifier: MIT */
/* Unit tests of the host unwinder (host-tools/lib/unwind/): the stepping loop on CFI written
 * byte by byte for x86_64, ARM (Thumb) and big-endian MIPS (the target libdw 0.188 has no ABI
 * rules for), against stacks built to match; and what hostile input must not do — corrupt
 * registers, truncated stacks, a return address that loops, a CFA that does not grow, a DWARF
 * expression that jumps to itself or overflows its stack. Then real stacks: uw-cross.c built
 * for each target (unwind-fixtures.sh) and run under qemu-user writes its registers and stack
 * from a leaf three calls below main; unwound through the binary's own tables (for ARM also
 * with .ARM.exidx alone), the chain must be leaf, mid, top, main. Runs under ASan/UBSan. */
#define _GNU_SOURCE		/* mkdtemp */
#include <dwarf.h>
#include <elf.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/unwind/internal.h"
#include "host-tools/lib/unwind/unwind.h"
#include "tests/unit/check.h"
#include "tests/unit/uw-image.h"

#define EH_ADDR	0x8000

static struct tp_uwtab *tab;

static int find(void *ctx, uint64_t pc, struct tp_uwtab **t, uint64_t *bias)
{
	(void)ctx;
	if (pc < 0x1000 || pc >= 0x6000)
		return -1;
	*t = tab;
	*bias = 0;
	return 0;
}

static uint8_t *img;

static bool load(struct tcase *c, unsigned machine, bool is64, bool be, struct uwbuf *eh)
{
	size_t size = 0;
	int err;

	uw_put(eh, 0, 4);		/* the terminator */
	free(img);
	img = uw_image(machine, is64, be, eh->b, eh->n, EH_ADDR, &size);
	tp_uwtab__delete(tab);
	tab = NULL;
	err = img ? tp_uwtab__from_mem(&tab, img, size) : -1;
	return EXPECT(c, "tp_uwtab__from_mem", 0, err) && EXPECT_TRUE(c, "a table", tab);
}

static void put_word(uint8_t *stack, size_t off, uint64_t v, unsigned size, bool be)
{
	for (unsigned i = 0; i < size; i++)
		stack[off + i] = (uint8_t)(v >> (8 * (be ? size - 1 - i : i)));
}

/* ---- x86_64: leaf [0x1000,0x1100), mid [0x2000,0x2100), top [0x3000,0x3100) ---- */

#define SP0	0x7ff000ull

static void x86_64_tables(struct tcase *c)
{
	static const uint8_t cie[] = { DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1 };
	static const uint8_t mid[] = { DW_CFA_advance_loc | 4, DW_CFA_def_cfa_offset, 16,
				       DW_CFA_offset | 3, 2 };
	static const uint8_t top[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 32 };
	/* returns to itself with the same SP: the CFA is the SP, the RA at [CFA] */
	static const uint8_t flat[] = { DW_CFA_def_cfa_offset, 0,
					DW_CFA_offset_extended_sf, 16, 0 };
	/* a CFA expression that jumps to itself; an RA expression that overflows the stack */
	static const uint8_t loop[] = { DW_CFA_def_cfa_expression, 3, DW_OP_skip, 0xfd, 0xff };
	uint8_t deep[3 + 70] = { DW_CFA_expression, 16, 70 };
	struct uwbuf eh = { .be = false };
	size_t at;

	memset(deep + 3, DW_OP_lit0, 70);
	at = uw_cie(&eh, -8, 16, cie, sizeof(cie));
	uw_fde(&eh, at, EH_ADDR, 0x1000, 0x100, NULL, 0);
	uw_fde(&eh, at, EH_ADDR, 0x2000, 0x100, mid, sizeof(mid));
	uw_fde(&eh, at, EH_ADDR, 0x3000, 0x100, top, sizeof(top));
	uw_fde(&eh, at, EH_ADDR, 0x4000, 0x100, flat, sizeof(flat));
	uw_fde(&eh, at, EH_ADDR, 0x5000, 0x80, loop, sizeof(loop));
	uw_fde(&eh, at, EH_ADDR, 0x5080, 0x80, deep, sizeof(deep));
	load(c, EM_X86_64, true, false, &eh);
}

/* perf_regs x86_64: BX 1, SP 7, IP 8 */
static uint32_t x86_64_unwind(uint64_t pc, uint64_t sp, const uint8_t *stack, uint64_t size,
			      struct tp_uwframe *f, uint32_t max)
{
	const uint64_t regs[3] = { 0x99, sp, pc };
	struct tp_uwinput in = {
		.arch = tp_uwtab__arch(tab), .reg_mask = (1u << 1) | (1u << 7) | (1u << 8),
		.regs = regs, .nr_regs = 3, .stack = stack, .stack_size = size,
	};

	return tp_unwind(&in, find, NULL, f, max);
}

static void test_x86_64(void)
{
	struct tcase c = case_begin("x86_64: three frames, caller PCs minus 1, stop at PC 0");
	static uint8_t stack[8192];
	struct tp_uwframe f[TP_UW_MAX_STEPS + 8];
	uint32_t n;

	x86_64_tables(&c);
	if (c.failed)
		goto out;
	memset(stack, 0, sizeof(stack));
	put_word(stack, 0, 0x2015, 8, false);	/* leaf's RA, into mid */
	put_word(stack, 8, 0x1234, 8, false);	/* mid's saved rbx */
	put_word(stack, 16, 0x3020, 8, false);	/* mid's RA, into top */
	put_word(stack, 48, 0, 8, false);	/* top's RA: the end */
	n = x86_64_unwind(0x1010, SP0, stack, 64, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames", 3, n);
	EXPECT(&c, "frame 0 (the sampled PC)", 0x1010, f[0].pc);
	EXPECT(&c, "frame 1 (a call in mid)", 0x2014, f[1].pc);
	EXPECT(&c, "frame 2 (a call in top)", 0x301f, f[2].pc);
	case_end(&c);

	c = case_begin("x86_64: a truncated stack ends the chain where a word is missing");
	n = x86_64_unwind(0x1010, SP0, stack, 16, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames with 16 bytes", 2, n);
	n = x86_64_unwind(0x1010, SP0, stack, 7, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames with 7 bytes", 1, n);
	n = x86_64_unwind(0x1010, SP0, NULL, 0, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames without a stack", 1, n);
	n = x86_64_unwind(0x1010, SP0, stack, 64, f, 2);
	EXPECT(&c, "frames with room for 2", 2, n);
	case_end(&c);

	c = case_begin("x86_64: a return address into itself stops at the step limit");
	for (size_t i = 0; i < sizeof(stack); i += 8)
		put_word(stack, i, 0x1011, 8, false);
	n = x86_64_unwind(0x1010, SP0, stack, sizeof(stack), f, TP_UW_MAX_STEPS + 8);
	EXPECT(&c, "frames", TP_UW_MAX_STEPS, n);
	case_end(&c);

	c = case_begin("x86_64: a CFA that does not grow ends the chain");
	put_word(stack, 0, 0x4010, 8, false);
	n = x86_64_unwind(0x4010, SP0, stack, 64, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames", 1, n);
	/* an SP at the top of the address space: no read wraps around */
	n = x86_64_unwind(0x1010, ~0ull - 3, stack, 64, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames with SP near 2^64", 1, n);
	case_end(&c);

	c = case_begin("x86_64: a DWARF expression that loops or overflows is not followed");
	n = x86_64_unwind(0x5010, SP0, stack, 64, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames (CFA expression jumping to itself)", 1, n);
	n = x86_64_unwind(0x5090, SP0, stack, 64, f, TP_UW_MAX_STEPS);
	EXPECT(&c, "frames (RA expression pushing 70 values)", 1, n);
	case_end(&c);

	c = case_begin("corrupt registers: no SP or PC, too few or too many values");
	{
		const uint64_t regs[3] = { 0x99, SP0, 0x1010 };
		struct tp_uwinput in = {
			.arch = tp_uwtab__arch(tab), .reg_mask = (1u << 1) | (1u << 8),
			.regs = regs, .nr_regs = 2, .stack = stack, .stack_size = 64,
		};

		EXPECT(&c, "frames without SP", 0, tp_unwind(&in, find, NULL, f, 8));
		in.reg_mask = (1u << 1) | (1u << 7);
		EXPECT(&c, "frames without PC", 0, tp_unwind(&in, find, NULL, f, 8));
		in.reg_mask = ~0ull;
		in.nr_regs = 3;
		EXPECT(&c, "frames with a mask of 64 registers and 3 values", 0,
		       tp_unwind(&in, find, NULL, f, 8) > 1);
		in.reg_mask = (1u << 7) | (1u << 8);
		in.regs = regs + 1;
		in.nr_regs = 70;
		EXPECT(&c, "frames with more values than the mask has", 0,
		       tp_unwind(&in, find, NULL, f, 8));
		in.nr_regs = 2;
		in.arch = NULL;
		EXPECT(&c, "frames without an arch", 0, tp_unwind(&in, find, NULL, f, 8));
	}
	n = x86_64_unwind(0, SP0, stack, 64, f, 8);
	EXPECT(&c, "frames at PC 0", 0, n);
	n = x86_64_unwind(0xdead0000, SP0, stack, 64, f, 8);
	EXPECT(&c, "frames at a PC in no binary", 1, n);
out:
	case_end(&c);
}

/* ---- big-endian MIPS: leaf [0x1000,0x1100) saves nothing, mid [0x2000,0x2100) ---- */

static void test_mips_be(void)
{
	struct tcase c = case_begin("mips (big-endian, no libdw ABI rules): leaf RA in $ra");
	static const uint8_t cie[] = { DW_CFA_def_cfa, 29, 0 };
	static const uint8_t mid[] = { DW_CFA_advance_loc | 4, DW_CFA_def_cfa_offset, 32,
				       DW_CFA_offset | 31, 1 };
	/* perf_regs mips: PC 0, R29 29, R31 31 */
	const uint64_t regs[3] = { 0x1010, SP0, 0x2018 };
	struct tp_uwinput in = {
		.reg_mask = 1u | (1u << 29) | (1u << 31), .regs = regs, .nr_regs = 3,
	};
	struct uwbuf eh = { .be = true };
	uint8_t stack[64] = { 0 };
	struct tp_uwframe f[8];
	uint32_t n;

	uw_fde(&eh, uw_cie(&eh, -4, 31, cie, sizeof(cie)), EH_ADDR, 0x1000, 0x100, NULL, 0);
	uw_fde(&eh, 0, EH_ADDR, 0x2000, 0x100, mid, sizeof(mid));
	if (!load(&c, EM_MIPS, false, true, &eh))
		goto out;
	in.arch = tp_uwtab__arch(tab);
	EXPECT_TRUE(&c, "arch mips", !strcmp(tp_uwarch__name(in.arch), "mips"));
	put_word(stack, 28, 0x3000, 4, true);	/* mid's RA at CFA - 4 */
	in.stack = stack;
	in.stack_size = sizeof(stack);
	n = tp_unwind(&in, find, NULL, f, 8);
	EXPECT(&c, "frames", 3, n);
	EXPECT(&c, "frame 0", 0x1010, f[0].pc);
	EXPECT(&c, "frame 1 (from $ra)", 0x2017, f[1].pc);
	EXPECT(&c, "frame 2 (from the stack, big-endian)", 0x2fff, f[2].pc);
out:
	case_end(&c);
}

/* ---- ARM, Thumb: the PC's bit 0 is no address ---- */

static void test_arm_thumb(void)
{
	struct tcase c = case_begin("arm (Thumb): leaf RA in lr, Thumb bits cleared");
	static const uint8_t cie[] = { DW_CFA_def_cfa, 13, 0 };
	static const uint8_t mid[] = { DW_CFA_advance_loc | 2, DW_CFA_def_cfa_offset, 8,
				       DW_CFA_offset | 14, 1 };
	/* perf_regs arm: R13 sp, R14 lr, R15 pc */
	const uint64_t regs[3] = { SP0, 0x2011, 0x1009 };
	struct tp_uwinput in = {
		.reg_mask = (1u << 13) | (1u << 14) | (1u << 15), .regs = regs, .nr_regs = 3,
	};
	struct uwbuf eh = { .be = false };
	uint8_t stack[64] = { 0 };
	struct tp_uwframe f[8];
	uint32_t n;

	uw_fde(&eh, uw_cie(&eh, -4, 14, cie, sizeof(cie)), EH_ADDR, 0x1000, 0x100, NULL, 0);
	uw_fde(&eh, 0, EH_ADDR, 0x2000, 0x100, mid, sizeof(mid));
	if (!load(&c, EM_ARM, false, false, &eh))
		goto out;
	in.arch = tp_uwtab__arch(tab);
	put_word(stack, 4, 0x3001, 4, false);	/* mid's lr at CFA - 4 */
	in.stack = stack;
	in.stack_size = sizeof(stack);
	n = tp_unwind(&in, find, NULL, f, 8);
	EXPECT(&c, "frames", 3, n);
	EXPECT(&c, "frame 0", 0x1008, f[0].pc);
	EXPECT(&c, "frame 1 (lr)", 0x200f, f[1].pc);
	EXPECT(&c, "frame 2", 0x2fff, f[2].pc);
out:
	case_end(&c);
}

static void test_files(void)
{
	struct tcase c = case_begin("tables of this test's own binary; a missing file");
	struct tp_uwtab *t = NULL;
	uint64_t v = 0;
	int err = tp_uwtab__open(&t, "/proc/self/exe", NULL);

	if (EXPECT(&c, "open /proc/self/exe", 0, err)) {
		EXPECT(&c, "it has .eh_frame", 1, tp_uwtab__kinds(t) & 1);
		EXPECT(&c, "offset 0 is in a PT_LOAD", 0, tp_uwtab__vaddr(t, 0, &v));
		EXPECT(&c, "an offset past the file is not", -1, tp_uwtab__vaddr(t, 1ull << 60, &v));
	}
	tp_uwtab__delete(t);
	EXPECT_TRUE(&c, "a missing file fails",
		    tp_uwtab__open(&t, "/nonexistent/x", NULL) < 0 && !t);
	EXPECT_TRUE(&c, "a non-ELF fails", tp_uwtab__open(&t, "/proc/self/status", NULL) < 0);
	case_end(&c);
}

/* An FDE whose CIE pointer leads into the middle of another FDE, to bytes that read as a
 * CIE (there a DW_CFA_def_cfa_expression block that the scan of the section's own entries
 * skips): libdw would run that CIE's instructions for the FDE's PCs, so a register 2^24 in
 * them refuses .eh_frame as one in a CIE of the chain does; with register 16 it is used. */
static void test_hidden_cie(void)
{
	struct tcase c = case_begin("a CIE reached only through an FDE's pointer is checked");
	static const uint8_t cie[] = { DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1 };

	for (int hostile = 0; hostile < 2; hostile++) {
		/* DW_CFA_offset_extended of register 16, or of 2^24 (ULEB 80 80 80 08) */
		static const uint8_t sane[] = { DW_CFA_def_cfa, 7, 8,
						DW_CFA_offset_extended, 16, 1 };
		static const uint8_t huge[] = { DW_CFA_def_cfa, 7, 8, DW_CFA_offset_extended,
						0x80, 0x80, 0x80, 0x08, 1 };
		struct uwbuf eh = { .be = false }, hid = { .be = false };
		uint8_t block[2 + 64];
		size_t at, first;

		uw_cie(&hid, -8, 16, hostile ? huge : sane, hostile ? sizeof(huge) : sizeof(sane));
		block[0] = DW_CFA_def_cfa_expression;
		block[1] = (uint8_t)hid.n;		/* under 64: a one-byte ULEB */
		memcpy(block + 2, hid.b, hid.n);
		at = uw_cie(&eh, -8, 16, cie, sizeof(cie));
		first = eh.n;
		uw_fde(&eh, at, EH_ADDR, 0x1000, 0x100, block, 2 + hid.n);
		/* length, CIE pointer, PC, range, augmentation length, then the block's 2 bytes */
		uw_fde(&eh, first + 4 + 4 + 4 + 4 + 1 + 2, EH_ADDR, 0x2000, 0x100, NULL, 0);
		if (load(&c, EM_X86_64, true, false, &eh))
			EXPECT(&c, hostile ? "register 2^24: .eh_frame refused" :
					     "register 16: .eh_frame used",
			       hostile ? 0 : 1, tp_uwtab__kinds(tab) & 1);
	}
	case_end(&c);
}

/* three FDEs for [0x1000, +0x100), [0x2000, ...), [0x3000, ...), the middle one naming
 * register 2^24 when hostile, and an .eh_frame_hdr at HDR_ADDR whose entry k is for the PC of
 * FDE order[k] and points at FDE fde_of[order[k]] */
#define HDR_ADDR	0x7000

static void hdr_tables(struct uwbuf *eh, struct uwbuf *hdr, bool hostile, const int order[3],
		       const int fde_of[3])
{
	static const uint8_t cie[] = { DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1 };
	static const uint8_t huge[] = { DW_CFA_offset_extended, 0x80, 0x80, 0x80, 0x08, 1 };
	size_t fde[3], at = uw_cie(eh, -8, 16, cie, sizeof(cie));

	for (int i = 0; i < 3; i++) {
		fde[i] = eh->n;
		uw_fde(eh, at, EH_ADDR, 0x1000 * (i + 1), 0x100, hostile && i == 1 ? huge : NULL,
		       hostile && i == 1 ? sizeof(huge) : 0);
	}
	uw_put(eh, 0, 4);		/* the terminator */
	uw_put(hdr, 1, 1);		/* version */
	uw_put(hdr, 0x1b, 1);		/* .eh_frame pointer: pcrel sdata4 */
	uw_put(hdr, 0x03, 1);		/* count: udata4 */
	uw_put(hdr, 0x3b, 1);		/* entries: datarel sdata4 */
	uw_put(hdr, (uint32_t)(EH_ADDR - (HDR_ADDR + 4)), 4);
	uw_put(hdr, 3, 4);
	for (int k = 0; k < 3; k++) {
		uw_put(hdr, (uint32_t)(0x1000 * (order[k] + 1) - HDR_ADDR), 4);
		uw_put(hdr, (uint32_t)(EH_ADDR + fde[fde_of[order[k]]] - HDR_ADDR), 4);
	}
}

/* The premise of the per-FDE check below: with .eh_frame_hdr before .eh_frame in the section
 * table, as linkers place it, libdw finds a PC's FDE through the header's search table, never
 * by walking the section. A table that sends the PCs of the first FDE to the third one shows
 * which: a walk finds the first FDE, the table an FDE that does not cover the PC. */
static void test_hdr_libdw(void)
{
	struct tcase c = case_begin(".eh_frame_hdr: libdw looks FDEs up through its search table");
	struct uwbuf eh = { .be = false }, hdr = { .be = false };
	static const int order[3] = { 0, 1, 2 }, fde_of[3] = { 2, 1, 2 };
	Dwarf_Frame *fr = NULL;
	Dwarf_CFI *cfi;
	size_t size = 0;
	uint8_t *im;
	Elf *e;

	hdr_tables(&eh, &hdr, false, order, fde_of);
	elf_version(EV_CURRENT);
	im = uw_image_hdr(EM_X86_64, true, false, eh.b, eh.n, EH_ADDR, hdr.b, hdr.n, HDR_ADDR,
			  true, &size);
	e = im ? elf_memory((char *)im, size) : NULL;
	cfi = e ? dwarf_getcfi_elf(e) : NULL;
	if (EXPECT_TRUE(&c, "libdw reads the image's CFI", cfi)) {
		EXPECT(&c, "0x3010: the third FDE", 0, dwarf_cfi_addrframe(cfi, 0x3010, &fr));
		free(fr);
		fr = NULL;
		EXPECT(&c, "0x1010: no frame (the table's FDE does not cover it)", -1,
		       dwarf_cfi_addrframe(cfi, 0x1010, &fr));
		free(fr);
		dwarf_cfi_end(cfi);
	}
	if (e)
		elf_end(e);
	free(im);
	case_end(&c);
}

/* .eh_frame with the usual .eh_frame_hdr search table is checked one FDE at a time, when a PC
 * first needs it: an FDE naming register 2^24 keeps libdw from its own PCs only, the other
 * FDEs are used. A table out of order (a binary search of it could land anywhere) keeps the
 * whole scan, which refuses the section; so does a header after .eh_frame in the section
 * table, which libdw 0.188 does not use: it walks the section, where the table's entry for
 * a PC need not be the FDE it runs (the fuzz-unwind finding hdr-after-eh-frame). */
static void test_hdr_lazy(void)
{
	struct tcase c = case_begin(".eh_frame_hdr: each FDE checked when its PC is first looked up");
	static const int ident[3] = { 0, 1, 2 };
	static const struct {
		const char *what;
		bool hdr_first;
		int order[3];
	} lay[] = {
		{ "sorted table: .eh_frame used", true, { 0, 1, 2 } },
		{ "table out of order: .eh_frame refused as a whole", true, { 2, 1, 0 } },
		{ "header after .eh_frame: .eh_frame refused as a whole", false, { 0, 1, 2 } },
	};

	for (size_t l = 0; l < sizeof(lay) / sizeof(lay[0]); l++) {
		struct uwbuf eh = { .be = false }, hdr = { .be = false };
		bool lazy = l == 0;
		size_t size = 0;
		int err;

		hdr_tables(&eh, &hdr, true, lay[l].order, ident);
		free(img);
		img = uw_image_hdr(EM_X86_64, true, false, eh.b, eh.n, EH_ADDR, hdr.b, hdr.n,
				   HDR_ADDR, lay[l].hdr_first, &size);
		tp_uwtab__delete(tab);
		tab = NULL;
		err = img ? tp_uwtab__from_mem(&tab, img, size) : -1;
		if (!EXPECT(&c, "tp_uwtab__from_mem", 0, err) || !EXPECT_TRUE(&c, "a table", tab))
			continue;
		EXPECT(&c, lay[l].what, lazy ? 1 : 0, tp_uwtab__kinds(tab) & 1);
		if (!lazy)
			continue;
		for (int i = 0; i < 3; i++) {
			struct tp_uwrow tmp = { 0 }, *row = NULL;
			char what[64];

			snprintf(what, sizeof(what), "a row at %#x: %s", 0x1000 * (i + 1) + 0x10,
				 i == 1 ? "none (register 2^24)" : "from its FDE");
			err = tp_uwrow__get(tab, tab->arch, 0x1000 * (i + 1) + 0x10, &row, &tmp);
			EXPECT_TRUE(&c, what, err == 1 && row && row->none == (i == 1));
			tp_uwrow__release(&tmp);
		}
	}
	case_end(&c);
}

/* ---- real stacks of the six targets ---- */

static int find_any(void *ctx, uint64_t pc, struct tp_uwtab **t, uint64_t *bias)
{
	*t = ctx;
	*bias = 0;		/* static, not PIE: run where linked */
	return pc ? 0 : -1;
}

/* perf_regs indices of pc, sp, ra, fp for each target (ra -1: on the stack, x86) */
static const struct {
	const char *arch;
	int pc, sp, ra, fp;
} cross_regs[] = {
	{ "x86_64", 8, 7, -1, 6 }, { "i386", 8, 7, -1, 6 }, { "arm", 15, 13, 14, 7 },
	{ "aarch64", 32, 31, 30, 29 }, { "mipsel", 0, 29, 31, 30 }, { "mips", 0, 29, 31, 30 },
	{ "arm-exidx", 15, 13, 14, 7 },	/* through tp_ehabi_step() */
};

static void test_cross_arch(const char *fx, const char *arch, int k)
{
	static const char *const want[4] = { "leaf", "mid", "top", "main" };
	char path[PATH_MAX + 32], name[16], what[64], title[64];
	uint64_t start[4] = { 0 }, len[4] = { 0 }, v[4] = { 0 }, regs[4];
	uint8_t raw[32];
	uint8_t stack[1024];
	struct tp_uwframe f[16];
	struct tp_uwtab *t = NULL;
	struct tcase c;
	unsigned long long a, l;
	uint32_t n, nr = 0;
	uint64_t mask = 0;
	int idx[4] = { cross_regs[k].pc, cross_regs[k].sp, cross_regs[k].ra, cross_regs[k].fp };
	FILE *fp;

	snprintf(title, sizeof(title), "%s: a real stack unwound to main", arch);
	c = case_begin(title);
	snprintf(path, sizeof(path), "%s/%s.syms", fx, arch);
	fp = fopen(path, "r");
	while (fp && fscanf(fp, "%15s %llx %llx", name, &a, &l) == 3)
		for (int i = 0; i < 4; i++)
			if (!strcmp(name, want[i])) {
				start[i] = a;
				len[i] = l;
			}
	if (fp)
		fclose(fp);
	snprintf(path, sizeof(path), "%s/%s.stack", fx, arch);
	fp = fopen(path, "rb");
	if (!EXPECT_TRUE(&c, "the stack file", fp && fread(name, 1, 4, fp) == 4 &&
			 !memcmp(name, "TPUW", 4) && fread(raw, sizeof(raw), 1, fp) == 1 &&
			 fread(stack, 1, sizeof(stack), fp) == sizeof(stack)))
		goto out;
	for (int i = 0; i < 32; i++)
		v[i / 8] |= (uint64_t)raw[i] << (8 * (i % 8));
	snprintf(path, sizeof(path), "%s/%s", fx, arch);
	if (!EXPECT(&c, "tp_uwtab__open", 0, tp_uwtab__open(&t, path, NULL)))
		goto out;
	/* the values in the order of their perf_regs bits */
	for (int b = 0; b < 64; b++)
		for (int i = 0; i < 4; i++)
			if (idx[i] == b) {
				mask |= 1ull << b;
				regs[nr++] = v[i];
			}
	{
		struct tp_uwinput in = {
			.arch = tp_uwtab__arch(t), .reg_mask = mask, .regs = regs, .nr_regs = nr,
			.stack = stack, .stack_size = sizeof(stack),
		};

		n = tp_unwind(&in, find_any, t, f, 16);
	}
	EXPECT_TRUE(&c, "at least 4 frames", n >= 4);
	for (uint32_t i = 0; i < 4 && i < n; i++) {
		snprintf(what, sizeof(what), "frame %u in %s", i, want[i]);
		EXPECT_TRUE(&c, what, f[i].pc >= start[i] && f[i].pc < start[i] + len[i]);
	}
out:
	if (fp)
		fclose(fp);
	tp_uwtab__delete(t);
	case_end(&c);
}

static void test_cross(void)
{
	char fx[] = "/tmp/tp-unwindtest.XXXXXX", src[PATH_MAX], cmd[2 * PATH_MAX + 64], arch[32];
	int built = 0;
	FILE *f;

	snprintf(src, sizeof(src), "%s", __FILE__);
	if (!mkdtemp(fx)) {
		printf("[FAIL] fixtures: mkdtemp: expected a directory, got none\n");
		check_failed++;
		return;
	}
	snprintf(cmd, sizeof(cmd), "sh %s/unwind-fixtures.sh %s", dirname(src), fx);
	if (system(cmd) != 0)
		printf("note: '%s' failed\n", cmd);
	snprintf(cmd, sizeof(cmd), "%s/arches", fx);
	f = fopen(cmd, "r");
	while (f && fscanf(f, "%31s", arch) == 1)
		for (size_t k = 0; k < ARRAY_SIZE(cross_regs); k++)
			if (!strcmp(arch, cross_regs[k].arch)) {
				test_cross_arch(fx, arch, (int)k);
				built++;
			}
	if (f)
		fclose(f);
	{
		struct tcase c = case_begin("real stacks: the six targets (and ARM EHABI) were built and run");

		EXPECT(&c, "targets", ARRAY_SIZE(cross_regs), built);
		case_end(&c);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fx);
	if (system(cmd))
		printf("note: could not remove %s\n", fx);
}

int main(void)
{
	test_x86_64();
	test_mips_be();
	test_arm_thumb();
	test_files();
	test_hidden_cie();
	test_hdr_libdw();
	test_hdr_lazy();
	test_cross();
	tp_uwtab__delete(tab);
	free(img);
	return check_summary("test-unwind");
}
