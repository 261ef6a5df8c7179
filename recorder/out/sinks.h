/* SPDX-License-Identifier: MIT */
/* The recorder's stream outputs besides files and stdout: a TCP connection (either side
 * connects) and a serial line. Each is a struct tp_sink for the pipe-mode writer, opened
 * from the -o argument and closed once the writer is done:
 *
 *   tcp://HOST:PORT               connect to `tinyperf recv` (numeric IPv4 or [IPv6])
 *   tcp-listen://[ADDR]:PORT      wait for `tinyperf recv --connect` (default 0.0.0.0)
 *   serial:DEV[,BAUD][,text][,frame=N]
 *                                 make DEV raw at BAUD (default: leave the speed) and send
 *                                 frames (perfdata/framing.h); "text" sends base64 lines
 *                                 instead and leaves the tty alone; DEV "-" is stdout;
 *                                 N data bytes a frame (default 240): smaller frames lose
 *                                 less to each damaged byte on a noisy line
 *
 * Both send a hello first (device name, session id, version), so one receiver can tell
 * devices and runs apart. Errors come back as -errno with a one-line reason in err. */
#ifndef TINYPERF_RECORDER_OUT_SINKS_H
#define TINYPERF_RECORDER_OUT_SINKS_H

#include "libc-shim/types.h"
#include "perfdata/framing.h"
#include "perfdata/sink.h"

/* the hello of this run: hostname, a fresh session id, our version */
void rec_hello__init(struct tp_hello *h);

/* ---- TCP ---- */

struct sink_tcp {
	struct tp_sink sink;
	int fd;
	char peer[64];			/* "192.0.2.1:5000", "[::1]:5000" */
	char bye[96];			/* why recv closed the connection (TP_BYE_MAGIC) */
};

bool sink_tcp__is(const char *spec);
/* connects (retrying `retries` more times, a second apart, while nobody listens) or listens
 * and accepts one connection; prints what it waits for unless quiet; sends the hello */
int sink_tcp__open(struct sink_tcp *s, const char *spec, const struct tp_hello *h,
		   unsigned retries, bool quiet, char *err, size_t errlen);
void sink_tcp__close(struct sink_tcp *s);

/* ---- serial ---- */

#define SINK_SERIAL_PAYLOAD	240	/* data per frame: 250 bytes on the wire, one COBS block */
#define SINK_SERIAL_TEXT_PAYLOAD 90	/* data per text line: 133 characters */
#define SINK_SERIAL_HEAD_MAX	8192	/* pipe header + HEADER_ATTR records kept for repeats */
#define SINK_SERIAL_HEAD_PIECE	48	/* head bytes a HEAD frame: small, so that even a very
					 * noisy line gets each piece through in a few repeats */
#define SINK_SERIAL_REPEAT_MS	2000	/* HELLO and HEAD again this often ... */
#define SINK_SERIAL_FAST_REPEAT_MS 250	/* ... after this often for the first 16 repeats: with
					 * 1 % of the bytes garbled, a HEAD frame gets through
					 * 55 % of the time, and the session starts once each of
					 * its ~7 pieces did; 17 copies leave 1 in 100,000 short
					 * recordings unstarted, 9 left 1 in 200 (CI) */
#define SINK_SERIAL_FAST_REPEAT_BYTES 2880	/* ... or after this many bytes on the wire, what
					 * 115200 baud carries in 250 ms: a burst written faster
					 * than the line drains it still holds its share of
					 * copies (timed alone, a 4 s recording at 1 % sent 8) */
#define SINK_SERIAL_FAST_REPEATS 16

struct sink_serial {
	struct tp_sink sink;
	int fd;
	bool text;
	bool restore;			/* termios to put back at close */
	struct tp_termios saved;
	uint32_t tag;			/* crc32 of the session id, in every HEAD piece */
	uint16_t seq;
	uint32_t frames;
	int err;
	/* where records start: the stream is parsed just enough to cut frames there */
	bool started;			/* the 16-byte pipe header went by */
	bool in_head;			/* still in pipe header + HEADER_ATTR records */
	uint32_t cur_type;		/* the current record's type */
	uint64_t left;			/* bytes of the current record still to come */
	uint8_t hdr[16];		/* the next record's first bytes, until its size is known */
	unsigned have;
	/* the hello line and the head, and the DATA frame being filled */
	uint8_t head[TP_HELLO_MAX + SINK_SERIAL_HEAD_MAX];
	size_t head_len, hello_len;
	int64_t last_repeat_ms;
	unsigned repeats;
	unsigned since_repeat;		/* bytes on the wire since the last HELLO and HEAD */
	size_t max_payload;
	uint16_t dseq;			/* DATA frame number (a copy keeps it) */
	uint16_t first;
	bool meta;			/* the frame holds more than samples: send it twice */
	size_t len;
	uint8_t payload[4 + SINK_SERIAL_PAYLOAD];
	uint8_t wire[TP_FRAME_TEXT_SIZE(TP_HELLO_MAX)];	/* the largest frame: a text HELLO */
};

bool sink_serial__is(const char *spec);
int sink_serial__open(struct sink_serial *s, const char *spec, const struct tp_hello *h,
		      char *err, size_t errlen);
/* the last DATA frame, END (twice), the tty as it was; 0 or the first -errno */
int sink_serial__close(struct sink_serial *s);

#endif
