/* SPDX-License-Identifier: MIT */
/* Path helpers (path.h): formatting into bounded buffers, hex ids, dirname and basename. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "host-tools/lib/common/path.h"

int tp_path_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

void tp_hex(char *out, const uint8_t *id, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * len] = '\0';
}

void tp_path_dirname(char *buf, size_t size, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

const char *tp_path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool tp_path_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
