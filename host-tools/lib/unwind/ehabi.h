/* SPDX-License-Identifier: MIT */
/* ARM EHABI unwinding of one frame from a binary's .ARM.exidx/.ARM.extab (compact models
 * pr0/pr1/pr2 and the generic model's unwind opcodes), for ARM binaries without DWARF CFI. */
#ifndef TINYPERF_HOST_TOOLS_LIB_UNWIND_EHABI_H
#define TINYPERF_HOST_TOOLS_LIB_UNWIND_EHABI_H

#include <stddef.h>
#include <stdint.h>

/* The ARM core registers of one frame (runtime values); bit n of valid is set when r[n] is known. */
struct tp_arm_regs {
	uint32_t r[16];
	uint32_t valid;
};

/* A binary's EHABI tables as they are in the file: section bytes (in the ELF's byte order) and
 * the link-time addresses of the sections. extab may be NULL/0. */
struct tp_ehabi_tables {
	const uint8_t *exidx;
	size_t exidx_size;
	uint64_t exidx_addr;
	const uint8_t *extab;
	size_t extab_size;
	uint64_t extab_addr;
	int big_endian;
};

/* Reads the 32-bit word of the sampled process's memory at ADDR (runtime address, normally in
 * the stack copy) into *word: 0, or a negative error when the word is not available. */
typedef int (*tp_ehabi_read_fn)(void *ctx, uint32_t addr, uint32_t *word);

/* Unwinds one frame. PC is the frame's PC translated to the binary's link-time address (the
 * caller subtracts the load bias and, for a non-leaf frame, has already stepped back into the
 * call instruction). On return 1 regs hold the caller's frame: r[13] its SP, r[15] its PC
 * (runtime, Thumb bit kept), and every register the opcodes restored is valid. Returns 0 at
 * the bottom of the stack (EXIDX_CANTUNWIND, or a PC the entry says ends the chain); -ENOENT
 * when no entry covers PC, -EINVAL when the tables or opcodes are malformed (or an opcode needs
 * a register that is not valid), -EFAULT when a word could not be read. Never loops: bounded by the opcode bytes; a step that does not move SP up and
 * keeps PC is an error. */
int tp_ehabi_step(const struct tp_ehabi_tables *t, uint32_t pc, struct tp_arm_regs *regs,
		  tp_ehabi_read_fn read, void *ctx);

#endif
