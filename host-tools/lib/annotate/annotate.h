/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/annotate/: per-instruction sample counts of symbols, the verified binary's code disassembled with Capstone, and source lines to go between. */
/* Layer annotate: may use common/, data/, session/, sym/, agg/, frames/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_ANNOTATE_ANNOTATE_H
#define TINYPERF_HOST_TOOLS_LIB_ANNOTATE_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

/* ---- the binary: an ELF of any class and byte order (elf.c) ---- */

struct tp_annelf;

/* Open elf_path, the file whose layout maps the DSO's addresses (the symbolizer's elf_path:
 * never another), for reading code. sym_path (may be NULL or equal) is where the symbols
 * came from: ARM mapping symbols ($a/$t/$d) are read from whichever of the two has a
 * .symtab. 0, -errno, -TP_ERR_NOMEM, or -ENOEXEC when it is no ELF. */
int tp_annelf__open(struct tp_annelf **out, const char *elf_path, const char *sym_path);
void tp_annelf__close(struct tp_annelf *e);
/* a file offset (the symbolizer's user-DSO address) to the ELF virtual address, through the
 * PT_LOAD segment holding it, and back: 0 or -ERANGE outside every segment */
int tp_annelf__vaddr(const struct tp_annelf *e, uint64_t off, uint64_t *vaddr);
int tp_annelf__offset(const struct tp_annelf *e, uint64_t vaddr, uint64_t *off);
/* "x86_64", "armv7", "aarch64", "mips (big-endian)" ...: for headers */
const char *tp_annelf__arch(const struct tp_annelf *e);

/* ---- disassembly (disasm.c) ---- */

struct tp_insn {
	uint64_t addr;			/* ELF virtual address */
	uint8_t size;			/* bytes */
	bool data;			/* data in code ($d): mnemonic ".word" ... */
	bool thumb;			/* decoded as Thumb */
	bool has_target;		/* a direct jump or call: to target */
	uint64_t target;
	char mnemonic[32];
	char ops[160];
};

struct tp_insns {
	struct tp_insn *v;
	uint32_t nr, cap;
};

/* The instructions of [start, start + size) (ELF virtual addresses, size 0 is taken as
 * empty) into out (emptied first). The mode comes from the ELF header: the class, byte
 * order, e_machine and e_flags; on 32-bit ARM from the mapping symbols ($a, $t, $d) or
 * else the low bit of the function symbol at start, or thumb_hint. Bytes no instruction
 * decodes from are kept as "(bad)" of the arch's smallest unit; x86 uses AT&T syntax, as
 * objdump and perf annotate. 0, -ERANGE (not in the file: no bytes, e.g. .bss),
 * -ENOEXEC (a machine Capstone or this code does not handle), -TP_ERR_NOMEM; -ENOSYS when
 * built without Capstone (HOST_CAPSTONE=n: disasm-none.c). */
int tp_annelf__disasm(struct tp_annelf *e, uint64_t start, uint64_t size, bool thumb_hint,
		      struct tp_insns *out);
void tp_insns__release(struct tp_insns *in);

/* ---- samples by instruction (hits.c) ---- */

/* one symbol's samples: keyed by what the caller says identifies it (an event index, a DSO
 * id and a symbol id), with the symbol's start and size in the binary's addresses */
struct tp_annsym {
	uint32_t attr, dso, sym;
	uint64_t start, size;
	uint64_t total;			/* the sum of the weights */
	uint64_t nr_samples;
	struct tp_annhit {
		uint64_t addr;		/* as added: as the symbolizer takes it (a user DSO's
					 * file offset, a kernel ip); the ELF virtual address
					 * after tp_annsym__to_vaddr() */
		uint64_t weight;
	} *hits;			/* by address */
	uint32_t nr_hits, cap_hits;
};

struct tp_annhits {
	struct tp_annsym *syms;
	uint32_t nr_syms, cap_syms;
	struct tp_htab sym_idx;		/* (attr, dso, sym) -> syms[] */
	uint64_t total;			/* of every symbol */
};

/* add weight at addr of the symbol: 0 or -TP_ERR_NOMEM */
int tp_annhits__add(struct tp_annhits *h, uint32_t attr, uint32_t dso, uint32_t sym,
		    uint64_t start, uint64_t size, uint64_t addr, uint64_t weight);
/* the symbols hottest first (ties by attr, dso, sym); no more adding after it */
void tp_annhits__sort(struct tp_annhits *h);
void tp_annhits__release(struct tp_annhits *h);
/* A sorted symbol's hits to the binary's virtual addresses: through e's PT_LOAD segments
 * for file offsets (file_offsets), else minus reloc (the kernel's runtime - link address);
 * sorted again. Returns how many hits fell outside every segment (their weight is dropped
 * from the hits, not from the total). */
uint32_t tp_annsym__to_vaddr(struct tp_annsym *s, const struct tp_annelf *e, bool file_offsets,
			     int64_t reloc);
/* the weight at addr of a symbol (0 if none) */
uint64_t tp_annsym__weight(const struct tp_annsym *s, uint64_t addr);

/* ---- source text (source.c) ---- */

struct tp_annsrc;

/* a cache of source files read whole: 0 or -TP_ERR_NOMEM */
int tp_annsrc__new(struct tp_annsrc **out);
void tp_annsrc__delete(struct tp_annsrc *s);
/* line (from 1) of file without its newline, or NULL when the file cannot be read (each
 * file is tried once) or is shorter; valid as long as the cache */
const char *tp_annsrc__line(struct tp_annsrc *s, const char *file, unsigned line);

#endif
