/* SPDX-License-Identifier: MIT */
/* The kernel functions earlier recordings of this boot embedded (ksyms-cache.c): a sampled
 * kernel address inside one of them needs no pass over /proc/kallsyms, which the kernel
 * formats at about half a microsecond a line (60-90 ms for a distribution kernel on a PC).
 *
 * What is kept: for each kernel (not module) function an embedded-symbols section named,
 * its start, its extent as the embedding computed it (up to the next function symbol of
 * /proc/kallsyms, ksyms.c) and its name. Within one boot the kernel's own symbol table never
 * changes, so an address inside such an extent always resolves to the same function; module
 * addresses are never looked up (modules come and go, and their addresses are reused).
 *
 * Where: $TINYPERF_KSYMS_CACHE (a file; set and empty: no cache), else /run/tinyperf-ksyms
 * for root (/run is writable by root only: nobody else can plant names there), else none.
 * It is one file of at most KSYMS_CACHE_MAX functions (about 350 KiB at most, a few KiB to
 * a few tens of KiB in practice), written whole to a temporary file and renamed over the
 * last one, 0600, tagged with the boot's /proc/sys/kernel/random/boot_id: another boot's, a
 * file of the wrong size or shape, anything that does not check out is ignored (and
 * replaced at the end). */
#ifndef TINYPERF_RECORDER_TRACK_KSYMS_CACHE_H
#define TINYPERF_RECORDER_TRACK_KSYMS_CACHE_H

#include "libc-shim/types.h"

#define KSYMS_CACHE_MAX		8192	/* functions */
#define KSYMS_CACHE_NAMES	(256 * 1024)	/* bytes of names */
#define KSYMS_CACHE_BOOT	36	/* "8-4-4-4-12" hex */

struct ksyms_cache_ent {
	uint64_t addr;
	uint32_t size;		/* > 0 */
	uint32_t name;		/* offset in the names */
};

struct ksyms_cache {
	const struct ksyms_cache_ent *v;	/* sorted, disjoint; NULL: none loaded */
	uint32_t nr, names_len;
	const char *names;			/* NUL-terminated, names_len bytes in all */
	void *map;
	size_t map_size;
	char boot[KSYMS_CACHE_BOOT];
	char path[256];				/* "": no cache */
};

/* where the cache is for this user and environment, and what it holds if it is this
 * boot's: never fails (no cache is an empty one) */
void ksyms_cache__open(struct ksyms_cache *c, char **envp);
/* the file again (after a save): what it holds, if it checks out */
void ksyms_cache__load(struct ksyms_cache *c);
/* the cached function that covers addr, or NULL */
const struct ksyms_cache_ent *ksyms_cache__find(const struct ksyms_cache *c, uint64_t addr);
/* A symbol embedded symbols keep (embed/symembed.h), here because the cache is saved from
 * them; name: an offset in the ELF string table, or in the section's one (kernel) */
struct symembed_sel {
	uint64_t addr, size;
	uint32_t name, mod;		/* mod: the section's string of "[module]", 0 = the kernel */
	uint8_t rank;			/* lower wins among names at one address */
};

/* the cache again, with these new functions (sorted by address, names in strs) added:
 * 0 or -errno (nothing changed then) */
int ksyms_cache__save(const struct ksyms_cache *c, const struct symembed_sel *sel, uint32_t n,
		      const char *strs);
void ksyms_cache__close(struct ksyms_cache *c);

/* the file: this header, nr entries, names_len bytes of names */
struct ksyms_cache_hdr {
	char magic[8];		/* "TPKSYM1\n" */
	char boot[KSYMS_CACHE_BOOT];
	uint32_t nr, names_len;
	uint32_t pad[3];
};
_Static_assert(sizeof(struct ksyms_cache_hdr) == 64, "ksyms cache header");
_Static_assert(sizeof(struct ksyms_cache_ent) == 16, "ksyms cache entry");

#endif
