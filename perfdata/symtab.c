/* SPDX-License-Identifier: MIT */
/* TP_FEAT_SYMTAB encoder and decoder (the layout is in symtab.h). */
#include "libc-shim/shim.h"
#include "perfdata/bswap.h"
#include "perfdata/symtab.h"

/* ---- encoder ---- */

static void put_uleb(struct tp_fbuf *f, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		b[n++] |= v ? 0x80 : 0;
	} while (v);
	tp_fbuf__bytes(f, b, n);
}

void tp_symtab_enc__init(struct tp_symtab_enc *e, struct tp_fbuf *out, uint8_t shift,
			 char *str, size_t str_cap, uint32_t *hash, uint32_t hash_slots)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
	e->str = str;
	e->str_cap = str_cap;
	e->hash = hash;
	e->hash_mask = hash_slots - 1;
	memset(hash, 0, hash_slots * sizeof(*hash));
	tp_fbuf__u32(out, TP_SYMTAB_MAGIC);
	tp_fbuf__bytes(out, (uint8_t[2]){ TP_SYMTAB_VERSION, shift }, 2);
	tp_fbuf__u16(out, 0);		/* flags, nr_blocks, blocks_len: patched by finish */
	tp_fbuf__u32(out, 0);
	tp_fbuf__u32(out, 0);
	if (str_cap)
		e->str[e->str_len++] = '\0';	/* offset 0: "" */
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

uint32_t tp_symtab_enc__str(struct tp_symtab_enc *e, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t i, off;

	for (i = hash_str(s) & e->hash_mask; e->hash[i]; i = (i + 1) & e->hash_mask)
		if (!strcmp(e->str + e->hash[i] - 1, s))
			return e->hash[i] - 1;
	if (n > e->str_cap - e->str_len || e->str_len >= 0x7fffffff)
		return (uint32_t)-1;
	off = (uint32_t)e->str_len;
	memcpy(e->str + off, s, n);
	e->str_len += n;
	/* the index stays at most half full (probes end); past that, no more sharing */
	if (2 * (e->hash_used + 1) <= e->hash_mask + 1) {
		e->hash[i] = off + 1;
		e->hash_used++;
	}
	return off;
}

/* the blocks and the strings must fit the section together (+ 7 bytes of padding) */
static int room(const struct tp_symtab_enc *e)
{
	if (e->out->err)
		return e->out->err;
	return e->out->len + e->str_len + 7 > e->out->cap ? -TP_ENOSPC : 0;
}

int tp_symtab_enc__block(struct tp_symtab_enc *e, const struct tp_symtab_block *b,
			 uint32_t nr)
{
	uint32_t name;
	uint8_t id_len = b->id_type == TP_SYMTAB_ID_TEXT_HASH ? 8 :
			 b->id_type == TP_SYMTAB_ID_BUILD_ID ? TP_MIN(b->id_len, TP_SYMTAB_ID_MAX) : 0;

	if (e->open)
		return -TP_EINVAL;
	e->blk_start = e->out->len;
	e->blk_str = e->str_len;
	e->blk_nr = e->nr_blocks;
	name = tp_symtab_enc__str(e, b->name);
	if (name == (uint32_t)-1)
		return -TP_ENOSPC;
	tp_fbuf__bytes(e->out, (uint8_t[4]){ b->kind, b->src, b->id_type, id_len }, 4);
	if (b->id_type == TP_SYMTAB_ID_TEXT_HASH)
		tp_fbuf__u64(e->out, b->text_hash);
	else
		tp_fbuf__bytes(e->out, b->id, id_len);
	put_uleb(e->out, name);
	put_uleb(e->out, nr);
	if (room(e))
		return room(e);
	e->left = nr;
	e->prev = 0;
	e->nr_blocks++;
	e->open = nr != 0;
	return 0;
}

int tp_symtab_enc__sym(struct tp_symtab_enc *e, uint64_t addr, uint64_t size, uint32_t name)
{
	if (!e->left || addr < e->prev)
		return -TP_EINVAL;
	put_uleb(e->out, addr - e->prev);
	put_uleb(e->out, size);
	put_uleb(e->out, name);
	e->prev = addr;
	if (!--e->left)
		e->open = false;
	return room(e);
}

void tp_symtab_enc__drop(struct tp_symtab_enc *e)
{
	/* the strings it added go too; the index forgets everything (linear probing cannot
	 * forget single entries): names added later are not shared with earlier ones, which
	 * only happens once the section is full */
	e->str_len = e->blk_str;
	memset(e->hash, 0, (e->hash_mask + 1) * sizeof(*e->hash));
	e->hash_used = 0;
	e->nr_blocks = e->blk_nr;
	e->open = false;
	e->out->len = e->blk_start;
	e->out->err = 0;
	e->left = 0;
	e->flags |= TP_SYMTAB_F_INCOMPLETE;
}

static void patch32(struct tp_fbuf *f, size_t at, uint32_t v)
{
	if (f->swap)
		v = tp_bswap32(v);
	memcpy(f->buf + at, &v, 4);
}

int tp_symtab_enc__finish(struct tp_symtab_enc *e)
{
	uint32_t blocks_len = (uint32_t)(e->out->len - TP_SYMTAB_HDR);
	uint16_t flags = e->flags;

	if (e->open)
		return -TP_EINVAL;
	if (e->out->err)
		return e->out->err;
	for (size_t off = 0, n; off < e->str_len; off += n) {
		n = TP_MIN(e->str_len - off, (size_t)64 << 10);
		tp_fbuf__bytes(e->out, e->str + off, n);
		if (e->release)
			e->release(e->str + off, n);
	}
	tp_fbuf__pad(e->out, 8);
	if (e->out->err)
		return e->out->err;
	if (e->out->swap)
		flags = tp_bswap16(flags);
	memcpy(e->out->buf + 6, &flags, 2);
	patch32(e->out, 8, e->nr_blocks);
	patch32(e->out, 12, blocks_len);
	return 0;
}

/* ---- decoder ---- */

static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? tp_bswap32(v) : v;
}

#define FAIL(d, why) ((d)->err = (why), -TP_EINVAL)

static int get_uleb(struct tp_symtab_dec *d, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; d->p < d->end; shift += 7) {
		uint8_t b = *d->p++;

		if (shift == 63 && (b & 0x7e))
			return FAIL(d, "a number is wider than 64 bits");
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
		if (shift == 63)
			return FAIL(d, "a number is wider than 64 bits");
	}
	return FAIL(d, "a number runs past the blocks");
}

static int get_str(struct tp_symtab_dec *d, const char **s)
{
	uint64_t off;
	int err = get_uleb(d, &off);

	if (err)
		return err;
	if (off >= d->str_len)
		return FAIL(d, "a name points past the string table");
	*s = d->str + off;
	return 0;
}

int tp_symtab_dec__init(struct tp_symtab_dec *d, const void *data, size_t size, bool swap)
{
	const uint8_t *p = data;
	uint32_t blocks_len;

	memset(d, 0, sizeof(*d));
	d->swap = swap;
	if (size < TP_SYMTAB_HDR)
		return FAIL(d, "shorter than its 16-byte header");
	if (rd32(p, swap) != TP_SYMTAB_MAGIC)
		return FAIL(d, "bad magic (not a tinyperf symbol table, or the wrong byte order)");
	if (p[4] != TP_SYMTAB_VERSION)
		return FAIL(d, "unknown version");
	if (p[5] > 64)
		return FAIL(d, "address granularity over 64 bits");
	d->shift = p[5];
	memcpy(&d->flags, p + 6, 2);
	if (swap)
		d->flags = tp_bswap16(d->flags);
	d->nr_blocks = d->blocks_left = rd32(p + 8, swap);
	blocks_len = rd32(p + 12, swap);
	if (blocks_len > size - TP_SYMTAB_HDR)
		return FAIL(d, "the blocks run past the section");
	d->p = p + TP_SYMTAB_HDR;
	d->end = d->p + blocks_len;
	d->str = (const char *)d->end;
	d->str_len = size - TP_SYMTAB_HDR - blocks_len;
	/* every name must end inside the table: it has to end with a NUL */
	if (d->str_len && d->str[d->str_len - 1])
		return FAIL(d, "the string table does not end with a NUL");
	if (d->nr_blocks > blocks_len / 6)
		return FAIL(d, "more blocks than the section can hold");
	return 0;
}

int tp_symtab_dec__block(struct tp_symtab_dec *d, struct tp_symtab_block *b)
{
	uint64_t nr;
	int err;

	if (d->syms_left)
		return FAIL(d, "the previous block's symbols were not read");
	if (!d->blocks_left) {
		if (d->p != d->end)
			return FAIL(d, "bytes after the last block");
		return 0;
	}
	memset(b, 0, sizeof(*b));
	if (d->end - d->p < 4)
		return FAIL(d, "a block header runs past the blocks");
	b->kind = d->p[0];
	b->src = d->p[1];
	b->id_type = d->p[2];
	b->id_len = d->p[3];
	d->p += 4;
	if (b->kind > TP_SYMTAB_MODULE)
		return FAIL(d, "unknown block kind");
	if (b->id_type > TP_SYMTAB_ID_TEXT_HASH ||
	    (b->id_type == TP_SYMTAB_ID_NONE && b->id_len) ||
	    (b->id_type == TP_SYMTAB_ID_TEXT_HASH && b->id_len != 8) ||
	    (b->id_type == TP_SYMTAB_ID_BUILD_ID && (!b->id_len || b->id_len > TP_SYMTAB_ID_MAX)))
		return FAIL(d, "bad identity type or length");
	if ((size_t)(d->end - d->p) < b->id_len)
		return FAIL(d, "an identity runs past the blocks");
	if (b->id_type == TP_SYMTAB_ID_TEXT_HASH) {
		memcpy(&b->text_hash, d->p, 8);
		if (d->swap)
			b->text_hash = tp_bswap64(b->text_hash);
	} else {
		memcpy(b->id, d->p, b->id_len);
	}
	d->p += b->id_len;
	err = get_str(d, &b->name);
	if (!err)
		err = get_uleb(d, &nr);
	if (err)
		return err;
	/* a symbol takes at least 3 bytes */
	if (nr > (uint64_t)(d->end - d->p) / 3)
		return FAIL(d, "more symbols than the block can hold");
	b->nr_syms = d->syms_left = (uint32_t)nr;
	d->blocks_left--;
	d->prev = 0;
	return 1;
}

int tp_symtab_dec__sym(struct tp_symtab_dec *d, struct tp_symtab_sym *s)
{
	uint64_t delta;
	int err;

	if (!d->syms_left)
		return 0;
	err = get_uleb(d, &delta);
	if (!err)
		err = get_uleb(d, &s->size);
	if (!err)
		err = get_str(d, &s->name);
	if (err)
		return err;
	if (delta > UINT64_MAX - d->prev)
		return FAIL(d, "an address overflows");
	s->addr = d->prev += delta;
	d->syms_left--;
	return 1;
}

int tp_symtab_validate(const void *data, size_t size, bool swap, uint32_t *nr_blocks,
		       uint64_t *nr_syms, const char **why)
{
	struct tp_symtab_dec d;
	struct tp_symtab_block b;
	struct tp_symtab_sym s;
	int r = tp_symtab_dec__init(&d, data, size, swap);

	*nr_blocks = 0;
	*nr_syms = 0;
	while (!r && (r = tp_symtab_dec__block(&d, &b)) == 1) {
		++*nr_blocks;
		while ((r = tp_symtab_dec__sym(&d, &s)) == 1)
			++*nr_syms;
	}
	if (r && why)
		*why = d.err;
	return r;
}
