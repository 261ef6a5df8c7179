/* SPDX-License-Identifier: MIT */
/* The identity of a binary that has no GNU build-id: a hash of its code, which the recorder takes
 * on the device and the host symbolizer takes of each candidate file, so that an unstripped copy
 * can be proven to be the file that ran. */
#ifndef TINYPERF_PERFDATA_TEXTHASH_H
#define TINYPERF_PERFDATA_TEXTHASH_H

#include "libc-shim/types.h"

/*
 * tp_text_hash() of an ELF file image elf[0..len) (ELF32 or ELF64, either byte order):
 *
 *   seg  = the first PT_LOAD program header with PF_X, in program-header order
 *   h    = FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3), fed with
 *            1. seg.p_vaddr  as 8 bytes, little-endian (ELF32 values zero-extended)
 *            2. seg.p_filesz as 8 bytes, little-endian
 *            3. the file bytes [max(seg.p_offset, e_ehsize), seg.p_offset + seg.p_filesz)
 *   result = h, or 1 if h happens to be 0
 *
 * The ELF header is left out when the segment covers it (ARM, MIPS and other layouts without
 * -z separate-code map the file from offset 0): strip and objcopy rewrite e_shoff, e_shnum and
 * e_shstrndx, and the hash must survive stripping. Nothing else inside a load segment changes.
 *
 * Returns 0 when there is no such segment or the image is not a well-formed ELF that contains
 * the segment's bytes. Reads only elf[0..len); needs no alignment; no libc.
 */
uint64_t tp_text_hash(const void *elf, size_t len);

#endif
