/* SPDX-License-Identifier: MIT */
/* The build-id cache: the binaries, debug files, vmlinux images and kallsyms that had samples,
 * kept by identity, so a report finds the exact bytes that ran after the device's files
 * changed. The layout is perf's (~/.debug), so perf report finds these files too:
 *
 *   <dir>/<name>/<id>/elf            the binary or vmlinux (a hard link where allowed)
 *   <dir>/<name>/<id>/debug          its separate debug file
 *   <dir>/[kernel.kallsyms]/<id>/kallsyms   a copy of the kernel's /proc/kallsyms
 *   <dir>/[vdso]/<id>/vdso
 *   <dir>/.build-id/<id[0:2]>/<id[2:]> -> ../../<name>/<id>
 *
 * <name> is the file's path on the device (a host file's real path, or its path under a
 * sysroot), "[kernel.kallsyms]" or "[vdso]"; <id> the build-id in lowercase hex. Binaries
 * without a GNU build-id are indexed by tinyperf's text hash (perfdata/texthash.h) in a tree
 * of their own, which perf never looks at and the symbolizer searches:
 *
 *   <dir>/<name>/text-<16 hex>/elf
 *   <dir>/.text-hash/<h[0:2]>/<h[2:]> -> ../../<name>/text-<16 hex>
 *
 * tinyperf's bookkeeping lives in <dir>/.tinyperf/: "lock" (flock: adders share it, removals
 * and evictions hold it alone) and "max-size" (the limit --max-size set, in bytes).
 * The recorder on a device without symlinks writes .build-id/xx/yyyy as a directory holding
 * the files; perf, the symbolizer and the listing here read that too, as perf's old layout
 * where .build-id/xx/yyyy is the file itself.
 *
 * Every file appears whole (temp + rename), so readers and other writers may run at the same
 * time. Functions return 0 (or a documented positive value), -errno when a file operation
 * failed, or -TP_ERR_NOMEM / -TP_ERR_INVAL; the detail is logged at TP_LOG_ERROR. */
/* Layer bidcache: may use common/, data/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_BIDCACHE_BIDCACHE_H
#define TINYPERF_HOST_TOOLS_LIB_BIDCACHE_BIDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

#define TP_BIDKEY_MAX 64		/* bytes of a build-id */
#define TP_BIDKEY_STR (2 * TP_BIDKEY_MAX + 1)

enum tp_bidkind {
	TP_BID_ELF,
	TP_BID_DEBUG,
	TP_BID_KALLSYMS,
	TP_BID_VDSO,
	TP_BID_NR
};

/* the file name of a kind in an entry: "elf", "debug", "kallsyms", "vdso" */
const char *tp_bidkind_name(enum tp_bidkind kind);

struct tp_bidkey {
	uint8_t build_id[TP_BIDKEY_MAX];
	size_t build_id_len;		/* 0: keyed by text_hash */
	uint64_t text_hash;
};

/* the entry's directory name: "<hex>" or "text-<16 hex>" (buf of TP_BIDKEY_STR) */
int tp_bidkey__str(const struct tp_bidkey *k, char *buf, size_t size);
/* a build-id in hex (2..128 digits, any case) or "text-<16 hex>": 0 or -TP_ERR_INVAL */
int tp_bidkey__parse(struct tp_bidkey *k, const char *s);
/* perf pads ids shorter than 20 bytes with zeros in records without a size: drop that */
void tp_bidkey__trim(struct tp_bidkey *k);
/* the key of a recorded identity: its build-id (trimmed) when it has one (len <=
 * TP_BIDKEY_MAX), else its text hash */
void tp_bidkey__of(struct tp_bidkey *k, const uint8_t *build_id, size_t len, uint64_t text_hash);

/* Paths by layout, for readers that need no cache object (the symbolizer):
 * <dir>/.build-id/xx/yyyy/<kind> or <dir>/.text-hash/xx/yyyy/<kind>. 0, or -1 if too long. */
int tp_bidcache_path(char *buf, size_t size, const char *dir, const struct tp_bidkey *k,
		     enum tp_bidkind kind);
/* is name usable in the layout: an absolute path without ".", ".." or empty components and
 * outside the cache's own dot-directories, or one of "[kernel.kallsyms]", "[vdso]" */
bool tp_bidcache_name_ok(const char *name);
/* the index link's path relative to the cache (".build-id/xx/yyyy") and its target
 * ("../../<name>/<id>"); names that are not ok are filed under "[unnamed]" */
int tp_bidcache_link_rel(char *buf, size_t size, const struct tp_bidkey *k);
int tp_bidcache_entry_rel(char *buf, size_t size, const char *name, const struct tp_bidkey *k);

struct tp_bidcache;

/* open (and create) the cache at dir: 0 and *out */
int tp_bidcache__open(struct tp_bidcache **out, const char *dir, const struct tp_log *log);
void tp_bidcache__close(struct tp_bidcache *c);
const char *tp_bidcache__dir(const struct tp_bidcache *c);

enum tp_bidres {
	TP_BIDRES_LINKED,		/* added as a hard link */
	TP_BIDRES_COPIED,
	TP_BIDRES_PRESENT,		/* that kind of that identity was there: its last use is
					 * refreshed */
};

/* Add the file src as `*kind` of identity k, named name. When the identity already has an
 * entry (under any name) the file joins it. An elf that names more than the entry's elf and
 * debug file (a .symtab or DWARF where the cached copy is stripped, as perf record caches
 * it) joins as the entry's debug file instead, replacing a poorer one: *kind then says
 * TP_BID_DEBUG. allow_link: hard-link when the filesystem lets (callers should pass a path
 * whose content will not be rewritten in place). */
int tp_bidcache__add(struct tp_bidcache *c, const struct tp_bidkey *k, const char *name,
		     enum tp_bidkind *kind, const char *src, bool allow_link, enum tp_bidres *res);
/* the same from memory (a kallsyms read from /proc) */
int tp_bidcache__add_buf(struct tp_bidcache *c, const struct tp_bidkey *k, const char *name,
			 enum tp_bidkind kind, const void *buf, size_t len, enum tp_bidres *res);

/* 1 and the path of k's `kind` file if the cache has it, else 0 */
int tp_bidcache__find(struct tp_bidcache *c, const struct tp_bidkey *k, enum tp_bidkind kind,
		      char *path, size_t size);

/* remove k's entry (its index link, files and directory): 1 if it was there, else 0 */
int tp_bidcache__remove(struct tp_bidcache *c, const struct tp_bidkey *k);

/* ---- listing and eviction (bidcache/list.c) ---- */

struct tp_bidentry {
	struct tp_bidkey key;
	char *name;			/* from the index link's target; "" when it has none */
	char *dir;			/* the entry's directory (or old-style file), absolute */
	unsigned kinds;			/* 1u << enum tp_bidkind, for each file present */
	uint64_t bytes;			/* disk use of its files (allocated blocks) */
	bool shared;			/* a file is also linked elsewhere (evicting it frees
					 * less than bytes) */
	int64_t last_used;		/* seconds since the epoch: newest atime/mtime of its
					 * files (atime: whatever read it, as far as the mount's
					 * atime policy tells; adding it again refreshes it) */
};

/* every entry reachable from an index link, newest use first: 0 and *out (free with
 * tp_bidentries__free), *n. Links that lead nowhere are skipped (trim and purge remove them). */
int tp_bidcache__list(struct tp_bidcache *c, struct tp_bidentry **out, size_t *n);
void tp_bidentries__free(struct tp_bidentry *e, size_t n);

struct tp_bidtrim {
	size_t removed;			/* entries */
	uint64_t freed;			/* their bytes */
	uint64_t total;			/* bytes of the entries left */
};

/* remove the entries last used before cutoff (seconds since the epoch) */
int tp_bidcache__purge_older(struct tp_bidcache *c, int64_t cutoff, struct tp_bidtrim *st);
/* remove the least recently used entries until the rest take at most max_bytes */
int tp_bidcache__trim(struct tp_bidcache *c, uint64_t max_bytes, struct tp_bidtrim *st);
/* the limit kept in the cache for later additions: 0 = none */
int tp_bidcache__set_max_size(struct tp_bidcache *c, uint64_t max_bytes);
uint64_t tp_bidcache__max_size(struct tp_bidcache *c);

/* ---- what a file is (bidcache/file.c) ---- */

struct tp_bidfile {
	struct tp_bidkey key;
	enum tp_bidkind kind;		/* TP_BID_ELF: has code; TP_BID_DEBUG: symbols or DWARF
					 * only; TP_BID_KALLSYMS: a kallsyms text (key unset) */
};

/* 0 and *f; 1 when the cache does not keep such a file, with the reason in *why (not ELF,
 * relocatable, no code and no symbols, neither a build-id nor an executable segment); or
 * -errno (detail logged) */
int tp_bidfile__identify(const char *path, struct tp_bidfile *f, const char **why,
			 const struct tp_log *log);
/* the running kernel's build-id (/sys/kernel/notes): 0, -errno, or -TP_ERR_IO when the notes
 * hold none */
int tp_bidfile__running_kernel(struct tp_bidkey *k);

#endif
