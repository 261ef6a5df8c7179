/* SPDX-License-Identifier: MIT */
/* tinyperf buildid-list: "<build-id> <path>" for each DSO of a perf.data, like perf
 * buildid-list; --with-hits only those the samples hit (counted by walking the session),
 * and those an unwound user stack (--call-graph dwarf) reaches, through this host's files. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/session/session.h"
#include "host-tools/lib/sym/sym.h"
#include "host-tools/lib/unwind/unwind.h"

/* the DSOs that unwound stacks reach and no sampled ip hit */
struct unwound {
	struct tp_session *s;
	const char *arch;
	bool want;			/* hits are listed */
	struct tp_symbolizer *sym;
	struct tp_unwinder *uw;
	struct tp_uwframe f[TP_UW_MAX_STEPS];
	const struct tp_dso **v;
	size_t n, cap;
};

static int on_sample(void *ctx, const struct tp_event *ev, struct tp_thread *t,
		     const struct tp_loc *loc)
{
	static const struct tp_symconf conf;
	struct unwound *u = ctx;
	uint32_t n;

	(void)loc;
	if (!u->want || !t || !tp_unwind__has_stack(ev))
		return 0;
	if (!u->uw && (!(u->sym = tp_symbolizer__new(&conf)) ||
		       tp_unwinder__new(&u->uw, u->s, u->sym, NULL, u->arch)))
		return -TP_ERR_NOMEM;
	n = tp_unwinder__sample(u->uw, ev, t, u->f, TP_UW_MAX_STEPS);
	for (uint32_t i = 1; i < n; i++) {
		struct tp_loc l;
		size_t k = 0;

		if (!tp_session__resolve(u->s, t, PERF_RECORD_MISC_USER, u->f[i].pc, &l) ||
		    !l.dso)
			continue;
		while (k < u->n && u->v[k] != l.dso)
			k++;
		if (k < u->n)
			continue;
		if (TP_GROW(u->v, u->cap, u->n + 1, 8))
			return -TP_ERR_NOMEM;
		u->v[u->n++] = l.dso;
	}
	return 0;
}

static bool reached(const struct unwound *u, const struct tp_dso *d)
{
	for (size_t k = 0; k < u->n; k++)
		if (u->v[k] == d)
			return true;
	return false;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf buildid-list [-i FILE|-] [-H|--with-hits]\n\n"
		   "List '<build-id> <path>' for the DSOs of a perf.data.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -H, --with-hits    only DSOs that samples hit (with or without a build-id)\n");
}

int cmd_buildid_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "with-hits", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct tp_session_ops ops = { .sample = on_sample };
	struct unwound u = { 0 };
	const char *path = "perf.data";
	bool with_hits = false, has_feature;
	struct tp_session *s = NULL;
	struct cmd_input ci;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:Hh", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'H') {
			with_hits = true;
		} else if (c == 'i') {
			path = optarg;
		} else {
			return cmd_usage_error("buildid-list", c, argv, usage);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tinyperf: buildid-list: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (cmd_input__open(&ci, "buildid-list", path))
		return 1;
	rc = tp_session__new(&s, ci.r);
	has_feature = tp_features__has(tp_reader__features(ci.r), HEADER_BUILD_ID);
	/* the samples are walked for hits, and whenever build-ids come as records (pipe) */
	u.s = s;
	u.arch = tp_reader__features(ci.r)->arch;
	u.want = with_hits || !has_feature;
	if (!rc && (with_hits || !has_feature || tp_reader__info(ci.r)->pipe))
		rc = tp_session__process(s, &ops, &u);
	/* as perf: a file without build-ids lists the DSOs the samples hit */
	if (!tp_features__has(tp_reader__features(ci.r), HEADER_BUILD_ID))
		with_hits = true;
	for (size_t i = 0; !rc && i < tp_session__nr_dsos(s); i++) {
		const struct tp_dso *d = tp_session__dso(s, i);
		char hex[2 * PERF_BUILD_ID_MAX + 1];

		if (with_hits ? !d->hits && !reached(&u, d) : !d->build_id_size)
			continue;
		printf("%-40s %s\n", tp_build_id_hex(d->build_id, d->build_id_size, hex), d->name);
	}
	tp_unwinder__delete(u.uw);
	tp_symbolizer__delete(u.sym);
	free(u.v);
	tp_session__delete(s);
	rc = rc < 0 ? cmd_input__fail(&ci, rc) : cmd_input__finish(&ci);
	cmd_input__close(&ci);
	return rc;
}
