/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/unwind/: user stacks from a sample's registers and stack copy (PERF_SAMPLE_REGS_USER + STACK_USER) to callchains, through the verified binaries' unwind tables. */
/* Layer unwind: may use common/, data/, session/, sym/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_UNWIND_UNWIND_H
#define TINYPERF_HOST_TOOLS_LIB_UNWIND_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/data.h"
#include "host-tools/lib/session/session.h"
#include "host-tools/lib/sym/sym.h"

/* ---- the core: one arch, one binary's tables, one stack (no session) ---- */

/* how many DWARF registers a state holds (aarch64: x0-x30, sp, and the PC kept apart) */
#define TP_UW_NREGS	33

struct tp_uwarch;

/* the arch of a binary from its ELF header (e_machine, class, byte order); NULL: none of the
 * six targets */
const struct tp_uwarch *tp_uwarch__of_elf(unsigned machine, unsigned elfclass, bool big_endian);
const char *tp_uwarch__name(const struct tp_uwarch *a);

/* One binary's unwind tables: .eh_frame (through .eh_frame_hdr when present), .debug_frame of
 * the file or of its separate debug file, ARM .ARM.exidx/.ARM.extab; and its PT_LOAD segments
 * (file offset -> link-time address). */
struct tp_uwtab;

/* Opens elf_path (the file that ran) and debug_path (its separate debug file, NULL if none).
 * 0, -errno, -TP_ERR_NOMEM, or -TP_ERR_INVAL when the file is not an ELF of a known arch. */
int tp_uwtab__open(struct tp_uwtab **out, const char *elf_path, const char *debug_path);
/* The same from an ELF image in memory (not copied: it must outlive the table, and libelf
 * may convert it in place to the host byte order); for tests. */
int tp_uwtab__from_mem(struct tp_uwtab **out, void *image, size_t size);
void tp_uwtab__delete(struct tp_uwtab *t);
const struct tp_uwarch *tp_uwtab__arch(const struct tp_uwtab *t);
/* the link-time address of a file offset: 0, or -1 if no PT_LOAD segment holds it */
int tp_uwtab__vaddr(const struct tp_uwtab *t, uint64_t off, uint64_t *vaddr);
/* which tables it has, for messages: a mask of 1 .eh_frame, 2 .debug_frame, 4 .ARM.exidx */
unsigned tp_uwtab__kinds(const struct tp_uwtab *t);

/* Where a runtime PC is: the table of its binary and the load bias (runtime - link-time
 * address). 0, or a negative value when the PC is in no binary with tables. */
typedef int (*tp_uwfind_fn)(void *ctx, uint64_t pc, struct tp_uwtab **tab, uint64_t *bias);

/* A sample's user state: the registers in perf_regs numbering (the mask and values as the
 * sample has them) and the stack copy, which starts at the SP register's value. */
struct tp_uwinput {
	const struct tp_uwarch *arch;
	uint64_t reg_mask;
	const uint64_t *regs;		/* one value per bit of reg_mask, lowest bit first */
	uint32_t nr_regs;
	const uint8_t *stack;
	uint64_t stack_size;		/* bytes copied (the sample's dyn_size, capped by size) */
};

struct tp_uwframe {
	uint64_t pc;			/* as perf reports it: the return address minus 1 for a
					 * caller (the call instruction), the exact PC for the first
					 * frame and for a frame a signal interrupted; no Thumb bit.
					 * Every frame comes from a table row: the unwinder stops
					 * where it would have to guess */
};

/* Unwinds in->stack: frames[0] is where the sample hit. At most max frames (and never more
 * than TP_UW_MAX_STEPS); stops at a PC in no binary or without a table row, PC 0, a return
 * address that is undefined (the outermost frame) or unreadable (the copy ends), or a CFA that
 * does not grow. Returns the number of frames (0 without a usable PC or SP). Never fails on
 * hostile tables or data; -TP_ERR_NOMEM is impossible (no allocation). */
#define TP_UW_MAX_STEPS	256
uint32_t tp_unwind(const struct tp_uwinput *in, tp_uwfind_fn find, void *ctx,
		   struct tp_uwframe *frames, uint32_t max);

/* ---- over a session: the tables of the binaries the symbolizer verified, cached ---- */

struct tp_unwinder;

/* sym: the symbolizer whose verified files are used (the caller's; it must outlive the
 * unwinder); log: a warning for each binary refused or unusable, once; uname_arch: the
 * recording's HEADER_ARCH (uname -m of the recorded machine, NULL if unknown: then the arch
 * of the binary a user-mode sample hit). 0 or -TP_ERR_NOMEM. */
int tp_unwinder__new(struct tp_unwinder **out, struct tp_session *s, struct tp_symbolizer *sym,
		     const struct tp_log *log, const char *uname_arch);
void tp_unwinder__delete(struct tp_unwinder *u);

/* whether a sample carries what unwinding needs (user registers and a non-empty stack copy) */
bool tp_unwind__has_stack(const struct tp_event *ev);
/* The user frames of a sample of thread t, callee first, into frames (at most max): the
 * number of frames, 0 when there is nothing to unwind. */
uint32_t tp_unwinder__sample(struct tp_unwinder *u, const struct tp_event *ev,
			     const struct tp_thread *t, struct tp_uwframe *frames, uint32_t max);

#endif
