/* SPDX-License-Identifier: MIT */
/* `tinyperf recv`'s library: streams from recorders in, one regular (file-mode) perf.data per
 * recording session out, in a directory per device (DIR/<device>/<time>-<session>.data).
 *
 *   tp_recv_sess  one session: a perf.data pipe stream -> a file-mode perf.data, written as
 *                 the records arrive (memory: one record, the attrs, the feature sections)
 *   tp_recv_conn  one TCP connection: the hello line (perfdata/framing.h), then a session;
 *                 a bare pipe stream (`tinyperf record -o - | nc`) is taken too
 *   tp_recv_line  one serial line or a capture of one: frames -> sessions, console text out
 *
 * Everything is fed bytes as they come (any cut); nothing blocks, prints or exits. Names
 * received from devices are sanitised before they become paths: a session's file is always
 * inside the output directory. A session that ends early (connection dropped, recorder
 * killed, line unplugged) still becomes a valid perf.data holding every whole record that
 * arrived; while one is being written its header is refreshed every second, so even a
 * killed recv leaves readable files. */
/* Layer recv: may use common/, data/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RECV_RECV_H
#define TINYPERF_HOST_TOOLS_LIB_RECV_RECV_H

#include "host-tools/lib/recv/io.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"
#include "perfdata/framing.h"

#define TP_RECV_NAME_MAX	64	/* a sanitised device name */
#define TP_RECV_META_MAX	(16u << 20)	/* feature bytes kept per session */

struct tp_recv_info {
	struct tp_hello hello;		/* as received (untrusted) */
	char device[TP_RECV_NAME_MAX + 1];	/* sanitised: the directory name */
	char origin[96];		/* "127.0.0.1:40312", "/dev/ttyUSB0" */
	char path[256];			/* the file, relative to the output directory; "" none */
	bool swapped;			/* the device's byte order is not ours */
	bool complete;			/* the stream's end arrived */
	const char *error;		/* why it ended early, or NULL */
	uint64_t bytes;			/* stream bytes taken */
	uint64_t records, samples;	/* written to the file */
	uint64_t frames, frames_lost;	/* serial: frames kept, frames missing */
	uint64_t frames_recovered;	/* serial: of the kept, frames that had console text
					 * (printk) spliced into them, taken out */
	uint64_t resyncs;		/* times the stream was picked up after a loss */
};

enum tp_recv_event {
	TP_RECV_STARTED,		/* the file was created: info.path */
	TP_RECV_FINISHED,		/* the file was finalised (info.path "" when there was
					 * nothing to save) */
};

struct tp_recv_conf {
	int dirfd;			/* the output directory, opened O_DIRECTORY; -1: no
					 * files, the records only go to on_record */
	size_t meta_max;		/* 0: TP_RECV_META_MAX */
	const struct tp_log *log;	/* may be NULL */
	void (*on_event)(void *ctx, enum tp_recv_event ev, const struct tp_recv_info *info);
	/* serial lines: text that arrived between frames */
	void (*on_text)(void *ctx, const char *origin, const uint8_t *text, size_t len);
	/* every whole record as it is taken (optional; a live view): in the stream's byte
	 * order (swapped), checked only for its size; a TRACING_DATA blob is not passed on */
	void (*on_record)(void *ctx, const uint8_t *rec, size_t size, bool swapped);
	void *ctx;
};

/* ---- sessions ---- */

struct tp_recv_sess;

/* The file is created when the first record after the attrs arrives. 0 or -TP_ERR_NOMEM. */
int tp_recv_sess__new(struct tp_recv_sess **out, const struct tp_recv_conf *conf,
		      const struct tp_hello *hello, const char *origin);
/* stream bytes: 0, -TP_ERR_* when the stream is not perf.data, -errno when the file cannot be
 * written (the reason in info.error): close the session then */
int tp_recv_sess__feed(struct tp_recv_sess *s, const void *buf, size_t len);
/* bytes were lost: drop the record in progress; the next bytes fed start a record */
void tp_recv_sess__resync(struct tp_recv_sess *s);
struct tp_recv_info *tp_recv_sess__info(struct tp_recv_sess *s);
/* finalise (why: NULL when the stream ended as it should), report, free */
void tp_recv_sess__close(struct tp_recv_sess *s, const char *why);

/* ---- TCP connections ---- */

struct tp_recv_conn;

int tp_recv_conn__new(struct tp_recv_conn **out, const struct tp_recv_conf *conf,
		      const char *origin);
/* 0; 1 when the stream ended as it should; -TP_ERR_BAD_MAGIC when the peer is not a
 * recorder (nothing was created: drop it), another -TP_ERR_* or -errno when the stream broke */
int tp_recv_conn__feed(struct tp_recv_conn *c, const void *buf, size_t len);
/* the session, once the hello arrived (for progress) */
struct tp_recv_sess *tp_recv_conn__session(struct tp_recv_conn *c);
/* why the connection was refused or broke, for the one log line */
const char *tp_recv_conn__error(const struct tp_recv_conn *c);
/* finalise its session and free; why: how the connection ended, which is the session's
 * error unless the stream's end marker came first */
void tp_recv_conn__close(struct tp_recv_conn *c, const char *why);

/* ---- serial lines ---- */

struct tp_recv_line;

int tp_recv_line__new(struct tp_recv_line **out, const struct tp_recv_conf *conf,
		      const char *origin);
void tp_recv_line__feed(struct tp_recv_line *l, const void *buf, size_t len);
/* nothing arrived for a while: pending console text goes out */
void tp_recv_line__idle(struct tp_recv_line *l);
struct tp_recv_sess *tp_recv_line__session(struct tp_recv_line *l);
const struct tp_deframer_stats *tp_recv_line__stats(const struct tp_recv_line *l);
/* the line closed: finalise the session in progress, free */
void tp_recv_line__close(struct tp_recv_line *l, const char *why);

/* ---- captures ---- */

/* A capture read from fd to its end (or until *stop): a TCP stream, a bare pipe-mode
 * perf.data or a serial line's bytes, told apart by how they start; line_stats gets the
 * frame counts of a serial capture (zeroes otherwise). Sessions are reported through
 * conf->on_event; 0, -errno or -TP_ERR_* (logged). */
int tp_recv_file(const struct tp_recv_conf *conf, int fd, const char *name,
		 struct tp_deframer_stats *line_stats, const volatile sig_atomic_t *stop);

/* ---- paths ---- */

/* in -> [A-Za-z0-9._-] (others become '_'), no leading '.', at most TP_RECV_NAME_MAX
 * characters; fallback when nothing is left */
void tp_recv_sanitize(char *out, size_t cap, const char *in, const char *fallback);
/* DIR/<device>/<YYYYmmdd-HHMMSS>-<session>.data, created new (O_EXCL, a -N suffix when taken)
 * without following symlinks; rel gets the path inside dirfd. The fd, or -errno. */
int tp_recv_create(int dirfd, const char *device, const char *session, int64_t when,
		   char *rel, size_t relcap);

/* ---- the door: who may hold a connection slot (guard.c) ---- */

/* a peer: its address without the port; an IPv4-mapped IPv6 address is IPv4 */
struct tp_recv_peer {
	uint8_t family;			/* 4 or 6 */
	uint8_t addr[16];
};

/* an --allow range: "192.0.2.0/24", "2001:db8::/32", or one address (/32, /128) */
struct tp_recv_cidr {
	uint8_t family;			/* 4 or 6 */
	uint8_t bits;
	uint8_t addr[16];		/* the host bits cleared */
};

/* 0 or -EINVAL */
int tp_recv_cidr_parse(const char *s, struct tp_recv_cidr *out);
void tp_recv_peer_of(struct tp_recv_peer *p, const struct sockaddr_storage *a);
bool tp_recv_cidr_match(const struct tp_recv_cidr *c, const struct tp_recv_peer *p);
/* in one of the n ranges (n 0: everyone) */
bool tp_recv_allowed(const struct tp_recv_cidr *list, size_t n, const struct tp_recv_peer *p);

/* one accepted connection, as the admission sees it */
struct tp_recv_slot {
	struct tp_recv_peer peer;
	bool spoke;			/* its hello (or pipe header) arrived */
	int64_t since;			/* accepted (ms, monotonic) */
	int64_t last_rx;		/* last bytes received */
};

struct tp_recv_limits {
	unsigned max_clients;		/* accepted connections at once */
	unsigned max_per_peer;		/* ... from one address (0: no limit) */
	int64_t hello_ms;		/* no hello by then: dropped (0: never) */
	int64_t idle_ms;		/* a session quiet that long: closed (0: never) */
	int64_t idle_evict_ms;		/* a session quiet that long may make room */
};

enum tp_recv_admit {
	TP_RECV_ROOM,			/* take it */
	TP_RECV_EVICT,			/* take it after closing *victim */
	TP_RECV_PEER_FULL,		/* refuse: its address has max_per_peer busy ones */
	TP_RECV_FULL,			/* refuse: max_clients busy ones */
};

/* Room for a new connection from peer (spoke: its hello already arrived) among the n
 * accepted ones. A full table (or a peer at its limit) gives up the connection that waited
 * longest without a hello; else, for a newcomer that spoke, the session quiet longest if
 * quiet for idle_evict_ms; else the newcomer is refused. */
enum tp_recv_admit tp_recv_admit(const struct tp_recv_slot *slots, size_t n,
				 const struct tp_recv_peer *peer, bool spoke, int64_t now,
				 const struct tp_recv_limits *lim, size_t *victim);

enum tp_recv_timeout { TP_RECV_IN_TIME, TP_RECV_NO_HELLO, TP_RECV_IDLE };

enum tp_recv_timeout tp_recv_timed_out(const struct tp_recv_slot *s, int64_t now,
				       const struct tp_recv_limits *lim);

#endif
