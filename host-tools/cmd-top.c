/* SPDX-License-Identifier: MIT */
/* 'tinyperf top': the hottest functions of a device that streams (TCP either way, a serial
 * line, a pipe), refreshed every second: the options and the one poll loop. The link is
 * cmd-top-link.c's, the window host-tools/lib/live/'s, the screen cmd-top-view.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/cmd-top.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/live/live.h"

#define TICK_MS		100	/* the longest the loop sleeps: keys, a quiet line */
#define NOTES		16

struct top {
	struct cmd_sym cs;
	struct top_view v;
	struct tp_live *live;
	struct top_link *link;
	struct top_link_conf lc;
	struct tp_log log;
	double delay;
	unsigned long refreshes;	/* 0: until q */
	double rate;			/* samples per second over the last refresh */
	/* what was logged: the newest warning, and the ones already printed (--stdio) */
	char note[256];
	uint32_t said[NOTES];
	unsigned nsaid;
};

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_log(void *ctx, enum tp_log_level level, const char *msg)
{
	struct top *t = ctx;
	uint32_t h = 2166136261u;

	if (level > TP_LOG_WARN)
		return;
	snprintf(t->note, sizeof(t->note), "%s", msg);
	if (!t->v.stdio)
		return;
	/* the symbols are looked up again at every refresh: say each thing once */
	for (const char *p = msg; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	for (unsigned i = 0; i < t->nsaid && i < NOTES; i++)
		if (t->said[i] == h)
			return;
	t->said[t->nsaid++ % NOTES] = h;
	fprintf(stderr, "tinyperf: top: %s\n", msg);
}

static void on_record(void *ctx, const uint8_t *rec, size_t size, bool swapped)
{
	struct top *t = ctx;

	tp_live__record(t->live, rec, size, swapped);
}

static void on_restart(void *ctx)
{
	struct top *t = ctx;

	tp_live__restart(t->live);
}

/* ---- the loop ---- */

static void status(struct top *t, struct top_status *st)
{
	const struct tp_live_stats *ls = tp_live__stats(t->live);
	const char *saved = top_link__saved(t->link);

	if (saved)
		snprintf(t->note, sizeof(t->note), "saved %s", saved);
	st->link = top_link__state(t->link);
	st->rate = t->rate;
	st->samples = ls->samples;
	st->lost = ls->lost;
	st->frames_lost = top_link__frames_lost(t->link);
	st->note = t->note[0] ? t->note : NULL;
}

static void refresh_view(struct top *t, double secs, bool tick)
{
	struct top_status st;
	char eb[256];
	int e = tick ? tp_live__tick(t->live) : 0;

	if (e)
		snprintf(t->note, sizeof(t->note), "cannot symbolize: %s",
			 cmd_error_text(eb, sizeof(eb), NULL, e));
	/* a redraw between refreshes (a key) keeps the last refresh's rate */
	if (tick)
		t->rate = secs > 0 ? tp_live__stats(t->live)->tick_samples / secs : 0;
	status(t, &st);
	top_view__draw(&t->v, tp_live__window(t->live), &st);
}

static void loop(struct top *t)
{
	int64_t period = (int64_t)(t->delay * 1000), last = top_now_ms(), next = last + period;
	unsigned long done = 0;

	while (!stop && !t->v.quit) {
		struct pollfd p[3];
		int n = top_link__fds(t->link, p), kfd = top_view__key_fd(&t->v);
		int64_t now = top_now_ms(), wait = next - now;
		bool ended;

		if (kfd >= 0)
			p[n++] = (struct pollfd){ kfd, POLLIN, 0 };
		if (wait > TICK_MS)
			wait = TICK_MS;
		if (poll(p, (nfds_t)n, wait < 0 ? 0 : (int)wait) < 0 && errno != EINTR)
			break;
		top_link__step(t->link, p, kfd >= 0 ? n - 1 : n);
		/* keys (and a terminal resized: KEY_RESIZE) are drawn at once */
		if (top_view__keys(&t->v) && !t->v.quit)
			refresh_view(t, 0, false);
		now = top_now_ms();
		/* --stdio of a pipe ends with it, after a last block */
		ended = t->v.stdio && top_link__ended(t->link);
		if (now >= next || ended) {
			refresh_view(t, (now - last) / 1000.0, true);
			last = now;
			next = now + period;
			if ((t->refreshes && ++done >= t->refreshes) || ended)
				break;
		}
	}
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tinyperf top (--listen [ADDR:]PORT | --connect HOST:PORT |\n"
		"                     --serial DEV[,BAUD] | -i -) [OPTIONS]\n"
		"The hottest functions of a device that streams, refreshed every second, over a\n"
		"window in which older samples weigh less (halved at each refresh), symbolized\n"
		"here against the device's sysroot. The status line has the link, the sample rate\n"
		"and what the recorder lost. On the device: tinyperf record -a -o tcp://HOST:PORT\n"
		"(or -o tcp-listen://:PORT, -o serial:DEV, -o - | ...).\n"
		"  --listen [ADDR:]PORT   wait for the device on PORT (ADDR 127.0.0.1 unless given;\n"
		"                         0.0.0.0 for every interface); taken again after a drop\n"
		"  --connect HOST:PORT    connect to a recorder started with tcp-listen://\n"
		"  --serial DEV[,BAUD]    read a serial line (made raw at BAUD)\n"
		"  -i -                   read the stream from stdin (tinyperf record -o - | ...)\n"
		"  -o, --output DIR       keep what arrived as tinyperf recv does:\n"
		"                         DIR/<device>/<date>-<time>-<session>.data\n"
		"  -d, --delay SECS       refresh every SECS seconds (default 1)\n"
		"  -n, --refreshes N      stop after N refreshes\n"
		"  -E, --entries N        show N functions at most\n"
		"      --sort KEY         overhead (default), samples, symbol, dso or comm\n"
		"      --comm STR, --dso STR  only functions of comms, DSOs containing STR\n"
		"  -K, --hide-kernel      no kernel functions\n"
		"      --stdio            plain text, one block per refresh (the default when\n"
		"                         stdout is not a terminal)\n"
		"  --sysroot, --symfs DIR  the device's root filesystem on this host\n"
		"  --debug-dir DIR        more places for unstripped files (repeatable)\n"
		"  --buildid-dir DIR      perf's build-id cache (default ~/.debug; '' for none)\n"
		"  -k, --vmlinux FILE     the kernel image; --kallsyms FILE a copy of its kallsyms\n"
		"  --strict, --no-demangle  as for tinyperf report; no debuginfod (a download\n"
		"                         would freeze the view; --offline is taken, and implied)\n"
		"Keys: q quit, s/S next/previous sort, c comm filter, d DSO filter (a substring,\n"
		"Enter to apply, empty for all, Esc to cancel), k kernel functions on/off.\n"
		"Ctrl-C stops too; with -o the files are finished first.\n");
}

enum { OPT_LISTEN = 0x100, OPT_CONNECT, OPT_SERIAL, OPT_STDIO, OPT_SORT, OPT_COMM, OPT_DSO };

static int set_input(struct top *t, enum top_link_kind kind, const char *spec)
{
	if (t->lc.kind != TOP_NONE) {
		fprintf(stderr, "tinyperf: top: one input at a time: give one of --listen, "
			"--connect, --serial or -i -\n");
		return 2;
	}
	t->lc.kind = kind;
	t->lc.spec = spec;
	return -1;
}

static int number(const char *arg, const char *opt, double max, double *out)
{
	char *end;
	double d = strtod(arg, &end);

	if (*end || !(d > 0 && d <= max)) {
		fprintf(stderr, "tinyperf: top: bad value '%s' for %s\n", arg, opt);
		return 2;
	}
	*out = d;
	return -1;
}

static int parse(struct top *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "connect", required_argument, NULL, OPT_CONNECT },
		{ "serial", required_argument, NULL, OPT_SERIAL },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "delay", required_argument, NULL, 'd' },
		{ "refreshes", required_argument, NULL, 'n' },
		{ "entries", required_argument, NULL, 'E' },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "dso", required_argument, NULL, OPT_DSO },
		{ "hide-kernel", no_argument, NULL, 'K' },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "help", no_argument, NULL, 'h' },
		CMD_SYM_LONGOPTS,	/* after --comm and --dso: top's own come first */
		{ NULL, 0, NULL, 0 },
	};
	double d;
	int c, rc = -1, idx = 0;

	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:o:d:n:E:Khk:", opts, &idx)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case OPT_LISTEN: rc = set_input(t, TOP_LISTEN, optarg); break;
		case OPT_CONNECT: rc = set_input(t, TOP_CONNECT, optarg); break;
		case OPT_SERIAL: rc = set_input(t, TOP_SERIAL, optarg); break;
		case 'i':
			if (strcmp(optarg, "-")) {
				fprintf(stderr, "tinyperf: top: -i takes '-' (stdin) only: for a "
					"file, use tinyperf report -i FILE\n");
				rc = 2;
				break;
			}
			rc = set_input(t, TOP_PIPE, optarg);
			break;
		case 'o': t->lc.out = optarg; break;
		case 'd':
			rc = number(optarg, "-d", 3600, &t->delay);
			if (rc < 0 && t->delay < 0.1) {
				fprintf(stderr, "tinyperf: top: -d %s: give 0.1 seconds or more\n",
					optarg);
				rc = 2;
			}
			break;
		case 'n':
			if ((rc = number(optarg, "-n", 1e9, &d)) < 0)
				t->refreshes = (unsigned long)d;
			break;
		case 'E':
			if ((rc = number(optarg, "-E", 1e6, &d)) < 0)
				t->v.entries = (unsigned)d;
			break;
		case OPT_SORT:
			for (t->v.sort = 0; t->v.sort < TP_LIVE_NR_SORTS &&
			     strcmp(optarg, tp_live_sort_name(t->v.sort)); t->v.sort++)
				;
			if (t->v.sort == TP_LIVE_NR_SORTS) {
				fprintf(stderr, "tinyperf: top: --sort %s: give overhead, samples, "
					"symbol, dso or comm\n", optarg);
				rc = 2;
			}
			break;
		case OPT_COMM: case CMD_SYM_COMM:	/* --comms as --comm */
			snprintf(t->v.comm, sizeof(t->v.comm), "%s", optarg);
			break;
		case OPT_DSO: case CMD_SYM_DSO:
			snprintf(t->v.dso, sizeof(t->v.dso), "%s", optarg);
			break;
		case CMD_SYM_TIME: case CMD_SYM_PID: case CMD_SYM_TID: case CMD_SYM_SYMBOL:
		case CMD_SYM_LINES: case CMD_SYM_INLINE:
			fprintf(stderr, "tinyperf: top: --%s is report's, not top's: filter with "
				"--comm, --dso and the keys\n", opts[idx].name);
			rc = 2;
			break;
		case 'K': t->v.filter.hide_kernel = true; break;
		case OPT_STDIO: t->v.stdio = true; break;
		default:
			switch (cmd_sym__option(&t->cs, "top", c, optarg)) {
			case 0: rc = cmd_usage_error("top", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: top: unexpected '%s': see tinyperf top --help\n",
			argv[optind]);
		rc = 2;
	}
	if (rc < 0 && t->lc.kind == TOP_NONE) {
		fprintf(stderr, "tinyperf: top: where from? give --listen [ADDR:]PORT, --connect "
			"HOST:PORT, --serial DEV[,BAUD] or -i -\n");
		rc = 2;
	}
	return rc;
}

static int run(struct top *t)
{
	struct tp_live_conf lc = { 0 };
	char eb[256];
	int e;

	t->log = (struct tp_log){ on_log, t };
	t->cs.conf.sym.log = t->log;
	/* the symbols are looked up at every refresh, in the loop: a debuginfod download
	 * there would freeze the view and the link */
	t->cs.conf.sym.offline = true;
	lc.sym = &t->cs.conf;
	e = tp_live__new(&t->live, &lc);
	if (e) {
		fprintf(stderr, "tinyperf: top: %s\n", cmd_error_text(eb, sizeof(eb), NULL, e));
		return 1;
	}
	t->lc.on_record = on_record;
	t->lc.on_restart = on_restart;
	t->lc.log = &t->log;
	t->lc.ctx = t;
	if (top_link__open(&t->link, &t->lc))
		return 1;
	if (top_view__start(&t->v, t->lc.kind == TOP_PIPE))
		return 1;
	loop(t);
	top_view__stop(&t->v);
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct top *t = calloc(1, sizeof(*t));
	struct sigaction sa = { .sa_handler = on_stop };
	int rc;

	if (!t) {
		fprintf(stderr, "tinyperf: top: out of memory\n");
		return 1;
	}
	cmd_sym__init(&t->cs);
	t->delay = 1;
	rc = parse(t, argc, argv);
	if (rc < 0) {
		t->v.stdio |= !isatty(1);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		signal(SIGPIPE, SIG_IGN);
		rc = run(t);
	}
	top_link__close(t->link);
	tp_live__delete(t->live);
	cmd_sym__close(&t->cs);
	free(t);
	return rc;
}
