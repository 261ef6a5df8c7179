/* SPDX-License-Identifier: MIT */
/* ELF header fields read from raw bytes of either byte order and any alignment: the device's
 * ELF readers (build-id notes, embedded symbols) and the text hash both need them. */
#ifndef TINYPERF_PERFDATA_ELF_FIELD_H
#define TINYPERF_PERFDATA_ELF_FIELD_H

#include "libc-shim/types.h"

/* the n-byte (n <= 8) integer at p, big-endian if be */
uint64_t tp_elf_get(const uint8_t *p, unsigned n, bool be);
/* 0 if h[0..6) starts an ELF32 or ELF64 file of either byte order (class and byte order in
 * *is64, *be), else -TP_ENOEXEC */
int tp_elf_ident(const uint8_t *h, bool *is64, bool *be);

/* the fields tp_elf_fields() decodes: of the ELF header (which must hold 52 bytes for ELF32,
 * 64 for ELF64), then of a program header (TP_ELF_PHDR_MIN bytes) */
enum {
	TP_EH_PHOFF, TP_EH_EHSIZE, TP_EH_PHENTSIZE, TP_EH_PHNUM,
	TP_PH_TYPE, TP_PH_FLAGS, TP_PH_OFFSET, TP_PH_VADDR, TP_PH_FILESZ, TP_PH_ALIGN,
};
#define TP_ELF_PHDR_MIN(is64) ((is64) ? 56u : 32u)
/* v[first..first+n) = those fields of the header at p, for the class and byte order */
void tp_elf_fields(const uint8_t *p, bool is64, bool be, unsigned first, unsigned n,
		   uint64_t *v);
/* the ELF header h[0..len): tp_elf_ident() and f[TP_EH_PHOFF..TP_EH_PHNUM]; -TP_ENOEXEC if
 * it is no ELF, is cut short, or has program headers smaller than TP_ELF_PHDR_MIN */
int tp_elf_header(const uint8_t *h, size_t len, bool *is64, bool *be, uint64_t *f);

#endif
