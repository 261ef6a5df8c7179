/* SPDX-License-Identifier: MIT */
/* 'tinyperf recv' at the door: accepting TCP clients without letting any input lock the
 * devices out. --allow first, then the admission of host-tools/lib/recv/guard.c (per-address
 * share, a full table evicting the silent and the idle before refusing a device that
 * speaks), the hello and idle timeouts, and running out of file descriptors without
 * spinning. Refused and dropped recorders get one TP_BYE_MAGIC line saying why. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "host-tools/cmd-recv.h"
#include "include/tinyperf/perf_data.h"

#define ACCEPT_BURST	8	/* accepted a round, the bytes of all read in between: a
				 * device accepted before its hello came keeps its place
				 * while fewer newcomers than silent places follow it */
#define FD_PAUSE_MS	1000	/* out of file descriptors: the listener rests this long */
#define SAY_WINDOW_MS	10000
#define SAY_MAX		10	/* the door's messages per window */

void recv_door_say(struct recv *r, const char *fmt, ...)
{
	int64_t t = recv_now_ms();
	char msg[300];
	va_list ap;

	if (t - r->door_window >= SAY_WINDOW_MS) {
		if (r->door_quiet)
			recv_say(r, "(%lu more connections refused or dropped in %d s, not shown)",
				 r->door_quiet, SAY_WINDOW_MS / 1000);
		r->door_window = t;
		r->door_said = 0;
		r->door_quiet = 0;
	}
	if (r->door_said >= SAY_MAX && !r->verbose) {
		r->door_quiet++;
		return;
	}
	r->door_said++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	recv_say(r, "%s", msg);
}

int recv_door_open(struct recv *r, const struct recv_args *a)
{
	struct rlimit rl;
	unsigned fixed = 16 + 2 * (a->nserial + a->nconnect), want;

	/* each client: its socket and, once it records, its file */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		want = fixed + 2 * r->lim.max_clients;
		if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur < want) {
			unsigned fit = rl.rlim_cur > fixed + 2 ? (unsigned)(rl.rlim_cur - fixed) / 2 : 1;

			recv_say(r, "only %llu file descriptors (ulimit -n): --max-clients lowered from "
				 "%u to %u", (unsigned long long)rl.rlim_cur, r->lim.max_clients, fit);
			r->lim.max_clients = fit;
		}
	}
	r->cap = r->lim.max_clients + a->nserial + a->nconnect + 2;
	r->in = calloc(r->cap, sizeof(*r->in));
	r->pfd = calloc(r->cap, sizeof(*r->pfd));
	r->slots = calloc(r->cap, sizeof(*r->slots));
	if (!r->in || !r->pfd || !r->slots) {
		recv_say(r, "out of memory");
		return -1;
	}
	return 0;
}

short recv_door_events(struct recv *r)
{
	return recv_now_ms() < r->listen_paused_until ? 0 : POLLIN;
}

/* a bare pipe stream's magic or a whole hello line is waiting: a device that speaks */
static bool speaks(int fd)
{
	const uint64_t magic = PERF_MAGIC2, swapped = PERF_MAGIC2_SWAPPED;
	char buf[TP_HELLO_MAX];
	struct tp_hello h;
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	const char *nl;

	if (n >= 8 && (!memcmp(buf, &magic, 8) || !memcmp(buf, &swapped, 8)))
		return true;
	if (n <= 0 || !(nl = memchr(buf, '\n', (size_t)n)))
		return false;
	return tp_hello__parse(&h, buf, (size_t)(nl - buf)) == 0;
}

/* a line to the recorder saying why, then closed */
static void refuse(int fd, const char *why)
{
	tp_recv_bye(fd, why);
	close(fd);
}

static void evict(struct recv *r, unsigned i, const char *for_whom)
{
	struct input *in = r->in[i];

	r->cnt.evicted++;
	if (in->slot.spoke) {
		recv_say(r, "%s: session quiet for %lld s closed to make room for %s", in->name,
			 (long long)((recv_now_ms() - in->slot.last_rx) / 1000), for_whom);
		tp_recv_bye(in->fd, "closed this quiet session to make room for another device");
		recv_drop(r, i, "closed by recv: quiet, and its slot was needed");
		return;
	}
	recv_door_say(r, "%s: no hello yet: dropped to make room for %s", in->name, for_whom);
	tp_recv_bye(in->fd, "dropped this connection: no hello yet, and its slot was needed");
	recv_drop(r, i, NULL);
}

/* one new connection: --allow, then the admission; false when accept has nothing more */
static bool accept_one(struct recv *r, struct input *l)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	struct tp_recv_peer peer;
	struct input *in;
	char name[96], why[160];
	unsigned ns, idx[1] = { 0 };
	size_t victim = 0;
	enum tp_recv_admit adm;
	int64_t t;
	bool spoke;
	int fd = accept4(l->fd, (struct sockaddr *)&a, &alen, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			r->cnt.no_fds++;
			r->listen_paused_until = recv_now_ms() + FD_PAUSE_MS;
			if (!r->fds_short)	/* once until an accept works again */
				recv_door_say(r, "cannot accept: %s (%u connections open): new ones "
					      "wait (raise 'ulimit -n' or lower --max-clients)",
					      strerror(errno), r->accepted);
			r->fds_short = true;
			return false;
		}
		/* EAGAIN: none left; ECONNABORTED and the like: that one is gone */
		return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
	}
	r->fds_short = false;
	tp_recv_format_addr(name, sizeof(name), &a);
	tp_recv_peer_of(&peer, &a);
	if (!tp_recv_allowed(r->allow, r->nallow, &peer)) {
		r->cnt.refused_allow++;
		snprintf(why, sizeof(why), "refused this device (%.*s is not in its --allow list)",
			 (int)(strrchr(name, ':') - name), name);
		recv_door_say(r, "%s: refused: not in --allow", name);
		refuse(fd, why);
		return true;
	}
	spoke = speaks(fd);
	t = recv_now_ms();
	for (;;) {
		ns = 0;
		for (unsigned i = 0; i < r->n; i++)
			if (r->in[i]->accepted)
				r->slots[ns++] = r->in[i]->slot;
		adm = tp_recv_admit(r->slots, ns, &peer, spoke, t, &r->lim, &victim);
		if (adm != TP_RECV_EVICT)
			break;
		for (unsigned i = 0, k = 0; i < r->n; i++)
			if (r->in[i]->accepted && k++ == victim)
				idx[0] = i;
		/* a device accepted before its hello came has sent it since (it is read next
		 * round): it spoke, look again. Each round marks one more: bounded. */
		in = r->in[idx[0]];
		if (!in->slot.spoke && speaks(in->fd)) {
			in->slot.spoke = true;
			continue;
		}
		evict(r, idx[0], name);
		break;
	}
	switch (adm) {
	case TP_RECV_EVICT:
		break;
	case TP_RECV_PEER_FULL:
	case TP_RECV_FULL: {
		bool peer_full = ns < r->lim.max_clients;

		r->cnt.refused_full++;
		recv_door_say(r, "%s: refused: already %u %s (%s)", name,
			      peer_full ? r->lim.max_per_peer : ns,
			      peer_full ? "connections from that address" : "clients",
			      peer_full ? "--max-per-peer" : "--max-clients");
		snprintf(why, sizeof(why), "refused this device: already %u %s (its %s)",
			 peer_full ? r->lim.max_per_peer : ns,
			 peer_full ? "connections from this address" : "clients",
			 peer_full ? "--max-per-peer" : "--max-clients");
		refuse(fd, why);
		return true;
	}
	case TP_RECV_ROOM:
		break;
	}
	if (!(in = recv_add(r, IN_CONN, fd, name)) || tp_recv_conn__new(&in->conn, &r->conf, name)) {
		recv_say(r, "%s: out of memory: dropped", name);
		if (in)
			recv_drop(r, r->n - 1, NULL);
		else
			close(fd);
		return true;
	}
	tp_recv_keepalive(fd);
	in->accepted = true;
	in->slot = (struct tp_recv_slot){ .peer = peer, .spoke = spoke, .since = t, .last_rx = t };
	r->accepted++;
	r->cnt.accepted++;
	return true;
}

void recv_door_accept(struct recv *r, struct input *l)
{
	for (int i = 0; i < ACCEPT_BURST && accept_one(r, l); i++)
		;
}

bool recv_door_check(struct recv *r, unsigned i, int64_t now)
{
	struct input *in = r->in[i];
	char why[120];

	switch (tp_recv_timed_out(&in->slot, now, &r->lim)) {
	case TP_RECV_NO_HELLO:
		r->cnt.no_hello++;
		recv_door_say(r, "%s: no hello in %.1f s (--hello-timeout): dropped", in->name,
			      r->lim.hello_ms / 1000.0);
		tp_recv_bye(in->fd, "dropped this connection: no hello in time");
		recv_drop(r, i, NULL);
		return false;
	case TP_RECV_IDLE:
		r->cnt.idle++;
		snprintf(why, sizeof(why), "nothing for %.1f s: closed by recv --idle-timeout",
			 r->lim.idle_ms / 1000.0);
		tp_recv_bye(in->fd, "closed this session: nothing arrived for its --idle-timeout");
		recv_drop(r, i, why);
		return false;
	case TP_RECV_IN_TIME:
		break;
	}
	return true;
}

void recv_door_summary(struct recv *r)
{
	const struct recv_counts *c = &r->cnt;
	struct rusage ru;

	if (r->door_quiet)
		recv_say(r, "(%lu more connections refused or dropped, not shown)", r->door_quiet);
	r->door_quiet = 0;
	if (r->quiet || (!c->accepted && !c->refused_allow && !c->refused_full && !r->verbose))
		return;
	getrusage(RUSAGE_SELF, &ru);
	recv_say(r, "connections: %lu accepted, %lu refused by --allow, %lu refused as too many, "
		 "%lu evicted, %lu without a hello in time, %lu idle, %lu not tinyperf; peak RSS "
		 "%.1f MB", c->accepted, c->refused_allow, c->refused_full, c->evicted, c->no_hello,
		 c->idle, c->not_tinyperf, ru.ru_maxrss / 1024.0);
}
