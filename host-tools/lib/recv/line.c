/* SPDX-License-Identifier: MIT */
/* One serial line (or a capture of one): frames in, sessions out, console text passed on.
 *
 * A session starts when its whole head (HEAD frames: the hello line, the pipe header and the
 * HEADER_ATTR records) has arrived. The recorder repeats it in small pieces, so a receiver
 * that lost some, or started late, still gets there; DATA frames that come before that wait
 * in a bounded queue. After a lost frame the stream is picked up at the next record start a
 * DATA frame announces: only the records the lost frames touched are missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"

#define HEAD_MAX	65535
#define PENDING_MAX	(1u << 20)	/* DATA bytes kept while waiting for HELLO and HEAD */

struct tp_recv_line {
	struct tp_recv_conf conf;
	char origin[96];
	struct tp_deframer dec;
	struct tp_recv_sess *sess;
	/* the next session's start */
	struct tp_hello hello;		/* from a HELLO frame, for messages */
	bool have_hello;
	uint32_t head_tag;		/* the session the head pieces belong to */
	bool have_tag;
	uint8_t *head;			/* HEAD_MAX bytes: hello line, pipe header, attrs */
	uint8_t *head_bits;		/* which bytes of head arrived */
	uint32_t head_total, head_have;
	bool head_done;
	/* DATA frames before the session could start (see queue()) */
	uint8_t *pending;
	size_t pending_len;
	uint64_t pending_frames, pending_lost;	/* frames seen, lost (or dropped) meanwhile */
	uint64_t pending_recovered;		/* of them, recovered from console text */
	uint16_t dseq;			/* the last DATA frame taken */
	bool have_dseq;
	bool in_sync;			/* ... and fed up to its end */
};

static void finish(struct tp_recv_line *l, const char *why)
{
	if (l->sess)
		tp_recv_sess__close(l->sess, why);
	else if (l->have_tag || l->pending_len)
		tp_log__warn(l->conf.log, "%s: a session (device '%s') never started: its head "
			     "(hello, pipe header, attrs) did not arrive whole; %zu bytes of data "
			     "dropped", l->origin, l->have_hello ? l->hello.device : "?",
			     l->pending_len);
	l->sess = NULL;
	l->have_hello = false;
	l->have_tag = false;
	l->head_done = false;
	l->head_total = l->head_have = 0;
	l->pending_len = 0;
	l->pending_frames = l->pending_lost = l->pending_recovered = 0;
	l->have_dseq = false;
	l->in_sync = false;
}

/* A DATA frame's payload: fed when it continues the last one fed, dropped when it is the
 * copy of one already taken, else fed from its first record start. */
static void data(struct tp_recv_line *l, const uint8_t *p, size_t n)
{
	uint16_t dseq, first;

	if (n < 4 || tp_recv_sess__info(l->sess)->error)
		return;
	dseq = (uint16_t)(p[0] | p[1] << 8);
	first = (uint16_t)(p[2] | p[3] << 8);
	p += 4;
	n -= 4;
	if (l->have_dseq && dseq == l->dseq)
		return;				/* the second copy */
	if (!l->have_dseq || dseq != (uint16_t)(l->dseq + 1) || !l->in_sync) {
		/* a gap: resume at the first record that starts in this frame */
		l->in_sync = false;
		if (first != TP_FRAME_NO_START && first <= n) {
			tp_recv_sess__resync(l->sess);
			p += first;
			n -= first;
			l->in_sync = true;
		}
	}
	l->dseq = dseq;
	l->have_dseq = true;
	if (l->in_sync && tp_recv_sess__feed(l->sess, p, n))
		l->in_sync = false;	/* the session keeps its error; nothing more is fed */
}

/* HELLO and the whole head are there: open the session, feed the head, replay the queue */
static void try_start(struct tp_recv_line *l)
{
	struct tp_recv_info *info;
	size_t off = 0;

	const uint8_t *nl;
	struct tp_hello h;

	if (l->sess || !l->head_done)
		return;
	nl = memchr(l->head, '\n', l->head_total);
	if (!nl || tp_hello__parse(&h, (const char *)l->head, (size_t)(nl - l->head))) {
		finish(l, NULL);	/* not a head tinyperf sends: start over */
		return;
	}
	if (tp_recv_sess__new(&l->sess, &l->conf, &h, l->origin))
		return;
	info = tp_recv_sess__info(l->sess);
	info->frames = l->pending_frames;
	info->frames_lost = l->pending_lost;
	info->frames_recovered = l->pending_recovered;
	nl++;
	tp_recv_sess__feed(l->sess, nl, (size_t)(l->head + l->head_total - nl));
	while (off + 2 <= l->pending_len) {
		uint16_t n;

		memcpy(&n, l->pending + off, 2);
		data(l, l->pending + off + 2, n);
		off += 2 + (size_t)n;
	}
	l->pending_len = 0;
}

/* a DATA frame before the session could start: [len u16][payload] */
static void queue(struct tp_recv_line *l, const uint8_t *p, size_t n)
{
	uint16_t len = (uint16_t)n;

	if (2 + n > PENDING_MAX - l->pending_len) {
		l->pending_lost++;		/* dropped: it counts as lost */
		return;
	}
	memcpy(l->pending + l->pending_len, &len, 2);
	memcpy(l->pending + l->pending_len + 2, p, n);
	l->pending_len += 2 + n;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void head_piece(struct tp_recv_line *l, const uint8_t *p, size_t n)
{
	uint32_t tag, total, off;

	if (n < 8)
		return;
	tag = le32(p);
	total = (uint32_t)(p[4] | p[5] << 8);
	off = (uint32_t)(p[6] | p[7] << 8);
	p += 8;
	n -= 8;
	if (!total || off + n > total)
		return;
	if (l->have_tag && tag != l->head_tag)
		finish(l, "a new session began on the line before this one ended");
	if (l->head_done)
		return;				/* a repeat */
	if (!l->have_tag || total != l->head_total) {
		memset(l->head_bits, 0, HEAD_MAX / 8 + 1);
		l->head_tag = tag;
		l->have_tag = true;
		l->head_total = total;
		l->head_have = 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t b = off + (uint32_t)i;

		if (!(l->head_bits[b / 8] & (1u << (b % 8)))) {
			l->head_bits[b / 8] |= (uint8_t)(1u << (b % 8));
			l->head[b] = p[i];
			l->head_have++;
		}
	}
	l->head_done = l->head_have == l->head_total;
}

static void on_frame(void *ctx, const struct tp_wire_frame *f, uint32_t lost)
{
	struct tp_recv_line *l = ctx;
	struct tp_recv_info *info;
	struct tp_hello h;

	if (f->type == TP_FRAME_HELLO && !tp_hello__parse(&h, (const char *)f->payload, f->len)) {
		uint32_t tag = tp_crc32(0, h.session, strlen(h.session));

		if (l->have_tag && tag != l->head_tag)
			finish(l, "a new session began on the line before this one ended");
		l->hello = h;
		l->have_hello = true;
	} else if (f->type == TP_FRAME_HEAD) {
		head_piece(l, f->payload, f->len);
	}
	try_start(l);
	if (!l->sess) {
		l->pending_frames++;
		l->pending_lost += lost;
		l->pending_recovered += f->recovered;
		if (f->type == TP_FRAME_DATA)
			queue(l, f->payload, f->len);
		if (f->type == TP_FRAME_END)
			finish(l, NULL);
		return;
	}
	info = tp_recv_sess__info(l->sess);
	info->frames++;
	info->frames_lost += lost;
	info->frames_recovered += f->recovered;
	if (f->type == TP_FRAME_DATA) {
		data(l, f->payload, f->len);
	} else if (f->type == TP_FRAME_END) {
		/* the session is over (a duplicate END finds nothing left to do) */
		info->complete = true;
		finish(l, NULL);
	}
}

static void on_text(void *ctx, const uint8_t *text, size_t len)
{
	struct tp_recv_line *l = ctx;

	if (l->conf.on_text)
		l->conf.on_text(l->conf.ctx, l->origin, text, len);
}

int tp_recv_line__new(struct tp_recv_line **out, const struct tp_recv_conf *conf,
		      const char *origin)
{
	struct tp_recv_line *l = calloc(1, sizeof(*l));
	struct tp_deframer_ops ops = { on_frame, on_text, NULL };

	*out = NULL;
	if (!l)
		return -TP_ERR_NOMEM;
	l->head = malloc(HEAD_MAX);
	l->head_bits = calloc(1, HEAD_MAX / 8 + 1);
	l->pending = malloc(PENDING_MAX);
	if (!l->head || !l->head_bits || !l->pending) {
		free(l->head);
		free(l->head_bits);
		free(l->pending);
		free(l);
		return -TP_ERR_NOMEM;
	}
	l->conf = *conf;
	snprintf(l->origin, sizeof(l->origin), "%s", origin);
	ops.ctx = l;
	tp_deframer__init(&l->dec, &ops);
	*out = l;
	return 0;
}

void tp_recv_line__feed(struct tp_recv_line *l, const void *buf, size_t len)
{
	tp_deframer__feed(&l->dec, buf, len);
}

void tp_recv_line__idle(struct tp_recv_line *l)
{
	tp_deframer__idle(&l->dec);
}

struct tp_recv_sess *tp_recv_line__session(struct tp_recv_line *l)
{
	return l->sess;
}

const struct tp_deframer_stats *tp_recv_line__stats(const struct tp_recv_line *l)
{
	return &l->dec.st;
}

void tp_recv_line__close(struct tp_recv_line *l, const char *why)
{
	tp_deframer__end(&l->dec);
	finish(l, why);
	free(l->head);
	free(l->head_bits);
	free(l->pending);
	free(l);
}
