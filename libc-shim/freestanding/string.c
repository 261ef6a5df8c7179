/* SPDX-License-Identifier: MIT */
/* The string and memory functions of str.h for the freestanding backend. gcc emits calls to
 * memcpy, memmove, memset and memcmp by itself (struct copies and zeroing), so these must
 * exist; they favour size, with a word loop only where the ring copy, zeroing and the
 * kallsyms line scan (memchr) spend time. */
#include "libc-shim/str.h"

/* stop gcc from recognising the loops below as memcpy/memset and calling them recursively */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#endif

typedef unsigned long word_t;
/* word accesses through an alias-anything type */
typedef word_t __attribute__((may_alias)) aword_t;
#define WORD_MASK (sizeof(word_t) - 1)

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & WORD_MASK) == 0) {
		for (; n >= sizeof(word_t); n -= sizeof(word_t)) {
			*(aword_t *)d = *(const aword_t *)s;
			d += sizeof(word_t);
			s += sizeof(word_t);
		}
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d - (uintptr_t)s >= n)	/* no overlap that a forward copy would hurt */
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (((uintptr_t)d & WORD_MASK) == 0) {
		word_t w = (unsigned char)c * (~(word_t)0 / 255);

		for (; n >= sizeof(word_t); n -= sizeof(word_t)) {
			*(aword_t *)d = w;
			d += sizeof(word_t);
		}
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

/* a word at a time while whole words remain (kallsyms' ~5 MB of lines go through here):
 * a word holds the byte when the word XOR the byte repeated has a zero byte */
void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;
	const size_t ones = (size_t)-1 / 0xff, highs = ones << 7, rep = ones * (unsigned char)c;

	for (size_t w; n >= sizeof(w); n -= sizeof(w), p += sizeof(w)) {
		__builtin_memcpy(&w, p, sizeof(w));	/* a load: this file has -fno-builtin */
		w ^= rep;
		if ((w - ones) & ~w & highs)
			break;
	}
	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return 0;
}

size_t strlen(const char *s)
{
	return strnlen(s, (size_t)-1);	/* one scanning loop for both */
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, PTRDIFF_MAX);	/* the largest object size (-Wstringop-overread) */
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	for (; n; n--, x++, y++)
		if (*x != *y || !*x)
			return *x - *y;
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return 0;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = 0;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *h, const char *n)
{
	size_t len = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, len))
			return (char *)h;
	return len ? 0 : (char *)h;
}
