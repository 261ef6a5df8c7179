/* SPDX-License-Identifier: MIT */
/* The streaming decoder for `tinyperf recv` (format in framing.h): the hello line parsed, and
 * frames found in a serial byte stream, checked, decoded, their losses counted, and console
 * text spliced into them recovered. Host only: the recorder encodes (framing.c). */
#include "libc-shim/shim.h"
#include "perfdata/framing.h"

/* ---- hello ---- */

/* the value of "key=" in [p, end) up to the next space (or to the end for the last key) */
static bool field(const char *p, const char *end, const char *key, bool rest, char *out,
		  size_t cap)
{
	size_t klen = strlen(key), n = 0;

	while (p < end) {
		if ((size_t)(end - p) > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			p += klen + 1;
			while (p < end && (rest || *p != ' ')) {
				if (n + 1 < cap)
					out[n++] = *p;
				p++;
			}
			out[n] = 0;
			return true;
		}
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	return false;
}

int tp_hello__parse(struct tp_hello *h, const char *line, size_t len)
{
	size_t mlen = sizeof(TP_HELLO_MAGIC) - 1;
	const char *end = line + len;

	memset(h, 0, sizeof(*h));
	if (len && line[len - 1] == '\r')
		end--;
	if (len < mlen || memcmp(line, TP_HELLO_MAGIC, mlen) || memchr(line, 0, len))
		return -TP_EINVAL;
	line += mlen;
	if (!field(line, end, "version", false, h->version, sizeof(h->version)) ||
	    !field(line, end, "session", false, h->session, sizeof(h->session)) ||
	    !field(line, end, "device", true, h->device, sizeof(h->device)))
		return -TP_EINVAL;
	return 0;
}

/* ---- base64 ---- */

static int b64_value(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* the decoded length, or -1 */
static long b64_decode(uint8_t *out, size_t cap, const uint8_t *in, size_t len)
{
	size_t o = 0;

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		uint32_t v = 0;
		int pad = 0;

		for (int k = 0; k < 4; k++) {
			int x = b64_value(in[i + k]);

			if (x < 0) {
				if (in[i + k] != '=' || i + 4 != len || k < 2)
					return -1;
				pad++;
				x = 0;
			} else if (pad) {
				return -1;
			}
			v = v << 6 | (uint32_t)x;
		}
		if ((size_t)(3 - pad) > cap - o)
			return -1;
		out[o++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[o++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[o++] = (uint8_t)v;
	}
	return (long)o;
}

/* ---- decoder ---- */

void tp_deframer__init(struct tp_deframer *d, const struct tp_deframer_ops *ops)
{
	memset(d, 0, sizeof(*d));
	d->ops = *ops;
}

/* frames lost right before one with this type and seq; the sequence then continues from it */
static uint32_t account(struct tp_deframer *d, uint8_t type, uint16_t seq)
{
	uint16_t gap = (uint16_t)(seq - d->next_seq);
	uint32_t lost = 0;

	if (d->ended) {
		/* after an END: its duplicate, or a new session counting from 0 (whose first
		 * frames are the ones lost when it does not start with its HELLO) */
		if (!(type == TP_FRAME_END && !gap)) {
			lost = type == TP_FRAME_HELLO && !seq ? 0 : seq;
			d->ended = false;
		}
	} else if (type == TP_FRAME_HELLO && !seq) {
		if (gap)
			d->st.restarts++;	/* a new sender: what the old one lost is unknown */
	} else if (gap < 0x8000) {
		lost = gap;
	} else {
		d->st.restarts++;		/* backwards: a duplicate or a restarted sender */
	}
	if (type == TP_FRAME_END)
		d->ended = true;
	d->next_seq = (uint16_t)(seq + 1);
	d->st.lost += lost;
	return lost;
}

/* raw = type seq payload crc: a frame if the CRC and the type say so */
static bool frame_ok(const uint8_t *raw, size_t n)
{
	uint32_t crc = 0;

	if (n < TP_FRAME_OVERHEAD)
		return false;
	for (int i = 0; i < 4; i++)
		crc |= (uint32_t)raw[n - 4 + i] << (8 * i);
	return raw[0] && raw[0] <= TP_FRAME_TYPE_MAX && tp_crc32(0, raw, n - 4) == crc;
}

static bool deliver(struct tp_deframer *d, const uint8_t *raw, size_t n, bool text,
		    bool recovered)
{
	struct tp_wire_frame f;
	uint32_t lost;

	if (!frame_ok(raw, n))
		return false;
	f.type = raw[0];
	f.seq = (uint16_t)(raw[1] | raw[2] << 8);
	f.text = text;
	f.recovered = recovered;
	f.payload = raw + 3;
	f.len = n - TP_FRAME_OVERHEAD;
	lost = account(d, f.type, f.seq);
	d->st.frames++;
	d->st.recovered += recovered;
	if (d->ops.on_frame)
		d->ops.on_frame(d->ops.ctx, &f, lost);
	return true;
}

/* console output: printable ASCII, UTF-8, tabs, line ends, ANSI escapes; a damaged binary
 * frame of any length almost surely has some other control byte */
static bool text_byte(uint8_t c)
{
	return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == 0x1b || c == '\b' ||
		c == '\a') && c != 0x7f;
}

static bool looks_like_text(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!text_byte(p[i]))
			return false;
	return true;
}

static const uint8_t *find_marker(const uint8_t *p, size_t n);

/* text goes to on_text; anything else, a damaged text frame included, is noise */
static void not_a_frame(struct tp_deframer *d, const uint8_t *p, size_t n)
{
	if (!n)
		return;
	if (looks_like_text(p, n) && !find_marker(p, n)) {
		d->st.text_bytes += n;
		if (d->ops.on_text)
			d->ops.on_text(d->ops.ctx, p, n);
	} else {
		d->st.bad++;
		d->st.bad_bytes += n;
	}
}

static void reset_run(struct tp_deframer *d)
{
	d->len = 0;
	d->line = 0;
}

/* ---- console text spliced into a binary frame ----
 *
 * printk writes to a console UART itself, so on a line shared with the kernel console its
 * lines land between any two bytes of a frame. Such a frame fails COBS or its CRC; it is
 * retried with candidate runs of console text taken out of its bytes, and taken only when
 * COBS decodes and the CRC-32 matches (with at most RECOVER_TRIES tries, a false accept is
 * about one in 2^32 / RECOVER_TRIES per damaged frame). Candidates, in this order:
 *   - one run ending in '\n' (a line, or several back to back), starting anywhere in the
 *     text-looking bytes before it (frame bytes before the line may look like text too);
 *   - two such runs (two lines in two places);
 *   - a line cut in two: a fragment starting with printk's "[" timestamp, ending anywhere in
 *     text, then a run ending in '\n'.
 * The runs taken out go to on_text, in order, before the frame. */

#define RECOVER_TRIES		2048	/* COBS+CRC attempts per damaged frame */
#define RECOVER_TEXT_MAX	512	/* longest text run tried */

struct cut {
	size_t s, e;			/* [s, e) of the run */
};

struct recovery {
	struct tp_deframer *d;
	unsigned tries;			/* left */
	size_t n;			/* the frame's length in d->dec, once found */
	struct cut c[2];
};

/* the run without the first nc cuts: a frame? */
static bool try_cuts(struct recovery *r, int nc)
{
	struct tp_deframer *d = r->d;
	size_t o = 0, at = 0;
	long n;

	if (!r->tries)
		return false;
	r->tries--;
	for (int i = 0; i < nc; i++) {
		memcpy(d->cut + o, d->run + at, r->c[i].s - at);
		o += r->c[i].s - at;
		at = r->c[i].e;
	}
	memcpy(d->cut + o, d->run + at, d->len - at);
	o += d->len - at;
	n = tp_cobs_decode(d->dec, sizeof(d->dec), d->cut, o);
	if (n < 0 || !frame_ok(d->dec, (size_t)n))
		return false;
	r->n = (size_t)n;
	return true;
}

/* where the text-looking bytes ending at e (inclusive) start, at most RECOVER_TEXT_MAX back */
static size_t text_from(const struct tp_deframer *d, size_t e)
{
	size_t s = e, lo = e + 1 > RECOVER_TEXT_MAX ? e + 1 - RECOVER_TEXT_MAX : 0;

	while (s > lo && text_byte(d->run[s - 1]))
		s--;
	return s;
}

/* the start of a printk line: "[" then a blank or a digit ("[    1.234567] ") */
static bool printk_start(const struct tp_deframer *d, size_t p)
{
	return d->run[p] == '[' && p + 1 < d->len &&
	       (d->run[p + 1] == ' ' || (d->run[p + 1] >= '0' && d->run[p + 1] <= '9'));
}

/* cut k: a run ending in '\n', starting at `from` or later (cuts before k stay); pk: only
 * runs that start like a printk line */
static bool try_line(struct recovery *r, int k, size_t from, bool pk)
{
	const struct tp_deframer *d = r->d;

	for (size_t e = from; e < d->len && r->tries; e++) {
		if (d->run[e] != '\n')
			continue;
		for (size_t s = text_from(d, e); s <= e && r->tries; s++) {
			if (s < from || (pk && !printk_start(d, s)))
				continue;
			r->c[k] = (struct cut){ s, e + 1 };
			if (try_cuts(r, k + 1))
				return true;
		}
	}
	return false;
}

/* two runs ending in '\n', the second at least one frame byte after the first */
static bool try_two_lines(struct recovery *r, bool pk)
{
	const struct tp_deframer *d = r->d;

	for (size_t e1 = 0; e1 + 2 < d->len && r->tries; e1++) {
		if (d->run[e1] != '\n')
			continue;
		for (size_t s1 = text_from(d, e1); s1 <= e1 && r->tries; s1++) {
			if (pk && !printk_start(d, s1))
				continue;
			r->c[0] = (struct cut){ s1, e1 + 1 };
			if (try_line(r, 1, e1 + 2, pk))
				return true;
		}
	}
	return false;
}

/* the runs of cuts taken out, or 0. Likely shapes first: printk lines ("[  secs.usecs] ")
 * start where they start, a line without one has its start guessed among the text-looking
 * bytes before its end (as many as there are frame bytes that look like text before it). */
static int find_cuts(struct recovery *r)
{
	const struct tp_deframer *d = r->d;

	if (try_line(r, 0, 0, true) || try_line(r, 0, 0, false))
		return 1;
	if (try_two_lines(r, true))
		return 2;
	/* a line in two pieces: "[ secs.usecs] fragm" ... "ent\r\n" */
	for (size_t p = 0; p + 2 < d->len && r->tries; p++) {
		if (!printk_start(d, p))
			continue;
		for (size_t e = p + 1; e < d->len && e - p <= RECOVER_TEXT_MAX && r->tries; e++) {
			if (!text_byte(d->run[e - 1]) || d->run[e - 1] == '\n')
				break;
			r->c[0] = (struct cut){ p, e };
			if (try_line(r, 1, e + 1, false))
				return 2;
		}
	}
	return try_two_lines(r, false) ? 2 : 0;
}

/* a run that is no frame: one with console text taken out? */
static bool recover(struct tp_deframer *d)
{
	struct recovery r = { .d = d, .tries = RECOVER_TRIES };
	int nc = d->len < 2 || looks_like_text(d->run, d->len) ? 0 : find_cuts(&r);

	if (!nc)
		return false;
	for (int i = 0; i < nc; i++) {
		d->st.text_bytes += r.c[i].e - r.c[i].s;
		if (d->ops.on_text)
			d->ops.on_text(d->ops.ctx, d->run + r.c[i].s, r.c[i].e - r.c[i].s);
	}
	return deliver(d, d->dec, r.n, false, true);
}

/* a 00: the run is a binary frame, or text, or noise */
static void end_binary(struct tp_deframer *d)
{
	long n;

	if (!d->len)
		return;
	n = tp_cobs_decode(d->dec, sizeof(d->dec), d->run, d->len);
	if ((n < 0 || !deliver(d, d->dec, (size_t)n, false, false)) && !recover(d))
		not_a_frame(d, d->run, d->len);
	reset_run(d);
}

/* the last text-frame marker in [p, p + n): a damaged line that ran into the next one
 * (its '\n' hit) must not take the next frame down with it */
static const uint8_t *find_marker(const uint8_t *p, size_t n)
{
	for (size_t i = n; i >= 4; i--)
		if (!memcmp(p + i - 4, TP_FRAME_TEXT_MARKER, 4))
			return p + i - 4;
	return NULL;
}

/* a '\n': if the line holds a text frame, it and the text before it are done */
static void end_line(struct tp_deframer *d)
{
	const uint8_t *line = d->run + d->line, *end = d->run + d->len - 1;	/* at '\n' */
	const uint8_t *m = find_marker(line, (size_t)(end - line));
	long n;

	if (!m) {
		d->line = d->len;
		return;
	}
	if (end > m && end[-1] == '\r')
		end--;
	not_a_frame(d, d->run, (size_t)(m - d->run));
	m += 4;
	n = b64_decode(d->dec, sizeof(d->dec), m, (size_t)(end - m));
	if (n < 0 || !deliver(d, d->dec, (size_t)n, true, false)) {
		d->st.bad++;
		d->st.bad_bytes += (size_t)(end - m) + 4;
	}
	reset_run(d);
}

void tp_deframer__feed(struct tp_deframer *d, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	d->st.bytes += len;
	for (size_t i = 0; i < len; i++) {
		if (!p[i]) {
			end_binary(d);
			continue;
		}
		if (d->len == sizeof(d->run)) {
			/* longer than any frame: whatever it is, it is not one */
			not_a_frame(d, d->run, d->len);
			reset_run(d);
		}
		d->run[d->len++] = p[i];
		if (p[i] == '\n')
			end_line(d);
	}
}

void tp_deframer__idle(struct tp_deframer *d)
{
	size_t out = d->len, tail = d->len - d->line;
	const uint8_t *m = find_marker(d->run + d->line, tail);

	/* A binary frame under way is not text (its second byte, the type, is a control
	 * character; its first is held back alone). A text frame under way starts with the
	 * marker, perhaps only partly there yet: keep the line from there. */
	if (!d->len || !looks_like_text(d->run, d->len) ||
	    (d->len == 1 && d->run[0] != '\n' && d->run[0] != '\r'))
		return;
	if (m) {
		out = (size_t)(m - d->run);
	} else {
		for (size_t k = TP_MIN(tail, (size_t)3); k; k--) {
			if (!memcmp(d->run + d->len - k, TP_FRAME_TEXT_MARKER, k)) {
				out = d->len - k;
				break;
			}
		}
	}
	if (!out)
		return;
	not_a_frame(d, d->run, out);
	memmove(d->run, d->run + out, d->len - out);
	d->len -= out;
	d->line = d->line > out ? d->line - out : 0;
}

void tp_deframer__end(struct tp_deframer *d)
{
	not_a_frame(d, d->run, d->len);
	reset_run(d);
}
