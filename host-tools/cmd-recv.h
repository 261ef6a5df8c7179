/* SPDX-License-Identifier: MIT */
/* tinyperf recv, shared by its three files: cmd-recv.c (inputs, the poll loop, messages),
 * cmd-recv-opts.c (options, usage) and cmd-recv-door.c (accepting TCP clients: --allow, the
 * limits, eviction, timeouts, file descriptors). CLI code. */
#ifndef TINYPERF_HOST_TOOLS_CMD_RECV_H
#define TINYPERF_HOST_TOOLS_CMD_RECV_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"

#define RECV_DEFAULT_PORT	"5155"
#define RECV_DEFAULT_DIR	"tinyperf-recv"
#define RECV_MAX_ALLOW		64
#define RECV_MAX_SPECS		16

enum kind { IN_LISTEN, IN_CONN, IN_LINE, IN_CONNECTING, IN_WAITING };

struct input {
	enum kind kind;
	int fd;
	char name[96];
	struct tp_recv_conn *conn;
	struct tp_recv_line *line;
	struct tp_recv_tty tty;
	int64_t last_rx, retry_at;
	bool unflushed;			/* line bytes since the last idle flush */
	struct sockaddr_storage addr;	/* --connect */
	socklen_t alen;
	bool said_waiting;
	bool accepted;			/* from the listener: under the door's rules */
	struct tp_recv_slot slot;	/* ... as they see it */
};

struct recv_counts {
	unsigned long accepted, refused_allow, refused_full, evicted, no_hello, idle,
		      not_tinyperf, no_fds;
};

struct recv {
	struct tp_recv_conf conf;
	struct tp_log log;
	const char *dir;
	struct input **in;
	struct pollfd *pfd;
	struct tp_recv_slot *slots;	/* scratch for the admission */
	unsigned n, cap, accepted;	/* inputs, room for them, accepted connections */
	struct tp_recv_limits lim;
	struct tp_recv_cidr allow[RECV_MAX_ALLOW];
	unsigned nallow;
	int64_t listen_paused_until;	/* out of file descriptors: accept later */
	bool fds_short;			/* ... said so */
	struct recv_counts cnt;
	int64_t door_window;		/* rate limit of the door's messages */
	unsigned door_said;
	unsigned long door_quiet;
	unsigned long finished, saved, count;
	bool quiet, progress, progress_shown;
	int verbose;
	int64_t progress_at;
};

struct recv_args {
	const char *bind, *port;
	const char *from[RECV_MAX_SPECS], *serial[RECV_MAX_SPECS], *connect[RECV_MAX_SPECS];
	unsigned nfrom, nserial, nconnect;
};

/* cmd-recv.c */
int64_t recv_now_ms(void);
void recv_say(struct recv *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct input *recv_add(struct recv *r, enum kind kind, int fd, const char *name);
void recv_drop(struct recv *r, unsigned i, const char *why);
bool recv_conn_read(struct recv *r, struct input *in, uint8_t *buf, size_t cap,
		    const char **why);

/* cmd-recv-opts.c: 0, 1 after --help, -1 on a usage error (said) */
void recv_usage(FILE *f);
int recv_parse(struct recv *r, struct recv_args *a, int argc, char **argv);

/* cmd-recv-door.c */
/* the file descriptor limit raised to its hard limit; --max-clients lowered (said) when
 * even that is too few; the table allocated. 0 or -1 (said) */
int recv_door_open(struct recv *r, const struct recv_args *a);
/* a message about a refused or dropped connection: at most a few every 10 s, the rest
 * counted */
void recv_door_say(struct recv *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* new connections on a listener, at most a burst of them */
void recv_door_accept(struct recv *r, struct input *l);
/* the listener's events this round (0 while out of file descriptors) */
short recv_door_events(struct recv *r);
/* an accepted connection out of time: closed (0), or still in time (1) */
bool recv_door_check(struct recv *r, unsigned i, int64_t now);
/* the counts and peak memory, at the end */
void recv_door_summary(struct recv *r);

#endif
