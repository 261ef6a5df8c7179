/* tinyperf script: every sample as perf script prints it (so stackcollapse-perf.pl,
 * speedscope and the Firefox Profiler read it), tracepoint fields decoded from the file's
 * format files; or, with --folded, the stacks collapsed into "comm;outer;...;inner count". */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-input.h"
#include "host-tools/cmd-sym.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/error.h"
#include "host-tools/lib/tracefmt.h"

enum field {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_TIME = 1 << 3, F_CPU = 1 << 4,
	F_EVENT = 1 << 5, F_PERIOD = 1 << 6, F_IP = 1 << 7, F_SYM = 1 << 8, F_SYMOFF = 1 << 9,
	F_DSO = 1 << 10, F_TRACE = 1 << 11,
};

static const struct { const char *name; unsigned bit; } field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVENT }, { "period", F_PERIOD }, { "ip", F_IP },
	{ "sym", F_SYM }, { "symoff", F_SYMOFF }, { "dso", F_DSO }, { "trace", F_TRACE },
};

struct script {
	struct cmd_sym cs;
	struct cmd_input ci;
	unsigned set, add, del;		/* -F: the fields, or what to add / take away */
	bool user_set, folded, no_graph, ns;
	struct tp_tracefmt *tf;
	struct tp_chain ch;
	struct tp_frame one;		/* where a sample hit, without its callchain */
	uint64_t one_off;
	int name_width;
	struct tp_hist *folds;		/* --folded */
	char *out;			/* the output buffer */
	size_t len, cap;
	int err;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf script [-i FILE|-] [-F FIELDS] [--folded] [-G] [--ns] [filters]\n"
		   "                      [symbol options]\n\n"
		   "Print every sample like perf script.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -F, --fields LIST  among comm,tid,pid,time,cpu,event,period,ip,sym,symoff,dso,\n"
		   "                     trace; +LIST adds to the defaults, -LIST takes away\n"
		   "  --folded           one line per distinct stack, \"comm;outer;...;inner N\"\n"
		   "                     (N samples), as stackcollapse-perf.pl writes them\n"
		   "  -G, --hide-call-graph  the ip only, without the callchain\n"
		   "  --ns               times in nanoseconds\n"
		   CMD_SYM_HELP
		   "\nTracepoint fields are printed with the event's print format when it uses only\n"
		   "what tinyperf evaluates (fields, arithmetic, __print_flags/symbolic, __get_str),\n"
		   "else as name=value pairs.\n");
}

static int parse_fields(struct script *sc, const char *arg)
{
	const char *p = strchr(arg, ':') && !strchr(arg, ',') ? strchr(arg, ':') + 1 : arg;
	unsigned *to = &sc->set;

	if (*p == '+' || *p == '-') {
		to = *p == '+' ? &sc->add : &sc->del;
		p++;
	} else {
		sc->user_set = true;
		sc->set = 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (strlen(field_names[i].name) == n && !strncmp(p, field_names[i].name, n))
				break;
		if (i == sizeof(field_names) / sizeof(field_names[0])) {
			fprintf(stderr, "tinyperf: script: -F: unknown field '%.*s'\n", (int)n, p);
			return 2;
		}
		*to |= field_names[i].bit;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* ---- output: one buffer, formatted by hand where it is hot ---- */

static void out_flush(struct script *sc)
{
	if (sc->len && fwrite(sc->out, 1, sc->len, stdout) != sc->len)
		sc->err = -TP_ERR_IO;
	sc->len = 0;
}

static char *out_room(struct script *sc, size_t n)
{
	if (sc->len + n > sc->cap) {
		out_flush(sc);
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

static void out_hex(struct script *sc, uint64_t v, int width)
{
	char buf[24];
	int i = 24;

	do {
		buf[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (24 - i < width)
		buf[--i] = ' ';
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

static void out_int(struct script *sc, int64_t v, int width)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%*lld", width, (long long)v);
	out_str(sc, buf);
}

/* ---- one sample ---- */

static unsigned fields_of(const struct script *sc, const struct tp_attr *a)
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
static void out_where(struct script *sc, unsigned f, struct tp_frame fr, uint64_t off)
{
	const struct tp_csym *sym = tp_symcache__sym(sc->cs.c, fr.sym);

	if (f & F_SYM) {
		out_put(sc, " ", 1);
		if (sym && sym->name) {
			out_str(sc, sym->name);
			if (f & F_SYMOFF) {
				out_put(sc, "+0x", 3);
				out_hex(sc, off, 0);
			}
		} else {
			out_str(sc, "[unknown]");
		}
	}
	if (f & F_DSO) {
		out_put(sc, " (", 2);
		out_str(sc, tp_symcache__dso(sc->cs.c, fr.dso)->name);
		out_put(sc, ")", 1);
	}
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

static void print_sample(struct script *sc, const struct tp_event *ev, unsigned f,
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
		snprintf(evbuf, sizeof(evbuf), "%-5d ", (int32_t)ev->sid.tid);
		out_str(sc, evbuf);
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

			snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)sec,
				 (unsigned long long)(us % 1000000));
			out_pad(sc, buf, 12);
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
			out_put(sc, "\n", 1);
			for (uint32_t i = 0; i < sc->ch.nr; i++) {
				out_put(sc, "\t", 1);
				if (f & F_IP)
					out_hex(sc, sc->ch.at[i].addr, 16);
				out_where(sc, f, sc->ch.frames[i], sc->ch.at[i].off);
				out_put(sc, "\n", 1);
			}
		} else {
			out_put(sc, " ", 1);
			if (f & F_IP)
				out_hex(sc, ev->u.sample.ip, 16);
			out_where(sc, f, sc->one, sc->one_off);
		}
	}
	out_put(sc, "\n", 1);
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct script *sc = ctx;
	const struct tp_attr *a = ev->attr;
	bool chain = a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && !sc->no_graph;
	int32_t pid = (ev->sid_type & PERF_SAMPLE_TID) ? (int32_t)ev->sid.pid : t ? t->pid : -1;
	int32_t tid = (ev->sid_type & PERF_SAMPLE_TID) ? (int32_t)ev->sid.tid : t ? t->tid : -1;
	uint32_t comm;
	int err;

	if (!cmd_sym__time_ok(&sc->cs, ev))
		return 0;
	err = tp_symcache__comm(sc->cs.c, t, &comm);
	if (err)
		return err;
	if (!cmd_sym__thread_ok(&sc->cs, comm, pid, tid))
		return 0;
	if (chain) {
		err = tp_symcache__chain(sc->cs.c, ev, t, loc, &sc->ch);
		if (!err && sc->ch.nr) {
			sc->one = sc->ch.frames[0];
			sc->one_off = sc->ch.at[0].off;
		}
	} else {
		sc->ch.nr = 0;
		err = tp_symcache__resolve(sc->cs.c, loc, &sc->one, &sc->one_off);
	}
	if (err)
		return err;
	if (!cmd_sym__frame_ok(&sc->cs, sc->one))
		return 0;
	if (sc->folded) {
		struct tp_hsample hs = { .comm = comm, .pid = pid, .tid = tid, .weight = 1,
					 .frames = chain ? sc->ch.frames : &sc->one,
					 .nr_frames = chain ? sc->ch.nr : 1 };

		return tp_hist__add(sc->folds, &hs);
	}
	print_sample(sc, ev, fields_of(sc, a), tp_symcache__comm_str(sc->cs.c, comm), chain);
	return sc->err;
}

static int on_event(void *ctx, const struct tp_event *ev, struct tp_thread *t)
{
	struct script *sc = ctx;

	(void)t;
	tp_symcache__event(sc->cs.c, ev);
	return 0;
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

	if (*len + n + 2 > fo->cap_buf) {
		size_t cap = 2 * (*len + n + 2) + 256;
		char *b = realloc(fo->buf, cap);

		if (!b)
			return -TP_ERR_NOMEM;
		fo->buf = b;
		fo->cap_buf = cap;
	}
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
	size_t len = 0;
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
	if (fo->nr == fo->cap) {
		size_t cap = fo->cap ? 2 * fo->cap : 1024;
		char **l = realloc(fo->lines, cap * sizeof(*l));
		uint64_t *k = l ? realloc(fo->counts, cap * sizeof(*k)) : NULL;

		if (l)
			fo->lines = l;
		if (!l || !k)
			return -TP_ERR_NOMEM;
		fo->counts = k;
		fo->cap = cap;
	}
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

static int print_folded(struct script *sc)
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
			out_put(sc, "\n", 1);
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

/* ---- the command ---- */

static int setup(struct script *sc)
{
	const struct tp_features *feat = tp_reader__features(sc->ci.r);
	char buf[64];

	for (uint32_t i = 0; i < tp_reader__nr_attrs(sc->ci.r); i++) {
		int n = (int)strlen(cmd_sym__event_name(tp_reader__attr(sc->ci.r, i), buf,
							sizeof(buf)));

		if (n > sc->name_width)
			sc->name_width = n;
	}
	if (tp_features__has(feat, HEADER_TRACING_DATA)) {
		int err = tp_tracefmt__parse(&sc->tf, feat->sect[HEADER_TRACING_DATA].data,
					     feat->sect[HEADER_TRACING_DATA].size, &sc->ci.log);

		if (err == -TP_ERR_NOMEM)
			return err;
	}
	if (sc->folded) {
		struct tp_hconf conf = { .keys = { TP_HKEY_COMM }, .nr_keys = 1, .paths = true };

		return tp_hist__new(&sc->folds, &conf);
	}
	return 0;
}

int cmd_script(int argc, char **argv)
{
	enum { O_FOLDED = 0x100, O_NS };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "folded", no_argument, NULL, O_FOLDED },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "ns", no_argument, NULL, O_NS },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static const struct tp_session_ops ops = { .sample = on_sample, .event = on_event };
	const char *path = "perf.data";
	struct script *sc = calloc(1, sizeof(*sc));
	int c, rc = -1;

	if (!sc)
		return 1;
	cmd_sym__init(&sc->cs);
	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:F:Ghk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'i': path = optarg; break;
		case 'F': if (parse_fields(sc, optarg)) rc = 2; break;
		case 'G': sc->no_graph = true; break;
		case O_FOLDED: sc->folded = true; break;
		case O_NS: sc->ns = true; break;
		default:
			switch (cmd_sym__option(&sc->cs, "script", c, optarg)) {
			case 0: rc = cmd_usage_error("script", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: script: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	sc->cap = 1 << 20;
	sc->out = malloc(sc->cap);
	if (!sc->out || cmd_input__open(&sc->ci, "script", path)) {
		rc = 1;
		goto out;
	}
	if (cmd_sym__open(&sc->cs, &sc->ci)) {
		rc = 1;
		goto out_close;
	}
	rc = setup(sc);
	if (!rc)
		rc = tp_session__process(sc->cs.s, &ops, sc);
	if (sc->folded && rc != -TP_ERR_NOMEM)	/* what could be read */
		rc = print_folded(sc) ? -TP_ERR_NOMEM : rc;
	out_flush(sc);
	fflush(stdout);
	if (!rc)
		rc = sc->err;
	rc = rc < 0 ? cmd_input__fail(&sc->ci, rc) : cmd_input__finish(&sc->ci);
out_close:
	cmd_sym__close(&sc->cs);
	cmd_input__close(&sc->ci);
out:
	tp_hist__delete(sc->folds);
	tp_tracefmt__delete(sc->tf);
	tp_chain__release(&sc->ch);
	free(sc->out);
	free(sc);
	return rc;
}
