/* SPDX-License-Identifier: MIT */
/* Unit tests for host-tools/lib/recv/guard.c: the --allow CIDR parser and matcher, and who
 * gives up a slot when `tinyperf recv`'s table is full (admission, timeouts).
 *   test-recv-guard            the cases below
 *   test-recv-guard --match    "CIDR ADDRESS" lines on stdin -> "1", "0" or "bad" lines
 *                              (recv-guard-peer.sh compares them with Python's ipaddress) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "host-tools/lib/recv/recv.h"
#include "check.h"

static struct tp_recv_peer peer(const char *addr)
{
	struct sockaddr_storage ss;
	struct tp_recv_peer p;

	memset(&ss, 0, sizeof(ss));
	if (strchr(addr, ':')) {
		ss.ss_family = AF_INET6;
		inet_pton(AF_INET6, addr, &((struct sockaddr_in6 *)&ss)->sin6_addr);
	} else {
		ss.ss_family = AF_INET;
		inet_pton(AF_INET, addr, &((struct sockaddr_in *)&ss)->sin_addr);
	}
	tp_recv_peer_of(&p, &ss);
	return p;
}

static int match(const char *cidr, const char *addr)
{
	struct tp_recv_cidr c;
	struct tp_recv_peer p = peer(addr);

	if (tp_recv_cidr_parse(cidr, &c))
		return -1;
	return tp_recv_cidr_match(&c, &p);
}

static void test_parse(void)
{
	static const char *const bad[] = { "", "/24", "1.2.3.4/33", "::/129", "1.2.3/24",
		"1.2.3.4/", "1.2.3.4/2x", "1.2.3.4/-1", "abc", "1.2.3.4/0024", "1.2.3.4 ",
		"256.0.0.1", "1.2.3.4/24/8", "::1::2", "fe80::1%eth0",
		"1234:5678:9abc:def0:1234:5678:9abc:def0:1/64" };
	struct tcase c = case_begin("cidr: forms refused");
	struct tp_recv_cidr r;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!EXPECT(&c, bad[i], -EINVAL, tp_recv_cidr_parse(bad[i], &r)))
			printf("  ('%s' was taken)\n", bad[i]);
	case_end(&c);

	c = case_begin("cidr: 192.0.2.77/23 is 192.0.2.0/23, a bare address /32 or /128");
	EXPECT(&c, "parse", 0, tp_recv_cidr_parse("192.0.2.77/23", &r));
	EXPECT(&c, "family", 4, r.family);
	EXPECT(&c, "bits", 23, r.bits);
	expect_mem(&c, "addr", (const uint8_t[]){ 192, 0, 2, 0 }, r.addr, 4);
	EXPECT(&c, "parse", 0, tp_recv_cidr_parse("10.1.2.3", &r));
	EXPECT(&c, "bits", 32, r.bits);
	EXPECT(&c, "parse", 0, tp_recv_cidr_parse("2001:db8:ffff::1", &r));
	EXPECT(&c, "family", 6, r.family);
	EXPECT(&c, "bits", 128, r.bits);
	EXPECT(&c, "parse", 0, tp_recv_cidr_parse("2001:db8:ffff::1/33", &r));
	expect_mem(&c, "addr", (const uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, 0x80, 0, 0, 0 },
		   r.addr, 8);
	case_end(&c);
}

static void test_match(void)
{
	static const struct { const char *cidr, *addr; int want; } t[] = {
		{ "127.0.0.2/32", "127.0.0.1", 0 },	/* the acceptance's refusal */
		{ "127.0.0.2/32", "127.0.0.2", 1 },
		{ "127.0.0.0/8", "127.255.0.1", 1 },
		{ "192.0.2.0/23", "192.0.3.255", 1 },
		{ "192.0.2.0/23", "192.0.4.0", 0 },
		{ "192.0.2.0/23", "192.0.1.255", 0 },
		{ "0.0.0.0/0", "203.0.113.9", 1 },
		{ "0.0.0.0/0", "::1", 0 },		/* families apart */
		{ "::/0", "127.0.0.1", 0 },
		{ "::/0", "2001:db8::1", 1 },
		{ "::1", "::1", 1 },
		{ "::1", "::2", 0 },
		{ "2001:db8::/33", "2001:db8:7fff::1", 1 },
		{ "2001:db8::/33", "2001:db8:8000::", 0 },
		{ "2001:db8::/127", "2001:db8::1", 1 },
		{ "2001:db8::/127", "2001:db8::2", 0 },
		/* a dual-stack socket's IPv4 peer is ::ffff:a.b.c.d: IPv4 rules apply */
		{ "10.0.0.0/8", "::ffff:10.9.8.7", 1 },
		{ "10.0.0.0/8", "::ffff:11.0.0.1", 0 },
	};
	struct tcase c = case_begin("cidr: matches at the prefix's edges, per family");
	char what[128];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		snprintf(what, sizeof(what), "%s in %s", t[i].addr, t[i].cidr);
		EXPECT(&c, what, t[i].want, match(t[i].cidr, t[i].addr));
	}
	case_end(&c);

	c = case_begin("cidr: no --allow lets everyone in, else any one range");
	{
		struct tp_recv_cidr l[2];
		struct tp_recv_peer a = peer("198.51.100.7"), b = peer("2001:db8::5");

		tp_recv_cidr_parse("198.51.100.0/24", &l[0]);
		tp_recv_cidr_parse("2001:db8::/64", &l[1]);
		EXPECT_TRUE(&c, "empty list", tp_recv_allowed(l, 0, &a));
		EXPECT_TRUE(&c, "v4 in the first", tp_recv_allowed(l, 2, &a));
		EXPECT_TRUE(&c, "v6 in the second", tp_recv_allowed(l, 2, &b));
		EXPECT_TRUE(&c, "v6 not in the first", !tp_recv_allowed(l, 1, &b));
	}
	case_end(&c);
}

/* ---- admission ---- */

static struct tp_recv_slot slot(const char *addr, bool spoke, int64_t since, int64_t last_rx)
{
	return (struct tp_recv_slot){ .peer = peer(addr), .spoke = spoke, .since = since,
				      .last_rx = last_rx };
}

static const struct tp_recv_limits lim = {
	.max_clients = 4, .max_per_peer = 2, .hello_ms = 5000, .idle_ms = 0,
	.idle_evict_ms = 60000,
};

static void test_admit(void)
{
	int64_t now = 1000000;
	struct tp_recv_peer a = peer("192.0.2.1"), b = peer("192.0.2.2"), d = peer("192.0.2.9");
	struct tp_recv_slot s[4];
	size_t v = 99;
	struct tcase c = case_begin("admit: room below both limits");

	s[0] = slot("192.0.2.1", true, now - 10, now - 10);
	s[1] = slot("192.0.2.2", false, now - 10, now - 10);
	EXPECT(&c, "third", TP_RECV_ROOM, tp_recv_admit(s, 2, &d, false, now, &lim, &v));
	EXPECT(&c, "second of a", TP_RECV_ROOM, tp_recv_admit(s, 2, &a, false, now, &lim, &v));
	case_end(&c);

	c = case_begin("admit: a full table gives up the silent one that waited longest, for anyone");
	s[0] = slot("192.0.2.1", true, now - 9000, now - 100);
	s[1] = slot("192.0.2.2", false, now - 300, now - 300);
	s[2] = slot("192.0.2.3", false, now - 700, now - 700);
	s[3] = slot("192.0.2.4", true, now - 99000, now - 90000);	/* idle, but spoke */
	EXPECT(&c, "silent newcomer", TP_RECV_EVICT, tp_recv_admit(s, 4, &d, false, now, &lim, &v));
	EXPECT(&c, "victim", 2, v);
	EXPECT(&c, "speaking newcomer", TP_RECV_EVICT, tp_recv_admit(s, 4, &d, true, now, &lim, &v));
	EXPECT(&c, "victim", 2, v);
	case_end(&c);

	c = case_begin("admit: then the session quiet longest, for a newcomer that spoke only");
	s[1] = slot("192.0.2.2", true, now - 300, now - 61000);
	s[2] = slot("192.0.2.3", true, now - 700, now - 700);
	EXPECT(&c, "silent newcomer", TP_RECV_FULL, tp_recv_admit(s, 4, &d, false, now, &lim, &v));
	EXPECT(&c, "speaking newcomer", TP_RECV_EVICT, tp_recv_admit(s, 4, &d, true, now, &lim, &v));
	EXPECT(&c, "victim: quiet 90 s rather than 61 s", 3, v);
	s[3] = slot("192.0.2.4", true, now - 99000, now - 59999);
	s[1] = slot("192.0.2.2", true, now - 300, now - 100);
	EXPECT(&c, "none quiet a minute", TP_RECV_FULL, tp_recv_admit(s, 4, &d, true, now, &lim, &v));
	case_end(&c);

	c = case_begin("admit: an address at --max-per-peer gives up its own, not another's");
	s[0] = slot("192.0.2.1", false, now - 100, now - 100);
	s[1] = slot("192.0.2.2", false, now - 9000, now - 9000);	/* older, other peer */
	s[2] = slot("192.0.2.1", true, now - 5000, now - 10);
	EXPECT(&c, "a again", TP_RECV_EVICT, tp_recv_admit(s, 3, &a, false, now, &lim, &v));
	EXPECT(&c, "victim: a's silent one", 0, v);
	s[0] = slot("192.0.2.1", true, now - 100, now - 100);
	EXPECT(&c, "a's two busy", TP_RECV_PEER_FULL, tp_recv_admit(s, 3, &a, true, now, &lim, &v));
	EXPECT(&c, "b has room", TP_RECV_ROOM, tp_recv_admit(s, 3, &b, false, now, &lim, &v));
	{
		struct tp_recv_limits nolim = lim;

		nolim.max_per_peer = 0;
		EXPECT(&c, "--max-per-peer 0", TP_RECV_ROOM,
		       tp_recv_admit(s, 3, &a, false, now, &nolim, &v));
	}
	case_end(&c);

	c = case_begin("admit: IPv4-mapped and plain IPv4 are one address");
	s[0] = slot("::ffff:192.0.2.1", false, now - 100, now - 100);
	s[1] = slot("192.0.2.1", false, now - 200, now - 200);
	EXPECT(&c, "third from it", TP_RECV_EVICT, tp_recv_admit(s, 2, &a, false, now, &lim, &v));
	EXPECT(&c, "victim", 1, v);
	case_end(&c);
}

static void test_timeouts(void)
{
	struct tp_recv_limits l = lim;
	struct tp_recv_slot s = slot("192.0.2.1", false, 0, 0);
	struct tcase c = case_begin("timeouts: no hello in hello_ms; idle only when asked for");

	EXPECT(&c, "4.999 s", TP_RECV_IN_TIME, tp_recv_timed_out(&s, 4999, &l));
	EXPECT(&c, "5 s", TP_RECV_NO_HELLO, tp_recv_timed_out(&s, 5000, &l));
	s.spoke = true;
	EXPECT(&c, "a session, idle_ms 0", TP_RECV_IN_TIME, tp_recv_timed_out(&s, 1 << 30, &l));
	l.idle_ms = 2000;
	EXPECT(&c, "1.999 s quiet", TP_RECV_IN_TIME, tp_recv_timed_out(&s, 1999, &l));
	EXPECT(&c, "2 s quiet", TP_RECV_IDLE, tp_recv_timed_out(&s, 2000, &l));
	s.spoke = false;
	l.hello_ms = 0;
	EXPECT(&c, "hello_ms 0", TP_RECV_IN_TIME, tp_recv_timed_out(&s, 1 << 30, &l));
	case_end(&c);
}

static int peer_mode(void)
{
	char line[256], cidr[128], addr[128];

	while (fgets(line, sizeof(line), stdin)) {
		int m;

		if (sscanf(line, "%127s %127s", cidr, addr) != 2)
			return 2;
		m = match(cidr, addr);
		puts(m < 0 ? "bad" : m ? "1" : "0");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--match"))
		return peer_mode();
	test_parse();
	test_match();
	test_admit();
	test_timeouts();
	return check_summary("test-recv-guard");
}
