/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the ARM EHABI unwinder (host-tools/lib/unwind/ehabi.c): the input is a
 * header (byte order, section sizes and addresses, the registers, the stack address and the
 * load bias), then .ARM.exidx, .ARM.extab and a stack copy; the target walks up to 64 frames
 * as the host unwinder would and checks what ehabi.h promises: a failed step leaves the
 * registers alone, a successful one knows SP and PC and moved SP up or changed PC.
 * Seeds: `test-ehabi --emit-seeds tests/fuzz/corpus/ehabi` (tests/unit/test-ehabi.c).
 * Build and run: tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/unwind/ehabi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the layout of the input's header, all fields little-endian */
#define HDR_FLAGS	0	/* bit 0: the sections are big-endian */
#define HDR_EXIDX_SIZE	1	/* u16 */
#define HDR_EXTAB_SIZE	3	/* u16 */
#define HDR_EXIDX_ADDR	5	/* u32 */
#define HDR_EXTAB_ADDR	9	/* u32 */
#define HDR_REGS	13	/* u32 r0-r15, u32 valid */
#define HDR_STACK_BASE	(HDR_REGS + 17 * 4)
#define HDR_BIAS	(HDR_STACK_BASE + 4)
#define HDR_SIZE	(HDR_BIAS + 4)

struct stack {
	const uint8_t *p;
	uint32_t base;
	size_t size;
	int big_endian;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_stack(void *ctx, uint32_t addr, uint32_t *word)
{
	const struct stack *s = ctx;
	uint32_t off = addr - s->base;
	const uint8_t *p;

	if (addr < s->base || off > s->size || s->size - off < 4)
		return -1;
	p = s->p + off;
	*word = s->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
				(uint32_t)p[2] << 8 | p[3] : le32(p);
	return 0;
}

/* an exact-size copy, so that ASan sees a read one byte past a section */
static uint8_t *dup(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	if (q && n)
		memcpy(q, p, n);
	return q;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_ehabi_tables t = { 0 };
	struct tp_arm_regs regs = { 0 };
	struct stack s;
	size_t nix, net;
	uint32_t bias;
	uint8_t *ix, *et;
	int ret = 1;

	if (size < HDR_SIZE)
		return 0;
	nix = (size_t)data[HDR_EXIDX_SIZE] | (size_t)data[HDR_EXIDX_SIZE + 1] << 8;
	net = (size_t)data[HDR_EXTAB_SIZE] | (size_t)data[HDR_EXTAB_SIZE + 1] << 8;
	if (nix > size - HDR_SIZE)
		nix = size - HDR_SIZE;
	if (net > size - HDR_SIZE - nix)
		net = size - HDR_SIZE - nix;
	ix = dup(data + HDR_SIZE, nix);
	et = dup(data + HDR_SIZE + nix, net);
	if (!ix || !et)
		goto out;
	t.big_endian = data[HDR_FLAGS] & 1;
	t.exidx = ix;
	t.exidx_size = nix;
	t.exidx_addr = le32(data + HDR_EXIDX_ADDR);
	/* the flags' bit 1 drops .ARM.extab, bit 2 puts the index above 4 GiB */
	t.extab = data[HDR_FLAGS] & 2 ? NULL : et;
	t.extab_size = net;
	t.extab_addr = le32(data + HDR_EXTAB_ADDR);
	if (data[HDR_FLAGS] & 4)
		t.exidx_addr |= 1ull << 32;
	for (int i = 0; i < 16; i++)
		regs.r[i] = le32(data + HDR_REGS + 4 * i);
	regs.valid = le32(data + HDR_REGS + 64);
	s = (struct stack){ data + HDR_SIZE + nix + net, le32(data + HDR_STACK_BASE),
			    size - HDR_SIZE - nix - net, t.big_endian };
	bias = le32(data + HDR_BIAS);
	for (int k = 0; k < 64 && ret == 1; k++) {
		struct tp_arm_regs before = regs;
		/* the first frame's PC is where it was sampled, the others are return addresses */
		uint32_t pc = (regs.r[15] & ~1u) - bias - (k ? 1 : 0);

		ret = tp_ehabi_step(&t, pc, &regs, read_stack, &s);
		if (ret != 1 && memcmp(&before, &regs, sizeof(regs)))
			abort();	/* a failed step must leave the registers alone */
		if (ret == 1 && ((regs.valid & 0xa000) != 0xa000 ||
				 (regs.r[13] <= before.r[13] && (before.valid & 0x8000) &&
				  regs.r[15] == before.r[15])))
			abort();	/* SP and PC known, and the step made progress */
		if (ret > 1)
			abort();
	}
out:
	free(ix);
	free(et);
	return 0;
}
