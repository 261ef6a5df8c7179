/* tinyperf buildid-list: "<build-id> <path>" for each DSO of a perf.data, like perf
 * buildid-list; --with-hits only those the samples hit (counted by walking the session). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/session/session.h"

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
	static const struct tp_session_ops no_ops;
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
	if (!rc && (with_hits || !has_feature || tp_reader__info(ci.r)->pipe))
		rc = tp_session__process(s, &no_ops, NULL);
	/* as perf: a file without build-ids lists the DSOs the samples hit */
	if (!tp_features__has(tp_reader__features(ci.r), HEADER_BUILD_ID))
		with_hits = true;
	for (size_t i = 0; !rc && i < tp_session__nr_dsos(s); i++) {
		const struct tp_dso *d = tp_session__dso(s, i);
		char hex[2 * PERF_BUILD_ID_MAX + 1];

		if (with_hits ? !d->hits : !d->build_id_size)
			continue;
		printf("%-40s %s\n", tp_build_id_hex(d->build_id, d->build_id_size, hex), d->name);
	}
	tp_session__delete(s);
	rc = rc < 0 ? cmd_input__fail(&ci, rc) : cmd_input__finish(&ci);
	cmd_input__close(&ci);
	return rc;
}
