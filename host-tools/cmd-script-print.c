/* SPDX-License-Identifier: MIT */
/* tinyperf script's output, written by hand into one buffer since it is the hot part: each
 * sample as perf script prints it (the " sym+off (dso)" of a frame formatted once and
 * reused), and --folded's collapsed stacks. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-script.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/agg.h"

/* ---- output: one buffer, formatted by hand where it is hot ---- */

void script__out_flush(struct script *sc)
{
	if (sc->len && fwrite(sc->out, 1, sc->len, stdout) != sc->len)
		sc->err = -TP_ERR_IO;
	sc->len = 0;
}

static char *out_room(struct script *sc, size_t n)
{
	if (sc->len + n > sc->cap) {
		script__out_flush(sc);
		if (n > sc->cap) {
			char *p = realloc(sc->out, n);

			if (!p)
				return NULL;
			sc->out = p;
			sc->cap = n;
		}
	}
	return sc->out + sc->len;
}

static void out_put(struct script *sc, const char *s, size_t n)
{
	char *p = out_room(sc, n);

	if (p) {
		memcpy(p, s, n);
		sc->len += n;
	}
}

static void out_str(struct script *sc, const char *s)
{
	out_put(sc, s, strlen(s));
}

/* s right-aligned in width (or left-aligned for a negative width) */
static void out_pad(struct script *sc, const char *s, int width)
{
	size_t n = strlen(s), w = (size_t)(width < 0 ? -width : width);
	char *p = out_room(sc, n > w ? n : w);

	if (!p)
		return;
	if (n >= w) {
		memcpy(p, s, n);
		sc->len += n;
		return;
	}
	if (width < 0) {
		memcpy(p, s, n);
		memset(p + n, ' ', w - n);
	} else {
		memset(p, ' ', w - n);
		memcpy(p + w - n, s, n);
	}
	sc->len += w;
}

/* one byte: the frames' tabs and newlines, without a copy call */
static inline void out_char(struct script *sc, char c)
{
	if (sc->len < sc->cap)
		sc->out[sc->len++] = c;
	else
		out_put(sc, &c, 1);
}

/* v in hex, right-aligned in width (at most 16: an address's digits) */
static void out_hex(struct script *sc, uint64_t v, int width)
{
	char buf[24];
	int i = 24;

	do {
		buf[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	if (24 - i < width) {
		memset(buf + 24 - width, ' ', (size_t)(width - (24 - i)));
		i = 24 - width;
	}
	out_put(sc, buf + i, (size_t)(24 - i));
}

static void out_dec(struct script *sc, uint64_t v, int width, char fill)
{
	char buf[24];
	int i = 24;

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (24 - i < width)
		buf[--i] = fill;
	out_put(sc, buf + i, (size_t)(24 - i));
}

/* "%*d" (a negative width left-aligns) */
static void out_int(struct script *sc, int32_t v, int width)
{
	char buf[24];
	int i = 24, w = width < 0 ? -width : width;
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;

	do {
		buf[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[--i] = '-';
	if (width > 0)
		while (24 - i < w)
			buf[--i] = ' ';
	out_put(sc, buf + i, (size_t)(24 - i));
	for (int k = 24 - i; width < 0 && k < w; k++)
		out_put(sc, " ", 1);
}

/* ---- one sample ---- */

unsigned script__fields(const struct script *sc, const struct tp_attr *a)
{
	uint64_t st = a ? a->attr.sample_type : 0;
	bool tracepoint = a && a->attr.type == PERF_TYPE_TRACEPOINT;
	bool chain = (st & PERF_SAMPLE_CALLCHAIN) && !sc->no_graph;
	unsigned f = sc->user_set ? sc->set :
		     tracepoint ? F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE |
				  (chain ? F_IP | F_SYM | F_SYMOFF | F_DSO : 0) :
		     F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO |
		     F_PERIOD;

	f = (f | sc->add) & ~sc->del;
	/* what the samples do not have is not printed */
	if (!(st & PERF_SAMPLE_CPU))
		f &= ~F_CPU;
	if (!(st & PERF_SAMPLE_TIME))
		f &= ~F_TIME;
	if (!(st & PERF_SAMPLE_TID))
		f &= ~(F_TID | F_PID);
	if (!(st & PERF_SAMPLE_PERIOD))
		f &= ~F_PERIOD;
	if (!(st & PERF_SAMPLE_RAW))
		f &= ~F_TRACE;
	return f;
}

/* " sym+0x1a (dso)" of one frame, as the fields ask */
/* ---- a frame's " sym+0x1a (dso)", composed once per (frame, offset) ---- */

#define TEXT_CACHE	65536		/* recent frames, direct-mapped */
#define ARENA_CHUNK	(1 << 20)
#define ARENA_MAX	(64 << 20)	/* then the cache starts over */

struct script_text {
	uint32_t sym, dso, fields, len;
	uint64_t off;
	const char *s;			/* NULL: empty */
};

struct script_arena {
	struct script_arena *next;
	size_t used;
	char data[];
};

static size_t compose(const struct script *sc, unsigned f, struct tp_frame fr, uint64_t off,
		      char *buf, size_t n)
{
	const struct tp_csym *sym = tp_symcache__sym(sc->cs.c, fr.sym);
	size_t len = 0;

	if (f & F_SYM) {
		if (sym && sym->name && (f & F_SYMOFF))
			len = (size_t)snprintf(buf, n, " %s+0x%llx", sym->name, (unsigned long long)off);
		else
			len = (size_t)snprintf(buf, n, " %s", sym && sym->name ? sym->name : "[unknown]");
	}
	if ((f & F_DSO) && len < n && !(sym && sym->inlined))	/* as perf: no DSO for those */
		len += (size_t)snprintf(buf + len, n - len, " (%s)",
					tp_symcache__dso(sc->cs.c, fr.dso)->name);
	return len < n ? len : n - 1;
}

static void arena_free(struct script *sc)
{
	while (sc->arena) {
		struct script_arena *next = sc->arena->next;

		free(sc->arena);
		sc->arena = next;
	}
	sc->arena_size = 0;
}

/* the text in the arena, NULL without memory */
static const char *keep(struct script *sc, const char *s, size_t n)
{
	struct script_arena *a = sc->arena;

	if (!a || ARENA_CHUNK - a->used < n) {
		if (sc->arena_size >= ARENA_MAX) {	/* start over */
			arena_free(sc);
			memset(sc->texts, 0, TEXT_CACHE * sizeof(*sc->texts));
		}
		a = malloc(sizeof(*a) + ARENA_CHUNK);
		if (!a)
			return NULL;
		a->next = sc->arena;
		a->used = 0;
		sc->arena = a;
		sc->arena_size += ARENA_CHUNK;
	}
	memcpy(a->data + a->used, s, n);
	a->used += n;
	return a->data + a->used - n;
}

static size_t text_slot(struct tp_frame fr, uint64_t off, unsigned fm)
{
	return (fr.sym * 0x9e3779b1u ^ (uint32_t)off * 0x85ebca77u ^ fm) & (TEXT_CACHE - 1);
}

static void out_where(struct script *sc, unsigned f, struct tp_frame fr, uint64_t off)
{
	unsigned fm = f & (F_SYM | F_SYMOFF | F_DSO);
	struct script_text *t;
	char buf[2048];
	size_t n;

	if (!sc->texts)
		sc->texts = calloc(TEXT_CACHE, sizeof(*sc->texts));
	t = sc->texts ? &sc->texts[text_slot(fr, off, fm)] : NULL;
	if (t && t->s && t->sym == fr.sym && t->off == off && t->dso == fr.dso &&
	    t->fields == fm) {
		out_put(sc, t->s, t->len);
		return;
	}
	n = compose(sc, fm, fr, off, buf, sizeof(buf));
	out_put(sc, buf, n);
	if (t && n && (t->s = keep(sc, buf, n)))
		*t = (struct script_text){ fr.sym, fr.dso, fm, (uint32_t)n, off, t->s };
}

void script__release(struct script *sc)
{
	arena_free(sc);
	free(sc->texts);
	free(sc->out);
	tp_chain__release(&sc->ch);
}

/* perf's srcline under a frame: "\n  file.c:12", else "\n  dso[addr]" (nothing without a DSO) */
static void out_srcline(struct script *sc, uint32_t dso, uint64_t addr)
{
	const struct tp_symres *r;
	const char *file;

	if (!dso)
		return;
	r = tp_symcache__where(sc->cs.c, dso, addr);
	out_put(sc, "\n  ", 3);
	if (r && r->file && r->line) {
		file = strrchr(r->file, '/');
		out_str(sc, file ? file + 1 : r->file);
		out_put(sc, ":", 1);
		out_dec(sc, r->line, 0, ' ');
		return;
	}
	out_str(sc, tp_symcache__dso(sc->cs.c, dso)->short_name);
	out_put(sc, "[", 1);
	out_hex(sc, addr, 0);
	out_put(sc, "]", 1);
}

static void out_trace(struct script *sc, const struct tp_event *ev)
{
	const struct tp_tpevent *e = tp_tracefmt__event(sc->tf, ev->attr->attr.config);
	char buf[1024];
	size_t n;

	if (!e) {
		out_str(sc, "[unknown tracepoint]");
		return;
	}
	n = tp_tpevent__format(sc->tf, e, ev->u.sample.raw, ev->u.sample.raw_size, buf,
			       sizeof(buf));
	out_put(sc, buf, n < sizeof(buf) ? n : sizeof(buf) - 1);
}

void script__print_sample(struct script *sc, const struct tp_event *ev, unsigned f,
			  const char *comm, bool chain)
{
	char evbuf[64];

	if (f & F_COMM) {
		out_pad(sc, comm, (f & F_IP) && chain ? 0 : 16);
		out_put(sc, " ", 1);
	}
	if ((f & F_PID) && (f & F_TID)) {
		out_int(sc, (int32_t)ev->sid.pid, 5);
		out_put(sc, "/", 1);
		out_int(sc, (int32_t)ev->sid.tid, -5);
		out_put(sc, " ", 1);
	} else if (f & (F_PID | F_TID)) {
		out_int(sc, (int32_t)((f & F_PID) ? ev->sid.pid : ev->sid.tid), 5);
		out_put(sc, " ", 1);
	}
	if (f & F_CPU) {
		out_put(sc, "[", 1);
		out_dec(sc, ev->sid.cpu, 3, '0');
		out_put(sc, "] ", 2);
	}
	if (f & F_TIME) {
		uint64_t t = ev->sid.time;

		if (sc->ns) {
			out_dec(sc, t / 1000000000ULL, 5, ' ');
			out_put(sc, ".", 1);
			out_dec(sc, t % 1000000000ULL, 9, '0');
		} else {
			/* perf's "%12s" of "sec.usec", the usec truncated */
			uint64_t us = t / 1000, sec = us / 1000000;
			char buf[40];
			int i = 40, k;

			us %= 1000000;
			for (k = 0; k < 6; k++, us /= 10)
				buf[--i] = (char)('0' + us % 10);
			buf[--i] = '.';
			do {
				buf[--i] = (char)('0' + sec % 10);
				sec /= 10;
			} while (sec);
			while (40 - i < 12)
				buf[--i] = ' ';
			out_put(sc, buf + i, (size_t)(40 - i));
		}
		out_put(sc, ": ", 2);
	}
	if (f & F_PERIOD) {
		out_dec(sc, ev->u.sample.period, 10, ' ');
		out_put(sc, " ", 1);
	}
	if (f & F_EVENT) {
		out_pad(sc, cmd_sym__event_name(ev->attr, evbuf, sizeof(evbuf)), sc->name_width);
		out_put(sc, ": ", 2);
	}
	if ((f & F_TRACE) && ev->u.sample.raw)
		out_trace(sc, ev);
	if (f & (F_IP | F_SYM | F_DSO)) {
		if (chain) {
			unsigned fm = f & (F_SYM | F_SYMOFF | F_DSO);

			/* the frames' cached texts, fetched at once: their misses overlap */
			for (uint32_t i = 0; sc->texts && i < sc->ch.nr && i < 64; i++)
				__builtin_prefetch(&sc->texts[text_slot(sc->ch.frames[i],
									sc->ch.at[i].off, fm)]);
			out_char(sc, '\n');
			for (uint32_t i = 0; i < sc->ch.nr; i++) {
				/* and the text two frames on, its slot here by now */
				if (sc->texts && i + 2 < sc->ch.nr && i + 2 < 64)
					__builtin_prefetch(sc->texts[text_slot(sc->ch.frames[i + 2],
						sc->ch.at[i + 2].off, fm)].s);
				out_char(sc, '\t');
				if (f & F_IP)
					out_hex(sc, sc->ch.at[i].addr, 16);
				out_where(sc, f, sc->ch.frames[i], sc->ch.at[i].off);
				if (f & F_SRCLINE)
					out_srcline(sc, sc->ch.frames[i].dso, sc->ch.at[i].addr);
				if (sc->cs.conf.sym.want_inlines &&
				    tp_symcache__sym(sc->cs.c, sc->ch.frames[i].sym) &&
				    tp_symcache__sym(sc->cs.c, sc->ch.frames[i].sym)->inlined)
					out_str(sc, " (inlined)");
				out_char(sc, '\n');
			}
		} else {
			out_put(sc, " ", 1);
			if (f & F_IP)
				out_hex(sc, ev->u.sample.ip, 16);
			out_where(sc, f, sc->one, sc->one_off);
			if (f & F_SRCLINE)
				out_srcline(sc, sc->one.dso, sc->one_addr);
		}
	}
	out_char(sc, '\n');
}

/* ---- --folded ---- */

struct folded {
	char **lines;			/* "comm;outer;...;inner" */
	uint64_t *counts;
	size_t nr, cap;
	struct script *sc;
	char *buf;
	size_t cap_buf;
};

static int put_name(struct folded *fo, size_t *len, const char *s, bool semi)
{
	size_t n = strlen(s);

	if (TP_GROW(fo->buf, fo->cap_buf, *len + n + 2, 256))
		return -TP_ERR_NOMEM;
	if (semi)
		fo->buf[(*len)++] = ';';
	for (size_t i = 0; i < n; i++) {	/* as stackcollapse-perf.pl tidies names */
		char c = s[i];

		fo->buf[(*len)++] = c == ';' ? ':' : (!semi && c == ' ') ? '_' : c;
	}
	fo->buf[*len] = '\0';
	return 0;
}

static int fold_path(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		     uint32_t nr, uint64_t weight)
{
	struct folded *fo = ctx;
	const struct tp_symcache *c = fo->sc->cs.c;
	size_t len = 0, cap;
	int err = put_name(fo, &len, tp_symcache__comm_str(c, e->comm), false);

	for (uint32_t i = 0; i < nr && !err; i++) {
		const struct tp_csym *sym = tp_symcache__sym(c, frames[i].sym);
		char name[512];

		if (sym && sym->name) {
			err = put_name(fo, &len, sym->name, true);
			continue;
		}
		/* unknown: the DSO's basename in brackets, as stackcollapse-perf.pl does */
		if (frames[i].dso) {
			const char *d = tp_symcache__dso(c, frames[i].dso)->name, *slash = strrchr(d, '/');

			snprintf(name, sizeof(name), "[%s]", slash ? slash + 1 : d);
		} else {
			snprintf(name, sizeof(name), "[unknown]");
		}
		err = put_name(fo, &len, name, true);
	}
	if (err)
		return err;
	/* two arrays, one count: lines grows with a copy of it */
	cap = fo->cap;
	if (TP_GROW(fo->lines, cap, fo->nr + 1, 1024) ||
	    TP_GROW(fo->counts, fo->cap, fo->nr + 1, 1024))
		return -TP_ERR_NOMEM;
	fo->lines[fo->nr] = strdup(fo->buf);
	if (!fo->lines[fo->nr])
		return -TP_ERR_NOMEM;
	fo->counts[fo->nr++] = weight;
	return 0;
}

static int cmp_line(const void *a, const void *b, void *arg)
{
	const struct folded *fo = arg;

	return strcmp(fo->lines[*(const size_t *)a], fo->lines[*(const size_t *)b]);
}

int script__print_folded(struct script *sc)
{
	struct folded fo = { .sc = sc };
	size_t *order = NULL;
	int err = tp_hist__each_path(sc->folds, fold_path, &fo);

	if (!err && fo.nr) {
		order = malloc(fo.nr * sizeof(*order));
		if (!order)
			err = -TP_ERR_NOMEM;
	}
	if (!err) {
		/* identical lines (stacks equal once named) are added up */
		for (size_t i = 0; i < fo.nr; i++)
			order[i] = i;
		qsort_r(order, fo.nr, sizeof(*order), cmp_line, &fo);
		for (size_t i = 0; i < fo.nr; i++) {
			uint64_t n = fo.counts[order[i]];

			while (i + 1 < fo.nr && !strcmp(fo.lines[order[i]], fo.lines[order[i + 1]]))
				n += fo.counts[order[++i]];
			out_str(sc, fo.lines[order[i]]);
			out_put(sc, " ", 1);
			out_dec(sc, n, 0, ' ');
			out_char(sc, '\n');
		}
	}
	for (size_t i = 0; i < fo.nr; i++)
		free(fo.lines[i]);
	free(fo.lines);
	free(fo.counts);
	free(fo.buf);
	free(order);
	return err;
}

