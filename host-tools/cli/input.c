/* SPDX-License-Identifier: MIT */
/* Opening perf.data inputs for the commands, and the shape of their error lines. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "host-tools/cli/input.h"
#include "host-tools/lib/common/common.h"

static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	struct cmd_input *ci = ctx;

	switch (level) {
	case TP_LOG_ERROR:
		snprintf(ci->last_error, sizeof(ci->last_error), "%s", msg);
		break;
	case TP_LOG_WARN:
		ci->nr_warnings++;
		fprintf(stderr, "tinyperf: %s: %s: warning: %s\n", ci->cmd, ci->name, msg);
		break;
	default:
		break;
	}
}

int cmd_input__fail(struct cmd_input *ci, int err)
{
	char buf[sizeof(ci->last_error) + 128];

	fflush(stdout);
	fprintf(stderr, "tinyperf: %s: %s: %s\n", ci->cmd, ci->name,
		cmd_error_text(buf, sizeof(buf), ci->last_error, err));
	return 1;
}

const char *cmd_error_text(char *buf, size_t size, const char *detail, int err)
{
	const char *hint = tp_error_hint(err);

	snprintf(buf, size, "%s%s%s", detail && detail[0] ? detail : tp_strerror(err),
		 hint ? ": " : "", hint ? hint : "");
	return buf;
}

int cmd_input__open(struct cmd_input *ci, const char *cmd, const char *path)
{
	int err;

	memset(ci, 0, sizeof(*ci));
	ci->cmd = cmd;
	ci->path = path;
	ci->name = strcmp(path, "-") ? path : "stdin";
	ci->log.fn = log_fn;
	ci->log.ctx = ci;
	err = tp_input__open(&ci->in, path, &ci->log);
	if (!err)
		err = tp_reader__new(&ci->r, ci->in.buf, ci->in.len, &ci->log);
	if (!err && ci->in.map)
		tp_reader__set_mapped(ci->r);
	if (err) {
		cmd_input__fail(ci, err);
		cmd_input__close(ci);
		return 1;
	}
	return 0;
}

void cmd_input__close(struct cmd_input *ci)
{
	tp_reader__delete(ci->r);
	ci->r = NULL;
	tp_input__close(&ci->in);
}

int cmd_input__finish(struct cmd_input *ci)
{
	const struct tp_reader_stats *st = tp_reader__stats(ci->r);
	char what[256] = "";
	size_t n = 0;

	if (!tp_reader__had_errors(ci->r))
		return 0;
	if (st->nr_skipped)
		n += (size_t)snprintf(what + n, sizeof(what) - n, "%llu corrupt record%s skipped "
				      "(%llu bytes), ", (unsigned long long)st->nr_skipped,
				      st->nr_skipped == 1 ? "" : "s",
				      (unsigned long long)st->bytes_skipped);
	if (st->nr_bad_features && n < sizeof(what))
		n += (size_t)snprintf(what + n, sizeof(what) - n, "%u feature section%s "
				      "skipped, ", st->nr_bad_features,
				      st->nr_bad_features == 1 ? "" : "s");
	if (st->truncated && n < sizeof(what))
		n += (size_t)snprintf(what + n, sizeof(what) - n, "the file is truncated, ");
	if (st->unfinished && n < sizeof(what))
		n += (size_t)snprintf(what + n, sizeof(what) - n, "the recording was not "
				      "finished, ");
	if (n >= 2 && n < sizeof(what))
		what[n - 2] = 0;
	fflush(stdout);
	fprintf(stderr, "tinyperf: %s: %s: %s: printed what could be read\n", ci->cmd, ci->name,
		what);
	return 1;
}

int cmd_usage_error(const char *cmd, int c, char **argv, void (*usage)(FILE *f))
{
	if (c == ':')
		fprintf(stderr, "tinyperf: %s: option '%s' needs an argument\n", cmd,
			argv[optind - 1]);
	else if (optopt)
		fprintf(stderr, "tinyperf: %s: unknown option '-%c'\n", cmd, optopt);
	else
		fprintf(stderr, "tinyperf: %s: unknown option '%s'\n", cmd, argv[optind - 1]);
	usage(stderr);
	return 2;
}

int cmd_input__parse_only_i(const char *cmd, int argc, char **argv, void (*usage)(FILE *f),
			    const char **path)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c != 'i')
			return cmd_usage_error(cmd, c, argv, usage);
		*path = optarg;
	}
	if (optind < argc) {
		fprintf(stderr, "tinyperf: %s: unexpected argument '%s'\n", cmd, argv[optind]);
		usage(stderr);
		return 2;
	}
	return -1;
}
