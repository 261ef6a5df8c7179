/* SPDX-License-Identifier: MIT */
/* -o tcp://HOST:PORT and -o tcp-listen://[ADDR]:PORT: the pipe stream over one TCP
 * connection, after a hello line. Addresses are numeric (IPv4 dotted, IPv6 in brackets):
 * no resolver, so a static recorder stays static and never reads nsswitch.conf. */
#include "libc-shim/shim.h"
#include "recorder/out/sinks.h"

/* the kernel's sockaddr_in / sockaddr_in6: the same on every arch */
struct sa4 {
	uint16_t family;
	uint8_t port[2];		/* big-endian */
	uint8_t addr[4];
	uint8_t zero[8];
};

struct sa6 {
	uint16_t family;
	uint8_t port[2];
	uint32_t flowinfo;
	uint8_t addr[16];
	uint32_t scope_id;
};

union sa {
	uint16_t family;
	struct sa4 v4;
	struct sa6 v6;
};

static const char tcp_prefix[] = "tcp://", listen_prefix[] = "tcp-listen://";

bool sink_tcp__is(const char *spec)
{
	return tp_startswith(spec, tcp_prefix) || tp_startswith(spec, listen_prefix);
}

/* ---- the hello ---- */

static TP_NOINLINE uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void rec_hello__init(struct tp_hello *h)
{
	struct tp_utsname u;
	struct tp_timespec rt, mono;
	uint64_t id;

	memset(h, 0, sizeof(*h));
	tp_strlcpy(h->version, TP_VERSION, sizeof(h->version));
	if (sys_uname(&u) == 0 && u.nodename[0])
		tp_strlcpy(h->device, u.nodename, sizeof(h->device));
	else
		tp_strlcpy(h->device, "unknown", sizeof(h->device));
	/* unique enough to tell runs apart: wall clock, uptime and pid mixed */
	sys_clock_gettime(TP_CLOCK_REALTIME, &rt);
	sys_clock_gettime(TP_CLOCK_MONOTONIC, &mono);
	id = mix64((uint64_t)rt.sec * 1000000000ULL + (uint64_t)rt.nsec);
	id = mix64(id ^ ((uint64_t)mono.nsec << 20) ^ (uint64_t)sys_getpid());
	tp_snprintf(h->session, sizeof(h->session), "%016llx", (unsigned long long)id);
}

/* ---- addresses ---- */

static int parse_port(const char *s, uint8_t port[2])
{
	unsigned v;

	if (tp_parse_uint(s, &v) || !v || v > 65535)
		return -TP_EINVAL;
	port[0] = (uint8_t)(v >> 8);
	port[1] = (uint8_t)v;
	return 0;
}

static int parse_v4(const char *s, size_t n, uint8_t out[4])
{
	const char *end = s + n;

	for (int i = 0; i < 4; i++) {
		unsigned v = 0, digits = 0;

		while (s < end && *s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (!digits || v > 255 || (i < 3 && (s >= end || *s++ != '.')))
			return -TP_EINVAL;
		out[i] = (uint8_t)v;
	}
	return s == end ? 0 : -TP_EINVAL;
}

/* hex groups with at most one "::" (no embedded IPv4, no %scope) */
static int parse_v6(const char *s, size_t n, uint8_t out[16])
{
	uint16_t g[8];
	int ng = 0, gap = -1;
	size_t i = 0;

	if (n >= 2 && s[0] == ':' && s[1] == ':') {
		gap = 0;
		i = 2;
	}
	while (i < n) {
		unsigned v = 0, digits = 0;

		while (i < n && tp_hexval(s[i]) >= 0 && digits < 5) {
			v = v << 4 | (unsigned)tp_hexval(s[i++]);
			digits++;
		}
		if (!digits || digits > 4 || ng == 8)
			return -TP_EINVAL;
		g[ng++] = (uint16_t)v;
		if (i == n)
			break;
		if (s[i++] != ':' || i == n)
			return -TP_EINVAL;
		if (s[i] == ':') {
			if (gap >= 0)
				return -TP_EINVAL;
			gap = ng;
			i++;
		}
	}
	if (gap < 0 ? ng != 8 : ng > 7)
		return -TP_EINVAL;
	memset(out, 0, 16);
	for (int k = 0, pos = 0; k < ng; k++, pos++) {
		if (k == gap)
			pos += 8 - ng;
		out[2 * pos] = (uint8_t)(g[k] >> 8);
		out[2 * pos + 1] = (uint8_t)g[k];
	}
	return 0;
}

/* "HOST:PORT" or "[V6]:PORT"; an empty host (listening) is 0.0.0.0 */
static int parse_endpoint(const char *s, union sa *a, unsigned *len, bool empty_ok)
{
	const char *colon;
	int e;

	memset(a, 0, sizeof(*a));
	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -TP_EINVAL;
		a->v6.family = TP_AF_INET6;
		*len = sizeof(a->v6);
		e = parse_v6(s + 1, (size_t)(close - s - 1), a->v6.addr);
		return e ? e : parse_port(close + 2, a->v6.port);
	}
	colon = strrchr(s, ':');
	if (!colon || (colon == s && !empty_ok))
		return -TP_EINVAL;
	a->v4.family = TP_AF_INET;
	*len = sizeof(a->v4);
	e = colon == s ? 0 : parse_v4(s, (size_t)(colon - s), a->v4.addr);
	return e ? e : parse_port(colon + 1, a->v4.port);
}

static void format_endpoint(char *buf, size_t cap, const union sa *a)
{
	if (a->family == TP_AF_INET6) {
		const uint8_t *p = a->v6.addr;

		tp_snprintf(buf, cap, "[%x:%x:%x:%x:%x:%x:%x:%x]:%u", p[0] << 8 | p[1],
			    p[2] << 8 | p[3], p[4] << 8 | p[5], p[6] << 8 | p[7], p[8] << 8 | p[9],
			    p[10] << 8 | p[11], p[12] << 8 | p[13], p[14] << 8 | p[15],
			    a->v6.port[0] << 8 | a->v6.port[1]);
	} else {
		tp_snprintf(buf, cap, "%u.%u.%u.%u:%u", a->v4.addr[0], a->v4.addr[1],
			    a->v4.addr[2], a->v4.addr[3], a->v4.port[0] << 8 | a->v4.port[1]);
	}
}

/* ---- the sink ---- */

static int tcp_write(struct tp_sink *sink, const void *buf, size_t len)
{
	struct sink_tcp *s = (struct sink_tcp *)sink;
	long e = tp_write_all(s->fd, buf, len), n, k = 0;
	char line[sizeof(s->bye) + sizeof(TP_BYE_MAGIC) - 2];	/* bye: its NUL kept */

	/* closed by recv: its last line says why (a dead connection: the read cannot block) */
	if ((e == -TP_EPIPE || e == -TP_ECONNRESET) && !s->bye[0] &&
	    (n = sys_read(s->fd, line, sizeof(line) - 1)) >= (long)sizeof(TP_BYE_MAGIC) &&
	    !memcmp(line, TP_BYE_MAGIC, sizeof(TP_BYE_MAGIC) - 1))
		for (long i = sizeof(TP_BYE_MAGIC) - 1; i < n && line[i] != '\n'; i++)
			s->bye[k++] = line[i] >= ' ' && line[i] <= '~' ? line[i] : '?';
	return (int)e;
}

static int do_connect(struct sink_tcp *s, const union sa *a, unsigned alen, unsigned retries,
		      char *err, size_t errlen)
{
	struct tp_timespec second = { 1, 0 };
	long fd, e;

	for (;;) {
		fd = sys_socket(a->family, TP_SOCK_STREAM | TP_SOCK_CLOEXEC, 0);
		if (fd < 0) {
			tp_snprintf(err, errlen, "cannot create a socket: %s", tp_strerror(fd));
			return (int)fd;
		}
		e = sys_connect((int)fd, a, alen);
		if (!e)
			break;
		sys_close((int)fd);
		if (!retries-- || (e != -TP_ECONNREFUSED && e != -TP_ETIMEDOUT &&
				   e != -TP_ENETUNREACH && e != -TP_EHOSTUNREACH)) {
			tp_snprintf(err, errlen, "cannot connect to %s: %s%s", s->peer, tp_strerror(e),
				    e == -TP_ECONNREFUSED ? " (is 'tinyperf recv' running there?)" : "");
			return (int)e;
		}
		if (sys_nanosleep(&second) == -TP_EINTR) {
			tp_snprintf(err, errlen, "interrupted while connecting to %s", s->peer);
			return -TP_EINTR;
		}
	}
	s->fd = (int)fd;
	return 0;
}

static int do_listen(struct sink_tcp *s, const union sa *a, unsigned alen, bool quiet,
		     char *err, size_t errlen)
{
	union sa peer;
	unsigned plen = sizeof(peer);
	int one = 1;
	long fd, c;

	fd = sys_socket(a->family, TP_SOCK_STREAM | TP_SOCK_CLOEXEC, 0);
	if (fd < 0) {
		tp_snprintf(err, errlen, "cannot create a socket: %s", tp_strerror(fd));
		return (int)fd;
	}
	sys_setsockopt((int)fd, TP_SOL_SOCKET, TP_SO_REUSEADDR, &one, sizeof(one));
	c = sys_bind((int)fd, a, alen);
	if (!c)
		c = sys_listen((int)fd, 1);
	if (c) {
		tp_snprintf(err, errlen, "cannot listen on %s: %s", s->peer, tp_strerror(c));
		sys_close((int)fd);
		return (int)c;
	}
	if (!quiet)
		tp_dprintf(2, "tinyperf: record: waiting for the host on %s "
			      "('tinyperf recv --connect ADDRESS:PORT' there)\n", s->peer);
	memset(&peer, 0, sizeof(peer));
	c = sys_accept4((int)fd, &peer, &plen, TP_SOCK_CLOEXEC);
	sys_close((int)fd);
	if (c < 0) {
		tp_snprintf(err, errlen, "%s while waiting for the host on %s",
			    c == -TP_EINTR ? "interrupted" : tp_strerror(c), s->peer);
		return (int)c;
	}
	s->fd = (int)c;
	format_endpoint(s->peer, sizeof(s->peer), &peer);
	return 0;
}

int sink_tcp__open(struct sink_tcp *s, const char *spec, const struct tp_hello *h,
		   unsigned retries, bool quiet, char *err, size_t errlen)
{
	bool listening = tp_startswith(spec, listen_prefix);
	const char *ep = spec + (listening ? sizeof(listen_prefix) : sizeof(tcp_prefix)) - 1;
	char line[TP_HELLO_MAX];
	union sa a;
	unsigned alen;
	int e;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->sink.write = tcp_write;
	if (parse_endpoint(ep, &a, &alen, listening)) {
		tp_snprintf(err, errlen, "bad address '%s': give %sIPV4:PORT or %s[IPV6]:PORT "
			    "(numeric)", spec, listening ? listen_prefix : tcp_prefix,
			    listening ? listen_prefix : tcp_prefix);
		return -TP_EINVAL;
	}
	format_endpoint(s->peer, sizeof(s->peer), &a);
	e = listening ? do_listen(s, &a, alen, quiet, err, errlen)
		      : do_connect(s, &a, alen, retries, err, errlen);
	if (e)
		return e;
	e = tp_hello__format(line, sizeof(line), h);
	if (e > 0)
		e = (int)tp_write_all(s->fd, line, (size_t)e);
	if (e) {
		tp_snprintf(err, errlen, "cannot send to %s: %s", s->peer, tp_strerror(e));
		sink_tcp__close(s);
		return e;
	}
	if (!quiet)
		tp_dprintf(2, "tinyperf: record: streaming to %s as device '%s', session %s\n",
			   s->peer, h->device, h->session);
	return 0;
}

void sink_tcp__close(struct sink_tcp *s)
{
	if (s->fd >= 0)
		sys_close(s->fd);
	s->fd = -1;
}
