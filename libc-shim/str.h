/* SPDX-License-Identifier: MIT */
/* String and memory functions under their standard names: the freestanding backend
 * defines them (the compiler may emit calls to mem* itself), the hosted one takes the libc's. */
#ifndef TINYPERF_LIBC_SHIM_STR_H
#define TINYPERF_LIBC_SHIM_STR_H

#include "libc-shim/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *h, const char *n);

/* copy at most size-1 bytes and always terminate; returns strlen(src) (like strlcpy) */
size_t tp_strlcpy(char *dst, const char *src, size_t size);
/* true if s starts with prefix */
bool tp_startswith(const char *s, const char *prefix);
/* the value of name in an environment (envp as main gets it), or NULL */
const char *tp_getenv(char **envp, const char *name);
/* the bits set in v (__builtin_popcountll is a libgcc call of 70-130 bytes on most targets) */
unsigned tp_popcount(uint64_t v);

#endif
