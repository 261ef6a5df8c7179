/* SPDX-License-Identifier: MIT */
/* tinyperf report --html: the report as one self-contained HTML file (header facts, the
 * function table, call trees, flame graph, per-thread time strips that select the range of
 * the rest, where symbols came from); the walk is cli/stacks.c's, the page lib/render's. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cli/stacks.h"
#include "host-tools/cmd-report.h"
#include "host-tools/lib/render/render.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: tinyperf report --html OUT.html [-i FILE|-] [filters] [symbol options]\n\n"
		   "Write the report as one HTML file that opens offline: the recording's facts,\n"
		   "the functions (sortable), call trees both ways, a flame graph, and a strip of\n"
		   "samples over time per thread where a drag selects the time range shown.\n\n"
		   "  --html FILE        the page to write (- is stdout)\n"
		   "  -i, --input FILE   the perf.data to read (default perf.data; - is stdin)\n"
		   "  -e, --event NAME   only the samples of this event (default: all)\n"
		   CMD_SYM_HELP);
}

struct html_report {
	struct cmd_stacks st;
	struct tp_html *page;
	const char *in, *out;
	char facts[9][2][256];
	const char *fact_ptrs[18];
	char *sources;
	size_t len_sources;
	struct tp_html_conf conf;
};

static int on_stack(void *ctx, const struct tp_hsample *hs, const struct tp_attr *a,
		    uint64_t time)
{
	struct html_report *hr = ctx;
	char buf[64];

	return tp_html__add(hr->page, hr->st.cs.c, hs, cmd_sym__event_name(a, buf, sizeof(buf)),
			    time);
}

static int option(void *ctx, int c, char **argv)
{
	struct html_report *hr = ctx;

	if (c == 'h') {
		usage(stdout);
		return 0;
	}
	if (c == 'e') {
		hr->st.event = optarg;
		return -1;
	}
	if (c == 'i' || c == 'H') {
		*(c == 'i' ? &hr->in : &hr->out) = optarg;
		return -1;
	}
	switch (cmd_sym__option(&hr->st.cs, "report", c, optarg)) {
	case 0: return cmd_usage_error("report", c, argv, usage);
	case 2: return 2;
	}
	return -1;
}

static void fact(struct html_report *hr, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fact(struct html_report *hr, const char *name, const char *fmt, ...)
{
	uint32_t i = hr->conf.nr_facts;
	va_list ap;

	if (i >= 9)
		return;
	snprintf(hr->facts[i][0], sizeof(hr->facts[i][0]), "%s", name);
	va_start(ap, fmt);
	vsnprintf(hr->facts[i][1], sizeof(hr->facts[i][1]), fmt, ap);
	va_end(ap);
	hr->fact_ptrs[2 * i] = hr->facts[i][0];
	hr->fact_ptrs[2 * i + 1] = hr->facts[i][1];
	hr->conf.nr_facts++;
}

/* the header facts and the symbol sources, as report's header has them */
static void describe(struct html_report *hr)
{
	struct cmd_stacks *st = &hr->st;
	const struct tp_features *feat = tp_reader__features(st->ci.r);
	char events[256] = "", buf[64];
	size_t n = 0;
	FILE *f;

	for (uint32_t i = 0; i < tp_reader__nr_attrs(st->ci.r) && n < sizeof(events); i++)
		n += (size_t)snprintf(events + n, sizeof(events) - n, "%s%s", i ? ", " : "",
				      cmd_sym__event_name(tp_reader__attr(st->ci.r, i), buf,
							  sizeof(buf)));
	fact(hr, "input", "%s", st->ci.name);
	fact(hr, "host", "%s", feat->hostname ? feat->hostname : "?");
	fact(hr, "arch", "%s", feat->arch ? feat->arch : "?");
	fact(hr, "kernel", "%s", feat->osrelease ? feat->osrelease : "?");
	fact(hr, "recorded by", "%s", feat->version ? feat->version : "?");
	fact(hr, "events", "%s", events);
	fact(hr, "samples", "%" PRIu64 " (after the filters)", st->kept);
	fact(hr, "lost", "%" PRIu64 " samples, %" PRIu64 " events", st->lost_samples,
	     st->lost_events);
	fact(hr, "duration", "%.3f s", (double)(st->last_time - st->first_time) / 1e9);
	hr->conf.facts = hr->fact_ptrs;
	f = open_memstream(&hr->sources, &hr->len_sources);
	if (f) {
		cmd_sym__print_dsos(&st->cs, f, "");
		cmd_sym__print_embedded(&st->cs, f, "");
		fclose(f);
	}
	hr->conf.sources = hr->sources;
	hr->conf.title = "tinyperf report";
}

static int write_page(void *ctx, FILE *f)
{
	struct html_report *hr = ctx;

	return tp_html__write(hr->page, &hr->conf, f);
}

static void release(struct html_report *hr)
{
	cmd_stacks__close(&hr->st);
	tp_html__delete(hr->page);
	free(hr->sources);
	free(hr);
}

int cmd_report_html(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "html", required_argument, NULL, 'H' },
		{ "event", required_argument, NULL, 'e' },
		CMD_SYM_LONGOPTS,
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct html_report *hr = calloc(1, sizeof(*hr));
	int rc;

	if (!hr)
		return 1;
	cmd_stacks__init(&hr->st);
	hr->in = "perf.data";
	rc = cmd_stacks__options(argc, argv, opts, option, hr);
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: report: unexpected argument '%s' (with --html)\n",
			argv[optind]);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	if (tp_html__new(&hr->page)) {
		fprintf(stderr, "tinyperf: report: out of memory\n");
		rc = 1;
		goto out;
	}
	hr->st.on_stack = on_stack;
	hr->st.ctx = hr;
	rc = cmd_stacks__collect(&hr->st, "report", hr->in);
	if (!rc) {
		describe(hr);
		rc = cmd_stacks__emit(&hr->st, "report", "page", hr->out, write_page, hr);
	}
out:
	release(hr);
	return rc;
}
