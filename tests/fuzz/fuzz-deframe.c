/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the stream framing decoder alone (perfdata/deframe.c, framing.c), without
 * recv's files around it, so that it runs fast enough to explore the decoder's states: the
 * input is a serial line's bytes, fed in reads whose sizes the first byte gives (1 << (b % 12),
 * bit 7: the line goes idle between reads), then ended. Every frame handed out must hold its
 * payload within TP_FRAME_PAYLOAD_MAX, and the counters must add up to no more than was fed.
 * The same bytes also go through COBS decoding and as a hello line. A frame is at most 1.4 KiB
 * on the wire and a pending run 2 KiB (TP_DEFRAME_CAP): 4 KiB inputs reach every state and keep
 * the runs short.
 * fuzz-options: -max_len=4096 */
#include "tests/fuzz/fuzz.h"

#include "perfdata/framing.h"

static void on_frame(void *ctx, const struct tp_wire_frame *f, uint32_t lost)
{
	(void)ctx;
	if (f->len > TP_FRAME_PAYLOAD_MAX)
		abort();
	for (size_t i = 0; i < f->len; i++)
		sink += f->payload[i];
	sink += f->type + f->seq + lost + f->text + f->recovered;
}

static void on_text(void *ctx, const uint8_t *text, size_t len)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++)
		sink += text[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tp_deframer d;
	static uint8_t out[TP_DEFRAME_CAP];
	const struct tp_deframer_ops ops = { on_frame, on_text, NULL };
	struct tp_hello h;
	size_t chunk;
	long n;

	if (size < 1)
		return 0;
	chunk = (size_t)1 << (data[0] % 12);
	tp_deframer__init(&d, &ops);
	for (size_t off = 1; off < size; off += chunk) {
		tp_deframer__feed(&d, data + off, size - off < chunk ? size - off : chunk);
		if (data[0] & 0x80)
			tp_deframer__idle(&d);
	}
	tp_deframer__end(&d);
	if (d.st.bytes != size - 1 || d.st.bad_bytes + d.st.text_bytes > d.st.bytes)
		abort();
	n = tp_cobs_decode(out, sizeof(out), data + 1, size - 1);
	if (n > (long)sizeof(out))
		abort();
	if (!tp_hello__parse(&h, (const char *)data + 1, size - 1))
		sink += strnlen(h.device, sizeof(h.device)) + strnlen(h.session, sizeof(h.session));
	return 0;
}
