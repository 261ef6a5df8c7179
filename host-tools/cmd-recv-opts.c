/* SPDX-License-Identifier: MIT */
/* 'tinyperf recv' options: the usage text and the command line into struct recv and
 * struct recv_args (cmd-recv.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-recv.h"

void recv_usage(FILE *f)
{
	fprintf(f,
		"usage: tinyperf recv [OPTIONS]\n"
		"Receive recordings streamed by devices ('tinyperf record -o tcp://HOST:PORT',\n"
		"'-o tcp-listen://:PORT', '-o serial:DEV[,BAUD]') and save each session as a\n"
		"regular perf.data: DIR/<device>/<date>-<time>-<session>.data. Several devices at\n"
		"once; a stream that breaks still gives a valid file with what arrived. Console\n"
		"text that arrives on a serial line between frames goes to stdout.\n"
		"  -o, --output DIR       where to save (default ./" RECV_DEFAULT_DIR ")\n"
		"      --bind ADDR        listen on ADDR (default 127.0.0.1; 0.0.0.0 or :: for\n"
		"                         every interface)\n"
		"      --port PORT        listen on PORT (default " RECV_DEFAULT_PORT ")\n"
		"      --connect HOST:PORT  connect to a recorder started with tcp-listen://\n"
		"      --serial DEV[,BAUD]  read a serial line (made raw at BAUD)\n"
		"      --from-file FILE   read a capture of a serial line or a TCP stream, or a\n"
		"                         pipe-mode perf.data ('tinyperf record -o -'), then exit\n"
		"      --count N          exit after N sessions were saved or ended\n"
		"Accepting TCP clients (a recorder sends its hello at once, then records as\n"
		"they come: nothing at all while nothing is sampled):\n"
		"      --allow CIDR       only from these addresses (192.0.2.0/24, 2001:db8::/32,\n"
		"                         one address; repeatable); others are refused at once\n"
		"      --max-clients N    accepted connections at once (default 64)\n"
		"      --max-per-peer N   ... from one address (default 16; 0: no limit)\n"
		"      --hello-timeout S  drop a connection that sent no hello in S seconds\n"
		"                         (default 5; 0: never)\n"
		"      --idle-timeout S   close a session quiet for S seconds, keeping what\n"
		"                         arrived (default 0: never; a vanished device is\n"
		"                         found by TCP keepalive in about 2 minutes)\n"
		"    When the table (or an address's share) is full, a new connection takes the\n"
		"    place of the one that waited longest without a hello, or, if it sent its\n"
		"    hello, of the session quiet longest (60 s at least, or --idle-timeout);\n"
		"    else it is refused. A refused or dropped recorder is told why.\n"
		"  -q, --quiet            only errors and what was saved\n"
		"  -v, --verbose          more messages\n"
		"Listens on TCP unless only --serial, --connect or --from-file are given (or\n"
		"--bind/--port ask for it too). Stops on Ctrl-C, finishing every file.\n");
}

/* seconds (a fraction allowed) as ms; -1 when not a number of seconds up to a day */
static int64_t seconds(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0) || v > 86400)
		return -1;
	return (int64_t)llround(v * 1000);
}

int recv_parse(struct recv *r, struct recv_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq = strchr(arg, '='), *val = NULL;
		size_t len = eq && !strncmp(arg, "--", 2) ? (size_t)(eq - arg) : strlen(arg);
		static const char *const with_value[] = { "-o", "--output", "--bind", "--port",
			"--connect", "--serial", "--from-file", "--count", "--max-clients",
			"--max-per-peer", "--hello-timeout", "--idle-timeout", "--allow" };
		char *end;

		for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
			if (strlen(with_value[k]) == len && !strncmp(arg, with_value[k], len)) {
				val = eq && len < strlen(arg) ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (!val) {
					fprintf(stderr, "tinyperf: recv: %s needs a value\n", arg);
					return -1;
				}
			}
		}
#define IS(s) (strlen(s) == len && !strncmp(arg, s, len))
		if (IS("-o") || IS("--output")) {
			r->dir = val;
		} else if (IS("--bind")) {
			a->bind = val;
		} else if (IS("--port")) {
			a->port = val;
		} else if (IS("--connect") && a->nconnect < RECV_MAX_SPECS) {
			a->connect[a->nconnect++] = val;
		} else if (IS("--serial") && a->nserial < RECV_MAX_SPECS) {
			a->serial[a->nserial++] = val;
		} else if (IS("--from-file") && a->nfrom < RECV_MAX_SPECS) {
			a->from[a->nfrom++] = val;
		} else if (IS("--allow")) {
			if (r->nallow == RECV_MAX_ALLOW) {
				fprintf(stderr, "tinyperf: recv: more than %d --allow\n", RECV_MAX_ALLOW);
				return -1;
			}
			if (tp_recv_cidr_parse(val, &r->allow[r->nallow++])) {
				fprintf(stderr, "tinyperf: recv: bad --allow '%s': give an address or "
					"ADDRESS/BITS (192.0.2.0/24, 2001:db8::/32)\n", val);
				return -1;
			}
		} else if (IS("--hello-timeout") || IS("--idle-timeout")) {
			int64_t ms = seconds(val);

			if (ms < 0) {
				fprintf(stderr, "tinyperf: recv: bad number of seconds '%s' for %s\n",
					val, arg);
				return -1;
			}
			if (IS("--hello-timeout"))
				r->lim.hello_ms = ms;
			else
				r->lim.idle_ms = ms;
		} else if (IS("--count") || IS("--max-clients") || IS("--max-per-peer")) {
			unsigned long v = strtoul(val, &end, 10);

			if (*end || *val < '0' || *val > '9' || (!v && !IS("--max-per-peer")) ||
			    v > 100000) {
				fprintf(stderr, "tinyperf: recv: bad number '%s' for %s\n", val, arg);
				return -1;
			}
			if (IS("--count"))
				r->count = v;
			else if (IS("--max-clients"))
				r->lim.max_clients = (unsigned)v;
			else
				r->lim.max_per_peer = (unsigned)v;
		} else if (IS("-q") || IS("--quiet")) {
			r->quiet = true;
		} else if (IS("-v") || IS("--verbose")) {
			r->verbose++;
		} else if (IS("-h") || IS("--help")) {
			recv_usage(stdout);
			return 1;
		} else {
			fprintf(stderr, "tinyperf: recv: unknown option '%s'\n", arg);
			return -1;
		}
#undef IS
	}
	/* a quiet session makes room only once quiet for a minute, or its --idle-timeout */
	r->lim.idle_evict_ms = r->lim.idle_ms && r->lim.idle_ms < 60000 ? r->lim.idle_ms : 60000;
	return 0;
}
