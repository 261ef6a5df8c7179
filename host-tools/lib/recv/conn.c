/* SPDX-License-Identifier: MIT */
/* One TCP connection to `tinyperf recv`: the recorder's hello line, then its pipe stream.
 * A peer that starts with anything else is refused before anything is created. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"
#include "include/tinyperf/perf_data.h"

struct tp_recv_conn {
	struct tp_recv_conf conf;
	char origin[96];
	char line[TP_HELLO_MAX];
	size_t len;
	struct tp_recv_sess *sess;
	char err[200];
};

int tp_recv_conn__new(struct tp_recv_conn **out, const struct tp_recv_conf *conf,
		      const char *origin)
{
	struct tp_recv_conn *c = calloc(1, sizeof(*c));

	*out = c;
	if (!c)
		return -TP_ERR_NOMEM;
	c->conf = *conf;
	snprintf(c->origin, sizeof(c->origin), "%s", origin);
	return 0;
}

struct tp_recv_sess *tp_recv_conn__session(struct tp_recv_conn *c)
{
	return c->sess;
}

const char *tp_recv_conn__error(const struct tp_recv_conn *c)
{
	if (c->err[0])
		return c->err;
	return c->sess ? tp_recv_sess__info(c->sess)->error : NULL;
}

/* the first bytes as text for the refusal message */
static void refuse(struct tp_recv_conn *c, const char *why)
{
	char shown[40];
	size_t n = 0;

	for (size_t i = 0; i < c->len && n + 4 < sizeof(shown); i++)
		shown[n++] = c->line[i] >= 0x20 && c->line[i] < 0x7f ? c->line[i] : '.';
	shown[n] = 0;
	snprintf(c->err, sizeof(c->err), "%s (it began with '%s')", why, shown);
}

static bool prefix_of(const char *have, size_t n, const void *want, size_t wlen)
{
	return !memcmp(have, want, n < wlen ? n : wlen);
}

/* the hello line, or a bare pipe stream's magic: 1 when the session started, 0 for more
 * bytes, -TP_ERR_BAD_MAGIC */
static int start(struct tp_recv_conn *c, uint8_t byte)
{
	const uint64_t magic = PERF_MAGIC2, swapped = PERF_MAGIC2_SWAPPED;
	struct tp_hello h;
	bool hello, pipe;

	c->line[c->len++] = (char)byte;
	hello = prefix_of(c->line, c->len, TP_HELLO_MAGIC, sizeof(TP_HELLO_MAGIC) - 1);
	pipe = prefix_of(c->line, c->len, &magic, 8) || prefix_of(c->line, c->len, &swapped, 8);
	if (!hello && !pipe) {
		refuse(c, "not a tinyperf stream");
		return -TP_ERR_BAD_MAGIC;
	}
	if (pipe && c->len == 8) {
		/* `tinyperf record -o - | nc`: no hello, the stream right away */
		memset(&h, 0, sizeof(h));
		snprintf(h.version, sizeof(h.version), "unknown");
		snprintf(h.session, sizeof(h.session), "pipe");
		snprintf(h.device, sizeof(h.device), "unknown");
	} else if (byte == '\n') {
		if (tp_hello__parse(&h, c->line, c->len - 1)) {
			refuse(c, "a malformed hello");
			return -TP_ERR_BAD_MAGIC;
		}
	} else if (c->len == sizeof(c->line)) {
		refuse(c, "a hello line that does not end");
		return -TP_ERR_BAD_MAGIC;
	} else {
		return 0;
	}
	if (tp_recv_sess__new(&c->sess, &c->conf, &h, c->origin))
		return -TP_ERR_NOMEM;
	if (pipe && c->len == 8)
		return tp_recv_sess__feed(c->sess, c->line, 8) ? -TP_ERR_BAD_MAGIC : 1;
	return 1;
}

int tp_recv_conn__feed(struct tp_recv_conn *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int e;

	while (!c->sess && len) {
		e = start(c, *p++);
		len--;
		if (e < 0)
			return e;
	}
	if (!c->sess)
		return 0;
	if (len) {
		e = tp_recv_sess__feed(c->sess, p, len);
		if (e)
			return e;
	}
	return tp_recv_sess__info(c->sess)->complete;
}

void tp_recv_conn__close(struct tp_recv_conn *c, const char *why)
{
	/* after the stream's end marker, a closing connection is the normal end */
	if (c->sess)
		tp_recv_sess__close(c->sess, tp_recv_sess__info(c->sess)->complete ? NULL : why);
	free(c);
}
