/* SPDX-License-Identifier: MIT */
/* Stream framing for serial lines and the hello line (format in framing.h): the encoders the
 * recorder sends with, and the CRC and COBS both sides use. The decoder is deframe.c. */
#include "libc-shim/shim.h"
#include "perfdata/framing.h"

/* ---- hello ---- */

TP_NOINLINE int tp_hello__format(char *buf, size_t cap, const struct tp_hello *h)
{
	int n = tp_snprintf(buf, cap, TP_HELLO_MAGIC "version=%s session=%s device=%s\n",
			    h->version, h->session, h->device);

	return n < 0 || (size_t)n >= cap ? -TP_ENOSPC : n;
}

/* ---- CRC-32 (IEEE 802.3, reflected 0xedb88320), a nibble at a time: a 64-byte table keeps
 * the recorder small and is fast enough for any serial line ---- */

static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t tp_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

/* ---- COBS ---- */

size_t tp_cobs_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t len)
{
	size_t o = 1, code_at = 0;
	uint8_t code = 1;

	if (!cap)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (in[i]) {
			if (o >= cap)
				return 0;
			out[o++] = in[i];
			code++;
		}
		if (!in[i] || code == 0xff) {
			out[code_at] = code;
			code = 1;
			if (o >= cap)
				return 0;
			code_at = o++;
		}
	}
	out[code_at] = code;
	return o;
}

long tp_cobs_decode(uint8_t *out, size_t cap, const uint8_t *in, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len) {
		uint8_t code = in[i++];

		if (!code || (size_t)code - 1 > len - i || (size_t)code - 1 > cap - o)
			return -1;
		memcpy(out + o, in + i, code - 1u);
		o += code - 1u;
		i += code - 1u;
		if (code != 0xff && i < len) {
			if (o >= cap)
				return -1;
			out[o++] = 0;
		}
	}
	return (long)o;
}

/* ---- base64 ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t b64_encode(char *out, const uint8_t *in, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		size_t n = len - i < 3 ? len - i : 3;

		if (n > 1)
			v |= (uint32_t)in[i + 1] << 8;
		if (n > 2)
			v |= in[i + 2];
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = n > 1 ? b64[v >> 6 & 63] : '=';
		out[o++] = n > 2 ? b64[v & 63] : '=';
	}
	return o;
}

/* ---- encoders ---- */

/* type, seq, payload, crc into raw; its length */
static size_t frame_raw(uint8_t *raw, uint8_t type, uint16_t seq, const void *payload,
			size_t len)
{
	uint32_t crc;

	raw[0] = type;
	raw[1] = (uint8_t)seq;
	raw[2] = (uint8_t)(seq >> 8);
	if (len)
		memcpy(raw + 3, payload, len);
	crc = tp_crc32(0, raw, len + 3);
	for (int i = 0; i < 4; i++)
		raw[len + 3 + i] = (uint8_t)(crc >> (8 * i));
	return len + TP_FRAME_OVERHEAD;
}

int tp_frame__encode(uint8_t *out, size_t cap, uint8_t type, uint16_t seq,
		     const void *payload, size_t len)
{
	uint8_t raw[TP_FRAME_PAYLOAD_MAX + TP_FRAME_OVERHEAD];
	size_t n;

	if (len > TP_FRAME_PAYLOAD_MAX)
		return -TP_E2BIG;
	if (cap < 3)
		return -TP_ENOSPC;
	n = tp_cobs_encode(out + 1, cap - 2, raw, frame_raw(raw, type, seq, payload, len));
	if (!n)
		return -TP_ENOSPC;
	out[0] = 0;
	out[n + 1] = 0;
	return (int)n + 2;
}

int tp_frame__encode_text(char *out, size_t cap, uint8_t type, uint16_t seq,
			  const void *payload, size_t len)
{
	uint8_t raw[TP_FRAME_PAYLOAD_MAX + TP_FRAME_OVERHEAD];
	size_t n;

	if (len > TP_FRAME_PAYLOAD_MAX)
		return -TP_E2BIG;
	if (cap < TP_FRAME_TEXT_SIZE(len))
		return -TP_ENOSPC;
	n = frame_raw(raw, type, seq, payload, len);
	memcpy(out, TP_FRAME_TEXT_MARKER, 4);
	n = 4 + b64_encode(out + 4, raw, n);
	out[n++] = '\n';
	return (int)n;
}
