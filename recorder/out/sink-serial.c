/* SPDX-License-Identifier: MIT */
/* -o serial:DEV[,BAUD][,text]: the pipe stream in frames (perfdata/framing.h) over a serial
 * line that may also carry console output, lose bytes and garble them.
 *
 * The stream is parsed just enough to know where records start, so that frames hold whole
 * records when they fit and each DATA frame says where its first record starts: after a lost
 * frame the receiver drops only the records that frame touched and picks up at the next one.
 * The head of the stream (pipe header and HEADER_ATTR records, without which nothing can be
 * read) goes in HEAD frames after the hello line, in small pieces repeated with the HELLO
 * every SINK_SERIAL_REPEAT_MS: a receiver assembles it from whichever copies arrive. DATA frames
 * that carry anything but samples (the maps, comms and forks that samples need to resolve)
 * are sent twice: the copy has the same DATA number, so a receiver takes whichever arrives.
 *
 * Writes block while the line is busy: at 115200 baud (11.5 KB/s) the rings then overflow
 * and the kernel counts what it dropped (PERF_RECORD_LOST), unless --coalesce shrinks the
 * stream first. */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_event.h"
#include "recorder/out/sinks.h"

static const char prefix[] = "serial:";

bool sink_serial__is(const char *spec)
{
	return tp_startswith(spec, prefix);
}

static int64_t now_ms(void)
{
	struct tp_timespec ts;

	sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
	return ts.sec * 1000 + ts.nsec / 1000000;
}

/* ---- frames out ---- */

static int send_frame(struct sink_serial *s, uint8_t type, const void *payload, size_t len)
{
	int n = s->text ? tp_frame__encode_text((char *)s->wire, sizeof(s->wire), type, s->seq,
						payload, len)
			: tp_frame__encode(s->wire, sizeof(s->wire), type, s->seq, payload, len);
	long e;

	if (s->err)
		return s->err;
	if (n < 0)
		return s->err = n;
	s->seq++;
	s->frames++;
	s->since_repeat += (unsigned)n;
	/* one write per frame: console output written meanwhile lands between frames */
	e = tp_write_all(s->fd, s->wire, (size_t)n);
	if (e)
		s->err = (int)e;
	return s->err;
}

static void put_u16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static TP_NOINLINE void put_u32(uint8_t *p, uint32_t v)
{
	put_u16(p, (unsigned)v);
	put_u16(p + 2, (unsigned)(v >> 16));
}

/* HELLO, then hello line + head in as many HEAD frames as it takes */
static void send_hello_head(struct sink_serial *s)
{
	uint8_t piece[8 + SINK_SERIAL_HEAD_PIECE];
	size_t step = TP_MIN(s->max_payload - 4, (size_t)SINK_SERIAL_HEAD_PIECE);

	send_frame(s, TP_FRAME_HELLO, s->head, s->hello_len - 1);
	for (size_t off = 0; off < s->head_len; off += step) {
		size_t k = TP_MIN(step, s->head_len - off);

		put_u32(piece, s->tag);
		put_u16(piece + 4, (unsigned)s->head_len);
		put_u16(piece + 6, (unsigned)off);
		memcpy(piece + 8, s->head + off, k);
		send_frame(s, TP_FRAME_HEAD, piece, 8 + k);
	}
	s->last_repeat_ms = now_ms();
	s->since_repeat = 0;
	s->repeats++;
}

static void flush_data(struct sink_serial *s)
{
	bool fast;

	if (!s->len)
		return;
	put_u16(s->payload, s->dseq++);
	put_u16(s->payload + 2, s->first);
	send_frame(s, TP_FRAME_DATA, s->payload, 4 + s->len);
	if (s->meta)
		send_frame(s, TP_FRAME_DATA, s->payload, 4 + s->len);
	s->meta = false;
	s->len = 0;
	s->first = TP_FRAME_NO_START;
	/* often at first, so that a noisy line still starts a session soon, then seldom. At
	 * first by bytes too: the recorder writes in bursts (a round, a full buffer) faster
	 * than the line carries them, so a burst may hold seconds of the line's time */
	fast = s->repeats < SINK_SERIAL_FAST_REPEATS;
	if (now_ms() - s->last_repeat_ms >= (fast ? SINK_SERIAL_FAST_REPEAT_MS :
					     SINK_SERIAL_REPEAT_MS) ||
	    (fast && s->since_repeat >= SINK_SERIAL_FAST_REPEAT_BYTES))
		send_hello_head(s);
}

/* ---- records in ---- */

static void record_start(struct sink_serial *s, uint32_t type, uint64_t size)
{
	if (s->in_head && s->started && type != PERF_RECORD_HEADER_ATTR) {
		s->in_head = false;
		send_hello_head(s);
	}
	if (s->in_head)
		return;
	/* a record that fits a frame is not split over two */
	if (size <= s->max_payload && size > s->max_payload - s->len)
		flush_data(s);
	if (s->first == TP_FRAME_NO_START)
		s->first = (uint16_t)s->len;
}

static void record_bytes(struct sink_serial *s, const uint8_t *p, size_t n)
{
	if (s->in_head) {
		if (n > sizeof(s->head) - s->head_len) {
			s->err = -TP_E2BIG;	/* too many events and CPUs to repeat the head */
			return;
		}
		memcpy(s->head + s->head_len, p, n);
		s->head_len += n;
		return;
	}
	while (n && !s->err) {
		size_t k = TP_MIN(n, s->max_payload - s->len);

		if (s->cur_type != PERF_RECORD_SAMPLE && s->cur_type != PERF_RECORD_FINISHED_ROUND)
			s->meta = true;
		if (!k) {
			flush_data(s);
			continue;
		}
		memcpy(s->payload + 4 + s->len, p, k);
		s->len += k;
		p += k;
		n -= k;
		if (s->len == s->max_payload)
			flush_data(s);
	}
}

static uint32_t hdr32(const struct sink_serial *s, unsigned off)
{
	uint32_t v;

	memcpy(&v, s->hdr + off, 4);
	return v;
}

/* The writer writes in this machine's byte order. A record's size is known from its first 8
 * bytes (12 for TRACING_DATA, whose blob follows outside header.size); they are collected in
 * hdr when a write cuts them. */
static int serial_write(struct tp_sink *sink, const void *buf, size_t len)
{
	struct sink_serial *s = (struct sink_serial *)sink;
	const uint8_t *p = buf;

	while (len && !s->err) {
		unsigned need;
		uint32_t type = 0;
		uint64_t size;

		if (s->left) {
			size_t k = (size_t)TP_MIN(s->left, (uint64_t)len);

			record_bytes(s, p, k);
			p += k;
			len -= k;
			s->left -= k;
			if (!s->left && s->cur_type == PERF_RECORD_FINISHED_ROUND)
				flush_data(s);	/* a round is done: let it go out */
			continue;
		}
		need = !s->started ? 16 : 8;
		if (s->started && s->have >= 8 && hdr32(s, 0) == PERF_RECORD_HEADER_TRACING_DATA)
			need = 12;
		if (s->have < need) {
			size_t k = TP_MIN((size_t)(need - s->have), len);

			memcpy(s->hdr + s->have, p, k);
			s->have += (unsigned)k;
			p += k;
			len -= k;
			continue;
		}
		if (s->started) {
			uint16_t hsize;

			type = hdr32(s, 0);
			memcpy(&hsize, s->hdr + 6, 2);
			size = TP_MAX((uint64_t)hsize, (uint64_t)need);
			if (type == PERF_RECORD_HEADER_TRACING_DATA)
				size += hdr32(s, 8);
		} else {
			size = 16;
		}
		s->cur_type = type;
		record_start(s, type, size);
		record_bytes(s, s->hdr, s->have);
		s->left = size - s->have;
		s->have = 0;
		s->started = true;
	}
	return s->err;
}

/* ---- the tty ---- */

static const struct { uint32_t rate, code; } bauds[] = {
	{ 9600, TP_B9600 }, { 19200, TP_B19200 }, { 38400, TP_B38400 }, { 57600, TP_B57600 },
	{ 115200, TP_B115200 }, { 230400, TP_B230400 }, { 460800, TP_B460800 },
	{ 921600, TP_B921600 }, { 1500000, TP_B1500000 }, { 3000000, TP_B3000000 },
};

/* everything cfmakeraw() does, and the speed: no NL->CRNL (OPOST), no XON/XOFF eaten
 * (IXON), no ^C turned into SIGINT (ISIG), no echo, no line editing */
static int make_raw(struct sink_serial *s, uint32_t code, char *err, size_t errlen,
		    const char *dev)
{
	struct tp_termios t;
	long e = sys_ioctl(s->fd, TP_TCGETS, (long)&t);

	if (e == -TP_ENOTTY || e == -TP_EINVAL)
		return 0;		/* a file or a pipe: frames go there as they are */
	if (e) {
		tp_snprintf(err, errlen, "cannot read the settings of %s: %s", dev, tp_strerror(e));
		return (int)e;
	}
	s->saved = t;
	t.c_iflag &= ~(unsigned)(TP_IGNBRK | TP_BRKINT | TP_PARMRK | TP_ISTRIP | TP_INLCR |
				 TP_IGNCR | TP_ICRNL | TP_IXON | TP_IXOFF);
	t.c_oflag &= ~(unsigned)TP_OPOST;
	t.c_lflag &= ~(unsigned)(TP_ECHO | TP_ECHONL | TP_ICANON | TP_ISIG | TP_IEXTEN);
	t.c_cflag &= ~(unsigned)(TP_CSIZE | TP_PARENB);
	t.c_cflag |= TP_CS8 | TP_CREAD | TP_CLOCAL;
	if (code) {
		t.c_cflag &= ~(unsigned)TP_CBAUD;
		t.c_cflag |= code;
	}
	t.c_cc[TP_VMIN] = 1;
	t.c_cc[TP_VTIME] = 0;
	e = sys_ioctl(s->fd, TP_TCSETSW, (long)&t);
	if (e) {
		tp_snprintf(err, errlen, "cannot make %s raw: %s", dev, tp_strerror(e));
		return (int)e;
	}
	s->restore = true;
	return 0;
}

int sink_serial__open(struct sink_serial *s, const char *spec, const struct tp_hello *h,
		      char *err, size_t errlen)
{
	char dev[128];
	const char *p = spec + sizeof(prefix) - 1, *comma = strchr(p, ',');
	size_t n = comma ? (size_t)(comma - p) : strlen(p);
	uint32_t code = 0;
	long fd;
	int e;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->sink.write = serial_write;
	e = tp_hello__format((char *)s->head, sizeof(s->head), h);
	if (e < 0)
		goto bad;
	s->head_len = s->hello_len = (size_t)e;		/* the hello line starts the head */
	s->tag = tp_crc32(0, h->session, strlen(h->session));
	s->in_head = true;
	s->first = TP_FRAME_NO_START;
	if (!n || n >= sizeof(dev))
		goto bad;
	memcpy(dev, p, n);
	dev[n] = 0;
	while (comma) {
		const char *opt = comma + 1;
		unsigned rate;

		comma = strchr(opt, ',');
		n = comma ? (size_t)(comma - opt) : strlen(opt);
		if (n == 4 && !memcmp(opt, "text", 4)) {
			s->text = true;
			continue;
		}
		if (n > 6 && !memcmp(opt, "frame=", 6)) {
			unsigned v = 0;

			for (size_t i = 6; i < n; i++) {
				if (opt[i] < '0' || opt[i] > '9' || v > SINK_SERIAL_PAYLOAD)
					goto bad;
				v = v * 10 + (unsigned)(opt[i] - '0');
			}
			if (v < 16 || v > SINK_SERIAL_PAYLOAD)
				goto bad;
			s->max_payload = v;
			continue;
		}
		rate = 0;
		for (size_t i = 0; i < n; i++) {
			if (opt[i] < '0' || opt[i] > '9' || rate > 100000000)
				goto bad;
			rate = rate * 10 + (unsigned)(opt[i] - '0');
		}
		for (size_t i = 0; i < TP_ARRAY_SIZE(bauds); i++)
			if (bauds[i].rate == rate)
				code = bauds[i].code;
		if (!code) {
			tp_snprintf(err, errlen, "unsupported baud rate %u (9600 .. 3000000, e.g. "
				    "115200)", rate);
			return -TP_EINVAL;
		}
	}
	if (!s->max_payload)
		s->max_payload = s->text ? SINK_SERIAL_TEXT_PAYLOAD : SINK_SERIAL_PAYLOAD;
	if (!strcmp(dev, "-")) {
		s->fd = 1;
	} else {
		/* O_NONBLOCK: do not wait for a carrier at open; writes block again below */
		fd = sys_open(dev, TP_O_WRONLY | TP_O_NOCTTY | TP_O_NONBLOCK | TP_O_CLOEXEC, 0);
		if (fd < 0) {
			tp_snprintf(err, errlen, "cannot open %s: %s", dev, tp_strerror(fd));
			return (int)fd;
		}
		s->fd = (int)fd;
	}
	if (!s->text) {
		e = make_raw(s, code, err, errlen, dev);
		if (e) {
			sink_serial__close(s);
			return e;
		}
	}
	if (s->fd != 1)
		sys_fcntl(s->fd, TP_F_SETFL, 0);
	return 0;
bad:
	tp_snprintf(err, errlen, "bad serial output '%s': give serial:DEVICE[,BAUD][,text]"
		    "[,frame=16..%d]", spec, SINK_SERIAL_PAYLOAD);
	return -TP_EINVAL;
}

int sink_serial__close(struct sink_serial *s)
{
	uint8_t end[4];
	int err;

	if (s->fd < 0)
		return s->err;
	flush_data(s);
	/* once more: a receiver still missing them can save the session before END */
	if (s->head_len)
		send_hello_head(s);
	end[0] = (uint8_t)s->frames;
	end[1] = (uint8_t)(s->frames >> 8);
	end[2] = (uint8_t)(s->frames >> 16);
	end[3] = (uint8_t)(s->frames >> 24);
	send_frame(s, TP_FRAME_END, end, 4);
	send_frame(s, TP_FRAME_END, end, 4);	/* a damaged END would hide the last losses */
	err = s->err;
	if (s->restore)
		sys_ioctl(s->fd, TP_TCSETSW, (long)&s->saved);	/* after the output drained */
	if (s->fd != 1)
		sys_close(s->fd);
	s->fd = -1;
	return err;
}
