/* SPDX-License-Identifier: MIT */
/* `tinyperf recv --from-file`: a capture read to its end. What it holds is told by its first
 * bytes: a TCP stream (the hello line), a bare pipe-mode perf.data (`tinyperf record -o -`),
 * or else the bytes of a serial line, frames and console text. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/recv/recv.h"
#include "include/tinyperf/perf_data.h"

static bool is_stream(const uint8_t *p, size_t n)
{
	uint64_t magic = 0;

	memcpy(&magic, p, n < 8 ? n : 8);
	return !memcmp(p, TP_HELLO_MAGIC, n < 10 ? n : 10) || magic == PERF_MAGIC2 ||
	       magic == PERF_MAGIC2_SWAPPED;
}

int tp_recv_file(const struct tp_recv_conf *conf, int fd, const char *name,
		 struct tp_deframer_stats *line_stats, const volatile sig_atomic_t *stop)
{
	static uint8_t buf[65536];
	struct tp_recv_conn *c = NULL;
	struct tp_recv_line *l = NULL;
	int e = 0;
	ssize_t n;

	memset(line_stats, 0, sizeof(*line_stats));
	while (!(stop && *stop) && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = -errno;
			tp_log__error(conf->log, "cannot read %s: %s", name, tp_strerror(e));
			break;
		}
		if (!c && !l) {
			e = is_stream(buf, (size_t)n) ? tp_recv_conn__new(&c, conf, name)
						       : tp_recv_line__new(&l, conf, name);
			if (e)
				break;
		}
		if (l) {
			tp_recv_line__feed(l, buf, (size_t)n);
			continue;
		}
		e = tp_recv_conn__feed(c, buf, (size_t)n);
		if (e < 0) {
			/* a session tells its own end; a refused start is told here */
			if (!tp_recv_conn__session(c))
				tp_log__error(conf->log, "%s: %s", name, tp_recv_conn__error(c) ?
					      tp_recv_conn__error(c) : tp_strerror(e));
			break;
		}
		e = 0;
	}
	if (c)
		tp_recv_conn__close(c, "the capture ends mid-stream");
	if (l) {
		*line_stats = *tp_recv_line__stats(l);
		tp_recv_line__close(l, "the capture ends mid-session");
	}
	return e;
}
