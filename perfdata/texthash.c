/* SPDX-License-Identifier: MIT */
/* tp_text_hash(): FNV-1a 64 over the first executable load segment (the contract is in
 * texthash.h). Parses the ELF itself, byte by byte, so it runs on the device over an mmapped
 * file of any class and byte order without alignment assumptions. */
#include "libc-shim/shim.h"
#include "perfdata/elf-field.h"
#include "perfdata/texthash.h"

#define FNV64_BASIS 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

#define PT_LOAD 1
#define PF_X 1

static TP_NOINLINE uint64_t fnv_bytes(uint64_t h, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

/* x then y, each as 8 little-endian bytes: one pass over 16 bytes is the same FNV as two
 * over 8, with one call */
static uint64_t fnv_2u64le(uint64_t h, uint64_t x, uint64_t y)
{
	uint8_t b[16];

	if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) {
		x = __builtin_bswap64(x);
		y = __builtin_bswap64(y);
	}
	memcpy(b, &x, 8);
	memcpy(b + 8, &y, 8);
	return fnv_bytes(h, b, 16);
}

uint64_t tp_text_hash(const void *elf, size_t len)
{
	const uint8_t *p = elf;
	uint64_t f[TP_PH_ALIGN + 1], h;
	size_t phoff, start, end;
	bool is64, be;

	/* (without program headers there is no segment to find either) */
	if (!elf || tp_elf_header(p, len, &is64, &be, f) || f[TP_EH_PHOFF] > len)
		return 0;
	phoff = (size_t)f[TP_EH_PHOFF];
	/* both are 16-bit: the product fits 32 bits */
	if ((uint32_t)f[TP_EH_PHNUM] * (uint32_t)f[TP_EH_PHENTSIZE] > len - phoff)
		return 0;

	for (unsigned i = 0; i < (unsigned)f[TP_EH_PHNUM]; i++) {
		tp_elf_fields(p + phoff + i * (size_t)f[TP_EH_PHENTSIZE], is64, be, TP_PH_TYPE, 5, f);
		if (f[TP_PH_TYPE] != PT_LOAD || !(f[TP_PH_FLAGS] & PF_X))
			continue;
		if (f[TP_PH_OFFSET] > len || f[TP_PH_FILESZ] > len - f[TP_PH_OFFSET])
			return 0;
		/* within len from here: size_t arithmetic (the header size is 16-bit) */
		start = (size_t)f[TP_PH_OFFSET];
		end = start + (size_t)f[TP_PH_FILESZ];
		if (start < (size_t)f[TP_EH_EHSIZE])
			start = (size_t)f[TP_EH_EHSIZE];
		h = fnv_2u64le(FNV64_BASIS, f[TP_PH_VADDR], f[TP_PH_FILESZ]);
		if (start < end)
			h = fnv_bytes(h, p + start, end - start);
		return h ? h : 1;
	}
	return 0;
}
