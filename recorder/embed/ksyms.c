/* SPDX-License-Identifier: MIT */
/* Embedded kernel and module symbols: one streaming pass over /proc/kallsyms, keeping the
 * functions that cover the sampled kernel addresses (symembed.h). kallsyms gives no sizes and
 * is not sorted (each module's symbols come in its own order), so each sampled range keeps
 * the nearest function at or below it and the next one above, whatever order lines come in:
 * the function covering the range is the first, and it ends at the second. The lines come
 * from /proc/kallsyms itself, or from the copy ksyms-snap.c took while recording (below). */
#include "libc-shim/shim.h"
#include "recorder/embed/symembed.h"

#define PENDING	UINT32_MAX	/* the name is the last candidate's, still in pbuf */

/* A candidate's name goes to the section's string table only when the next candidate is in
 * another gap: in the sorted part of the file that is once per gap, and final. */
struct kgap {
	uint64_t p_addr, n_addr;
	uint32_t name, mod;		/* strings of the section, or PENDING */
	bool has_p;
};
_Static_assert(sizeof(struct kgap) <= SYMEMBED_GAP_SIZE, "gap slot");

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

/* one function symbol, from either source: for the text, name and mod point into its
 * buffer until the next one is read; for the copy, x says where the name is */
struct ksym {
	uint64_t addr;
	char bind;
	bool in_mod;
	struct kidx x;
	const char *name, *mod;
	size_t len, mlen;
};

struct ksrc {
	int fd;			/* the text: /proc/kallsyms */
	int ifd, nfd;		/* or the copy, when ifd >= 0 */
	char *buf;
	size_t cap, pos, have;
	bool eof;
	uint32_t at, n;
	int err;
};

/* "ffffffffc0a01000 t name\t[mod]\n": 1 and *s for a function, 0 for another line, -1
 * when the line is not all in [p, end); *used: its length */
static int scan(const char *p, const char *end, struct ksym *s, size_t *used)
{
	const char *q = p, *nl = memchr(p, '\n', (size_t)(end - p)), *t;
	uint64_t a = 0;

	if (!nl)
		return -1;
	*used = (size_t)(nl + 1 - p);
	for (unsigned d; q < nl; q++, a = a << 4 | d) {
		d = (unsigned)*q - '0';
		if (d > 9 && (d = ((unsigned)*q | 32) - 'a' + 10) - 10 > 5)
			break;
	}
	if (nl - q < 3 || *q != ' ' || q[2] != ' ' || !a)	/* kptr_restrict: all 0 */
		return 0;
	switch (q[1]) {
	case 'T': s->bind = 'g'; break;
	case 't': s->bind = 'l'; break;
	case 'W': case 'w': s->bind = 'w'; break;
	default: return 0;	/* not a function */
	}
	/* only a module's line has a tab: "\t[mod]" */
	t = nl[-1] == ']' ? memchr(q + 3, '\t', (size_t)(nl - q - 3)) : NULL;
	t = t ? t : nl;
	s->addr = a;
	s->name = q + 3;
	s->len = (size_t)(t - s->name);
	s->mod = t < nl ? t + 1 : t;
	s->mlen = (size_t)(nl - s->mod);
	s->in_mod = s->mlen;
	return 1;
}

/* the text: the next function line, read on as needed */
static bool next_text(struct ksrc *in, struct ksym *s)
{
	for (;;) {
		size_t used;
		int k = in->have > in->pos ? scan(in->buf + in->pos, in->buf + in->have, s, &used) : -1;
		long r;

		if (k >= 0) {
			in->pos += used;
			if (k)
				return true;
			continue;
		}
		if (in->eof)
			return false;
		/* the partial line to the front (one longer than the buffer is dropped) */
		if (in->pos == 0 && in->have == in->cap)
			in->have = 0;
		memmove(in->buf, in->buf + in->pos, in->have - in->pos);
		in->have -= in->pos;
		in->pos = 0;
		r = sys_read(in->fd, in->buf + in->have, in->cap - in->have);
		if (r < 0) {
			in->err = (int)r;
			return false;
		}
		in->eof = r == 0;
		in->have += (size_t)r;
	}
}

static bool next(struct ksrc *in, struct ksym *s)
{
	const struct kidx *v = (const struct kidx *)in->buf;

	if (in->ifd < 0)
		return next_text(in, s);
	if (in->at == in->n) {
		long k = sys_read(in->ifd, in->buf, in->cap / sizeof(*v) * sizeof(*v));

		if (k <= 0) {
			in->err = (int)k;
			return false;
		}
		in->n = (uint32_t)((size_t)k / sizeof(*v));
		in->at = 0;
	}
	s->x = v[in->at++];
	s->addr = s->x.addr;
	s->bind = s->x.bind;
	s->in_mod = s->x.mlen;
	return true;
}

/* the text source on /proc/kallsyms: 0 or -errno */
static int open_text(struct ksrc *in, char *buf, size_t cap)
{
	long fd = sys_open("/proc/kallsyms", TP_O_RDONLY | TP_O_CLOEXEC, 0);

	if (fd < 0)
		return (int)fd;
	in->fd = (int)fd;
	in->buf = buf;
	in->cap = cap;
	return 0;
}

/* its name and module into buf ("name\0mod\0", each cut to half of it): the name's length */
static size_t fetch(const struct ksrc *in, const struct ksym *s, char *buf, size_t size)
{
	size_t n, m;

	if (in->ifd < 0) {
		n = TP_MIN(s->len, size / 2);
		m = TP_MIN(s->mlen, size / 2 - 2);
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

/* the next target from tinyperf, above the last one: false when it closed the pipe */
static bool target(int ctl, uint64_t *t)
{
	uint64_t v[64], best = *t;
	long n;

	while (best <= *t) {
		n = sys_read(ctl, v, sizeof(v));
		if (n == -TP_EINTR)
			continue;
		if (n < (long)sizeof(*v))
			return false;
		for (long i = 0; i < n / (long)sizeof(*v); i++)
			best = TP_MAX(best, v[i]);
	}
	*t = best;
	return true;
}

/* the helper's buffers, mapped (its stack is whatever tinyperf's was): the text in reads as
 * big as the kernel's (a smaller one makes it seek back, walking names), the names and the
 * entries out in writes of 64 KiB (each write costs a few us of the filesystem's per-call
 * work: 16 KiB ones made about 300 of them for a 120,000-line kallsyms) */
#define COPY_TEXT	32768
#define COPY_NAMES	65536
#define COPY_IDX	4096
#define COPY_MAP	(COPY_TEXT + COPY_NAMES + COPY_IDX * sizeof(struct kidx))

/* names first: an entry read is never ahead of its name */
static bool spill(int ifd, int nfd, const char *names, uint32_t *nn, const struct kidx *v,
		uint32_t *n)
{
	bool ok = tp_write_all(nfd, names, *nn) >= 0 &&
		  tp_write_all(ifd, v, *n * sizeof(*v)) >= 0;

	*n = *nn = 0;
	return ok;
}

/* In the helper process (ksyms-snap.c): /proc/kallsyms into the copy, only as far as
 * tinyperf asks (the first kernel line at or above its target): the kernel formats it at
 * a third of a microsecond a line, and a recording seldom needs it all (a system at rest
 * samples the idle path and little else; -a reaches the lock functions at the end of the
 * kernel's text, though). */
int ksyms__copy(int ifd, int nfd, int ctl, int ack)
{
	long map = sys_mmap(NULL, COPY_MAP, TP_PROT_READ | TP_PROT_WRITE,
			    TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0);
	char *names = (char *)map + COPY_TEXT;
	struct kidx *v = (struct kidx *)(names + COPY_NAMES);
	struct ksrc in = { .ifd = -1 };
	struct ksym s;
	uint32_t n = 0, noff = 0, nn = 0, kept = 0;
	uint64_t want = 0;
	int err = 0;

	if (map < 0 && map > -4096)
		return 1;
	if (!target(ctl, &want))
		return 0;
	if (open_text(&in, (char *)map, COPY_TEXT))
		return 1;
	while (next(&in, &s)) {
		size_t len, m;

		if ((n == COPY_IDX || nn + 2 * 512 > COPY_NAMES) && !spill(ifd, nfd, names, &nn, v, &n))
			return 1;
		len = fetch(&in, &s, names + nn, 1024);
		m = TP_MIN(s.mlen, 510);
		if (m > 255) {		/* module names are 55 bytes at most */
			m = 255;
			names[nn + len + 1 + m] = '\0';
		}
		v[n++] = (struct kidx){ s.addr, noff, (uint16_t)len, (uint8_t)m, s.bind };
		len += m + 2;
		nn += (uint32_t)len;
		noff += (uint32_t)len;
		kept++;
		if (s.in_mod || s.addr < want)
			continue;
		/* there: all of it out, say so, and wait for a target further on */
		if (!spill(ifd, nfd, names, &nn, v, &n) || tp_write_all(ack, &want, sizeof(want)) < 0)
			return 1;
		if (!target(ctl, &want))
			goto out;
	}
	err = in.err;
	want = ~0ULL;		/* the end: everything is in */
	if (err || !spill(ifd, nfd, names, &nn, v, &n) ||
	    (kept && tp_write_all(ack, &want, sizeof(want)) < 0))
		err = 1;
out:
	sys_close(in.fd);
	return err ? 1 : kept ? 0 : 2;
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
		in.buf = e->linebuf;
		in.cap = SYMEMBED_LINEBUF;
	} else if ((err = open_text(&in, e->linebuf, SYMEMBED_LINEBUF))) {
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
		sys_close(in.fd);
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
