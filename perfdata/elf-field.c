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
