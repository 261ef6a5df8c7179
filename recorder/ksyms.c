/* Embedded kernel and module symbols: one streaming pass over /proc/kallsyms, keeping the
 * functions that cover the sampled kernel addresses (symembed.h). kallsyms gives no sizes and
 * is not sorted (each module's symbols come in its own order), so each sampled range keeps
 * the nearest function at or below it and the next one above, whatever order lines come in:
 * the function covering the range is the first, and it ends at the second. The lines come
 * from /proc/kallsyms itself, or from the copy ksyms-snap.c took while recording (below). */
#include "libc-shim/shim.h"
#include "recorder/symembed.h"

#define PENDING	UINT32_MAX	/* the name is the last candidate's, still in pbuf */

/* A candidate's name goes to the section's string table only when the next candidate is in
 * another gap: in the sorted part of the file that is once per gap, and final. */
struct kgap {
	uint64_t p_addr, n_addr;
	uint32_t name, mod;		/* strings of the section, or PENDING */
	bool has_p;
};
_Static_assert(sizeof(struct kgap) <= SYMEMBED_GAP_SIZE, "gap slot");

/* "ffffffffc0a01000 t name\t[mod]": false for lines that are not a function */
static bool parse(char *line, uint64_t *addr, char *bind, char **name, size_t *len,
		  const char **mod)
{
	const char *p = memchr(line, ' ', 17);
	char *q;

	if (!p || !p[1] || p[2] != ' ')
		return false;
	switch (p[1]) {	/* the type first: half the lines are not functions */
	case 'T': *bind = 'g'; break;
	case 't': *bind = 'l'; break;
	case 'W': case 'w': *bind = 'w'; break;
	default: return false;
	}
	*addr = 0;
	for (const char *h = line; h < p; h++) {
		unsigned c = (unsigned)*h, d = c - '0' < 10 ? c - '0' : (c | 32) - 'a' + 10;

		if (d > 15)
			return false;
		*addr = *addr << 4 | d;
	}
	*name = q = line + (p + 3 - line);
	while (*q && *q != '\t')
		q++;
	*len = (size_t)(q - *name);
	*mod = "";
	if (*q) {
		*q = '\0';
		*mod = q + 1;
	}
	return *addr != 0;	/* kptr_restrict hides them all as 0 */
}

/* The copy taken while recording (ksyms-snap.c) is two files: fixed-size entries in
 * kallsyms order, and the names ("name\0module\0") they point to, read only for the few
 * symbols kept: going through it costs a few ms where parsing the text costs tens. */
struct kidx {
	uint64_t addr;
	uint32_t noff;		/* in the names file */
	uint16_t nlen;
	uint8_t mlen;		/* 0: the kernel's own */
	char bind;
};
_Static_assert(sizeof(struct kidx) == 16, "kidx");

/* one function symbol, from either source; name and mod set for text, noff for the copy */
struct ksym {
	uint64_t addr;
	char bind;
	bool in_mod;
	struct kidx x;
	char *name;
	const char *mod;
	size_t len;
};

struct ksrc {
	int ifd, nfd;		/* the copy, or -1: the text */
	struct tp_lines l;
	struct kidx *v;
	uint32_t at, n, cap;
	int err;
};

static bool next(struct ksrc *in, struct ksym *s)
{
	char *line;

	if (in->ifd < 0) {
		while ((line = tp_lines__next(&in->l)))
			if (parse(line, &s->addr, &s->bind, &s->name, &s->len, &s->mod)) {
				s->in_mod = *s->mod;
				return true;
			}
		in->err = in->l.err;
		return false;
	}
	if (in->at == in->n) {
		long k = sys_read(in->ifd, in->v, in->cap * sizeof(*in->v));

		if (k <= 0) {
			in->err = (int)k;
			return false;
		}
		in->n = (uint32_t)((size_t)k / sizeof(*in->v));
		in->at = 0;
	}
	s->x = in->v[in->at++];
	s->addr = s->x.addr;
	s->bind = s->x.bind;
	s->in_mod = s->x.mlen;
	return true;
}

/* its name and module into buf ("name\0mod\0", each cut to half of it): the name's length */
static size_t fetch(const struct ksrc *in, const struct ksym *s, char *buf, size_t size)
{
	size_t n, m;

	if (in->ifd < 0) {
		n = TP_MIN(s->len, size / 2);
		m = TP_MIN(strlen(s->mod), size / 2 - 2);
		memcpy(buf, s->name, n);
		memcpy(buf + n + 1, s->mod, m);
	} else {
		n = s->x.nlen;
		m = s->x.mlen;
		if (sys_pread(in->nfd, buf, n + m + 2, s->x.noff) != (long)(n + m + 2))
			n = m = 0;	/* the copy was cut short: an empty name is not kept */
	}
	buf[n] = '\0';
	buf[n + 1 + m] = '\0';
	return n;
}

/* In the helper process (ksyms-snap.c): /proc/kallsyms into the copy. 0, 1 (an error) or
 * 2 (no function with an address: kptr_restrict). */
int ksyms__copy(int ifd, int nfd)
{
	/* reads as big as the kernel's (a smaller one makes it seek back, walking names) */
	char line[32768], names[16384];
	struct kidx v[1024];
	struct ksrc in = { .ifd = -1 };
	struct ksym s;
	uint32_t n = 0, noff = 0, nn = 0, kept = 0;

	if (tp_lines__open(&in.l, "/proc/kallsyms", line, sizeof(line)))
		return 1;
	while (next(&in, &s)) {
		size_t len, m;

		if (n == TP_ARRAY_SIZE(v) || nn + 2 * 512 > sizeof(names)) {
			if (tp_write_all(ifd, v, n * sizeof(*v)) < 0 ||
			    tp_write_all(nfd, names, nn) < 0)
				return 1;
			n = nn = 0;
		}
		len = fetch(&in, &s, names + nn, 1024);
		m = strlen(names + nn + len + 1);
		if (m > 255) {		/* module names are 55 bytes at most */
			m = 255;
			names[nn + len + 1 + m] = '\0';
		}
		v[n++] = (struct kidx){ s.addr, noff, (uint16_t)len, (uint8_t)m, s.bind };
		len += m + 2;
		nn += (uint32_t)len;
		noff += (uint32_t)len;
		kept++;
	}
	if (in.err || tp_write_all(ifd, v, n * sizeof(*v)) < 0 || tp_write_all(nfd, names, nn) < 0)
		return 1;
	return kept ? 0 : 2;
}

static uint32_t str(struct symembed *e, const char *s)
{
	uint32_t off = tp_symtab_enc__str(&e->enc, s);

	if (off == (uint32_t)-1)
		e->enc.flags |= TP_SYMTAB_F_INCOMPLETE;
	return off;
}

static void keep(struct symembed *e, uint64_t addr, uint64_t size, uint32_t name,
		 uint32_t mod, uint8_t rank)
{
	struct symembed_sel s = { addr, size, name, mod, rank };

	if (name != (uint32_t)-1 && mod != (uint32_t)-1)
		symembed__keep(e, &s);
}

/* the pending candidate's name (in pbuf already when it came from the text): into the
 * section's string table */
static void flush(struct symembed *e, const struct ksrc *in, struct kgap *g,
		  const struct ksym *p, char *pbuf, size_t size)
{
	size_t n = in->ifd < 0 ? p->len : fetch(in, p, pbuf, size);

	g->name = str(e, pbuf);
	g->mod = pbuf[n + 1] ? str(e, pbuf + n + 1) : 0;
}

int ksyms__read(struct symembed *e)
{
	struct kgap *g = e->gaps, *p = NULL;
	char pbuf[1024], cbuf[1024];	/* the pending candidate's name; a coarse range's */
	struct ksrc in = { .ifd = e->kfd[0], .nfd = e->kfd[1] };
	struct ksym s, pend = { 0 };
	uint64_t next_a, prev = ~0ULL;
	uint32_t pj = UINT32_MAX;	/* the gap whose candidate is pend */
	uint32_t i = 0;
	int err;

	for (uint32_t i = 0; i <= e->nr_lo; i++)
		g[i] = (struct kgap){ .n_addr = ~0ULL };
	/* the copy taken while recording, else the kernel's */
	if (in.ifd >= 0) {
		in.v = (struct kidx *)e->linebuf;
		in.cap = SYMEMBED_LINEBUF / sizeof(*in.v);
	} else if ((err = tp_lines__open(&in.l, "/proc/kallsyms", e->linebuf, SYMEMBED_LINEBUF))) {
		return err;
	}
	while (next(&in, &s)) {
		uint64_t a = s.addr;

		/* sorted runs (the kernel's own lines) walk the gaps; the rest searches */
		if (a >= prev)
			while (i < e->nr_lo && e->lo[i] < a)
				i++;
		else
			i = symembed__gap_of(e, a);
		prev = a;
		/* inside a coarse range */
		if (e->shift && i && a < symembed__range_end(e, i - 1)) {
			size_t n = fetch(&in, &s, cbuf, sizeof(cbuf));

			keep(e, a, 0, str(e, cbuf), cbuf[n + 1] ? str(e, cbuf + n + 1) : 0,
			     symembed__rank(false, s.bind, cbuf));
		}
		/* of aliases, the last listed: perf sizes unsized symbols before it folds
		 * aliases, so only the last of a group gets a size, and sized ones win */
		if (!g[i].has_p || a >= g[i].p_addr) {
			if (pj != UINT32_MAX && pj != i)
				flush(e, &in, &g[pj], &pend, pbuf, sizeof(pbuf));
			pj = i;
			g[i].p_addr = a;
			g[i].has_p = true;
			g[i].name = PENDING;
			pend = s;
			if (in.ifd < 0)	/* the line is gone at the next one: keep its name */
				pend.len = fetch(&in, &s, pbuf, sizeof(pbuf));
		}
		if (a < g[i].n_addr)
			g[i].n_addr = a;
		/* the kernel's own lines are sorted: past the last range, and with no
		 * module addresses sampled, the rest (data, modules) has nothing for us */
		if (!s.in_mod && !e->kernel_mods && i == e->nr_lo && e->nr_lo &&
		    a >= symembed__range_end(e, e->nr_lo - 1))
			break;
	}
	err = in.err;
	if (in.ifd < 0)
		tp_lines__close(&in.l);
	if (err)
		return err;
	if (pj != UINT32_MAX)
		flush(e, &in, &g[pj], &pend, pbuf, sizeof(pbuf));
	next_a = ~0ULL;
	for (uint32_t i = e->nr_lo + 1; i-- > 0;) {
		uint64_t own = g[i].n_addr;

		g[i].n_addr = next_a;
		next_a = TP_MIN(next_a, own);
	}
	/* each range: the nearest function at or below it (a prefix maximum), up to the next */
	for (uint32_t i = 0; i < e->nr_lo; i++) {
		struct kgap *was = p;

		if (g[i].has_p && (!p || g[i].p_addr >= p->p_addr))
			p = &g[i];
		if (p && p != was)
			keep(e, p->p_addr, g[i].n_addr == ~0ULL ? 0 : g[i].n_addr - p->p_addr,
			     p->name, p->mod, 0);
	}
	return 0;
}
