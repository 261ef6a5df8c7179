/* SPDX-License-Identifier: MIT */
/* ELF fields from raw bytes (elf-field.h). */
#include "libc-shim/shim.h"
#include "perfdata/elf-field.h"

/* a byte at a time: a load for the native order would be faster, but its switch cost 100-250
 * bytes of code for the few fields read */
uint64_t tp_elf_get(const uint8_t *p, unsigned n, bool be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[be ? i : n - 1 - i];
	return v;
}

int tp_elf_ident(const uint8_t *h, bool *is64, bool *be)
{
	if (memcmp(h, "\177ELF", 4) || h[4] < 1 || h[4] > 2 || h[5] < 1 || h[5] > 2)
		return -TP_ENOEXEC;
	*is64 = h[4] == 2;
	*be = h[5] == 2;
	return 0;
}

/* offset and size of each TP_EH_* and TP_PH_* field, [0] in ELF32, [1] in ELF64: one table
 * instead of an is64 ? : pair per field in every reader */
static const struct {
	uint8_t off[2], size[2];
} fields[] = {
	[TP_EH_PHOFF] = { { 28, 32 }, { 4, 8 } },
	[TP_EH_EHSIZE] = { { 40, 52 }, { 2, 2 } },
	[TP_EH_PHENTSIZE] = { { 42, 54 }, { 2, 2 } },
	[TP_EH_PHNUM] = { { 44, 56 }, { 2, 2 } },
	[TP_PH_TYPE] = { { 0, 0 }, { 4, 4 } },
	[TP_PH_FLAGS] = { { 24, 4 }, { 4, 4 } },
	[TP_PH_OFFSET] = { { 4, 8 }, { 4, 8 } },
	[TP_PH_VADDR] = { { 8, 16 }, { 4, 8 } },
	[TP_PH_FILESZ] = { { 16, 32 }, { 4, 8 } },
	[TP_PH_ALIGN] = { { 28, 48 }, { 4, 8 } },
};

void tp_elf_fields(const uint8_t *p, bool is64, bool be, unsigned first, unsigned n,
		   uint64_t *v)
{
	for (unsigned i = first; i < first + n; i++)
		v[i] = tp_elf_get(p + fields[i].off[is64], fields[i].size[is64], be);
}

int tp_elf_header(const uint8_t *h, size_t len, bool *is64, bool *be, uint64_t *f)
{
	if (len < 52 || tp_elf_ident(h, is64, be) || (*is64 && len < 64))
		return -TP_ENOEXEC;
	tp_elf_fields(h, *is64, *be, TP_EH_PHOFF, 4, f);
	return f[TP_EH_PHNUM] && f[TP_EH_PHENTSIZE] < TP_ELF_PHDR_MIN(*is64) ? -TP_ENOEXEC : 0;
}
