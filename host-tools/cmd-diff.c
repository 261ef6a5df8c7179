/* SPDX-License-Identifier: MIT */
/* tinyperf diff: per-symbol shifts between two recordings, typically of two builds of one
 * program. Each side is opened with its own symbolizer, so each binary is resolved from its
 * own build-id (cache, sysroot ...), aggregated on its own (hist.h), and the two are matched
 * by DSO and symbol name (lib/symdiff.h): addresses and build-ids differ between builds. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/agg.h"

#define MAX_SYM_OPTS 64

struct side {
	const char *path;
	struct cmd_input ci;
	struct cmd_sym cs;
	bool open, sym_open;
	struct tp_hist *h;
	const char *event;		/* the event diffed */
	struct tp_frame one;
	uint64_t nr_samples;
	struct tp_dentry *e;
	size_t n;
	char **names;			/* "0x..." of unresolved addresses */
	size_t n_names;
};

struct diff {
	struct side s[2];
	bool by_dso, by_sym, quiet;
	double limit;
	const char *event;
	char evbuf[2][64];
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: tinyperf diff [OPTIONS] OLD.data NEW.data\n\n"
"Per-symbol differences between two recordings (e.g. of two builds of a program):\n"
"each is symbolized from its own binaries (by build-id) and their symbols are\n"
"matched by name. Rows are sorted by the largest shift first.\n\n"
"  -s, --sort KEYS    dso,sym (default), sym or dso\n"
"  -e, --event NAME   the event to compare (default: the old file's first)\n"
"      --percent-limit P  hide rows under P percent on both sides that moved less\n"
"                     than P points\n"
"  -q, --quiet        only the rows\n"
		CMD_SYM_HELP);
}

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	struct side *sd = ctx;
	const struct tp_attr *a = ev->attr;
	struct tp_hsample s = { .pid = ev->sid.pid, .tid = ev->sid.tid, .cpu = ev->sid.cpu };
	char buf[64];
	uint64_t off;
	int err;

	if (strcmp(cmd_sym__event_name(a, buf, sizeof(buf)), sd->event))
		return 0;
	s.weight = a && (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ev->u.sample.period :
		   a ? a->attr.sample_period : 1;
	err = tp_symcache__comm(sd->cs.c, t, &s.comm);
	if (err)
		return err;
	if (!cmd_sym__thread_ok(&sd->cs, s.comm, s.pid, s.tid)) {
		tp_hist__add_hidden(sd->h, s.weight);
		return 0;
	}
	err = tp_symcache__resolve(sd->cs.c, loc, &sd->one, &off);
	if (err)
		return err;
	if (cmd_sym__has_frame_filter(&sd->cs) && !cmd_sym__frame_ok(&sd->cs, sd->one)) {
		tp_hist__add_hidden(sd->h, s.weight);
		return 0;
	}
	s.frames = &sd->one;
	s.nr_frames = 1;
	return tp_hist__add(sd->h, &s);
}

static const char *keep_name(struct side *sd, uint64_t addr)
{
	char **v = realloc(sd->names, (sd->n_names + 1) * sizeof(*v));

	if (!v)
		return NULL;
	sd->names = v;
	if (asprintf(&v[sd->n_names], "%#llx", (unsigned long long)addr) < 0)
		return NULL;
	return v[sd->n_names++];
}

/* the side's entries as names */
static int collect(struct diff *d, struct side *sd)
{
	size_t n;

	if (tp_hist__finish(sd->h, false))
		return -TP_ERR_NOMEM;
	n = tp_hist__nr_entries(sd->h);
	sd->e = calloc(n ? n : 1, sizeof(*sd->e));
	if (!sd->e)
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct tp_hentry *he = tp_hist__entry(sd->h, i);
		const struct tp_csym *sym = tp_symcache__sym(sd->cs.c, he->frame.sym);
		struct tp_dentry *e = &sd->e[sd->n];

		if (!he->self)
			continue;
		e->dso = d->by_dso ? tp_symcache__dso(sd->cs.c, he->frame.dso)->short_name : NULL;
		e->sym = !d->by_sym ? NULL : sym->name ? sym->name : keep_name(sd, sym->addr);
		if (d->by_sym && !e->sym)
			return -TP_ERR_NOMEM;
		e->weight = he->self;
		e->samples = he->nr_samples;
		e->level = he->frame.level;
		sd->n++;
	}
	return 0;
}

static int open_side(struct diff *d, int i)
{
	static const struct tp_session_ops ops = { .sample = on_sample };
	struct side *sd = &d->s[i];
	struct tp_hconf conf = { .keys = { TP_HKEY_DSO, TP_HKEY_SYM }, .nr_keys = 2 };
	int err;

	if (cmd_input__open(&sd->ci, "diff", sd->path))
		return 1;
	sd->open = true;
	if (cmd_sym__open(&sd->cs, &sd->ci))
		return 1;
	sd->sym_open = true;
	if (!i && !d->event) {
		if (!tp_reader__nr_attrs(sd->ci.r)) {
			fprintf(stderr, "tinyperf: diff: %s has no events\n", sd->path);
			return 1;
		}
		d->event = cmd_sym__event_name(tp_reader__attr(sd->ci.r, 0), d->evbuf[0],
					       sizeof(d->evbuf[0]));
	}
	sd->event = d->event;
	err = tp_hist__new(&sd->h, &conf);
	if (!err)
		err = tp_session__process(sd->cs.s, &ops, sd);
	if (!err)
		err = collect(d, sd);
	if (err)
		return cmd_input__fail(&sd->ci, err);
	if (!tp_hist__nr_samples(sd->h)) {
		fprintf(stderr, "tinyperf: diff: %s has no '%s' samples (-e picks the event)\n",
			sd->path, d->event);
		return 1;
	}
	return cmd_input__finish(&sd->ci) ? 1 : 0;
}

static void print(struct diff *d, const struct tp_drow *r, size_t n)
{
	int w = (int)strlen("Shared Object");
	char sign[2][32];

	for (size_t i = 0; i < n; i++)
		if (r[i].dso && (int)strlen(r[i].dso) > w)
			w = (int)strlen(r[i].dso);
	if (!d->quiet) {
		for (int i = 0; i < 2; i++) {
			printf("# %s: %s, %llu samples of '%s', event count %llu\n",
			       i ? "New" : "Baseline", d->s[i].path,
			       (unsigned long long)tp_hist__nr_samples(d->s[i].h), d->event,
			       (unsigned long long)tp_hist__total(d->s[i].h));
			printf("#   symbols:\n");
			cmd_sym__print_dsos(&d->s[i].cs, stdout, "#     ");
		}
		printf("#\n# Baseline       New     Delta  %14s  %14s  %15s", "Baseline-abs",
		       "New-abs", "Delta-abs");
		if (d->by_dso)
			printf("  %-*s", d->by_sym ? w : 0, "Shared Object");
		printf("%s\n", d->by_sym ? "  Symbol" : "");
		printf("# ........  ........  ........  ..............  ..............  "
		       "...............");
		if (d->by_dso)
			printf("  %.*s", d->by_sym ? w : 13, "....................................."
			       "...........................................................");
		printf("%s\n#\n", d->by_sym ? "  ......" : "");
	}
	for (size_t i = 0; i < n; i++) {
		double adelta = r[i].delta < 0 ? -r[i].delta : r[i].delta;

		if (d->limit > 0 && r[i].pct[0] < d->limit && r[i].pct[1] < d->limit &&
		    adelta < d->limit)
			continue;
		for (int s = 0; s < 2; s++)
			snprintf(sign[s], sizeof(sign[s]), "%.2f%%", r[i].pct[s]);
		printf("  %8s  %8s  %+7.2f%%  %14llu  %14llu  %+15lld", sign[0], sign[1], r[i].delta,
		       (unsigned long long)r[i].weight[0], (unsigned long long)r[i].weight[1],
		       (long long)(r[i].weight[1] - r[i].weight[0]));
		if (d->by_dso)
			printf("  %-*s", d->by_sym ? w : 0, r[i].dso ? r[i].dso : "");
		if (d->by_sym)
			printf("  [%c] %s", r[i].level ? r[i].level : '.', r[i].sym);
		printf("\n");
	}
}

static bool parse_sort(struct diff *d, const char *arg)
{
	d->by_dso = d->by_sym = false;
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ",");
		int k = tp_hkey_parse(p, n);

		if (k == TP_HKEY_DSO)
			d->by_dso = true;
		else if (k == TP_HKEY_SYM)
			d->by_sym = true;
		else
			return false;
		p += n + (p[n] == ',');
	}
	return d->by_dso || d->by_sym;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "event", required_argument, NULL, 'e' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct { int c; const char *arg; } symopts[MAX_SYM_OPTS];
	unsigned n_symopts = 0;
	struct diff *d = calloc(1, sizeof(*d));
	struct tp_drow *rows = NULL;
	size_t n_rows = 0;
	int c, rc = -1;

	if (!d)
		return 1;
	d->by_dso = d->by_sym = true;
	cmd_sym__init(&d->s[0].cs);
	cmd_sym__init(&d->s[1].cs);
	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":s:e:qhk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'q': d->quiet = true; break;
		case 'e': d->event = optarg; break;
		case 'P': d->limit = strtod(optarg, NULL); break;
		case 's':
			if (!parse_sort(d, optarg)) {
				fprintf(stderr, "tinyperf: diff: --sort '%s': keys are dso and sym\n", optarg);
				rc = 2;
			}
			break;
		default:
			/* the symbol options apply to both sides: each has its own symbolizer */
			switch (cmd_sym__option(&d->s[0].cs, "diff", c, optarg)) {
			case 0: rc = cmd_usage_error("diff", c, argv, usage); break;
			case 2: rc = 2; break;
			default:
				if (n_symopts == MAX_SYM_OPTS) {
					fprintf(stderr, "tinyperf: diff: too many symbol options\n");
					rc = 2;
					break;
				}
				symopts[n_symopts].c = c;
				symopts[n_symopts++].arg = optarg;
				break;
			}
			break;
		}
	}
	if (rc < 0 && argc - optind != 2) {
		fprintf(stderr, "tinyperf: diff: expected two recordings, OLD and NEW\n");
		usage(stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	for (unsigned i = 0; i < n_symopts; i++)
		cmd_sym__option(&d->s[1].cs, "diff", symopts[i].c, symopts[i].arg);
	d->s[0].path = argv[optind];
	d->s[1].path = argv[optind + 1];
	rc = open_side(d, 0);
	if (!rc)
		rc = open_side(d, 1);
	if (!rc && tp_symdiff(d->s[0].e, d->s[0].n, tp_hist__total(d->s[0].h), d->s[1].e,
			      d->s[1].n, tp_hist__total(d->s[1].h), &rows, &n_rows)) {
		fprintf(stderr, "tinyperf: diff: out of memory\n");
		rc = 1;
	}
	if (!rc)
		print(d, rows, n_rows);
out:
	for (int i = 0; i < 2; i++) {
		struct side *sd = &d->s[i];

		cmd_sym__close(&sd->cs);
		if (sd->open)
			cmd_input__close(&sd->ci);
		tp_hist__delete(sd->h);
		free(sd->e);
		for (size_t j = 0; j < sd->n_names; j++)
			free(sd->names[j]);
		free(sd->names);
	}
	free(rows);
	free(d);
	return rc;
}
