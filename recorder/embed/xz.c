/* SPDX-License-Identifier: MIT */
/* One-shot .xz (LZMA2) decoder (xz.h), from the .xz format specification and the LZMA/LZMA2
 * descriptions. The stream: a 12-byte header, blocks, an index, a 12-byte footer; a block: a
 * header (its filters: LZMA2 only here), LZMA2 chunks, padding, the check. */
#include "libc-shim/shim.h"
#include "recorder/embed/xz.h"

#define BAD		(-TP_EBADMSG)
#define LZMA2_ID	0x21

/* offsets of the probability arrays in xz_work.probs */
#define P_MATCH		0		/* [state 12][pos_state 16] */
#define P_REP		192		/* [state] */
#define P_REP0		204
#define P_REP1		216
#define P_REP2		228
#define P_REP0_LONG	240		/* [state][pos_state] */
#define P_SLOT		432		/* [len_state 4][64] */
#define P_SPECIAL	688		/* 114: distances 4..127 */
#define P_ALIGN		802		/* 16 */
#define P_MATCH_LEN	818		/* a length coder: choice, choice2, low[16][8], mid[16][8], high[256] */
#define P_REP_LEN	1332
#define P_LITERAL	1846		/* [0x300 << (lc + lp)] */
#define LEN_SIZE	514
_Static_assert(P_REP_LEN + LEN_SIZE == P_LITERAL, "probability layout");

/* ---- checks ---- */

static void tables(struct xz_work *w)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		uint64_t d = i;

		for (int k = 0; k < 8; k++) {
			c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1)));
			d = d >> 1 ^ (0xC96C5795D7870F42ULL & (0ULL - (d & 1)));
		}
		w->crc32[i] = c;
		w->crc64[i] = d;
	}
	w->tables = true;
}

/* with no table (headers, the index: a few bytes), bit by bit */
static uint32_t crc32(const uint32_t *t, const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;

	while (n--) {
		if (t) {
			c = t[(c ^ *p++) & 0xff] ^ c >> 8;
			continue;
		}
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return ~c;
}

static uint64_t crc64(const uint64_t *t, const uint8_t *p, size_t n)
{
	uint64_t c = ~0ULL;

	while (n--)
		c = t[(c ^ *p++) & 0xff] ^ c >> 8;
	return ~c;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* a variable-length integer at in[*pos], before end: false if cut, too long or not minimal */
static bool vli(const uint8_t *in, size_t end, size_t *pos, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < 9 && *pos < end; i++) {
		uint8_t b = in[(*pos)++];

		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			return !(i && !b);
		}
	}
	return false;
}

/* ---- the stream: header, footer, index ---- */

struct stream {
	size_t index, end;		/* offsets of the index and of the footer */
	uint8_t check;			/* check type: 0 none, 1 CRC32, 4 CRC64 */
	uint64_t nr_blocks, total;	/* index records, their uncompressed bytes */
};

static const uint8_t magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

static int stream_parse(const uint8_t *in, size_t len, struct stream *s)
{
	const uint8_t *f;
	uint64_t back;
	size_t pos;

	while (len >= 24 && len % 4 == 0 && !le(in + len - 4, 4))
		len -= 4;	/* stream padding */
	if (len < 24 || len % 4 || memcmp(in, magic, 6))
		return BAD;
	if (in[6] || in[7] & 0xf0 || crc32(NULL, in + 6, 2) != le(in + 8, 4))
		return BAD;
	s->check = in[7];
	if (s->check != 0 && s->check != 1 && s->check != 4)
		return -TP_ENOSYS;	/* SHA-256 and reserved ones */
	f = in + len - 12;
	if (f[10] != 'Y' || f[11] != 'Z' || memcmp(f + 8, in + 6, 2) ||
	    crc32(NULL, f + 4, 6) != le(f, 4))
		return BAD;
	back = (le(f + 4, 4) + 1) * 4;
	if (back > len - 24)
		return BAD;
	s->end = len - 12;
	s->index = s->end - (size_t)back;
	/* the index: 0, the count, (unpadded, uncompressed) per block, padding, CRC32 */
	pos = s->index + 1;
	if (in[s->index] || !vli(in, s->end, &pos, &s->nr_blocks))
		return BAD;
	s->total = 0;
	for (uint64_t i = 0; i < s->nr_blocks; i++) {
		uint64_t unpadded, size;

		if (!vli(in, s->end, &pos, &unpadded) || !vli(in, s->end, &pos, &size) ||
		    unpadded < 5 || unpadded > len)
			return BAD;
		if (size > XZ_OUT_MAX || (s->total += size) > XZ_OUT_MAX)
			return -TP_EFBIG;
	}
	while (pos % 4)
		if (pos >= s->end || in[pos++])
			return BAD;
	if (pos + 4 != s->end || crc32(NULL, in + s->index, pos - s->index) != le(in + pos, 4))
		return BAD;
	return 0;
}

long xz__size(const uint8_t *in, size_t len)
{
	struct stream s;
	int err = stream_parse(in, len, &s);

	return err ? err : (long)s.total;
}

/* ---- LZMA: the range decoder and the literal/match/rep state machine ---- */

struct lz {
	uint16_t *p;
	const uint8_t *in;
	size_t in_pos, in_end;
	uint8_t *out;
	size_t pos, start;		/* the write position; the last dictionary reset */
	uint32_t range, code, rep[4];
	unsigned state, lc, lp, pb;
	bool cut;			/* read past the chunk */
};

static inline void norm(struct lz *z)
{
	if (z->range < (1u << 24)) {
		z->range <<= 8;
		z->code <<= 8;
		if (z->in_pos < z->in_end)
			z->code |= z->in[z->in_pos++];
		else
			z->cut = true;
	}
}

static inline unsigned bit(struct lz *z, uint16_t *p)
{
	uint32_t bound;

	norm(z);
	bound = (z->range >> 11) * *p;
	if (z->code < bound) {
		z->range = bound;
		*p = (uint16_t)(*p + ((2048 - *p) >> 5));
		return 0;
	}
	z->range -= bound;
	z->code -= bound;
	*p = (uint16_t)(*p - (*p >> 5));
	return 1;
}

/* n bits, most significant first, through a tree of probabilities */
static unsigned tree(struct lz *z, uint16_t *p, unsigned n)
{
	unsigned m = 1;

	for (unsigned i = 0; i < n; i++)
		m = m << 1 | bit(z, p + m);
	return m - (1u << n);
}

/* n bits, least significant first */
static unsigned rtree(struct lz *z, uint16_t *p, unsigned n)
{
	unsigned m = 1, r = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned b = bit(z, p + m);

		m = m << 1 | b;
		r |= b << i;
	}
	return r;
}

/* n bits of equal probability */
static uint32_t direct(struct lz *z, unsigned n)
{
	uint32_t r = 0;

	while (n--) {
		norm(z);
		z->range >>= 1;
		r <<= 1;
		if (z->code >= z->range) {
			z->code -= z->range;
			r |= 1;
		}
	}
	return r;
}

/* a match length minus 2: 0..271 */
static unsigned length(struct lz *z, uint16_t *l, unsigned ps)
{
	if (!bit(z, l))
		return tree(z, l + 2 + ps * 8, 3);
	if (!bit(z, l + 1))
		return 8 + tree(z, l + 130 + ps * 8, 3);
	return 16 + tree(z, l + 258, 8);
}

static uint32_t distance(struct lz *z, unsigned len)
{
	unsigned slot = tree(z, z->p + P_SLOT + 64 * (len < 3 ? len : 3), 6), nd;
	uint32_t d;

	if (slot < 4)
		return slot;
	nd = (slot >> 1) - 1;
	d = (2u | (slot & 1)) << nd;
	if (slot < 14)
		return d + rtree(z, z->p + P_SPECIAL + d - slot - 1, nd);
	d += direct(z, nd - 4) << 4;
	return d + rtree(z, z->p + P_ALIGN, 4);
}

static void lzma_reset(struct lz *z)
{
	uint32_t n = P_LITERAL + (0x300u << (z->lc + z->lp));

	for (uint32_t i = 0; i < n; i++)
		z->p[i] = 1024;
	z->state = 0;
	memset(z->rep, 0, sizeof(z->rep));
}

static void literal(struct lz *z)
{
	unsigned prev = z->pos > z->start ? z->out[z->pos - 1] : 0, sym = 1;
	uint16_t *p = z->p + P_LITERAL + 0x300 * (((z->pos & ((1u << z->lp) - 1)) << z->lc) +
						  (prev >> (8 - z->lc)));

	if (z->state < 7) {
		while (sym < 0x100)
			sym = sym << 1 | bit(z, p + sym);
	} else {	/* after a match: guided by the byte at rep0 (checked in range by the caller) */
		unsigned mb = z->out[z->pos - z->rep[0] - 1], offs = 0x100;

		while (sym < 0x100) {
			unsigned mbit, b;

			mb <<= 1;
			mbit = mb & offs;
			b = bit(z, p + offs + mbit + sym);
			sym = sym << 1 | b;
			offs &= b ? mbit : ~mbit;
		}
	}
	z->out[z->pos++] = (uint8_t)sym;
	z->state = z->state < 4 ? 0 : z->state < 10 ? z->state - 3 : z->state - 6;
}

/* symbols until out[end]: 0 or BAD (a distance before the dictionary, a match past end) */
static int lzma_run(struct lz *z, size_t end)
{
	unsigned pbm = (1u << z->pb) - 1;

	while (z->pos < end) {
		unsigned ps = (unsigned)z->pos & pbm, s = z->state, len;

		if (!bit(z, z->p + P_MATCH + s * 16 + ps)) {
			if (s >= 7 && z->rep[0] >= z->pos - z->start)
				return BAD;
			literal(z);
			continue;
		}
		if (!bit(z, z->p + P_REP + s)) {
			len = length(z, z->p + P_MATCH_LEN, ps);
			z->rep[3] = z->rep[2];
			z->rep[2] = z->rep[1];
			z->rep[1] = z->rep[0];
			z->rep[0] = distance(z, len);
			z->state = s < 7 ? 7 : 10;
		} else if (!bit(z, z->p + P_REP0 + s)) {
			if (!bit(z, z->p + P_REP0_LONG + s * 16 + ps)) {	/* one byte at rep0 */
				if (z->rep[0] >= z->pos - z->start)
					return BAD;
				z->out[z->pos] = z->out[z->pos - z->rep[0] - 1];
				z->pos++;
				z->state = s < 7 ? 9 : 11;
				continue;
			}
			len = length(z, z->p + P_REP_LEN, ps);
			z->state = s < 7 ? 8 : 11;
		} else {
			uint32_t d;

			if (!bit(z, z->p + P_REP1 + s)) {
				d = z->rep[1];
			} else {
				if (!bit(z, z->p + P_REP2 + s)) {
					d = z->rep[2];
				} else {
					d = z->rep[3];
					z->rep[3] = z->rep[2];
				}
				z->rep[2] = z->rep[1];
			}
			z->rep[1] = z->rep[0];
			z->rep[0] = d;
			len = length(z, z->p + P_REP_LEN, ps);
			z->state = s < 7 ? 8 : 11;
		}
		len += 2;
		/* (the end marker, distance 2^32 - 1, fails here too: LZMA2 has none) */
		if (z->rep[0] >= z->pos - z->start || len > end - z->pos)
			return BAD;
		for (const uint8_t *from = z->out + z->pos - z->rep[0] - 1; len--;)
			z->out[z->pos++] = *from++;
	}
	return 0;
}

/* ---- LZMA2 chunks ---- */

/* the chunks of one block from in[0, len) into out[0, out_len): bytes written, or <0;
 * *used: the compressed bytes, end mark included */
static long lzma2(struct xz_work *w, const uint8_t *in, size_t len, size_t *used, uint8_t *out,
		  size_t out_len)
{
	struct lz z = { .p = w->probs, .in = in, .out = out };
	bool need_dict = true, need_props = true;
	size_t i = 0;

	for (;;) {
		size_t un, cn;
		unsigned c, reset;
		int err;

		if (i >= len)
			return BAD;
		c = in[i++];
		if (!c)
			break;
		if (c == 1 || c == 2) {		/* stored, with or without a dictionary reset */
			if (c == 1)
				z.start = z.pos;
			else if (need_dict)
				return BAD;
			need_dict = false;
			if (len - i < 2)
				return BAD;
			un = (size_t)(in[i] << 8 | in[i + 1]) + 1;
			i += 2;
			if (un > len - i || un > out_len - z.pos)
				return BAD;
			memcpy(out + z.pos, in + i, un);
			z.pos += un;
			i += un;
			continue;
		}
		if (c < 0x80 || len - i < 4)
			return BAD;
		un = ((size_t)(c & 0x1f) << 16 | (size_t)in[i] << 8 | in[i + 1]) + 1;
		cn = (size_t)(in[i + 2] << 8 | in[i + 3]) + 1;
		i += 4;
		reset = c >> 5 & 3;	/* 0 none, 1 state, 2 state + props, 3 all + dictionary */
		if (reset == 3)
			z.start = z.pos;
		else if (need_dict)
			return BAD;
		need_dict = false;
		if (reset >= 2) {
			unsigned pr;

			if (i >= len || (pr = in[i++]) >= 9 * 5 * 5)
				return BAD;
			z.lc = pr % 9;
			z.lp = pr / 9 % 5;
			z.pb = pr / 45;
			if (z.lc + z.lp > 4)
				return BAD;
			need_props = false;
		} else if (need_props) {
			return BAD;
		}
		if (reset)
			lzma_reset(&z);
		if (cn > len - i || un > out_len - z.pos || cn < 5 || in[i])
			return BAD;
		z.code = (uint32_t)in[i + 1] << 24 | (uint32_t)in[i + 2] << 16 | (uint32_t)in[i + 3] << 8 |
			 in[i + 4];
		z.range = ~0u;
		z.in_pos = i + 5;
		z.in_end = i + cn;
		err = lzma_run(&z, z.pos + un);
		if (err)
			return err;
		norm(&z);	/* the encoder flushed what a last normalization reads */
		if (z.cut || z.in_pos != z.in_end || z.code)
			return BAD;
		i += cn;
	}
	*used = i;
	return (long)z.pos;
}

long xz__lzma2(struct xz_work *w, const uint8_t *in, size_t len, uint8_t *out, size_t out_len)
{
	size_t used;
	long n = lzma2(w, in, len, &used, out, out_len);

	return n >= 0 && used != len ? BAD : n;
}

/* ---- blocks ---- */

/* the block at in[*pos], before the index, into out[0, room): its uncompressed size or <0 */
static long block(struct xz_work *w, const uint8_t *in, const struct stream *s, size_t *pos,
		  uint8_t *out, size_t room, uint64_t *unpadded)
{
	size_t at = *pos, hsize, q, used, csize = s->check ? (s->check == 1 ? 4 : 8) : 0;
	uint64_t comp = 0, size = 0, id, props;
	uint8_t flags;
	long n;

	if (at >= s->index || !in[at])
		return BAD;
	hsize = (in[at] + 1u) * 4;
	if (hsize > s->index - at || crc32(NULL, in + at, hsize - 4) != le(in + at + hsize - 4, 4))
		return BAD;
	flags = in[at + 1];
	q = at + 2;
	if (flags & 0x3c || (flags & 0x40 && !vli(in, at + hsize - 4, &q, &comp)) ||
	    (flags & 0x80 && !vli(in, at + hsize - 4, &q, &size)))
		return BAD;
	if (flags & 3)
		return -TP_ENOSYS;	/* a filter chain (BCJ, delta): not here */
	if (!vli(in, at + hsize - 4, &q, &id) || !vli(in, at + hsize - 4, &q, &props))
		return BAD;
	if (id != LZMA2_ID)
		return -TP_ENOSYS;
	if (props != 1 || q >= at + hsize - 4 || in[q++] > 40)
		return BAD;
	while (q < at + hsize - 4)
		if (in[q++])
			return BAD;
	at += hsize;
	n = lzma2(w, in + at, s->index - at, &used, out, room);
	if (n < 0)
		return n;
	if ((flags & 0x40 && comp != used) || (flags & 0x80 && size != (uint64_t)n))
		return BAD;
	*unpadded = hsize + used + csize;
	at += used;
	while ((at - *pos) % 4)
		if (at >= s->index || in[at++])
			return BAD;
	if (csize > s->index - at)
		return BAD;
	if ((s->check == 1 && crc32(w->crc32, out, (size_t)n) != le(in + at, 4)) ||
	    (s->check == 4 && crc64(w->crc64, out, (size_t)n) != le(in + at, 8)))
		return BAD;
	*pos = at + csize;
	return n;
}

long xz__decode(struct xz_work *w, const uint8_t *in, size_t len, uint8_t *out, size_t out_len)
{
	struct stream s;
	size_t pos = 12, ipos, done = 0;
	int err = stream_parse(in, len, &s);

	if (err)
		return err;
	if (s.total > out_len)
		return -TP_EINVAL;
	if (!w->tables)
		tables(w);
	ipos = s.index + 1;
	vli(in, s.end, &ipos, &s.nr_blocks);	/* parsed once already: cannot fail */
	for (uint64_t i = 0; i < s.nr_blocks; i++) {
		uint64_t unpadded, iun = 0, isize = 0;	/* vli leaves them alone on a failure */
		long n;

		vli(in, s.end, &ipos, &iun);
		vli(in, s.end, &ipos, &isize);
		if (isize > s.total - done)
			return BAD;
		n = block(w, in, &s, &pos, out + done, (size_t)isize, &unpadded);
		if (n < 0)
			return n;
		/* the index must describe the blocks as they are */
		if (unpadded != iun || (uint64_t)n != isize)
			return BAD;
		done += (size_t)n;
	}
	return pos == s.index ? (long)done : BAD;
}
