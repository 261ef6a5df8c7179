/* SPDX-License-Identifier: MIT */
/* The descriptors `tinyperf recv` reads: a TCP listener, outgoing connections to recorders
 * that listen, serial lines made raw. All non-blocking, for one poll loop. -errno on error. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "host-tools/lib/recv/io.h"
#include "perfdata/framing.h"

/* "HOST:PORT", "[V6]:PORT" or, with a default port, "HOST" */
static int split(const char *spec, char *host, size_t hcap, char *port, size_t pcap,
		 const char *def_port)
{
	const char *colon;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		snprintf(host, hcap, "%.*s", (int)(close - spec - 1), spec + 1);
		colon = close[1] ? close + 1 : NULL;
	} else {
		colon = strrchr(spec, ':');
		if (colon && strchr(spec, ':') != colon)
			colon = NULL;	/* a bare IPv6 address */
		snprintf(host, hcap, "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
	}
	if (colon)
		snprintf(port, pcap, "%s", colon + 1);
	else if (def_port)
		snprintf(port, pcap, "%s", def_port);
	else
		return -EINVAL;
	return port[0] ? 0 : -EINVAL;
}

int tp_recv_resolve(const char *spec, const char *def_port, bool numeric,
		    struct sockaddr_storage *out, socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	char host[256], port[32];
	int e = split(spec, host, sizeof(host), port, sizeof(port), def_port);

	if (e)
		return e;
	hints.ai_flags = (numeric ? AI_NUMERICHOST : 0) | AI_NUMERICSERV;
	if (getaddrinfo(host[0] ? host : NULL, port, &hints, &res))
		return -EINVAL;
	memcpy(out, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

void tp_recv_format_addr(char *buf, size_t cap, const struct sockaddr_storage *a)
{
	char host[INET6_ADDRSTRLEN + 8] = "?", port[16] = "?";

	getnameinfo((const struct sockaddr *)a, a->ss_family == AF_INET6 ?
		    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in),
		    host, sizeof(host), port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, cap, a->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

int tp_recv_listen(const struct sockaddr_storage *a, socklen_t len)
{
	int one = 1, fd = socket(a->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)a, len) < 0 || listen(fd, 512) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

void tp_recv_keepalive(int fd)
{
	int on = 1, idle = 60, intvl = 10, cnt = 6;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

void tp_recv_bye(int fd, const char *why)
{
	char line[200];
	int n = snprintf(line, sizeof(line), "%s%s\n", TP_BYE_MAGIC, why);
	static char sink[4096];

	/* unread bytes would turn the close into a reset that can discard the line: read
	 * what is there (a hello, a header) first */
	for (int i = 0; i < 16 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; i++)
		;
	if (n > (int)sizeof(line) - 1) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	if (send(fd, line, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return;
	shutdown(fd, SHUT_WR);
}

int tp_recv_connect_start(const struct sockaddr_storage *a, socklen_t len)
{
	int fd = socket(a->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)a, len) < 0 && errno != EINPROGRESS) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

int tp_recv_connect_result(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	return -err;
}

static const struct { unsigned rate; speed_t code; } speeds[] = {
	{ 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 }, { 19200, B19200 },
	{ 38400, B38400 }, { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
	{ 460800, B460800 }, { 921600, B921600 }, { 1000000, B1000000 },
	{ 1500000, B1500000 }, { 2000000, B2000000 }, { 3000000, B3000000 },
};

int tp_recv_serial_open(const char *spec, struct tp_recv_tty *tty, char *dev, size_t devcap)
{
	const char *comma = strchr(spec, ',');
	speed_t code = 0;
	struct termios t;
	int fd;

	memset(tty, 0, sizeof(*tty));
	snprintf(dev, devcap, "%.*s", comma ? (int)(comma - spec) : (int)strlen(spec), spec);
	if (comma) {
		char *end;
		unsigned long rate = strtoul(comma + 1, &end, 10);

		for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
			if (speeds[i].rate == rate)
				code = speeds[i].code;
		if (*end || !code)
			return -EINVAL;
	}
	fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (tcgetattr(fd, &t) == 0) {
		tty->saved = t;
		tty->restore = true;
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL | CREAD;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (code) {
			cfsetispeed(&t, code);
			cfsetospeed(&t, code);
		}
		if (tcsetattr(fd, TCSANOW, &t) < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
	}
	tty->fd = fd;
	return fd;
}

void tp_recv_serial_close(struct tp_recv_tty *tty)
{
	if (tty->restore)
		tcsetattr(tty->fd, TCSANOW, &tty->saved);
	close(tty->fd);
	tty->restore = false;
}
