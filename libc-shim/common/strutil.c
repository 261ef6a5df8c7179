/* tinyperf's own string helpers (str.h), for both backends. */
#include "libc-shim/str.h"

size_t tp_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

bool tp_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

unsigned tp_popcount(uint64_t v)
{
	unsigned n = 0;

	for (; v; v >>= 1)
		n += (unsigned)v & 1;
	return n;
}
