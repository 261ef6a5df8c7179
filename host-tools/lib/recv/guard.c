/* SPDX-License-Identifier: MIT */
/* Who may hold one of `tinyperf recv`'s connection slots: the --allow address ranges (CIDR,
 * IPv4 and IPv6), peers as addresses without their port, and the admission of a new
 * connection into a full table (evict the longest-waiting silent one, then an idle session,
 * else refuse), plus the hello and idle timeouts. Pure functions over the caller's table. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/recv/recv.h"

int tp_recv_cidr_parse(const char *s, struct tp_recv_cidr *out)
{
	const char *slash = strchr(s, '/');
	char host[INET6_ADDRSTRLEN + 1];
	size_t hlen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned maxbits;

	memset(out, 0, sizeof(*out));
	if (!hlen || hlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, hlen);
	host[hlen] = 0;
	if (inet_pton(AF_INET, host, out->addr) == 1) {
		out->family = 4;
		maxbits = 32;
	} else if (inet_pton(AF_INET6, host, out->addr) == 1) {
		out->family = 6;
		maxbits = 128;
	} else {
		return -EINVAL;
	}
	out->bits = maxbits;
	if (slash) {
		const char *p = slash + 1;
		unsigned v = 0;

		if (!*p || strlen(p) > 3)
			return -EINVAL;
		for (; *p; p++) {
			if (*p < '0' || *p > '9')
				return -EINVAL;
			v = v * 10 + (unsigned)(*p - '0');
		}
		if (v > maxbits)
			return -EINVAL;
		out->bits = v;
	}
	/* the host bits off: 192.0.2.77/24 is 192.0.2.0/24 */
	for (unsigned i = 0; i < maxbits / 8; i++) {
		unsigned keep = out->bits > i * 8 ? out->bits - i * 8 : 0;

		if (keep < 8)
			out->addr[i] &= (uint8_t)(0xff00u >> keep);
	}
	return 0;
}

void tp_recv_peer_of(struct tp_recv_peer *p, const struct sockaddr_storage *a)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memset(p, 0, sizeof(*p));
	if (a->ss_family == AF_INET) {
		p->family = 4;
		memcpy(p->addr, &((const struct sockaddr_in *)a)->sin_addr, 4);
	} else if (a->ss_family == AF_INET6) {
		const uint8_t *v6 = ((const struct sockaddr_in6 *)a)->sin6_addr.s6_addr;

		if (!memcmp(v6, mapped, sizeof(mapped))) {
			p->family = 4;		/* ::ffff:192.0.2.1 on a dual-stack socket */
			memcpy(p->addr, v6 + 12, 4);
		} else {
			p->family = 6;
			memcpy(p->addr, v6, 16);
		}
	}
}

bool tp_recv_cidr_match(const struct tp_recv_cidr *c, const struct tp_recv_peer *p)
{
	unsigned whole = c->bits / 8, rest = c->bits % 8;

	if (c->family != p->family)
		return false;
	if (memcmp(c->addr, p->addr, whole))
		return false;
	return !rest || !((c->addr[whole] ^ p->addr[whole]) & (uint8_t)(0xff00u >> rest));
}

bool tp_recv_allowed(const struct tp_recv_cidr *list, size_t n, const struct tp_recv_peer *p)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (tp_recv_cidr_match(&list[i], p))
			return true;
	return false;
}

static bool same_peer(const struct tp_recv_peer *a, const struct tp_recv_peer *b)
{
	return a->family == b->family && !memcmp(a->addr, b->addr, sizeof(a->addr));
}

/* the slot to give up among those of peer (NULL: all): the silent one that waited longest,
 * else, for a newcomer that spoke, the session quiet longest if quiet for idle_ms; -1 none */
static long pick(const struct tp_recv_slot *s, size_t n, const struct tp_recv_peer *peer,
		 bool spoke, int64_t now, const struct tp_recv_limits *lim)
{
	long silent = -1, idle = -1;

	for (size_t i = 0; i < n; i++) {
		if (peer && !same_peer(&s[i].peer, peer))
			continue;
		if (!s[i].spoke) {
			if (silent < 0 || s[i].since < s[silent].since)
				silent = (long)i;
		} else if (now - s[i].last_rx >= lim->idle_evict_ms &&
			   (idle < 0 || s[i].last_rx < s[idle].last_rx)) {
			idle = (long)i;
		}
	}
	if (silent >= 0)
		return silent;
	return spoke ? idle : -1;
}

enum tp_recv_admit tp_recv_admit(const struct tp_recv_slot *slots, size_t n,
				 const struct tp_recv_peer *peer, bool spoke, int64_t now,
				 const struct tp_recv_limits *lim, size_t *victim)
{
	size_t mine = 0;
	long v;

	for (size_t i = 0; i < n; i++)
		mine += same_peer(&slots[i].peer, peer);
	if (lim->max_per_peer && mine >= lim->max_per_peer) {
		v = pick(slots, n, peer, spoke, now, lim);
		if (v < 0)
			return TP_RECV_PEER_FULL;
		*victim = (size_t)v;
		return TP_RECV_EVICT;
	}
	if (n >= lim->max_clients) {
		v = pick(slots, n, NULL, spoke, now, lim);
		if (v < 0)
			return TP_RECV_FULL;
		*victim = (size_t)v;
		return TP_RECV_EVICT;
	}
	return TP_RECV_ROOM;
}

enum tp_recv_timeout tp_recv_timed_out(const struct tp_recv_slot *s, int64_t now,
				       const struct tp_recv_limits *lim)
{
	if (!s->spoke)
		return lim->hello_ms && now - s->since >= lim->hello_ms ? TP_RECV_NO_HELLO
									 : TP_RECV_IN_TIME;
	return lim->idle_ms && now - s->last_rx >= lim->idle_ms ? TP_RECV_IDLE : TP_RECV_IN_TIME;
}
