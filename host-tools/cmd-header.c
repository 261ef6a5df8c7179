/* SPDX-License-Identifier: MIT */
/* tinyperf header: a perf.data's header and feature sections, like perf report --header-only. */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf header [-i FILE|-]\n\n"
		   "Print the header and feature sections of a perf.data (hostname, os release,\n"
		   "arch, cpus, memory, command line, events, build-ids, tinyperf's own sections).\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n");
}

static void print_line(void *ctx, const char *line)
{
	(void)ctx;
	puts(line);
}

static void missing(const struct tp_features *f)
{
	bool any = false;

	for (uint32_t id = HEADER_FIRST_FEATURE; id < HEADER_LAST_FEATURE; id++) {
		if (tp_features__has(f, id) || !tp_feature_name(id))
			continue;
		printf("%s%s ", any ? "" : "# missing features: ", tp_feature_name(id));
		any = true;
	}
	if (any)
		putchar('\n');
}

int cmd_header(int argc, char **argv)
{
	const struct tp_printer printer = { print_line, NULL };
	const struct tp_reader_info *info;
	const struct tp_features *f;
	const char *path = "perf.data";
	struct cmd_input ci;
	int c, rc = 0;

	c = cmd_input__parse_only_i("header", argc, argv, usage, &path);
	if (c >= 0)
		return c;
	if (cmd_input__open(&ci, "header", path))
		return 1;
	info = tp_reader__info(ci.r);
	if (info->pipe) {	/* features come as records: read them all */
		struct tp_event ev;

		while ((rc = tp_reader__next(ci.r, &ev)) > 0)
			;
	}
	f = tp_reader__features(ci.r);
	printf("# ========\n");
	if (info->pipe) {
		printf("# pipe mode (features from HEADER_FEATURE records)\n");
	} else {
		printf("# data offset    : %" PRIu64 "\n", info->data_offset);
		printf("# data size      : %" PRIu64 "\n", info->data_size);
		printf("# feat offset    : %" PRIu64 "\n", info->feat_offset);
	}
	printf("# byte order     : %s-endian%s\n", info->big_endian ? "big" : "little",
	       info->swapped ? " (swapped)" : "");
	tp_features__print(f, &printer);
	if (!tp_features__has(f, HEADER_EVENT_DESC)) {
		for (uint32_t i = 0; i < tp_reader__nr_attrs(ci.r); i++) {
			const struct tp_attr *a = tp_reader__attr(ci.r, i);

			tp_event_desc__print(&a->attr, a->name, a->ids, a->nr_ids, &printer);
		}
	}
	missing(f);
	printf("# ========\n");
	rc = rc < 0 ? cmd_input__fail(&ci, rc) : cmd_input__finish(&ci);
	cmd_input__close(&ci);
	return rc;
}
