/* Embedded kernel and module symbols: one streaming pass over /proc/kallsyms, keeping the
 * functions that cover the sampled kernel addresses (symembed.h). kallsyms gives no sizes and
 * is not sorted (each module's symbols come in its own order), so each sampled range keeps
 * the nearest function at or below it and the next one above, whatever order lines come in:
 * the function covering the range is the first, and it ends at the second. */
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

static void flush(struct symembed *e, struct kgap *g, const char *pbuf, size_t n)
{
	g->name = str(e, pbuf);
	g->mod = pbuf[n + 1] ? str(e, pbuf + n + 1) : 0;
}

int ksyms__read(struct symembed *e)
{
	struct kgap *g = e->gaps, *p = NULL;
	char pbuf[1024], *line, *name, bind;
	const char *mod;
	struct tp_lines l;
	uint64_t a, next, prev = ~0ULL;
	uint32_t pj = UINT32_MAX;	/* the gap whose candidate is in pbuf */
	uint32_t i = 0;
	size_t len, plen = 0;
	int err;

	for (uint32_t i = 0; i <= e->nr_lo; i++)
		g[i] = (struct kgap){ .n_addr = ~0ULL };
	err = tp_lines__open(&l, "/proc/kallsyms", e->linebuf, SYMEMBED_LINEBUF);
	if (err)
		return err;
	while ((line = tp_lines__next(&l))) {
		if (!parse(line, &a, &bind, &name, &len, &mod))
			continue;
		/* sorted runs (the kernel's own lines) walk the gaps; the rest searches */
		if (a >= prev)
			while (i < e->nr_lo && e->lo[i] < a)
				i++;
		else
			i = symembed__gap_of(e, a);
		prev = a;
		/* inside a coarse range */
		if (e->shift && i && a < symembed__range_end(e, i - 1))
			keep(e, a, 0, str(e, name), *mod ? str(e, mod) : 0,
			     symembed__rank(false, bind, name));
		/* of aliases, the last listed: perf sizes unsized symbols before it folds
		 * aliases, so only the last of a group gets a size, and sized ones win */
		if (!g[i].has_p || a >= g[i].p_addr) {
			size_t n = TP_MIN(len, sizeof(pbuf) / 2);
			size_t m = TP_MIN(strlen(mod), sizeof(pbuf) / 2 - 2);

			if (pj != UINT32_MAX && pj != i)
				flush(e, &g[pj], pbuf, plen);
			pj = i;
			g[i].p_addr = a;
			g[i].has_p = true;
			g[i].name = PENDING;
			memcpy(pbuf, name, n);
			pbuf[n] = '\0';
			memcpy(pbuf + n + 1, mod, m);
			pbuf[n + 1 + m] = '\0';
			plen = n;
		}
		if (a < g[i].n_addr)
			g[i].n_addr = a;
		/* the kernel's own lines are sorted: past the last range, and with no
		 * module addresses sampled, the rest (data, modules) has nothing for us */
		if (!*mod && !e->kernel_mods && i == e->nr_lo && e->nr_lo &&
		    a >= symembed__range_end(e, e->nr_lo - 1))
			break;
	}
	err = l.err;
	tp_lines__close(&l);
	if (err)
		return err;
	if (pj != UINT32_MAX)
		flush(e, &g[pj], pbuf, plen);
	next = ~0ULL;
	for (uint32_t i = e->nr_lo + 1; i-- > 0;) {
		uint64_t own = g[i].n_addr;

		g[i].n_addr = next;
		next = TP_MIN(next, own);
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
