/* SPDX-License-Identifier: MIT */
/* tinyperf pprof: a recording as pprof's gzip-compressed profile.proto, for go tool pprof,
 * Pyroscope, Parca, Grafana; the walk is cli/stacks.c's, the encoding lib/render's. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host-tools/cli/stacks.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/render/render.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf pprof [-i FILE|-] [-o OUT.pb.gz] [filters] [symbol options]\n\n"
		   "Write the recording as a pprof profile (gzip-compressed profile.proto): open\n"
		   "it with 'go tool pprof -http=: OUT.pb.gz' or send it to Pyroscope or Parca.\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -o, --output FILE  where to write it (default profile.pb.gz; - is stdout)\n"
		   "  -e, --event NAME   only the samples of this event (default: all)\n"
		   CMD_SYM_HELP);
}

struct pprof {
	struct cmd_stacks st;
	const char *in, *out;
	struct tp_pprof_event *events;
	char (*names)[64];
	char comments[4][320];
	const char *comment_ptrs[4];
	struct tp_pprof_conf conf;
};

static int option(void *ctx, int c, char **argv)
{
	struct pprof *pp = ctx;

	switch (c) {
	case 'h':
		usage(stdout);
		return 0;
	case 'e':
		pp->st.event = optarg;
		return -1;
	case 'i':
	case 'o':
		*(c == 'i' ? &pp->in : &pp->out) = optarg;
		return -1;
	}
	switch (cmd_sym__option(&pp->st.cs, "pprof", c, optarg)) {
	case 0: return cmd_usage_error("pprof", c, argv, usage);
	case 2: return 2;
	}
	return -1;
}

static int parse(struct pprof *pp, int argc, char **argv)
{
	static const struct option opts[] = {
		CMD_SYM_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int rc = cmd_stacks__options(argc, argv, opts, option, pp);

	if (rc >= 0 || optind == argc)
		return rc;
	fprintf(stderr, "tinyperf: pprof: unexpected argument '%s': the input goes after -i\n",
		argv[optind]);
	usage(stderr);
	return 2;
}

/* the sample types, the header's facts as comments, the times */
static int describe(struct pprof *pp)
{
	const struct tp_features *feat = tp_reader__features(pp->st.ci.r);
	const char *facts[][2] = { { "hostname", feat->hostname }, { "arch", feat->arch },
				   { "kernel", feat->osrelease }, { "recorded by", feat->version } };
	struct stat sb;

	pp->events = calloc(pp->st.nr_events + 1, sizeof(*pp->events));
	pp->names = calloc(pp->st.nr_events + 1, sizeof(*pp->names));
	if (!pp->events || !pp->names)
		return -TP_ERR_NOMEM;
	for (size_t i = 0; i < pp->st.nr_events; i++) {
		const struct tp_attr *a = tp_reader__attr(pp->st.ci.r, (uint32_t)i);
		struct tp_pprof_event *e = &pp->events[pp->conf.nr_events];
		const char *name = cmd_sym__event_name(a, pp->names[i], sizeof(pp->names[i]));

		if (!pp->st.events[i].periods)
			continue;
		e->periods = pp->st.events[i].periods;
		e->period = a && !(a->attr.flags & PERF_ATTR_FLAG_FREQ) ? a->attr.sample_period : 0;
		e->type = !strcmp(name, "cpu-clock") ? "cpu" : name;
		e->unit = !strcmp(name, "cpu-clock") || !strcmp(name, "task-clock") ?
			  "nanoseconds" : "count";
		pp->conf.nr_events++;
	}
	pp->conf.events = pp->events;
	pp->conf.addr_ids = true;
	for (size_t i = 0; i < 4; i++) {
		if (!facts[i][1])
			continue;
		snprintf(pp->comments[pp->conf.nr_comments], sizeof(pp->comments[0]), "%s: %s",
			 facts[i][0], facts[i][1]);
		pp->comment_ptrs[pp->conf.nr_comments] = pp->comments[pp->conf.nr_comments];
		pp->conf.nr_comments++;
	}
	pp->conf.comments = pp->comment_ptrs;
	pp->conf.duration_nanos = (int64_t)(pp->st.last_time - pp->st.first_time);
	/* perf.data holds no wall-clock start: a file's is taken as its mtime less the length */
	if (strcmp(pp->in, "-") && !stat(pp->in, &sb))
		pp->conf.time_nanos = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec -
				      pp->conf.duration_nanos;
	return 0;
}

static int write_profile(void *ctx, FILE *f)
{
	struct pprof *pp = ctx;

	return tp_pprof__write(&pp->conf, pp->st.cs.c, f);
}

int cmd_pprof(int argc, char **argv)
{
	struct pprof *pp = calloc(1, sizeof(*pp));
	int rc;

	if (!pp)
		return 1;
	cmd_stacks__init(&pp->st);
	pp->st.per_event = true;
	pp->st.cs.conf.addr_ids = true;		/* a Location per address */
	pp->st.cs.conf.sym.want_lines = true;	/* with its file:line */
	pp->in = "perf.data";
	pp->out = "profile.pb.gz";
	rc = parse(pp, argc, argv);
	if (rc >= 0)
		goto out;
	rc = cmd_stacks__collect(&pp->st, "pprof", pp->in);
	if (!rc && describe(pp)) {
		fprintf(stderr, "tinyperf: pprof: out of memory\n");
		rc = 1;
	}
	if (!rc)
		rc = cmd_stacks__emit(&pp->st, "pprof", "profile", pp->out, write_profile, pp);
out:
	cmd_stacks__close(&pp->st);
	free(pp->events);
	free(pp->names);
	free(pp);
	return rc;
}
