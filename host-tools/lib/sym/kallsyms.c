/* SPDX-License-Identifier: MIT */
/* kallsyms parser: one pass over a copy of the text, names terminated in place. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/kallsyms.h"
#include "libc-shim/parse.h"

/* room given to the last symbol, which has no successor to bound it */
#define KALLSYMS_LAST_SIZE 4096

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int rank_of(char type)
{
	switch (type) {
	case 'T': return TP_SYMRANK_GLOBAL;
	case 't': return TP_SYMRANK_LOCAL;
	case 'W': case 'w': return TP_SYMRANK_WEAK;
	case 'A': case 'a': case 'U': case 'u': return -1;	/* absolute, undefined: no place */
	default: return TP_SYMRANK_DATA;
	}
}

static long module_index(struct tp_kallsyms *k, const char *name)
{
	long i = tp_kallsyms__module(k, name);
	const char **m;

	if (i >= 0)
		return i;
	m = realloc(k->modules, (k->n_modules + 1) * sizeof(*m));
	if (!m)
		return -1;
	k->modules = m;
	m[k->n_modules] = name;
	return (long)k->n_modules++;
}

/* 8 hex digits at p (any case) into *out, or false: eight at once where the host is
 * little-endian (the address column is most of what a line costs), else one by one */
static bool hex8(const char *p, uint32_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t x, y, digit, letter, v;

	memcpy(&x, p, 8);		/* p[0], the first digit, in the low byte */
	if (x & high)
		return false;
	/* bytes under 0x80: b + (0x80 - lo) has its high bit iff b >= lo, and
	 * b + (0x7f - hi) lacks it iff b <= hi; neither carries into the next byte */
	digit = (x + (0x80 - '0') * ones) & ~(x + (0x7f - '9') * ones) & high;
	y = x | 0x20 * ones;		/* A-F as a-f */
	letter = (y + (0x80 - 'a') * ones) & ~(y + (0x7f - 'f') * ones) & high;
	if ((digit | letter) != high)
		return false;
	v = (x & 0x0f * ones) + (letter >> 7) * 9;	/* each byte its digit's value */
	/* pairs of digits, then of pairs...: the first (low) one is the high half */
	v = (v & 0x000f000f000f000full) << 4 | (v & 0x0f000f000f000f00ull) >> 8;
	v = (v & 0x000000ff000000ffull) << 8 | (v & 0x00ff000000ff0000ull) >> 16;
	v = (v & 0x000000000000ffffull) << 16 | (v & 0x0000ffff00000000ull) >> 32;
	*out = (uint32_t)v;
	return true;
#else
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		int d = tp_hexval(p[i]);

		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return true;
#endif
}

/* one line [p, end): returns 0, 1 if skipped, or -TP_ERR_NOMEM */
static int parse_line(struct tp_kallsyms *k, char *p, char *end, const char *ref_name)
{
	struct tp_sym s = { 0 };
	char *name, *mod = NULL;
	unsigned digits = 0;
	uint32_t word;
	long mi = 0;
	int rank, v;

	*end = '\0';
	while (digits < 16 && end - p >= 8 && hex8(p, &word)) {
		s.start = s.start << 32 | word;
		p += 8;
		digits += 8;
	}
	while (p < end && (v = tp_hexval(*p)) >= 0) {
		s.start = s.start << 4 | (uint64_t)v;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || p + 3 > end || !is_space(p[0]) || is_space(p[1]) ||
	    !is_space(p[2]))
		return 1;
	rank = rank_of(p[1]);
	for (p += 3; p < end && is_space(*p); p++)
		;
	name = p;
	p += strcspn(p, " \t\r");	/* stops at *end, made a NUL above */
	while (p < end && !is_space(*p))	/* past a NUL inside the line */
		p++;
	if (p == name)
		return 1;
	if (p < end) {
		*p++ = '\0';
		while (p < end && is_space(*p))
			p++;
		if (p < end && *p == '[') {
			char *close = memchr(p, ']', (size_t)(end - p));

			if (close) {
				*close = '\0';
				mod = p + 1;
			}
		}
	}
	if (rank < 0 || !s.start)
		return 1;
	if (mod) {
		mi = module_index(k, mod);
		if (mi < 0)
			return -TP_ERR_NOMEM;
	} else if (ref_name && !k->has_ref && !strcmp(name, ref_name)) {
		k->has_ref = true;
		k->ref_addr = s.start;
	}
	s.name = name;
	s.rank = (uint8_t)rank;
	s.module = (uint32_t)mi;
	return tp_symtab__add(&k->tab, &s);
}

int tp_kallsyms__parse(struct tp_kallsyms *k, const char *buf, size_t len, const char *ref_name)
{
	char *copy;

	if (len == SIZE_MAX) {
		memset(k, 0, sizeof(*k));
		return -TP_ERR_NOMEM;
	}
	copy = malloc(len + 1);
	if (!copy) {
		memset(k, 0, sizeof(*k));
		return -TP_ERR_NOMEM;
	}
	if (len)
		memcpy(copy, buf, len);
	return tp_kallsyms__parse_owned(k, copy, len, ref_name);
}

int tp_kallsyms__parse_owned(struct tp_kallsyms *k, char *buf, size_t len, const char *ref_name)
{
	char *p, *end;
	int err;

	memset(k, 0, sizeof(*k));
	k->strings = buf;
	k->modules = malloc(sizeof(*k->modules));
	if (!k->modules) {
		err = -TP_ERR_NOMEM;
		goto out_err;
	}
	k->strings[len] = '\0';
	k->modules[0] = NULL;
	k->n_modules = 1;
	for (p = k->strings; p < k->strings + len; p = end + 1) {
		char *nl = memchr(p, '\n', (size_t)(k->strings + len - p));

		end = nl ? nl : k->strings + len;
		err = parse_line(k, p, end, ref_name);
		if (err < 0)
			goto out_err;
		if (err > 0 && end > p)
			k->n_bad++;
	}
	if (!k->tab.n) {
		err = -TP_ERR_EMPTY;
		goto out_err;
	}
	tp_symtab__finish(&k->tab, TP_SYMTAB_KALLSYMS, KALLSYMS_LAST_SIZE);
	return 0;

out_err:
	tp_kallsyms__exit(k);
	return err;
}

long tp_kallsyms__module(const struct tp_kallsyms *k, const char *name)
{
	size_t i;

	for (i = 1; i < k->n_modules; i++)
		if (!strcmp(k->modules[i], name))
			return (long)i;
	return -1;
}

void tp_kallsyms__exit(struct tp_kallsyms *k)
{
	tp_symtab__exit(&k->tab);
	free(k->strings);
	free(k->modules);
	memset(k, 0, sizeof(*k));
}
