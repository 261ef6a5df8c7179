/* SPDX-License-Identifier: MIT */
/* Embedded symbols (TP_FEAT_SYMTAB, perfdata/symtab.h): at the end of a recording and at each
 * flight-recorder snapshot, the symbols that cover the sampled addresses (addrset.h) are read
 * from each hit file's .symtab (else .dynsym) with pread and small buffers, and from
 * /proc/kallsyms once, streaming (ksyms.c; from the copy ksyms-snap.c has a helper process
 * take while recording, when it could), and encoded as one private feature.
 *
 * [vdso]: its .dynsym, from the image in tinyperf's own memory (AT_SYSINFO_EHDR): the same
 * kernel's, the one whose build-id is recorded for it; none when processes of the other word
 * size (whose vdso differs) mapped one too (track.vdso_classes).
 *
 * Which symbols: function symbols (STT_FUNC, STT_GNU_IFUNC) that overlap a sampled range;
 * for a range no sized symbol covers, the nearest function symbol below it when that one has
 * no size (assembler functions, kallsyms), its size then taken as the distance to the next
 * function symbol. Several names at one address: perf's choice (sized, not weak, global, fewest
 * leading underscores, longest).
 *
 * Memory: one lazily backed mapping per section built, released after it is written: the
 * section (<= 1 MiB; a stream sends it in 64 KiB HEADER_FEATURE parts), its string
 * table and index, and per-range scratch; plus addrset's 384 KiB for the whole recording,
 * whose pages go back to the kernel (addrset__drop) before the string table is copied into
 * the section, 64 KiB at a time, each part's pages given back once copied: the peak. */
#ifndef TINYPERF_RECORDER_EMBED_SYMEMBED_H
#define TINYPERF_RECORDER_EMBED_SYMEMBED_H

#include "libc-shim/types.h"
#include "perfdata/symtab.h"
#include "perfdata/writer.h"
#include "recorder/track/addrset.h"
#include "recorder/track/ksyms-cache.h"
#include "recorder/track/track.h"

struct ksyms_cache;
struct ksyms_snap;

/* the work area of one section */
struct symembed {
	struct tp_fbuf out;
	struct tp_symtab_enc enc;
	struct addrset *as;
	struct dsos *dsos;
	uint32_t nr_ents;		/* sorted pairs in as->tmp */
	uint8_t *mem;
	size_t mem_size;
	uint64_t *lo;			/* the ranges of one DSO (or of the kernel) */
	uint64_t *lo_map;		/* room for them in the mapping, when the table is short */
	void *gaps_map;
	uint32_t nr_lo;
	uint8_t shift;			/* their ranges are 2^shift bytes (0: addresses) */
	void *gaps;			/* per range: nearest symbol below, next one above */
	struct symembed_sel *sel;	/* the symbols kept */
	uint32_t nr_sel;
	char *name;			/* NAME_MAX bytes: a window on the string table */
	uint64_t name_off;		/* the string table offset of name[0] */
	uint32_t name_len;		/* bytes of it read (0: none, a new file) */
	char *linebuf;			/* SYMEMBED_LINEBUF bytes, for reading kallsyms */
	int kfd[2];			/* kallsyms copied while recording (ksyms-snap.h), or -1 */
	struct ksyms_snap *ksnap;	/* the kallsyms copy taken while recording */
	const struct track *track;
	bool notes;			/* -v without -q: say where kernel symbols came from */
	bool have_kernel;		/* kernel or module addresses were sampled */
	uint8_t vdso_classes;		/* track's */
	bool kernel_mods;		/* module addresses were */
	uint8_t kernel_id[20], kernel_id_len;
};

#define SYMEMBED_NAME_MAX	4096	/* names are cut at 511 bytes */
#define SYMEMBED_SEL_MAX	16384
#define SYMEMBED_GAP_SIZE	32	/* bytes of a per-range slot (egap, kgap) */
#define SYMEMBED_LINEBUF	32768

/* start keeping sampled addresses (t->as, in t's arena) and, with CONFIG_REC_KSYMS_CACHE,
 * open the cache of kernel functions (kc, t->kc; envp: the environment): 0 or -TP_ENOMEM */
int symembed__init(struct track *t, struct ksyms_cache *kc, char **envp);
/* a section for the output w writes (pipe: pipe mode), from what t sampled and the kallsyms
 * copy ks: 0 and e ready, or <0 (nothing sampled: -TP_ENODATA) */
int symembed__begin(struct symembed *e, struct track *t, struct ksyms_snap *ks,
		    struct tp_writer *w, bool pipe, bool notes);
/* one hit DSO with the identity record/features.c found (id_len 0 and hash 0: none) */
void symembed__dso(struct symembed *e, const char *path, enum track_kind kind,
		   const uint8_t *id, uint8_t id_len, uint64_t hash);
/* the kernel's and modules' blocks, then the section into *f: 0, or <0 (no section) */
int symembed__end(struct symembed *e, struct tp_feat *f);
void symembed__release(struct symembed *e);

/* shared with ksyms.c and symembed-elf.c */
/* the ranges of one DSO (e->lo, e->nr_lo) and their gap slots: where they fit */
void symembed__place(struct symembed *e);
/* names of a block's symbols: the section's strings (nm NULL), or through nm */
struct symembed_names {
	const char *(*name)(struct symembed *e, const void *ctx, uint32_t name);
	const void *ctx;
};
/* e->sel sorted, one per address (perf's choice of name), encoded as one block */
void symembed__emit(struct symembed *e, const struct tp_symtab_block *b,
		    const struct symembed_names *nm);
void symembed__set_id(struct tp_symtab_block *b, const uint8_t *id, uint8_t len, uint64_t hash);
uint64_t symembed__range_end(const struct symembed *e, uint32_t i);
/* index of the first range starting at or above addr: the gap addr falls in */
uint32_t symembed__gap_of(const struct symembed *e, uint64_t addr);
void symembed__keep(struct symembed *e, const struct symembed_sel *s);
/* perf's preference among names at one address (0 best) */
uint8_t symembed__rank(bool sized, char bind, const char *name);
/* the kallsyms pass over e->lo: the kernel and module symbols into e->sel (ksyms.c) */
int ksyms__read(struct symembed *e);

#endif
