/* SPDX-License-Identifier: MIT */
/* The stream formats tinyperf sends to a host, shared by the recorder (encoding) and
 * `tinyperf recv` (decoding):
 *
 *   HELLO  one text line before a TCP stream, and the payload of HELLO frames:
 *          "TPSTREAM1 version=V session=S device=D\n"; device runs to the end of the line.
 *
 *   FRAME  for serial lines, which lose and garble bytes and carry console text too:
 *            00 | COBS( type u8 | seq u16 | payload | crc32 ) | 00
 *          integers little-endian, CRC-32 (IEEE 802.3) over type, seq and payload. Every frame
 *          has a delimiter of its own at both ends, so one damaged delimiter costs one frame,
 *          never two. seq counts every frame of a session from 0 (the first HELLO), so a gap
 *          is exactly the number of frames lost.
 *
 *   TEXT   the same frame for consoles that cannot be made raw: one line
 *            "@TP:" base64( type | seq | payload | crc32 ) "\n"
 *          (canonical mode, ONLCR and line editing leave it alone; base64 costs a third).
 *
 * The decoder takes any mix of the two and everything else on the line: bytes between frames
 * that look like text are handed back as console text, the rest is counted as noise. On a
 * UART shared with the kernel console, printk writes to the port itself and its lines can land
 * INSIDE a binary frame; a frame that fails COBS or its CRC is retried with runs of console
 * text (lines ending in '\n', printk's "[ secs.usecs] " fragments; one or two of them, a
 * bounded number of attempts) taken out, and taken when the CRC-32 then matches. */
#ifndef TINYPERF_PERFDATA_FRAMING_H
#define TINYPERF_PERFDATA_FRAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- hello ---- */

#define TP_HELLO_MAGIC		"TPSTREAM1 "
#define TP_HELLO_MAX		256	/* a longer first line is not a hello */
/* the one line `tinyperf recv` sends back, just before it closes a TCP connection it refuses
 * or drops: TP_BYE_MAGIC, why ("refused this device (...)"), '\n' */
#define TP_BYE_MAGIC		"TPBYE "

struct tp_hello {
	char version[24];
	char session[20];	/* hex */
	char device[72];	/* whatever the device calls itself: untrusted on the host */
};

/* the line with its '\n' into buf; its length, or -TP_ENOSPC */
int tp_hello__format(char *buf, size_t cap, const struct tp_hello *h);
/* a line (without its '\n'; a trailing '\r' is ignored): 0, or -TP_EINVAL when it is not a
 * hello. Fields too long for struct tp_hello are cut. */
int tp_hello__parse(struct tp_hello *h, const char *line, size_t len);

/* ---- frames ---- */

enum tp_frame_type {
	TP_FRAME_HELLO = 1,	/* the hello line, without '\n' */
	TP_FRAME_HEAD = 2,	/* u32 tag, u16 total, u16 offset, bytes: a piece of the session's
				 * head: the hello line, then the stream's pipe header and
				 * HEADER_ATTR records. Sent again now and then, so a receiver that
				 * lost pieces, or joined late, can still start a file; tag (the
				 * CRC-32 of the session id) keeps sessions' pieces apart */
	TP_FRAME_DATA = 3,	/* u16 dseq, u16 first, bytes: the pipe stream after the head.
				 * dseq numbers DATA frames (a frame sent twice keeps it: take
				 * one copy); first is where the first record starting in this
				 * frame begins, TP_FRAME_NO_START if none does (the middle of a
				 * long record) */
	TP_FRAME_END = 4,	/* u32 frames sent before the first END; sent twice */
	TP_FRAME_TYPE_MAX = 4,
};

#define TP_FRAME_NO_START	0xffff
#define TP_FRAME_PAYLOAD_MAX	1024	/* largest payload the decoder accepts */
#define TP_FRAME_OVERHEAD	7	/* type, seq, crc */
/* wire bytes of a binary frame: COBS adds one byte per 254 and one more, plus 2 delimiters */
#define TP_FRAME_WIRE_SIZE(payload) \
	((payload) + TP_FRAME_OVERHEAD + ((payload) + TP_FRAME_OVERHEAD) / 254 + 3)
#define TP_FRAME_TEXT_MARKER	"@TP:"
#define TP_FRAME_TEXT_SIZE(payload) \
	(4 + 4 * (((payload) + TP_FRAME_OVERHEAD + 2) / 3) + 1)

uint32_t tp_crc32(uint32_t crc, const void *buf, size_t len);	/* start with crc = 0 */

/* COBS: the encoding (no delimiters) or 0 if it does not fit in cap; the decoding or -1 when
 * in is not valid COBS or does not fit in cap */
size_t tp_cobs_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t len);
long tp_cobs_decode(uint8_t *out, size_t cap, const uint8_t *in, size_t len);

/* One frame into out: binary (with both delimiters) or a text line. Returns its length,
 * -TP_E2BIG past TP_FRAME_PAYLOAD_MAX, -TP_ENOSPC when cap is too small. */
int tp_frame__encode(uint8_t *out, size_t cap, uint8_t type, uint16_t seq,
		     const void *payload, size_t len);
int tp_frame__encode_text(char *out, size_t cap, uint8_t type, uint16_t seq,
			  const void *payload, size_t len);

/* ---- the streaming decoder ---- */

struct tp_wire_frame {
	uint8_t type;
	uint16_t seq;
	bool text;		/* arrived as a text line */
	bool recovered;		/* arrived with console text spliced into it, taken out */
	const uint8_t *payload;
	size_t len;
};

struct tp_deframer_stats {
	uint64_t bytes;		/* fed */
	uint64_t frames;	/* good frames */
	uint64_t recovered;	/* of them, frames that had console text spliced into their
				 * bytes (printk on a shared UART): the text was taken out and
				 * handed to on_text, the CRC vouches for the rest */
	uint64_t lost;		/* frames missing, by sequence number */
	uint64_t bad;		/* chunks neither a frame nor text: damaged frames, noise */
	uint64_t bad_bytes;
	uint64_t text_bytes;	/* handed to on_text */
	uint64_t restarts;	/* sequence restarts that are not losses (a new sender) */
};

struct tp_deframer_ops {
	/* a good frame; lost: frames missing right before it (sequence gap) */
	void (*on_frame)(void *ctx, const struct tp_wire_frame *f, uint32_t lost);
	/* console text that arrived between frames */
	void (*on_text)(void *ctx, const uint8_t *text, size_t len);
	void *ctx;
};

#define TP_DEFRAME_CAP 2048	/* longest run kept while looking for a frame's end */

struct tp_deframer {
	struct tp_deframer_ops ops;
	struct tp_deframer_stats st;
	uint16_t next_seq;
	bool ended;		/* an END went by: a duplicate END or a new session follows */
	size_t len;		/* bytes of the current run (since the last 00 or frame) */
	size_t line;		/* where the run's current line starts */
	uint8_t run[TP_DEFRAME_CAP];
	uint8_t dec[TP_FRAME_PAYLOAD_MAX + TP_FRAME_OVERHEAD];
	uint8_t cut[TP_DEFRAME_CAP];	/* the run with candidate console text taken out */
};

void tp_deframer__init(struct tp_deframer *d, const struct tp_deframer_ops *ops);
void tp_deframer__feed(struct tp_deframer *d, const void *buf, size_t len);
/* nothing arrived for a while: pending bytes that can only be text (a prompt without a
 * newline) go out now; anything that may be a frame under way waits for its end */
void tp_deframer__idle(struct tp_deframer *d);
/* the input ended: whatever is pending is text or noise */
void tp_deframer__end(struct tp_deframer *d);

#endif
