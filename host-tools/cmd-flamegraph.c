/* SPDX-License-Identifier: MIT */
/* tinyperf flamegraph: the stacks of a recording (or the change between two) as one
 * self-contained interactive SVG; the walk is cli/stacks.c's, the picture lib/render's. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/stacks.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/render/render.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf flamegraph [-i FILE|-] [-o OUT.svg] [--inverted] [--minwidth PX]\n"
		   "                          [filters] [symbol options]\n"
		   "       tinyperf flamegraph --diff OLD.data NEW.data [-o OUT.svg] [...]\n\n"
		   "Draw the recording's stacks as an interactive flame graph: one SVG file that\n"
		   "opens offline in a browser (click to zoom, Search or Ctrl-F to highlight).\n\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -o, --output FILE  where to write the SVG (default flamegraph.svg; - is stdout)\n"
		   "  --diff OLD NEW     width from NEW, colour from the change of each frame's\n"
		   "                     share: red took more than in OLD (slower), blue less\n"
		   "  -e, --event NAME   only the samples of this event (default: all)\n"
		   "  --inverted         an icicle graph: callers on top, callees below\n"
		   "  --minwidth PX      leave out frames narrower than PX pixels (default 0.1)\n"
		   "  --width PX         the picture's width (default 1200)\n"
		   "  --title TEXT       the title line (default \"Flame Graph\")\n"
		   CMD_SYM_HELP);
}

struct flamegraph {
	struct cmd_stacks st[2];	/* --diff: [0] the old recording; else only [1] */
	struct tp_svgconf conf;
	const char *in, *out;
	bool diff;
};

enum { O_DIFF = 0x100, O_INVERTED, O_MINWIDTH, O_WIDTH, O_TITLE };

/* a non-negative number of pixels: 0, or 2 after saying what is wrong */
static int parse_px(const char *opt, const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !(*v >= 0 && *v <= 1e6)) {
		fprintf(stderr, "tinyperf: flamegraph: %s '%s': expected pixels, e.g. 0.5\n",
			opt, arg);
		return 2;
	}
	return 0;
}

/* one option: -1 to go on, else the exit status (0 after --help, 2 on a usage error) */
static int option(void *ctx, int c, char **argv)
{
	struct flamegraph *fg = ctx;

	if (c == 'h' || c == 'i' || c == 'o' || c == O_TITLE) {
		const char **to[] = { &fg->in, &fg->out, &fg->conf.title };

		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		*to[c == 'i' ? 0 : c == 'o' ? 1 : 2] = optarg;
		return -1;
	}
	if (c == 'e') {
		fg->st[0].event = fg->st[1].event = optarg;
		return -1;
	}
	if (c == O_DIFF || c == O_INVERTED) {
		*(c == O_DIFF ? &fg->diff : &fg->conf.inverted) = true;
		return -1;
	}
	if (c == O_MINWIDTH || c == O_WIDTH)
		return parse_px(c == O_WIDTH ? "--width" : "--minwidth", optarg,
				c == O_WIDTH ? &fg->conf.width : &fg->conf.minwidth) ? 2 : -1;
	/* both recordings of a --diff are read with the same symbol options and filters */
	switch (cmd_sym__option(&fg->st[1].cs, "flamegraph", c, optarg)) {
	case 0:
		return cmd_usage_error("flamegraph", c, argv, usage);
	case 2:
		return 2;
	}
	cmd_sym__option(&fg->st[0].cs, "flamegraph", c, optarg);
	return -1;
}

static int parse(struct flamegraph *fg, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "diff", no_argument, NULL, O_DIFF },
		{ "event", required_argument, NULL, 'e' },
		{ "inverted", no_argument, NULL, O_INVERTED },
		CMD_SYM_LONGOPTS,
		{ "minwidth", required_argument, NULL, O_MINWIDTH },
		{ "width", required_argument, NULL, O_WIDTH },
		{ "title", required_argument, NULL, O_TITLE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int rc = cmd_stacks__options(argc, argv, opts, option, fg);

	if (rc >= 0)
		return rc;
	if (fg->diff && argc - optind == 2) {
		fg->diff = fg->conf.diff = true;
		return -1;
	}
	if (fg->diff || optind < argc) {
		fprintf(stderr, "tinyperf: flamegraph: %s\n", fg->diff ?
			"--diff takes two recordings: --diff OLD.data NEW.data" :
			"unexpected argument: the input goes after -i");
		usage(stderr);
		return 2;
	}
	return -1;
}

struct drawing {
	const struct tp_flame *fl;
	const struct tp_svgconf *conf;
};

static int draw(void *ctx, FILE *f)
{
	const struct drawing *d = ctx;

	return tp_flame__write_svg(d->fl, d->conf, f);
}

int cmd_flamegraph(int argc, char **argv)
{
	struct flamegraph *fg = calloc(1, sizeof(*fg));
	struct tp_flame *fl = NULL;
	int rc;

	if (!fg)
		return 1;
	cmd_stacks__init(&fg->st[0]);
	cmd_stacks__init(&fg->st[1]);
	fg->in = "perf.data";
	fg->out = "flamegraph.svg";
	fg->conf.minwidth = 0.1;
	rc = parse(fg, argc, argv);
	if (rc >= 0)
		goto out;
	if (tp_flame__new(&fl)) {
		fprintf(stderr, "tinyperf: flamegraph: out of memory\n");
		rc = 1;
		goto out;
	}
	rc = 0;
	for (int i = fg->diff ? 0 : 1; i < 2 && !rc; i++) {
		const char *path = fg->diff ? argv[argc - 2 + i] : fg->in;

		rc = cmd_stacks__collect(&fg->st[i], "flamegraph", path);
		if (!rc && tp_flame__add_hist(fl, fg->st[i].h, fg->st[i].cs.c, i == 0)) {
			fprintf(stderr, "tinyperf: flamegraph: out of memory\n");
			rc = 1;
		}
		if (!rc && !fg->st[i].kept)
			fprintf(stderr, "tinyperf: flamegraph: %s: no samples%s: the picture is "
				"empty\n", path, cmd_sym__has_frame_filter(&fg->st[i].cs) ||
				fg->st[i].cs.filter.nr_times ? " pass the filters" : "");
		fg->conf.subtitle = path;
	}
	if (!rc)
		rc = cmd_stacks__write("flamegraph", fg->out, draw,
				       &(struct drawing){ .fl = fl, .conf = &fg->conf });
	if (!rc)
		rc = fg->st[0].status | fg->st[1].status;
out:
	tp_flame__delete(fl);
	cmd_stacks__close(&fg->st[0]);
	cmd_stacks__close(&fg->st[1]);
	free(fg);
	return rc;
}
