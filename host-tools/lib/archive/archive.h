/* SPDX-License-Identifier: MIT */
/* A recording's archive: one tar (zstd, xz or gzip, through libarchive) holding the perf.data and,
 * keyed by build-id in the build-id cache's layout (bidcache.h), only the files its hit DSOs
 * need — binaries, debug files, vmlinux, kallsyms — so it reports the same on a host with no
 * sysroot. Members:
 *
 *   <name of the perf.data>                  the recording itself, at the top
 *   .debug/                                  always there: what tells it from perf's tars
 *   .debug/.build-id/xx/yyyy -> ../../<name>/<id>      index links, as in the cache
 *   .debug/<name>/<id>/{elf,debug,kallsyms,vdso}
 *   .debug/.text-hash/xx/yyyy -> ../../<name>/text-<hash>, .debug/<name>/text-<hash>/elf
 *
 * so an unpacked archive is also a sysroot for perf (perf report --symfs DIR reads DIR/.debug).
 * Unpacking fills a build-id cache from the .debug/ part and puts the recording in a data
 * directory; a tar made by perf archive (the cache layout at its top) unpacks into the cache.
 *
 * Functions return 0, -errno (a file could not be read or written), or -TP_ERR_IO (libarchive
 * failed) / -TP_ERR_NOMEM / -TP_ERR_INVAL (a hostile or malformed archive), with the detail
 * logged at TP_LOG_ERROR; what was skipped is logged as warnings. */
/* Layer archive: may use common/, data/, session/, sym/, bidcache/, unwind/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_ARCHIVE_ARCHIVE_H
#define TINYPERF_HOST_TOOLS_LIB_ARCHIVE_ARCHIVE_H

#include "host-tools/lib/archive/hits.h"
#include "host-tools/lib/archive/elfslim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/data/data.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/session/session.h"
#include "host-tools/lib/sym/sym.h"

/* one member to write: a file (src), bytes in memory (buf), a symlink (link), a directory */
struct tp_arcmember {
	char *path;
	char *src;
	uint8_t *buf;
	size_t len;
	char *link;
	bool dir;
	bool slim;			/* src is an ELF file: written without its DWARF
					 * (elfslim.h) */
};

struct tp_arcplan {
	struct tp_arcmember *m;
	size_t n, cap;
	size_t nr_hit;			/* hit DSOs (kernel modules count with the kernel) */
	size_t nr_packed;		/* of them, those with a file in the plan */
	uint64_t bytes;			/* sizes of the files and buffers */
};

/* ---- what goes in (archive/plan.c) ---- */

/* The plan for the recording at data_path (as tar member data_name), whose session s has not
 * been walked yet: walks it for the hit DSOs and finds each one's files with a symbolizer
 * made from conf (sysroot, debug dirs, build-id cache ...). A hit DSO with no file that has
 * its recorded identity is logged as a warning and left out. Binaries and debug files are
 * packed without their DWARF (a report needs symbols) unless keep_dwarf (for source lines
 * and inlines). */
int tp_arcplan__build(struct tp_arcplan *p, struct tp_session *s, const struct tp_features *f,
		      const struct tp_symconf *conf, const char *data_path, const char *data_name,
		      bool keep_dwarf);
void tp_arcplan__release(struct tp_arcplan *p);

/* ---- writing (archive/tar-write.c) ---- */

/* strongest first: tp_archive__usable_comp() falls back along this order */
enum tp_arccomp {
	TP_ARC_ZSTD,
	TP_ARC_XZ,
	TP_ARC_GZIP,
	TP_ARC_NONE,
};

/* "zstd", "xz", "gzip", "none"; the file name suffix ".zst", ".xz", ".gz", "" */
const char *tp_arccomp__name(enum tp_arccomp c);
const char *tp_arccomp__suffix(enum tp_arccomp c);

/* Whether this process's libarchive writes c itself: archive_write_add_filter_*() says
 * ARCHIVE_OK. A libarchive built without the library says ARCHIVE_WARN (it would run an
 * external program, e.g. zstd, which a build host may lack) or ARCHIVE_FATAL: no. Buildroot's
 * host-libarchive has no zstd. */
bool tp_archive__can_write(enum tp_arccomp c);

/* the first of want and the weaker ones after it that this libarchive writes (none always) */
enum tp_arccomp tp_archive__usable_comp(enum tp_arccomp want);

struct tp_arcstats {
	uint64_t bytes;			/* of the members' contents, as written */
	uint64_t dwarf_dropped;		/* left out of slimmed files */
};

/* write the plan's members to the tar at out (complete, or not there at all); st may be NULL */
int tp_archive__write(const struct tp_arcplan *p, const char *out, enum tp_arccomp comp,
		      int level, struct tp_arcstats *st, const struct tp_log *log);

/* ---- unpacking (archive/tar-unpack.c) ---- */

struct tp_unpack_conf {
	const char *cache_dir;		/* the build-id cache to fill */
	const char *data_dir;		/* where recordings go (NULL: the current directory) */
	bool force;			/* replace recordings that exist there */
	struct tp_log log;
};

struct tp_unpack_stats {
	size_t files, links, data_files;
	uint64_t bytes;
	bool perf_layout;		/* a perf archive: no recording, the cache at the top */
};

/* Check every member first and write nothing if one is hostile: an absolute path, a ".."
 * component, a symlink or hard link leading outside its tree, a device, fifo or anything
 * but files, directories and links, a recording that exists (without force). Then extract,
 * each file atomically. */
int tp_archive__unpack(const char *archive, const struct tp_unpack_conf *conf,
		       struct tp_unpack_stats *st);

#endif
