/* SPDX-License-Identifier: MIT */
/* 'tinyperf top''s link to the device: listening (and taking the device again after a drop),
 * connecting (again every second), a serial line (opened again every second) or a pipe; the
 * bytes go to host-tools/lib/recv/, which hands the records on and, with -o, saves them as
 * tinyperf recv does. Never blocks: every descriptor is polled first. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd-top.h"
#include "host-tools/lib/recv/recv.h"

#define RETRY_MS	1000
#define IDLE_MS		100	/* a quiet line hands its pending text out */
#define QUIET_MS	2000	/* a line this quiet is said to be */

struct top_link {
	struct top_link_conf c;
	struct tp_recv_conf rc;
	int lfd, fd;
	bool connecting, ended;
	struct tp_recv_conn *conn;
	struct tp_recv_line *line;
	struct tp_recv_tty tty;
	struct sockaddr_storage addr;
	socklen_t alen;
	char where[160], state[320], saved[512];
	int64_t retry_at, last_rx;
	bool unflushed;
	uint64_t frames_lost;		/* of the lines closed before */
};

int64_t top_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_state(struct top_link *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_state(struct top_link *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->state, sizeof(l->state), fmt, ap);
	va_end(ap);
}

static const char *waiting_text(const struct top_link *l, char *buf, size_t cap)
{
	if (l->c.kind == TOP_LISTEN)
		snprintf(buf, cap, "waiting for the device on %s", l->where);
	else if (l->c.kind == TOP_CONNECT)
		snprintf(buf, cap, "connecting to %s again every second", l->where);
	else if (l->c.kind == TOP_SERIAL)
		snprintf(buf, cap, "opening %s again every second", l->where);
	else
		snprintf(buf, cap, "nothing more will come");
	return buf;
}

/* the stream ended: complete, or the link dropped (why) */
static void link_down(struct top_link *l, bool complete, const char *why)
{
	char w[200], because[200];

	/* why may be the connection's own text, freed with it */
	snprintf(because, sizeof(because), "%s", why ? why : "the stream broke");
	why = why ? because : NULL;
	if (l->conn)
		tp_recv_conn__close(l->conn, why);
	if (l->line) {
		l->frames_lost += tp_recv_line__stats(l->line)->lost;
		tp_recv_line__close(l->line, why);
	}
	if (l->c.kind == TOP_SERIAL && l->fd >= 0)
		tp_recv_serial_close(&l->tty);
	else if (l->fd >= 0)
		close(l->fd);
	l->conn = NULL;
	l->line = NULL;
	l->fd = -1;
	l->connecting = false;
	l->retry_at = top_now_ms() + RETRY_MS;
	l->ended = l->c.kind == TOP_PIPE;
	if (complete)
		set_state(l, "stream ended: %s", waiting_text(l, w, sizeof(w)));
	else
		set_state(l, "LINK DOWN (%s): %s", because, waiting_text(l, w, sizeof(w)));
}

static int new_conn(struct top_link *l, int fd, const char *peer)
{
	char eb[256];
	int e = tp_recv_conn__new(&l->conn, &l->rc, peer);

	if (e) {
		set_state(l, "%s: %s", peer, cmd_error_text(eb, sizeof(eb), NULL, e));
		close(fd);
		return e;
	}
	l->fd = fd;
	l->last_rx = top_now_ms();
	if (l->c.on_restart)
		l->c.on_restart(l->c.ctx);
	set_state(l, "receiving from %s", peer);
	return 0;
}

static void accept_device(struct top_link *l)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	char peer[96];
	int fd = accept4(l->lfd, (struct sockaddr *)&a, &alen, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (l->fd >= 0) {		/* one device at a time */
		close(fd);
		return;
	}
	tp_recv_format_addr(peer, sizeof(peer), &a);
	new_conn(l, fd, peer);
}

static void connect_step(struct top_link *l, short revents)
{
	char eb[256];
	int e;

	if (!l->connecting) {
		if (top_now_ms() < l->retry_at)
			return;
		e = tp_recv_connect_start(&l->addr, l->alen);
		if (e < 0) {
			l->retry_at = top_now_ms() + RETRY_MS;
			return;
		}
		l->fd = e;
		l->connecting = true;
		return;
	}
	if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
		return;
	l->connecting = false;
	e = tp_recv_connect_result(l->fd);
	if (e) {
		close(l->fd);
		l->fd = -1;
		l->retry_at = top_now_ms() + RETRY_MS;
		set_state(l, "cannot connect to %s (%s): trying again every second", l->where,
			  cmd_error_text(eb, sizeof(eb), NULL, e));
		return;
	}
	e = l->fd;
	l->fd = -1;
	new_conn(l, e, l->where);
}

static int open_line(struct top_link *l, bool first)
{
	char dev[128], eb[256];
	int fd = tp_recv_serial_open(l->c.spec, &l->tty, dev, sizeof(dev));

	if (fd < 0) {
		if (first) {
			fprintf(stderr, "tinyperf: top: cannot open serial line %s: %s%s\n",
				l->c.spec, cmd_error_text(eb, sizeof(eb), NULL, fd),
				fd == -EINVAL ? " (give DEV or DEV,BAUD)" : "");
			return -1;
		}
		l->retry_at = top_now_ms() + RETRY_MS;
		return 0;
	}
	snprintf(l->where, sizeof(l->where), "%s", dev);
	if (tp_recv_line__new(&l->line, &l->rc, dev)) {
		tp_recv_serial_close(&l->tty);
		fprintf(stderr, "tinyperf: top: out of memory\n");
		return -1;
	}
	l->fd = fd;
	l->last_rx = top_now_ms();
	if (l->c.on_restart)
		l->c.on_restart(l->c.ctx);
	set_state(l, "serial %s: waiting for frames", dev);
	return 0;
}

static void read_link(struct top_link *l)
{
	static uint8_t buf[65536];
	ssize_t n = read(l->fd, buf, sizeof(buf));
	int e;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		link_down(l, false, l->line ? "the line closed" : n ? "the connection broke" :
			  l->c.kind == TOP_PIPE ? "the stream ended mid-session" :
			  "the connection closed mid-stream");
		return;
	}
	l->last_rx = top_now_ms();
	if (l->line) {
		tp_recv_line__feed(l->line, buf, (size_t)n);
		l->unflushed = true;
		set_state(l, "serial %s: receiving", l->where);
		return;
	}
	e = tp_recv_conn__feed(l->conn, buf, (size_t)n);
	if (e == 1)
		link_down(l, true, NULL);
	else if (e < 0)
		link_down(l, false, tp_recv_conn__error(l->conn) ? tp_recv_conn__error(l->conn) :
			  tp_strerror(e));
}

static void on_event(void *ctx, enum tp_recv_event ev, const struct tp_recv_info *i)
{
	struct top_link *l = ctx;

	if (ev == TP_RECV_FINISHED && i->path[0] && l->c.out)
		snprintf(l->saved, sizeof(l->saved), "%s/%s", l->c.out, i->path);
}

static void on_record(void *ctx, const uint8_t *rec, size_t size, bool swapped)
{
	struct top_link *l = ctx;

	l->c.on_record(l->c.ctx, rec, size, swapped);
}

/* ---- the link's life ---- */

static int open_out(struct top_link *l)
{
	char eb[256];

	l->rc.dirfd = -1;
	if (!l->c.out)
		return 0;
	if (mkdir(l->c.out, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "tinyperf: top: cannot create %s: %s\n", l->c.out,
			cmd_error_text(eb, sizeof(eb), NULL, -errno));
		return 1;
	}
	l->rc.dirfd = open(l->c.out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->rc.dirfd < 0) {
		fprintf(stderr, "tinyperf: top: cannot open %s: %s\n", l->c.out,
			cmd_error_text(eb, sizeof(eb), NULL, -errno));
		return 1;
	}
	return 0;
}

static int open_input(struct top_link *l)
{
	char spec[200], eb[256], w[200];
	int e;

	switch (l->c.kind) {
	case TOP_LISTEN:
		snprintf(spec, sizeof(spec), "%s%s", strchr(l->c.spec, ':') ? "" : "127.0.0.1:",
			 l->c.spec);
		if (tp_recv_resolve(spec, NULL, true, &l->addr, &l->alen)) {
			fprintf(stderr, "tinyperf: top: bad address to listen on: '%s': give "
				"[ADDR:]PORT\n", l->c.spec);
			return 1;
		}
		tp_recv_format_addr(l->where, sizeof(l->where), &l->addr);
		l->lfd = e = tp_recv_listen(&l->addr, l->alen);
		if (e < 0) {
			fprintf(stderr, "tinyperf: top: cannot listen on %s: %s\n", l->where,
				cmd_error_text(eb, sizeof(eb), NULL, e));
			return 1;
		}
		set_state(l, "%s", waiting_text(l, w, sizeof(w)));
		return 0;
	case TOP_CONNECT:
		if (tp_recv_resolve(l->c.spec, NULL, false, &l->addr, &l->alen)) {
			fprintf(stderr, "tinyperf: top: bad address '%s': give HOST:PORT or "
				"[IPV6]:PORT\n", l->c.spec);
			return 1;
		}
		snprintf(l->where, sizeof(l->where), "%s", l->c.spec);
		set_state(l, "connecting to %s", l->where);
		return 0;
	case TOP_SERIAL:
		return open_line(l, true) ? 1 : 0;
	default:
		snprintf(l->where, sizeof(l->where), "stdin");
		e = dup(0);
		if (e < 0 || new_conn(l, e, "stdin")) {
			fprintf(stderr, "tinyperf: top: cannot read stdin\n");
			return 1;
		}
		return 0;
	}
}

int top_link__open(struct top_link **out, const struct top_link_conf *conf)
{
	struct top_link *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l) {
		fprintf(stderr, "tinyperf: top: out of memory\n");
		return 1;
	}
	l->c = *conf;
	l->lfd = l->fd = -1;
	l->rc.log = conf->log;
	l->rc.on_event = on_event;
	l->rc.on_record = on_record;
	l->rc.ctx = l;
	if (open_out(l) || open_input(l)) {
		top_link__close(l);
		return 1;
	}
	*out = l;
	return 0;
}

void top_link__close(struct top_link *l)
{
	if (!l)
		return;
	if (l->fd >= 0 || l->conn || l->line)
		link_down(l, false, "tinyperf top stopped");
	if (l->lfd >= 0)
		close(l->lfd);
	if (l->rc.dirfd >= 0)
		close(l->rc.dirfd);
	free(l);
}

int top_link__fds(struct top_link *l, struct pollfd *p)
{
	int n = 0;

	if (l->fd >= 0)
		p[n++] = (struct pollfd){ l->fd, l->connecting ? POLLOUT : POLLIN, 0 };
	if (l->lfd >= 0)
		p[n++] = (struct pollfd){ l->lfd, POLLIN, 0 };
	return n;
}

void top_link__step(struct top_link *l, const struct pollfd *p, int n)
{
	for (int i = 0; i < n; i++) {
		if (p[i].fd == l->lfd && (p[i].revents & POLLIN))
			accept_device(l);
		else if (p[i].fd == l->fd && l->connecting)
			connect_step(l, p[i].revents);
		else if (p[i].fd == l->fd && (p[i].revents & (POLLIN | POLLHUP | POLLERR)))
			read_link(l);
	}
	if (l->fd < 0 && l->c.kind == TOP_CONNECT)
		connect_step(l, 0);
	if (l->fd < 0 && l->c.kind == TOP_SERIAL && top_now_ms() >= l->retry_at)
		open_line(l, false);
	if (l->line && l->unflushed && top_now_ms() - l->last_rx >= IDLE_MS) {
		tp_recv_line__idle(l->line);
		l->unflushed = false;
	}
}

const char *top_link__state(struct top_link *l)
{
	int64_t quiet = top_now_ms() - l->last_rx;

	if (l->line && quiet >= QUIET_MS)
		set_state(l, "serial %s: quiet for %lld s", l->where, (long long)(quiet / 1000));
	return l->state;
}

uint64_t top_link__frames_lost(const struct top_link *l)
{
	return l->frames_lost + (l->line ? tp_recv_line__stats(l->line)->lost : 0);
}

bool top_link__ended(const struct top_link *l)
{
	return l->ended;
}

const char *top_link__saved(const struct top_link *l)
{
	return l->saved[0] ? l->saved : NULL;
}
