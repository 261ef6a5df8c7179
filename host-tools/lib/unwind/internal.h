/* SPDX-License-Identifier: MIT */
/* Library-internal: what the files of unwind/ share — the per-arch facts, a binary's tables,
 * and the register state of one frame. */
#ifndef TINYPERF_HOST_TOOLS_LIB_UNWIND_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_UNWIND_INTERNAL_H

#include <elfutils/libdw.h>
#include <libelf.h>

#include "host-tools/lib/unwind/ehabi.h"
#include "host-tools/lib/unwind/unwind.h"

/* PERF_SAMPLE_REGS_ABI_64 of the sample's abi word (the uapi's perf_sample_regs_abi) */
#define TP_REGS_ABI_64	2

/* One target's facts (arch.c), checked against the kernel's uapi asm/perf_regs.h. */
struct tp_uwarch {
	const char *name;
	uint16_t machine;		/* EM_* */
	uint8_t word;			/* bytes of a stack word: 4 on 32-bit ABIs */
	uint8_t nregs;			/* DWARF registers 0..nregs-1 are tracked */
	uint8_t sp;			/* DWARF number of the stack pointer */
	uint8_t pc_perf;		/* perf_regs index of the PC */
	int8_t perf_of[TP_UW_NREGS];	/* DWARF number -> perf_regs index, -1: not sampled */
	bool thumb;			/* ARM: bit 0 of a PC selects Thumb, not an address */
	/* libdw 0.188 has no ABI rules for it (no MIPS backend): its tables are read through a
	 * copy that libdw takes for another 32-bit machine, and a register the CFI does not
	 * mention keeps its value (as the MIPS ABI's callee-saved and return registers do) */
	bool no_abi;
	bool big_endian;
};

/* cfiscan.c: whether libdw may run the CFI section DATA of ELF (.eh_frame when EH, else
 * .debug_frame): every register it names is a sane number, every instruction walkable */
bool tp_uwcfi__sane(Elf *elf, Elf_Data *data, bool eh);
/* instead, when .eh_frame_hdr (HDR at HDR_ADDR) has a search table libdw is sure to use the
 * same way (cfiscan.c; the caller has made sure that libdw uses the header at all: it comes
 * before .eh_frame, table.c): the .eh_frame (EH at EH_ADDR) checked one FDE at a time, or
 * NULL */
struct tp_uwlazy *tp_uwcfi__lazy(Elf *elf, Elf_Data *eh, uint64_t eh_addr, Elf_Data *hdr,
				 uint64_t hdr_addr);
/* whether libdw 0.188 or later would search the table of .eh_frame_hdr HDR (version 1, the
 * count and the entries not omitted) rather than walk .eh_frame (cfiscan.c) */
bool tp_uwcfi__hdr_table(const Elf_Data *hdr);
/* whether libdw may look pc up in that .eh_frame: the FDE it would run passes the scan's
 * checks (each FDE once), or there is none; free() the struct when done */
bool tp_uwcfi__lazy_ok(struct tp_uwlazy *lz, uint64_t pc);

struct tp_uwseg {
	uint64_t off, filesz, vaddr;
};

struct tp_uwtab {
	const struct tp_uwarch *arch;
	int fd, dbg_fd;
	Elf *elf, *dbg_elf;		/* the file that ran, its debug file */
	Dwarf *dwarf;			/* of the file with .debug_frame */
	Dwarf_CFI *eh, *df;		/* .eh_frame, .debug_frame: NULL if none */
	bool eh_refused;		/* .eh_frame failed tp_uwcfi__sane() */
	struct tp_uwlazy *eh_lazy;	/* non-NULL: .eh_frame checked per FDE instead */
	/* no_abi arches: the ELF images libdw reads instead of the files (see tp_uwarch) */
	void *img[2];
	Elf *img_elf[2];
	struct tp_uwseg *segs;
	size_t n_segs;
	struct tp_ehabi_tables ehabi;	/* exidx NULL: none */
	struct tp_uwrow *rows;		/* row.c's cache, NULL until the first step */
};

/* a register's rule in a row: what dwarf_frame_register() (or _frame_cfa) said */
enum { TP_UWR_ERR, TP_UWR_SAME, TP_UWR_UNDEF, TP_UWR_OPS };
/* the shapes nearly every rule has, read once from its ops (row.c) so that a step computes
 * them without walking the ops: "base + off", the base a register (DW_OP_breg*, bregx) or
 * the CFA (DW_OP_call_frame_cfa, plus_uconst), the value or the word stored there */
enum { TP_UWB_NONE, TP_UWB_REG, TP_UWB_CFA };
struct tp_uwrule {
	uint8_t kind;			/* TP_UWR_*: the call failed, no ops with NULL, no ops
					 * with ops set, or ops */
	uint8_t base;			/* TP_UWR_OPS: TP_UWB_*, NONE: ops to evaluate */
	uint8_t reg;			/* TP_UWB_REG: the register (255: none tracked) */
	bool value;			/* base + off is the value, not its address */
	uint16_t first, n;		/* TP_UWR_OPS: row ops[first .. first + n) */
	int32_t off;
};

/* the CFI row of a PC in a binary, as libdw gives it (row.c) */
struct tp_uwrow {
	uint64_t lpc;			/* the PC, relative to the binary */
	const struct tp_uwarch *arch;	/* the sample's arch the row was read for */
	bool used;			/* the row is filled (in a cache slot, or a spare) */
	bool none;			/* no CFI covers lpc */
	bool signal;			/* a signal frame's row */
	bool regs_done;			/* reg[], ra and the masks are filled */
	int ra_col;			/* dwarf_frame_info(): the return address column */
	struct tp_uwrule cfa, reg[TP_UW_NREGS];
	struct tp_uwrule ra;		/* column ra_col when it is not a tracked register */
	uint64_t keep_mask;		/* registers the caller has as they are (same value) */
	uint64_t shape_mask;		/* registers whose rule has a short shape (tp_uwrule.base) */
	uint64_t ops_mask;		/* registers with other ops to evaluate */
	Dwarf_Frame *fr;		/* libdw's row, asked for the registers once needed */
	Dwarf_Op *ops;			/* of all rules, copied */
	size_t cap_ops;
	uint16_t nops;
};

/* the register state of one frame, in DWARF numbering */
struct tp_uwregs {
	uint64_t r[TP_UW_NREGS];
	uint64_t valid;			/* bit n: r[n] is known */
	uint64_t pc;
};

/* tp_uwtab__vaddr() and the offsets [*lo, *hi) around off that map as it does (the same
 * segment is the first to hold them): 0, or -1 if no PT_LOAD segment holds off */
int tp_uwtab__seg(const struct tp_uwtab *t, uint64_t off, uint64_t *vaddr, uint64_t *lo,
		  uint64_t *hi);

/* the arch a recording's uname -m (HEADER_ARCH) and a sample's register ABI say, before
 * any binary is seen (the byte order of MIPS and ARM is the binaries'), or NULL */
const struct tp_uwarch *tp_uwarch__of_uname(const char *machine, bool abi64);
/* whether registers sampled for a are laid out for b as well (they differ in byte order) */
bool tp_uwarch__same_regs(const struct tp_uwarch *a, const struct tp_uwarch *b);

/* rows cached per binary, direct-mapped on the PC (256: 64 KiB a binary at most) */
#define TP_UWROWS	256

static inline uint32_t tp_uwrow__slot(uint64_t lpc)
{
	return (uint32_t)((lpc * 0x9e3779b97f4a7c15ull) >> 56) & (TP_UWROWS - 1);
}

/* the row of lpc for arch a where t's cache has it (tp_uwrow__get()'s first look, inline
 * in the step), else NULL */
static inline struct tp_uwrow *tp_uwrow__cached(const struct tp_uwtab *t,
						 const struct tp_uwarch *a, uint64_t lpc)
{
	struct tp_uwrow *r = t->rows ? &t->rows[tp_uwrow__slot(lpc)] : NULL;

	return r && r->used && r->lpc == lpc && r->arch == a ? r : NULL;
}

/* The row of lpc in t (.eh_frame first, then .debug_frame), for a sample of arch a, from t's
 * cache or read into it; where no cache could be had, into *tmp (its used flag cleared by the
 * caller, who then calls tp_uwrow__release(tmp)). 1 and *out (none set when no CFI covers lpc), or
 * -TP_ERR_NOMEM. *out stays valid until the next call for t. */
int tp_uwrow__get(struct tp_uwtab *t, const struct tp_uwarch *a, uint64_t lpc,
		  struct tp_uwrow **out, struct tp_uwrow *tmp);
/* fills the register rules of a row (the first time): 0 or -TP_ERR_NOMEM */
int tp_uwrow__regs(struct tp_uwrow *r, const struct tp_uwarch *a);
void tp_uwrow__release(struct tp_uwrow *tmp);
/* frees t's cached rows */
void tp_uwrow__drop(struct tp_uwtab *t);

#endif
