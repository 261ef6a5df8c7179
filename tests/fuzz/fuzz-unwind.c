/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the host unwinder (host-tools/lib/unwind/): the input is a target (one
 * of the six), the bytes of an .eh_frame section (any bytes: libdw's reader and our stepping
 * loop over what it returns), a perf_regs mask with its values, and a stack copy; it unwinds
 * that stack through that table. Input layout (all little-endian):
 *   u8 target, u16 eh_frame size N, N bytes, [u16 size M, M bytes of .eh_frame_hdr at 0x7000
 *   when the target byte has bit 7 set], u64 reg mask, u8 count K, K u64 values, stack.
 * Bit 6 puts .eh_frame_hdr before .eh_frame in the section table, where linkers put it and
 * libdw uses its search table; with it and a well-formed table the unwinder checks each FDE
 * as it is looked up (cfiscan.c) instead of the whole section first.
 * Build and run: tests/fuzz/run.sh. Seeds: tests/fuzz/corpus/unwind/.
 * fuzz-options: -max_len=16384 */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/unwind/unwind.h"
#include "tests/unit/uw-image.h"

static const struct {
	unsigned machine;
	bool is64, be;
} targets[] = {
	{ EM_X86_64, true, false }, { EM_386, false, false }, { EM_ARM, false, false },
	{ EM_AARCH64, true, false }, { EM_MIPS, false, false }, { EM_MIPS, false, true },
};

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)in->p[0] << (8 * i);
	return v;
}

static struct tp_uwtab *tab;

static int find(void *ctx, uint64_t pc, struct tp_uwtab **t, uint64_t *bias)
{
	(void)ctx;
	if (pc < 0x1000 || pc >= 0x100000)
		return -1;
	*t = tab;
	*bias = 0;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	unsigned tb = (unsigned)take(&in, 1), t = tb % (sizeof(targets) / sizeof(targets[0]));
	size_t eh = (size_t)take(&in, 2), img_size = 0, k, hdr = 0;
	const uint8_t *eh_p, *hdr_p = NULL;
	uint64_t regs[64];
	struct tp_uwinput ui = { 0 };
	struct tp_uwframe f[TP_UW_MAX_STEPS];
	uint8_t *img, *stack;

	if (eh > in.n)
		eh = in.n;
	eh_p = in.p;
	in.p += eh;
	in.n -= eh;
	if (tb & 0x80) {
		hdr = (size_t)take(&in, 2);
		if (hdr > in.n)
			hdr = in.n;
		hdr_p = in.p;
		in.p += hdr;
		in.n -= hdr;
	}
	img = uw_image_hdr(targets[t].machine, targets[t].is64, targets[t].be, eh_p, eh, 0x8000,
			   hdr_p, hdr, 0x7000, tb & 0x40, &img_size);
	if (!img)
		return 0;
	if (tp_uwtab__from_mem(&tab, img, img_size)) {
		free(img);
		return 0;
	}
	ui.arch = tp_uwtab__arch(tab);
	ui.reg_mask = take(&in, 8);
	k = (size_t)take(&in, 1) % 65;
	for (size_t i = 0; i < k; i++)
		regs[i] = take(&in, 8);
	ui.regs = regs;
	ui.nr_regs = (uint32_t)k;
	/* a copy of its own, so that ASan sees every read past the stack's end */
	stack = malloc(in.n ? in.n : 1);
	if (stack) {
		memcpy(stack, in.p, in.n);
		ui.stack = stack;
		ui.stack_size = in.n;
		tp_unwind(&ui, find, NULL, f, TP_UW_MAX_STEPS);
	}
	free(stack);
	tp_uwtab__delete(tab);
	tab = NULL;
	free(img);
	return 0;
}
