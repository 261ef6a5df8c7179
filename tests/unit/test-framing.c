/* SPDX-License-Identifier: MIT */
/* Unit tests for perfdata/framing.c: CRC-32, COBS, the hello line, frame encoders, and the
 * streaming decoder under console text, noise, damaged and missing frames. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>

#include "arch/abi.h"
#include "perfdata/framing.h"
#include "check.h"

/* ---- a decoder that records what it got ---- */

#define MAX_GOT 4096

struct got {
	unsigned n;
	uint16_t seq[MAX_GOT];
	uint8_t type[MAX_GOT];
	uint32_t lost[MAX_GOT];
	size_t len[MAX_GOT];
	uint8_t first[MAX_GOT];		/* first payload byte, to tell frames apart */
	uint32_t crc[MAX_GOT];		/* of the payload */
	bool recovered[MAX_GOT];
	char text[16384];
	size_t text_len;
};

static void on_frame(void *ctx, const struct tp_wire_frame *f, uint32_t lost)
{
	struct got *g = ctx;

	if (g->n >= MAX_GOT)
		return;
	g->seq[g->n] = f->seq;
	g->type[g->n] = f->type;
	g->lost[g->n] = lost;
	g->len[g->n] = f->len;
	g->first[g->n] = f->len ? f->payload[0] : 0;
	g->crc[g->n] = tp_crc32(0, f->payload, f->len);
	g->recovered[g->n] = f->recovered;
	g->n++;
}

static void on_text(void *ctx, const uint8_t *p, size_t n)
{
	struct got *g = ctx;

	if (n > sizeof(g->text) - 1 - g->text_len)
		n = sizeof(g->text) - 1 - g->text_len;
	memcpy(g->text + g->text_len, p, n);
	g->text_len += n;
	g->text[g->text_len] = 0;
}

static struct tp_deframer dec;
static struct got got;

static void dec_init(void)
{
	struct tp_deframer_ops ops = { on_frame, on_text, &got };

	memset(&got, 0, sizeof(got));
	tp_deframer__init(&dec, &ops);
}

/* a deterministic generator, so a failure reproduces */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* ---- primitives ---- */

static void test_crc(void)
{
	struct tcase c = case_begin("crc32: IEEE check value and incremental use");

	EXPECT(&c, "crc32(\"123456789\")", 0xcbf43926, tp_crc32(0, "123456789", 9));
	EXPECT(&c, "crc32 of nothing", 0, tp_crc32(0, "", 0));
	EXPECT(&c, "in two pieces", 0xcbf43926, tp_crc32(tp_crc32(0, "1234", 4), "56789", 5));
	case_end(&c);
}

static void cobs_roundtrip(struct tcase *c, const uint8_t *in, size_t len)
{
	uint8_t enc[2200], out[2200];
	size_t n = tp_cobs_encode(enc, sizeof(enc), in, len);
	long m;

	EXPECT_TRUE(c, "encoded", n > 0);
	EXPECT_TRUE(c, "overhead at most 1 + len/254", n <= len + 1 + len / 254);
	EXPECT_TRUE(c, "no zero byte in the encoding", !memchr(enc, 0, n));
	m = tp_cobs_decode(out, sizeof(out), enc, n);
	EXPECT(c, "decoded length", len, m);
	if (m == (long)len)
		expect_mem(c, "decoded bytes", in, out, len);
}

static void test_cobs(void)
{
	struct tcase c = case_begin("cobs: round trips at the 254-byte block edges, zeros, random");
	uint8_t buf[2048];
	static const size_t lens[] = { 0, 1, 2, 253, 254, 255, 256, 507, 508, 509, 1031, 2000 };

	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		memset(buf, 0x41, lens[i]);
		cobs_roundtrip(&c, buf, lens[i]);
		memset(buf, 0, lens[i]);
		cobs_roundtrip(&c, buf, lens[i]);
	}
	for (int k = 0; k < 200; k++) {
		size_t len = rnd() % 1100;

		for (size_t i = 0; i < len; i++)
			buf[i] = (rnd() % 4) ? (uint8_t)rnd() : 0;
		cobs_roundtrip(&c, buf, len);
	}
	case_end(&c);

	c = case_begin("cobs: bounded output, invalid input rejected");
	{
		uint8_t enc[8], out[8];
		static const uint8_t bad_code[] = { 0x03, 'a', 0x00, 'b' };
		static const uint8_t past_end[] = { 0x05, 'a', 'b' };

		memset(buf, 0x41, 8);
		EXPECT(&c, "8 bytes do not fit in 8", 0, tp_cobs_encode(enc, 8, buf, 8));
		EXPECT(&c, "7 bytes fit in 8", 8, tp_cobs_encode(enc, 8, buf, 7));
		EXPECT(&c, "nothing fits in 0", 0, tp_cobs_encode(enc, 0, buf, 0));
		EXPECT(&c, "a zero code byte", -1, tp_cobs_decode(out, 8, bad_code, 4));
		EXPECT(&c, "a block past the end", -1, tp_cobs_decode(out, 8, past_end, 3));
		EXPECT(&c, "output too small", -1, tp_cobs_decode(out, 3, enc, 8));
	}
	case_end(&c);
}

static void test_hello(void)
{
	struct tcase c = case_begin("hello: format, parse, device names with spaces, junk rejected");
	struct tp_hello h = { "0.1.0", "00112233aabbccdd", "my board 7" }, p;
	char line[TP_HELLO_MAX];
	int n = tp_hello__format(line, sizeof(line), &h);

	EXPECT_TRUE(&c, "formatted", n > 0 && line[n - 1] == '\n');
	EXPECT(&c, "parses", 0, tp_hello__parse(&p, line, (size_t)n - 1));
	EXPECT(&c, "version", 0, strcmp(p.version, "0.1.0"));
	EXPECT(&c, "session", 0, strcmp(p.session, "00112233aabbccdd"));
	EXPECT(&c, "device keeps its spaces", 0, strcmp(p.device, "my board 7"));
	EXPECT(&c, "a trailing CR is ignored", 0,
	       tp_hello__parse(&p, "TPSTREAM1 version=1 session=2 device=x\r", 39));
	EXPECT(&c, "device without the CR", 0, strcmp(p.device, "x"));
	EXPECT(&c, "not a hello", -TP_EINVAL, tp_hello__parse(&p, "GET / HTTP/1.0", 14));
	EXPECT(&c, "missing device", -TP_EINVAL,
	       tp_hello__parse(&p, "TPSTREAM1 version=1 session=2", 29));
	EXPECT(&c, "a NUL inside", -TP_EINVAL,
	       tp_hello__parse(&p, "TPSTREAM1 version=1 session=2 device=a\0b", 40));
	memset(line, 'x', sizeof(line));
	memcpy(line, "TPSTREAM1 version=1 session=2 device=", 37);
	EXPECT(&c, "an over-long device name is cut", 0, tp_hello__parse(&p, line, 200));
	EXPECT(&c, "cut to the field", sizeof(p.device) - 1, strlen(p.device));
	EXPECT(&c, "too small a buffer", -TP_ENOSPC, tp_hello__format(line, 20, &h));
	case_end(&c);
}

static void test_encode_bounds(void)
{
	struct tcase c = case_begin("frame encoders: size macros hold, bounds enforced");
	static uint8_t payload[TP_FRAME_PAYLOAD_MAX + 1], out[2 * TP_FRAME_PAYLOAD_MAX];
	int n;

	memset(payload, 0xff, sizeof(payload));
	n = tp_frame__encode(out, sizeof(out), TP_FRAME_DATA, 1, payload, TP_FRAME_PAYLOAD_MAX);
	EXPECT_TRUE(&c, "max payload encodes", n > 0);
	EXPECT_TRUE(&c, "within TP_FRAME_WIRE_SIZE", n <= (int)TP_FRAME_WIRE_SIZE(TP_FRAME_PAYLOAD_MAX));
	EXPECT_TRUE(&c, "delimited", out[0] == 0 && out[n - 1] == 0 && !memchr(out + 1, 0, (size_t)n - 2));
	EXPECT(&c, "payload too big", -TP_E2BIG,
	       tp_frame__encode(out, sizeof(out), TP_FRAME_DATA, 1, payload, sizeof(payload)));
	EXPECT(&c, "binary: cap too small", -TP_ENOSPC,
	       tp_frame__encode(out, 40, TP_FRAME_DATA, 1, payload, 40));
	n = tp_frame__encode_text((char *)out, sizeof(out), TP_FRAME_DATA, 1, payload, 100);
	EXPECT(&c, "text line length", TP_FRAME_TEXT_SIZE(100), n);
	EXPECT_TRUE(&c, "text: marker and newline",
		    !memcmp(out, TP_FRAME_TEXT_MARKER, 4) && out[n - 1] == '\n');
	EXPECT(&c, "text: cap too small", -TP_ENOSPC,
	       tp_frame__encode_text((char *)out, 100, TP_FRAME_DATA, 1, payload, 100));
	case_end(&c);
}

/* ---- decoder ---- */

/* frame i of a synthetic session: payload of varying length whose first byte is i */
static int make_frame(uint8_t *out, size_t cap, unsigned i, bool text)
{
	uint8_t payload[300];
	size_t len = 1 + (i * 37) % 250;

	for (size_t k = 0; k < len; k++)
		payload[k] = (uint8_t)(k ? rnd() : i);
	if (i % 5 == 0)
		memset(payload + 1, 0, len - 1);	/* runs of zeros: COBS at work */
	return text ? tp_frame__encode_text((char *)out, cap, TP_FRAME_DATA, (uint16_t)i, payload, len)
		    : tp_frame__encode(out, cap, TP_FRAME_DATA, (uint16_t)i, payload, len);
}

static void test_clean(bool text)
{
	struct tcase c = case_begin(text ? "decoder: text frames with console lines between them"
					 : "decoder: binary frames with console text between them");
	uint8_t buf[2048];
	char expect[8192] = "";
	size_t elen = 0;

	dec_init();
	for (unsigned i = 0; i < 60; i++) {
		int n = make_frame(buf, sizeof(buf), i, text);

		if (i % 7 == 3) {
			char line[64];
			int k = snprintf(line, sizeof(line), "[   %u.000] console line %u\r\n", i, i);

			tp_deframer__feed(&dec, line, (size_t)k);
			memcpy(expect + elen, line, (size_t)k);
			elen += (size_t)k;
		}
		/* in pieces of 1..16 bytes: nothing may depend on how reads cut the stream */
		for (int off = 0; off < n;) {
			int k = 1 + (int)(rnd() % 16);

			if (k > n - off)
				k = n - off;
			tp_deframer__feed(&dec, buf + off, (size_t)k);
			off += k;
		}
	}
	tp_deframer__end(&dec);
	EXPECT(&c, "frames", 60, got.n);
	EXPECT(&c, "frames lost", 0, dec.st.lost);
	EXPECT(&c, "bad chunks", 0, dec.st.bad);
	for (unsigned i = 0; i < got.n; i++) {
		EXPECT(&c, "seq", i, got.seq[i]);
		EXPECT(&c, "payload identity", (uint8_t)i, got.first[i]);
		EXPECT(&c, "payload length", 1 + (i * 37) % 250, got.len[i]);
	}
	EXPECT(&c, "console text length", elen, got.text_len);
	EXPECT(&c, "console text", 0, memcmp(expect, got.text, elen));
	case_end(&c);
}

/* Damage random bytes of random frames (any byte: delimiters, COBS codes, CRC), with console
 * text between frames: every intact frame arrives, the loss is the damaged count. */
static void test_corruption(bool text, unsigned permille)
{
	char name[128];
	struct tcase c;
	static uint8_t stream[1 << 20];
	static bool damaged[2000], delim_only[2000];
	size_t slen = 0;
	unsigned nframes = 1500, ndamaged = 0, last_intact = 0;
	uint8_t buf[2048];

	snprintf(name, sizeof(name), "decoder: %s frames, %u.%u%% of frame bytes corrupted: "
		 "loss counted exactly", text ? "text" : "binary", permille / 10, permille % 10);
	c = case_begin(name);
	dec_init();
	for (unsigned i = 0; i < nframes; i++) {
		int n = make_frame(buf, sizeof(buf), i, text);

		damaged[i] = false;
		delim_only[i] = !text;
		for (int k = 0; k < n; k++) {
			if (rnd() % 1000 < permille) {
				uint8_t x = (uint8_t)(1 + rnd() % 255);

				buf[k] ^= x;
				damaged[i] = true;
				if (k && k != n - 1)
					delim_only[i] = false;
			}
		}
		if (!damaged[i])
			last_intact = i;
		memcpy(stream + slen, buf, (size_t)n);
		slen += (size_t)n;
		if (i % 11 == 0) {
			slen += (size_t)snprintf((char *)stream + slen, 64, "printk: line %u\r\n", i);
		}
	}
	for (unsigned i = 0; i <= last_intact; i++)
		ndamaged += damaged[i];
	/* in pieces, going idle between them: a pause inside a frame must not cost it */
	for (size_t off = 0; off < slen;) {
		size_t k = 1 + rnd() % 300;

		if (k > slen - off)
			k = slen - off;
		tp_deframer__feed(&dec, stream + off, k);
		tp_deframer__idle(&dec);
		off += k;
	}
	tp_deframer__end(&dec);
	printf("  (%u of %u frames damaged, %" PRIu64 " of them recovered, %" PRIu64
	       " bad chunks, %" PRIu64 " text bytes)\n", ndamaged, last_intact + 1,
	       dec.st.recovered, dec.st.bad, dec.st.text_bytes);
	/* a frame whose only damage is a delimiter turned into text ('\n', or a byte with a
	 * console line after it) is intact inside: recovering it is right, anything else not */
	for (unsigned k = 0; k < got.n; k++) {
		if (damaged[got.seq[k]])
			EXPECT_TRUE(&c, "a recovered frame had only its delimiters damaged",
				    got.recovered[k] && delim_only[got.seq[k]]);
		else
			EXPECT_TRUE(&c, "an intact frame is not 'recovered'", !got.recovered[k]);
	}
	EXPECT(&c, "frames lost = frames damaged (before the last intact one), less recovered",
	       ndamaged - dec.st.recovered, dec.st.lost);
	EXPECT(&c, "frames kept = frames intact and recovered",
	       last_intact + 1 - ndamaged + dec.st.recovered, got.n);
	{
		unsigned k = 0;
		uint32_t lost = 0;

		for (unsigned i = 0; i <= last_intact; i++) {
			if (damaged[i] && !(k < got.n && got.seq[k] == i && got.recovered[k])) {
				lost++;
				continue;
			}
			if (k >= got.n)
				break;
			EXPECT(&c, "an intact frame's seq", i, got.seq[k]);
			EXPECT(&c, "its first payload byte", (uint8_t)i, got.first[k]);
			EXPECT(&c, "the gap reported before it", lost, got.lost[k]);
			lost = 0;
			k++;
		}
	}
	case_end(&c);
}

static void test_delimiters(void)
{
	struct tcase c = case_begin("decoder: one damaged delimiter or an inserted 00 costs one frame");
	uint8_t a[512], b[512], d[512];
	int na, nb, nd;

	dec_init();
	na = make_frame(a, sizeof(a), 1, false);
	nb = make_frame(b, sizeof(b), 2, false);
	nd = make_frame(d, sizeof(d), 3, false);
	a[na - 1] = 0x01;			/* frame 1's closing 00 (to text, see below) */
	b[nb / 2] = 0;				/* a 00 in the middle of frame 2 */
	tp_deframer__feed(&dec, a, (size_t)na);
	tp_deframer__feed(&dec, "text\n", 5);
	tp_deframer__feed(&dec, b, (size_t)nb);
	tp_deframer__feed(&dec, d, (size_t)nd);
	EXPECT(&c, "one frame through", 1, got.n);
	EXPECT(&c, "it is frame 3", 3, got.seq[0]);
	EXPECT(&c, "2 lost before it (and frame 0, never sent)", 3, got.lost[0]);
	EXPECT_TRUE(&c, "bad chunks counted", dec.st.bad >= 2);
	EXPECT(&c, "nothing recovered", 0, dec.st.recovered);
	/* a closing 00 turned into text, console text after it: the frame itself is intact */
	dec_init();
	a[na - 1] = 'x';
	tp_deframer__feed(&dec, a, (size_t)na);
	tp_deframer__feed(&dec, "text\n", 5);
	tp_deframer__feed(&dec, d, (size_t)nd);
	EXPECT(&c, "a closing 00 turned to text before a line: both frames", 2, got.n);
	EXPECT(&c, "the first recovered", 1, got.recovered[0]);
	EXPECT(&c, "the garbled delimiter goes with the text", 0, strcmp(got.text, "xtext\n"));
	case_end(&c);
}

static void session(uint8_t type, uint16_t seq)
{
	uint8_t buf[64];
	int n = tp_frame__encode(buf, sizeof(buf), type, seq, "x", 1);

	tp_deframer__feed(&dec, buf, (size_t)n);
}

static void test_sequence(void)
{
	struct tcase c = case_begin("decoder: sequence wrap, END duplicates, new sessions");

	dec_init();
	for (uint32_t i = 0; i < 70000; i++)
		session(i ? TP_FRAME_DATA : TP_FRAME_HELLO, (uint16_t)i);
	EXPECT(&c, "no loss across the 16-bit wrap", 0, dec.st.lost);
	session(TP_FRAME_END, (uint16_t)70000);
	session(TP_FRAME_END, (uint16_t)70001);
	EXPECT(&c, "an END's duplicate is no loss", 0, dec.st.lost);
	session(TP_FRAME_HELLO, 0);
	session(TP_FRAME_DATA, 1);
	EXPECT(&c, "a new session after END", 0, dec.st.lost);
	EXPECT(&c, "no restart counted", 0, dec.st.restarts);
	session(TP_FRAME_END, 3);			/* lost frame 2, then END */
	EXPECT(&c, "lost before END", 1, dec.st.lost);
	session(TP_FRAME_DATA, 4);			/* new session lost HELLO .. 3 */
	EXPECT(&c, "a new session without its start", 5, dec.st.lost);
	session(TP_FRAME_DATA, 5);
	session(TP_FRAME_HELLO, 0);			/* sender restarted without END */
	EXPECT(&c, "a restart is counted as such", 1, dec.st.restarts);
	EXPECT(&c, "and not as a loss", 5, dec.st.lost);
	session(TP_FRAME_DATA, 2);			/* first END lost, duplicate kept */
	session(TP_FRAME_END, 4);
	EXPECT(&c, "the first END lost, the duplicate arrives", 7, dec.st.lost);
	case_end(&c);
}

static void test_text_paths(void)
{
	struct tcase c = case_begin("decoder: idle flush of text only, over-long text, marker after a prompt");
	char line[400];
	uint8_t big[5000];
	int n;

	dec_init();
	tp_deframer__feed(&dec, "login: ", 7);
	EXPECT(&c, "a prompt is held while a frame could follow", 0, got.text_len);
	tp_deframer__idle(&dec);
	EXPECT(&c, "and handed out when the line goes idle", 0, strcmp(got.text, "login: "));
	memset(big, 'a', sizeof(big));
	tp_deframer__feed(&dec, big, sizeof(big));
	tp_deframer__idle(&dec);
	EXPECT(&c, "text longer than any frame passes through", 7 + sizeof(big), got.text_len);
	dec_init();
	n = tp_frame__encode(big, sizeof(big), TP_FRAME_DATA, 0, "abc", 3);
	tp_deframer__feed(&dec, big, 3);
	tp_deframer__idle(&dec);
	tp_deframer__feed(&dec, big + 3, (size_t)n - 3);
	EXPECT(&c, "a pause inside a binary frame does not cut it", 1, got.n);
	n = tp_frame__encode_text((char *)big, sizeof(big), TP_FRAME_DATA, 1, "abc", 3);
	tp_deframer__feed(&dec, big, 6);
	tp_deframer__idle(&dec);
	tp_deframer__feed(&dec, big + 6, (size_t)n - 6);
	EXPECT(&c, "nor inside a text frame", 2, got.n);
	EXPECT(&c, "and neither became text", 0, got.text_len);
	dec_init();
	memcpy(line, "# ", 2);
	n = tp_frame__encode_text(line + 2, sizeof(line) - 2, TP_FRAME_DATA, 0, "payload", 7);
	line[n + 1] = '\r';			/* as ONLCR sends it */
	line[n + 2] = '\n';
	tp_deframer__feed(&dec, line, (size_t)n + 3);
	EXPECT(&c, "the frame after the prompt", 1, got.n);
	EXPECT(&c, "its payload length", 7, got.len[0]);
	EXPECT(&c, "the prompt as text", 0, strcmp(got.text, "# "));
	memcpy(line + 10, "!!", 2);		/* damage inside the base64 */
	tp_deframer__feed(&dec, line, (size_t)n + 3);
	EXPECT(&c, "a damaged text frame is dropped", 1, got.n);
	EXPECT(&c, "and counted", 1, dec.st.bad);
	case_end(&c);
}

/* ---- console text spliced into frames (printk on a UART shared with the kernel console) ---- */

static const char kline[] = "[   12.345678] some message\r\n";

/* frame i with text pieces inserted at byte offsets of its wire form (between its
 * delimiters); pieces in order of offset */
static size_t spliced(uint8_t *out, unsigned i, const size_t *at, const char *const *piece,
		      int np, uint32_t *payload_crc, bool text_payload)
{
	uint8_t buf[600], payload[300];
	size_t len = 20 + (i * 53) % 260, o = 0, from = 0;
	int n;

	for (size_t k = 0; k < len; k++)
		payload[k] = (uint8_t)(k ? rnd() : i);
	if (i % 3 == 0 && text_payload)	/* looking like text, as strings in a recording do */
		for (size_t k = 1; k < len; k++)
			payload[k] = (uint8_t)(' ' + rnd() % 95);
	*payload_crc = tp_crc32(0, payload, len);
	n = tp_frame__encode(buf, sizeof(buf), TP_FRAME_DATA, (uint16_t)i, payload, len);
	for (int p = 0; p < np; p++) {
		/* after the opening 00 up to the closing one; (size_t)-1: right before that */
		size_t a = at[p] == (size_t)-1 ? (size_t)n - 1 : 1 + at[p] % (size_t)(n - 1);

		if (a < from)
			a = from;
		memcpy(out + o, buf + from, a - from);
		o += a - from;
		memcpy(out + o, piece[p], strlen(piece[p]));
		o += strlen(piece[p]);
		from = a;
	}
	memcpy(out + o, buf + from, (size_t)n - from);
	return o + (size_t)n - from;
}

static void test_splice(void)
{
	struct tcase c = case_begin("decoder: kernel lines spliced into frames are taken out, "
				    "the frames recovered");
	const char *one[] = { kline }, *two[] = { kline, "[   12.400001] another one\n" };
	const char *split[] = { "[   12.345678] some mes", "sage\r\n" };
	uint8_t out[2048];
	char expect[256];
	uint32_t pcrc;
	unsigned i = 0;

	/* start, middle, end, two lines, one line in two pieces (inside, and at both ends) */
	for (int where = 0; where < 6; where++) {
		for (unsigned rep = 0; rep < 40; rep++, i++) {
			size_t at[2], n;
			const char *const *pc = one;
			int np = 1;

			dec_init();
			switch (where) {
			case 0: at[0] = 0; break;			/* right after the 00 */
			case 1: at[0] = 3 + rnd() % 400; break;		/* anywhere inside */
			case 2: at[0] = (size_t)-1; break;		/* right before the 00 */
			case 3: at[0] = 3 + rnd() % 100; at[1] = at[0] + 5 + rnd() % 100;
				pc = two; np = 2; break;
			case 4: case 5:
				at[0] = where == 4 ? 2 + rnd() % 80 : 0;
				at[1] = where == 4 ? at[0] + 3 + rnd() % 100 : (size_t)-1;
				pc = split; np = 2; break;
			}
			/* a line cut in two is found in frames of binary data; in frames full of
			 * text-looking bytes, where either piece's ends are, is too many guesses */
			n = spliced(out, i, at, pc, np, &pcrc, where < 4);
			tp_deframer__feed(&dec, out, n);
			tp_deframer__end(&dec);
			snprintf(expect, sizeof(expect), "%s%s", pc[0], np > 1 ? pc[1] : "");
			EXPECT(&c, "the frame arrives", 1, got.n);
			EXPECT(&c, "its seq", (uint16_t)i, got.seq[0]);
			EXPECT(&c, "its payload", pcrc, got.crc[0]);
			EXPECT(&c, "counted as recovered", 1, dec.st.recovered);
			EXPECT(&c, "marked as recovered", 1, got.recovered[0]);
			EXPECT(&c, "nothing bad", 0, dec.st.bad);
			EXPECT(&c, "the text comes back, in order", 0, strcmp(got.text, expect));
			if (c.failed) {
				printf("  (case %d, repetition %u)\n", where, rep);
				break;
			}
		}
	}
	case_end(&c);
}

/* Frames damaged inside (1 to 3 bytes), half of them with a kernel line spliced in too, and
 * text between them: recovery must not turn any of them into a frame. */
static void test_no_false_recovery(void)
{
	struct tcase c = case_begin("decoder: 20000 damaged frames with console text in and "
				    "around them: no false recovery");
	static uint8_t out[2048];
	uint8_t buf[600], payload[300];
	uint64_t text = 0;

	dec_init();
	for (unsigned i = 0; i < 20000; i++) {
		size_t len = 1 + rnd() % 280, o = 0, at;
		int n, nd = 1 + (int)(rnd() % 3);

		for (size_t k = 0; k < len; k++)
			payload[k] = (uint8_t)(i % 2 ? ' ' + rnd() % 95 : rnd());
		n = tp_frame__encode(buf, sizeof(buf), TP_FRAME_DATA, (uint16_t)i, payload, len);
		for (int k = 0; k < nd; k++)		/* inside: both delimiters stay */
			buf[1 + rnd() % (unsigned)(n - 2)] ^= (uint8_t)(1 + rnd() % 255);
		at = 1 + rnd() % (unsigned)(n - 1);
		memcpy(out, buf, at);
		o = at;
		if (rnd() % 2) {
			memcpy(out + o, kline, sizeof(kline) - 1);
			o += sizeof(kline) - 1;
			text += sizeof(kline) - 1;
		}
		memcpy(out + o, buf + at, (size_t)n - at);
		o += (size_t)n - at;
		tp_deframer__feed(&dec, out, o);
		if (i % 4 == 0)
			tp_deframer__feed(&dec, "[    1.000000] between\n", 23);
	}
	tp_deframer__end(&dec);
	printf("  (%" PRIu64 " bad chunks, %" PRIu64 " text bytes)\n", dec.st.bad, dec.st.text_bytes);
	EXPECT(&c, "no frame", 0, got.n);
	EXPECT(&c, "none recovered", 0, dec.st.recovered);
	EXPECT_TRUE(&c, "damage counted", dec.st.bad >= 20000);
	case_end(&c);
}

int main(void)
{
	test_crc();
	test_cobs();
	test_hello();
	test_encode_bounds();
	test_clean(false);
	test_clean(true);
	test_corruption(false, 10);
	test_corruption(false, 2);
	test_corruption(true, 10);
	test_delimiters();
	test_sequence();
	test_text_paths();
	test_splice();
	test_no_false_recovery();
	return check_summary("test-framing");
}
