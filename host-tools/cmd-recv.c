/* SPDX-License-Identifier: MIT */
/* 'tinyperf recv': receive what recorders stream (tinyperf record -o tcp://..., serial:...)
 * and save one regular perf.data per session, in a directory per device. One poll loop
 * serves every connection and line; the work is the library's (host-tools/lib/recv/recv.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd-recv.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"
#include "include/tinyperf/perf_data.h"

#define IDLE_MS		100	/* a quiet line hands its pending text out */
#define RETRY_MS	1000

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

int64_t recv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- messages: one line each on stderr, the progress line cleared first ---- */

static void clear_progress(struct recv *r)
{
	if (r->progress_shown)
		fputs("\r\033[K", stderr);
	r->progress_shown = false;
}

void recv_say(struct recv *r, const char *fmt, ...)
{
	va_list ap;

	clear_progress(r);
	fputs("tinyperf: recv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void on_log(void *ctx, enum tp_log_level level, const char *msg)
{
	struct recv *r = ctx;

	if (level <= TP_LOG_WARN || (level == TP_LOG_INFO && !r->quiet) || r->verbose)
		recv_say(r, "%s", msg);
}

static void on_event(void *ctx, enum tp_recv_event ev, const struct tp_recv_info *i)
{
	struct recv *r = ctx;
	char frames[160] = "";

	if (ev == TP_RECV_STARTED) {
		if (!r->quiet)
			recv_say(r, "%s: device '%s', session %s (tinyperf %s%s): saving to %s/%s",
			    i->origin, i->device, i->hello.session, i->hello.version,
			    i->swapped ? ", other byte order" : "", r->dir, i->path);
		return;
	}
	r->finished++;
	if (i->frames || i->frames_lost)
		snprintf(frames, sizeof(frames), ", %llu frames kept, %llu lost, %llu recovered "
			 "from console text", (unsigned long long)i->frames,
			 (unsigned long long)i->frames_lost, (unsigned long long)i->frames_recovered);
	if (!i->path[0]) {
		recv_say(r, "%s: nothing saved for device '%s' (%s)", i->origin, i->device,
		    i->error ? i->error : "no events in the stream");
		return;
	}
	r->saved++;
	if (i->complete && !i->error)
		recv_say(r, "saved %s/%s: %llu samples, %.2f MB%s; stream complete", r->dir, i->path,
		    (unsigned long long)i->samples, i->bytes / 1e6, frames);
	else
		recv_say(r, "saved %s/%s: %llu samples, %.2f MB%s; stream ended early (%s): kept what "
		    "arrived", r->dir, i->path, (unsigned long long)i->samples, i->bytes / 1e6,
		    frames, i->error ? i->error : "no end marker");
}

static void on_text(void *ctx, const char *origin, const uint8_t *text, size_t len)
{
	struct recv *r = ctx;

	(void)origin;
	clear_progress(r);
	fwrite(text, 1, len, stdout);
	fflush(stdout);
}

static void show_progress(struct recv *r)
{
	uint64_t samples = 0, bytes = 0, lost = 0;
	unsigned active = 0;

	for (unsigned i = 0; i < r->n; i++) {
		struct input *in = r->in[i];
		struct tp_recv_sess *s = in->conn ? tp_recv_conn__session(in->conn) :
					 in->line ? tp_recv_line__session(in->line) : NULL;

		if (s) {
			const struct tp_recv_info *info = tp_recv_sess__info(s);

			active++;
			samples += info->samples;
			bytes += info->bytes;
			lost += info->frames_lost;
		}
	}
	fprintf(stderr, "\r\033[Ktinyperf: recv: %u receiving, %llu samples, %.2f MB, %llu frames "
		"lost, %lu saved", active, (unsigned long long)samples, bytes / 1e6,
		(unsigned long long)lost, r->saved);
	r->progress_shown = true;
}

/* ---- inputs ---- */

struct input *recv_add(struct recv *r, enum kind kind, int fd, const char *name)
{
	struct input *in;

	if (r->n == r->cap || !(in = calloc(1, sizeof(*in))))
		return NULL;
	in->kind = kind;
	in->fd = fd;
	in->last_rx = recv_now_ms();
	snprintf(in->name, sizeof(in->name), "%s", name);
	r->in[r->n++] = in;
	return in;
}

void recv_drop(struct recv *r, unsigned i, const char *why)
{
	struct input *in = r->in[i];

	if (in->conn)
		tp_recv_conn__close(in->conn, why);
	if (in->accepted)
		r->accepted--;
	if (in->line) {
		const struct tp_deframer_stats *st = tp_recv_line__stats(in->line);

		if (!r->quiet)
			recv_say(r, "%s: %llu frames, %llu lost, %llu recovered, %llu bad chunks, %llu "
			    "bytes of text", in->name, (unsigned long long)st->frames,
			    (unsigned long long)st->lost, (unsigned long long)st->recovered,
			    (unsigned long long)st->bad, (unsigned long long)st->text_bytes);
		tp_recv_line__close(in->line, why);
	}
	if (in->kind == IN_LINE)
		tp_recv_serial_close(&in->tty);
	else if (in->fd >= 0)
		close(in->fd);
	free(in);
	r->in[i] = r->in[--r->n];
}

/* bytes from a connection; false when it is done, with why it ended early in *why */
bool recv_conn_read(struct recv *r, struct input *in, uint8_t *buf, size_t cap,
		    const char **why)
{
	ssize_t n = read(in->fd, buf, cap);
	int e;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) {
		if (!tp_recv_conn__session(in->conn) && n == 0 && !r->quiet)
			recv_door_say(r, "%s: closed before sending anything", in->name);
		*why = n ? "the connection broke" : "the connection closed mid-stream";
		return false;
	}
	e = tp_recv_conn__feed(in->conn, buf, (size_t)n);
	in->slot.last_rx = recv_now_ms();
	in->slot.spoke = tp_recv_conn__session(in->conn) != NULL;
	if (e >= 0)
		return true;
	/* one line: this one when nothing was started, else the session's closing line */
	if (!tp_recv_conn__session(in->conn)) {
		r->cnt.not_tinyperf++;
		recv_door_say(r, "%s: %s: dropped", in->name, tp_recv_conn__error(in->conn) ?
		    tp_recv_conn__error(in->conn) : tp_strerror(e));
	}
	return false;
}

static bool line_read(struct input *in, uint8_t *buf, size_t cap, const char **why)
{
	ssize_t n = read(in->fd, buf, cap);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) {
		*why = "the line closed mid-session";	/* EOF, or EIO: the other end hung up */
		return false;
	}
	tp_recv_line__feed(in->line, buf, (size_t)n);
	in->last_rx = recv_now_ms();
	in->unflushed = true;
	return true;
}

static void connect_step(struct recv *r, struct input *in, short revents)
{
	int e;

	if (in->kind == IN_WAITING) {
		if (recv_now_ms() < in->retry_at)
			return;
		e = tp_recv_connect_start(&in->addr, in->alen);
		if (e < 0) {
			in->retry_at = recv_now_ms() + RETRY_MS;
			return;
		}
		in->fd = e;
		in->kind = IN_CONNECTING;
		return;
	}
	if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
		return;
	e = tp_recv_connect_result(in->fd);
	if (e) {
		if (!in->said_waiting && !r->quiet)
			recv_say(r, "%s: %s: trying again every second", in->name, tp_strerror(e));
		in->said_waiting = true;
		close(in->fd);
		in->fd = -1;
		in->kind = IN_WAITING;
		in->retry_at = recv_now_ms() + RETRY_MS;
		return;
	}
	if (tp_recv_conn__new(&in->conn, &r->conf, in->name))
		return;
	in->kind = IN_CONN;
	if (!r->quiet)
		recv_say(r, "%s: connected", in->name);
}

/* --from-file: a capture of a line or a connection, or a pipe-mode perf.data */
static int from_file(struct recv *r, const char *path)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	struct tp_deframer_stats st;
	char eb[256];
	unsigned long before = r->saved;

	if (fd < 0) {
		recv_say(r, "cannot open %s: %s", path, cmd_error_text(eb, sizeof(eb), NULL, -errno));
		return 1;
	}
	tp_recv_file(&r->conf, fd, path, &st, &stop);
	if (st.bytes && !r->quiet)
		recv_say(r, "%s: %llu frames, %llu lost, %llu recovered, %llu bad chunks, %llu bytes "
		    "of text", path, (unsigned long long)st.frames, (unsigned long long)st.lost,
		    (unsigned long long)st.recovered, (unsigned long long)st.bad,
		    (unsigned long long)st.text_bytes);
	if (fd)
		close(fd);
	return r->saved > before ? 0 : 1;
}

/* ---- the loop ---- */

static bool done(const struct recv *r)
{
	return stop || (r->count && r->finished >= r->count) || !r->n;
}

static void loop(struct recv *r)
{
	static uint8_t buf[65536];
	struct pollfd *pfd = r->pfd;

	while (!done(r)) {
		unsigned n = r->n;
		int64_t t;

		for (unsigned i = 0; i < n; i++) {
			struct input *in = r->in[i];

			pfd[i].fd = in->kind == IN_WAITING ? -1 : in->fd;
			pfd[i].events = in->kind == IN_CONNECTING ? POLLOUT :
					in->kind == IN_LISTEN ? recv_door_events(r) : POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, n, IDLE_MS) < 0 && errno != EINTR)
			break;
		t = recv_now_ms();
		/* backwards: recv_drop() moves the last input into the hole; an eviction may
		 * move one below i, which is then read once more (never blocking) or a round
		 * later */
		for (unsigned i = n; i-- > 0 && !done(r);) {
			struct input *in;
			const char *why = NULL;
			bool keep = true;

			if (i >= r->n)
				continue;
			in = r->in[i];
			/* bytes waiting are read first: they may be the hello, or the record
			 * that ends a quiet spell */
			if (in->accepted && !(pfd[i].revents & POLLIN) && !recv_door_check(r, i, t))
				continue;

			if (in->kind == IN_WAITING || in->kind == IN_CONNECTING) {
				connect_step(r, in, pfd[i].revents);
				continue;
			}
			if (in->kind == IN_LINE && in->unflushed && t - in->last_rx >= IDLE_MS) {
				tp_recv_line__idle(in->line);
				in->unflushed = false;
			}
			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (in->kind == IN_LISTEN)
				recv_door_accept(r, in);
			else if (in->kind == IN_CONN)
				keep = recv_conn_read(r, in, buf, sizeof(buf), &why);
			else
				keep = line_read(in, buf, sizeof(buf), &why);
			if (!keep)
				recv_drop(r, i, why);
		}
		if (r->progress && t - r->progress_at >= 250) {
			show_progress(r);
			r->progress_at = t;
		}
	}
	clear_progress(r);
	while (r->n)
		recv_drop(r, r->n - 1, "tinyperf recv stopped");
}

static int open_inputs(struct recv *r, const struct recv_args *a)
{
	char name[160], eb[256];

	if (a->bind || a->port || (!a->nserial && !a->nconnect && !a->nfrom)) {
		struct sockaddr_storage sa;
		socklen_t len;
		char spec[160];
		int fd;

		snprintf(spec, sizeof(spec), "%s%s%s:%s", a->bind && strchr(a->bind, ':') ? "[" : "",
			 a->bind ? a->bind : "127.0.0.1", a->bind && strchr(a->bind, ':') ? "]" : "",
			 a->port ? a->port : RECV_DEFAULT_PORT);
		if (tp_recv_resolve(spec, NULL, true, &sa, &len)) {
			recv_say(r, "bad address to listen on: %s", spec);
			return -1;
		}
		fd = tp_recv_listen(&sa, len);
		tp_recv_format_addr(name, sizeof(name), &sa);
		if (fd < 0) {
			recv_say(r, "cannot listen on %s: %s", name,
			    cmd_error_text(eb, sizeof(eb), NULL, fd));
			return -1;
		}
		/* the kernel hands a connection over once its first bytes (a recorder's hello)
		 * came, or after about a second: a device is seldom seen before it spoke */
		setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &(int){ 1 }, sizeof(int));
		recv_add(r, IN_LISTEN, fd, name);
		if (!r->quiet)
			recv_say(r, "listening on %s, saving to %s/ (on the device: tinyperf record -o "
			    "tcp://THIS-HOST:%s ...)", name, r->dir, a->port ? a->port : RECV_DEFAULT_PORT);
	}
	for (unsigned i = 0; i < a->nserial; i++) {
		struct tp_recv_tty tty;
		char dev[128];
		int fd = tp_recv_serial_open(a->serial[i], &tty, dev, sizeof(dev));
		struct input *in;

		if (fd < 0) {
			recv_say(r, "cannot open serial line %s: %s%s", a->serial[i],
			    cmd_error_text(eb, sizeof(eb), NULL, fd),
			    fd == -EINVAL ? " (give DEV or DEV,BAUD)" : "");
			return -1;
		}
		in = recv_add(r, IN_LINE, fd, dev);
		if (!in || tp_recv_line__new(&in->line, &r->conf, dev)) {
			recv_say(r, "out of memory");
			return -1;
		}
		in->tty = tty;
	}
	for (unsigned i = 0; i < a->nconnect; i++) {
		struct input *in = recv_add(r, IN_WAITING, -1, a->connect[i]);

		if (!in || tp_recv_resolve(a->connect[i], NULL, false, &in->addr, &in->alen)) {
			recv_say(r, "bad address '%s': give HOST:PORT or [IPV6]:PORT", a->connect[i]);
			return -1;
		}
	}
	return 0;
}

int cmd_recv(int argc, char **argv)
{
	struct recv r = { .dir = RECV_DEFAULT_DIR, .lim = { .max_clients = 64, .max_per_peer = 16,
							     .hello_ms = 5000 } };
	struct recv_args a = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	char eb[256];
	int e, rc = 0;

	e = recv_parse(&r, &a, argc, argv);
	if (e)
		return e > 0 ? 0 : 2;
	r.log = (struct tp_log){ on_log, &r };
	r.progress = !r.quiet && isatty(2);
	if (mkdir(r.dir, 0755) < 0 && errno != EEXIST) {
		recv_say(&r, "cannot create %s: %s", r.dir,
		    cmd_error_text(eb, sizeof(eb), NULL, -errno));
		return 1;
	}
	r.conf.dirfd = open(r.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.conf.dirfd < 0) {
		recv_say(&r, "cannot open %s: %s", r.dir, cmd_error_text(eb, sizeof(eb), NULL, -errno));
		return 1;
	}
	r.conf.log = &r.log;
	r.conf.on_event = on_event;
	r.conf.on_text = on_text;
	r.conf.ctx = &r;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (recv_door_open(&r, &a)) {
		close(r.conf.dirfd);
		return 1;
	}
	for (unsigned i = 0; i < a.nfrom; i++)
		rc |= from_file(&r, a.from[i]);
	if (open_inputs(&r, &a) == 0)
		loop(&r);
	else
		rc = 1;
	while (r.n)
		recv_drop(&r, r.n - 1, "tinyperf recv stopped");
	recv_door_summary(&r);
	free(r.in);
	free(r.pfd);
	free(r.slots);
	close(r.conf.dirfd);
	return rc;
}
