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

#endif
