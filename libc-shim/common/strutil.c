/* SPDX-License-Identifier: MIT */
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

const char *tp_getenv(char **envp, const char *name)
{
	size_t len = strlen(name);

	for (char **e = envp; e && *e; e++)
		if (!strncmp(*e, name, len) && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

/* one copy for its three callers: LTO inlines it into each otherwise (64-bit loops are long
 * on 32-bit targets) */
TP_NOINLINE unsigned tp_popcount(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)	/* clears the lowest set bit: no 64-bit shifts on 32-bit targets */
		n++;
	return n;
}
