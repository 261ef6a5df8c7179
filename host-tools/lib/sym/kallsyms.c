/* SPDX-License-Identifier: MIT */
/* kallsyms parser: one pass over a copy of the text, names terminated in place; or, read
 * lazily from a file, one pass that keeps only where each symbol is (in the table's order),
 * its lines read again once an address falls in it. */
#define _GNU_SOURCE		/* strdup */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/kallsyms.h"
#include "libc-shim/parse.h"

/* room given to the last symbol, which has no successor to bound it */
#define KALLSYMS_LAST_SIZE 4096

/* a symbol make() made: in a list, so that tp_kallsyms__exit() frees them without a walk
 * over made[] (a page fault for each 512 of its entries, most never written) */
struct made {
	struct tp_sym s;		/* first: made[] points at it */
	struct tp_sym *next;
};

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
	if (k->lazy) {		/* the line goes with the next read */
		name = strdup(name);
		if (!name)
			return -1;
	}
	m[k->n_modules] = name;
	return (long)k->n_modules++;
}

/* 8 hex digits at p (any case) into *out, or false: eight at once where the host is
 * little-endian (the address column is most of what a line costs), else one by one */
static inline bool hex8(const char *p, uint32_t *out)
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

/* one line [p, end), NUL-terminated in place: 0 and *out (its name in the line), 1 if
 * skipped, or -TP_ERR_NOMEM */
static int parse_line(struct tp_kallsyms *k, char *p, char *end, const char *ref_name,
		      struct tp_sym *out)
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
	*out = s;
	return 0;
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
	struct tp_sym s;
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
		err = parse_line(k, p, end, ref_name, &s);
		if (!err)
			err = tp_symtab__add(&k->tab, &s);
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
	k->n_syms = k->tab.n;
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
	if (k->lazy) {
		for (size_t i = 1; i < k->n_modules; i++)
			free((char *)k->modules[i]);
		for (struct tp_sym *s = k->made ? k->made[k->n_idx] : NULL, *next; s; s = next) {
			next = ((struct made *)s)->next;
			free((char *)s->name);
			free(s);
		}
		free(k->idx);
		free(k->made);
		close(k->fd);
	}
	free(k->modules);
	memset(k, 0, sizeof(*k));
}

/* ---- read lazily ---- */

/* the line of file offset off into *buf (grown as needed, NUL-terminated): its length, or
 * -1 when it cannot be read */
static ssize_t read_line(int fd, uint64_t off, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		ssize_t r;
		char *nl;

		if (*cap - len < 512 && TP_GROW(*buf, *cap, len + 4096, 0))
			return -1;
		r = pread(fd, *buf + len, *cap - len - 1, (off_t)(off + len));
		if (r < 0)
			return -1;
		nl = memchr(*buf + len, '\n', (size_t)r);
		if (nl || r == 0) {
			len = nl ? (size_t)(nl - *buf) : len;
			(*buf)[len] = '\0';
			return (ssize_t)len;
		}
		len += (size_t)r;
	}
}

/* the symbol the group of index entries [g0, g1) (one address) folds to, as
 * tp_symtab__finish() folds and sizes it among all of them: &k->none when the lines cannot
 * be read again as they were (the file changed), NULL when out of memory */
static struct tp_sym *make(const struct tp_kallsyms *k, size_t g0, size_t g1)
{
	struct made *m;
	struct tp_kallsyms tmp = { .lazy = true, .n_modules = k->n_modules };
	struct tp_symtab t = { 0 };
	struct tp_sym s, *out = (struct tp_sym *)&k->none;
	char *buf = NULL, **names = calloc(g1 - g0, sizeof(*names));
	size_t cap = 0;
	ssize_t len;
	int err;

	/* modules[] of its own: a line whose module the first pass did not see adds to it */
	tmp.modules = malloc(k->n_modules * sizeof(*tmp.modules));
	if (!names || !tmp.modules) {
		out = NULL;
		goto out;
	}
	memcpy(tmp.modules, k->modules, k->n_modules * sizeof(*tmp.modules));
	for (size_t i = g0; i < g1; i++) {
		len = read_line(k->fd, k->idx[i].off, &buf, &cap);
		err = len < 0 ? 1 : parse_line(&tmp, buf, buf + len, NULL, &s);
		if (err < 0)
			out = NULL;
		if (err || s.start != k->idx[i].start || tmp.n_modules != k->n_modules)
			goto out;
		s.name = names[i - g0] = strdup(s.name);
		if (!s.name || tp_symtab__add(&t, &s)) {
			out = NULL;
			goto out;
		}
	}
	/* the next address bounds the size, as it does in the whole table */
	if (g1 < k->n_idx &&
	    tp_symtab__add(&t, &(struct tp_sym){ .start = k->idx[g1].start, .name = "",
						 .rank = TP_SYMRANK_DATA })) {
		out = NULL;
		goto out;
	}
	tp_symtab__finish(&t, TP_SYMTAB_KALLSYMS, KALLSYMS_LAST_SIZE);
	m = malloc(sizeof(*m));
	out = m ? &m->s : NULL;
	if (out) {
		*out = t.syms[0];
		out->seq = 0;
		/* into the list of what was made, which made[k->n_idx] heads */
		m->next = k->made[k->n_idx];
		k->made[k->n_idx] = out;
	}
out:
	for (size_t i = 0; names && i < g1 - g0; i++)
		if (!out || out == &k->none || names[i] != out->name)
			free(names[i]);
	for (size_t i = k->n_modules; tmp.modules && i < tmp.n_modules; i++)
		free((char *)tmp.modules[i]);
	free(tmp.modules);
	free(names);
	tp_symtab__exit(&t);
	free(buf);
	return out;
}

const struct tp_sym *tp_kallsyms__find(const struct tp_kallsyms *k, uint64_t addr, long module)
{
	size_t lo = 0, hi = k->n_idx, g0;
	const struct tp_sym *s;

	if (!k->lazy)
		return tp_symtab__find(&k->tab, addr, module);
	while (lo < hi) {	/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->idx[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	for (g0 = lo - 1; g0 && k->idx[g0 - 1].start == k->idx[g0].start; g0--)
		;
	if (!k->made[g0])
		k->made[g0] = make(k, g0, lo);
	s = k->made[g0];
	/* as tp_symtab__find(): in a sorted kallsyms only the last symbol at or below addr
	 * can hold it, the ones before end where the next begins */
	if (!s || s == &k->none || addr - s->start >= s->size || s->rank == TP_SYMRANK_DATA ||
	    (module >= 0 && s->module != (uint32_t)module))
		return NULL;
	return s;
}

/* the high 8 digits of the last line quick_line() read: nearly every line of a 64-bit
 * kernel's table repeats them (ffffffff), and comparing 8 bytes is cheaper than reading
 * them as digits again */
struct hi_memo {
	uint64_t text;			/* the 8 bytes as they were */
	uint32_t val;
	bool set;
};

/* "<16 digits> <type> <name>" without a module and not ref_name, the shape of nearly every
 * line: 0 and *s (its address and rank, what the index needs), 1 for such a line to skip,
 * or -1 for a line parse_line() must read (what it makes of a line of this shape is the
 * same, without a name or a module to keep). br: the first '[' at or after p, which a
 * line that has one reaches (a module, or a name that parse_line() must see). */
static inline int quick_line(const char *p, const char *end, const char *ref_name,
			     size_t ref_len, struct hi_memo *memo, struct tp_sym *s,
			     const char *br)
{
	const char *name = p + 19;
	uint64_t text;
	uint32_t hi, lo;
	int rank;

	if (end - p <= 19 || p[16] != ' ' || is_space(p[17]) || p[18] != ' ' ||
	    is_space(p[19]))
		return -1;
	memcpy(&text, p, 8);
	if (memo->set && text == memo->text) {
		hi = memo->val;
	} else {
		if (!hex8(p, &hi))
			return -1;
		*memo = (struct hi_memo){ text, hi, true };
	}
	if (!hex8(p + 8, &lo) || br < end ||
	    (ref_name && (size_t)(end - name) >= ref_len && !memcmp(name, ref_name, ref_len)))
		return -1;
	rank = rank_of(p[17]);
	s->start = (uint64_t)hi << 32 | lo;
	s->rank = (uint8_t)rank;
	return rank < 0 || !s->start;
}

/* a line quick_line() could not read: 0 and *out, 1 to skip, or -TP_ERR_NOMEM (its own
 * function: the common path stays small) */
static __attribute__((noinline)) int slow_line(struct tp_kallsyms *k, char *p, char *end,
					       const char *ref_name, struct tp_sym *out)
{
	int err = parse_line(k, p, end, ref_name, out);

	if (err > 0 && end > p)
		k->n_bad++;
	return err;
}

/* one line of the first pass [p, end), br as for quick_line(): into the index (inlined in
 * the loop over the lines: a call per line costed a fifth of the pass) */
static inline __attribute__((always_inline))
int index_line(struct tp_kallsyms *k, char *p, char *end, uint64_t off, const char *ref_name,
	       size_t *cap, struct hi_memo *memo, const char *br)
{
	const char *ref = k->has_ref ? NULL : ref_name;
	struct tp_sym s;
	int err = quick_line(p, end, ref, ref ? strlen(ref) : 0, memo, &s, br);

	if (err < 0)
		err = slow_line(k, p, end, ref_name, &s);
	else if (err > 0 && end > p)
		k->n_bad++;
	if (err)
		return err < 0 ? err : 0;
	if (k->n_idx == *cap && TP_GROW(k->idx, *cap, k->n_idx + 1, 4096))
		return -TP_ERR_NOMEM;
	if (k->n_idx && s.start <= k->idx[k->n_idx - 1].start) {
		/* the kernel's own file is sorted: a module's symbols in /proc/kallsyms need
		 * not be; distinct addresses are counted here while it is */
		k->sorted &= s.start == k->idx[k->n_idx - 1].start;
	} else {
		k->n_syms++;
	}
	k->idx[k->n_idx++] = (struct tp_ksidx){ s.start, off };
	return 0;
}

/* the whole table's order: by address, then as the lines came (the file offset) */
static int cmp_idx(const void *pa, const void *pb)
{
	const struct tp_ksidx *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

int tp_kallsyms__open(struct tp_kallsyms *k, const char *path, const char *ref_name)
{
	size_t cap = 1 << 16, have = 0, idx_cap = 0;
	uint64_t base = 0;		/* the file offset of buf[0] */
	struct hi_memo memo = { 0 };
	char *buf = malloc(cap + 1);
	int fd = tp_fs__open_regular(path, NULL), err = 0;
	bool eof = false;

	memset(k, 0, sizeof(*k));
	k->lazy = k->sorted = true;
	k->fd = fd;
	k->modules = malloc(sizeof(*k->modules));
	if (fd < 0 || !buf || !k->modules) {
		free(buf);
		free(k->modules);
		if (fd >= 0)
			close(fd);
		memset(k, 0, sizeof(*k));
		return fd == -TP_ERR_NOT_REGULAR ? fd : fd < 0 ? -TP_ERR_IO : -TP_ERR_NOMEM;
	}
	k->modules[0] = NULL;
	k->n_modules = 1;
	while (!err && !eof) {
		ssize_t r = read(fd, buf + have, cap - have);
		char *p = buf, *end, *nl, *br;

		if (r < 0) {
			err = -TP_ERR_IO;
			break;
		}
		eof = r == 0;
		have += (size_t)r;
		/* the whole lines; at the end of the file the last one too. br: the first '['
		 * at or after p (one search for many lines: in a kernel's table only the
		 * modules' lines have one) */
		br = buf;
		while (!err && (nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			end = nl;
			if (br < p && !(br = memchr(p, '[', have - (size_t)(p - buf))))
				br = buf + have;
			err = index_line(k, p, end, base + (uint64_t)(p - buf), ref_name, &idx_cap,
					 &memo, br);
			p = end + 1;
		}
		if (!err && eof && p < buf + have) {
			if (br < p && !(br = memchr(p, '[', have - (size_t)(p - buf))))
				br = buf + have;
			err = index_line(k, p, buf + have, base + (uint64_t)(p - buf), ref_name,
					 &idx_cap, &memo, br);
		}
		/* the start of a line carried over to the next read */
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
		base += (uint64_t)(p - buf);
		if (!err && have == cap) {	/* a line longer than the buffer */
			char *b = realloc(buf, 2 * cap + 1);

			if (!b)
				err = -TP_ERR_NOMEM;
			else {
				buf = b;
				cap *= 2;
			}
		}
	}
	free(buf);
	if (!err && !k->n_idx)
		err = -TP_ERR_EMPTY;
	/* sorted, index_line() counted the symbols; else they are counted once sorted */
	if (!err && !k->sorted) {
		qsort(k->idx, k->n_idx, sizeof(*k->idx), cmp_idx);
		k->n_syms = 0;
		for (size_t i = 0; i < k->n_idx; i++)
			k->n_syms += !i || k->idx[i].start != k->idx[i - 1].start;
	}
	if (!err && !(k->made = calloc(k->n_idx + 1, sizeof(*k->made))))
		err = -TP_ERR_NOMEM;
	if (err)
		tp_kallsyms__exit(k);
	return err;
}
