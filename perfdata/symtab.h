/* SPDX-License-Identifier: MIT */
/* TP_FEAT_SYMTAB (129): the symbols the device had for the addresses it sampled, embedded in
 * the recording so a host with no sysroot, no build-id cache and another kernel still names
 * the hot functions. The recorder encodes it (tp_symtab_enc), the host decodes it
 * (tp_symtab_dec); both sides share this file. Freestanding, no allocation.
 *
 * Layout of the section (fixed-size integers in the file's byte order, like every feature):
 *
 *   u32 magic      TP_SYMTAB_MAGIC ("TPSY" read as a little-endian u32)
 *   u8  version    1
 *   u8  shift      the recorder's coarsest address granularity: 0 = exact sampled addresses;
 *                  n > 0 = its bounded address set overflowed and kept ranges of up to 2^n
 *                  bytes for the busiest DSOs, so their symbols are a superset of those hit
 *                  (never fewer)
 *   u16 flags      TP_SYMTAB_F_*
 *   u32 nr_blocks  one block per DSO
 *   u32 blocks_len bytes of the blocks that follow
 *   blocks[blocks_len]
 *   strtab[rest]   NUL-terminated strings, shared by every block; trailing NUL padding
 *
 * A block:
 *   u8  kind       TP_SYMTAB_USER, _KERNEL, _MODULE
 *   u8  src        TP_SYMTAB_SRC_*: the table the symbols came from
 *   u8  id_type    TP_SYMTAB_ID_NONE, _BUILD_ID (id_len 1..20 raw bytes), _TEXT_HASH (id_len
 *                  8: the tp_text_hash() of the file as a u64 in the file's byte order)
 *   u8  id_len
 *   u8  id[id_len]
 *   uleb name      strtab offset of the filename as in the MMAP records: a path,
 *                  "[kernel.kallsyms]", "[ext4]"
 *   uleb nr_syms
 *   nr_syms times, sorted by address:
 *     uleb addr    the first: the address; the others: the delta from the previous one
 *     uleb size    bytes; 0 = unknown (the symbol runs to the next one)
 *     uleb name    strtab offset
 *
 * Addresses: user DSOs in FILE OFFSETS (what the host computes from a sample without the
 * binary: ip - map.start + map.pgoff; st_value converted through the PT_LOAD segments);
 * the kernel and modules in the recording machine's runtime addresses (/proc/kallsyms).
 * ULEB128: 7 bits a byte, low first, high bit = more; at most 10 bytes.
 */
#ifndef TINYPERF_PERFDATA_SYMTAB_H
#define TINYPERF_PERFDATA_SYMTAB_H

#include "libc-shim/types.h"
#include "perfdata/fbuf.h"

#define TP_SYMTAB_MAGIC		0x59535054u	/* "TPSY" */
#define TP_SYMTAB_VERSION	1
#define TP_SYMTAB_HDR		16
#define TP_SYMTAB_ID_MAX	20

enum { TP_SYMTAB_USER, TP_SYMTAB_KERNEL, TP_SYMTAB_MODULE };
enum { TP_SYMTAB_SRC_NONE, TP_SYMTAB_SRC_SYMTAB, TP_SYMTAB_SRC_DYNSYM,
       TP_SYMTAB_SRC_MINIDEBUGINFO, TP_SYMTAB_SRC_KALLSYMS };
enum { TP_SYMTAB_ID_NONE, TP_SYMTAB_ID_BUILD_ID, TP_SYMTAB_ID_TEXT_HASH };
#define TP_SYMTAB_F_INCOMPLETE	1	/* some blocks or symbols were left out (size cap) */

struct tp_symtab_block {
	uint8_t kind, src, id_type, id_len;
	uint8_t id[TP_SYMTAB_ID_MAX];
	uint64_t text_hash;		/* id_type TEXT_HASH */
	const char *name;
	uint32_t nr_syms;
};

struct tp_symtab_sym {
	uint64_t addr, size;
	const char *name;
};

/* ---- encoder ----
 * Blocks go to out (header first, then blocks), strings to a separate table that
 * finish() appends; names are interned through a small hash of strtab offsets. */
struct tp_symtab_enc {
	struct tp_fbuf *out;
	char *str;
	size_t str_len, str_cap;
	uint32_t *hash;			/* strtab offset + 1, 0 = empty; hash_mask + 1 slots */
	uint32_t hash_mask, hash_used;
	size_t blk_start, blk_str;	/* rollback point of the open block */
	uint32_t nr_blocks, left;	/* blocks written; symbols still due in the open one */
	uint32_t blk_nr;		/* nr_blocks before the open one */
	uint64_t prev;
	uint16_t flags;
	bool open;			/* a block still short of its symbols */
	/* optional: called on each part of the string table once finish has copied it (the
	 * recorder gives its pages back, so the table is not resident twice) */
	void (*release)(void *p, size_t len);
};

/* out: the section's buffer (its byte order is the file's); str/hash: scratch memory for
 * the string table and its index (hash_slots a power of two). */
void tp_symtab_enc__init(struct tp_symtab_enc *e, struct tp_fbuf *out, uint8_t shift,
			 char *str, size_t str_cap, uint32_t *hash, uint32_t hash_slots);
/* strtab offset of s (interned); (uint32_t)-1 when the table is full */
uint32_t tp_symtab_enc__str(struct tp_symtab_enc *e, const char *s);
/* open a block of exactly nr symbols (b->nr_syms is ignored): 0 or -TP_ENOSPC */
int tp_symtab_enc__block(struct tp_symtab_enc *e, const struct tp_symtab_block *b,
			 uint32_t nr);
/* the next symbol of the open block, addresses ascending: 0, -TP_EINVAL (out of order or
 * too many), -TP_ENOSPC */
int tp_symtab_enc__sym(struct tp_symtab_enc *e, uint64_t addr, uint64_t size,
		       uint32_t name);
/* drop the open block (it did not fit), setting TP_SYMTAB_F_INCOMPLETE */
void tp_symtab_enc__drop(struct tp_symtab_enc *e);
/* append the strings, patch the header: 0, or -TP_ENOSPC / -TP_EINVAL (a block short of
 * its symbols) */
int tp_symtab_enc__finish(struct tp_symtab_enc *e);

/* ---- decoder ----
 * Checks every length, offset and count against the section before use: for hostile files. */
struct tp_symtab_dec {
	const uint8_t *p, *end;		/* the blocks still to read */
	const char *str;
	size_t str_len;
	bool swap;
	uint8_t shift;
	uint16_t flags;
	uint32_t nr_blocks, blocks_left, syms_left;
	uint64_t prev;
	const char *err;		/* why the last call failed */
};

/* the header: 0 or -TP_EINVAL (d->err says why). swap: the file is of the other byte order. */
int tp_symtab_dec__init(struct tp_symtab_dec *d, const void *data, size_t size, bool swap);
/* the next block: 1, 0 at the end (every block read), -TP_EINVAL. The symbols of the
 * previous block must all have been read. */
int tp_symtab_dec__block(struct tp_symtab_dec *d, struct tp_symtab_block *b);
/* the next symbol of the current block: 1, 0 after its last, -TP_EINVAL */
int tp_symtab_dec__sym(struct tp_symtab_dec *d, struct tp_symtab_sym *s);
/* walk it all: 0 if every block and symbol decodes and nothing trails the blocks, counting
 * them; -TP_EINVAL otherwise */
int tp_symtab_validate(const void *data, size_t size, bool swap, uint32_t *nr_blocks,
		       uint64_t *nr_syms, const char **err);

#endif
