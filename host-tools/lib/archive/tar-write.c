/* SPDX-License-Identifier: MIT */
/* Writing an archive plan as one compressed tar with libarchive: pax format (long paths),
 * zstd or xz (several threads where libarchive can) or gzip, to a temporary name renamed at
 * the end; which of those this libarchive can write, found at run time.
 * lib/tar/ holds the host library's only libarchive users, so that what links the rest
 * without -larchive (the fuzz targets) still links. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/archive/elfslim.h"
#include "host-tools/lib/archive/larc.h"
#include "host-tools/lib/common/common.h"

#define CHUNK (1 << 20)

static int ar_fail(struct archive *a, const struct tp_log *log, const char *what)
{
	const char *msg = LA(archive_error_string)(a);

	tp_log__error(log, "%s: %s", what, msg ? msg : "libarchive failed");
	return -TP_ERR_IO;
}

const char *tp_arccomp__name(enum tp_arccomp c)
{
	return c == TP_ARC_ZSTD ? "zstd" : c == TP_ARC_XZ ? "xz" : c == TP_ARC_GZIP ? "gzip" : "none";
}

const char *tp_arccomp__suffix(enum tp_arccomp c)
{
	return c == TP_ARC_ZSTD ? ".zst" : c == TP_ARC_XZ ? ".xz" : c == TP_ARC_GZIP ? ".gz" : "";
}

static int add_filter(struct archive *a, enum tp_arccomp comp)
{
	switch (comp) {
	case TP_ARC_ZSTD: return LA(archive_write_add_filter_zstd)(a);
	case TP_ARC_XZ: return LA(archive_write_add_filter_xz)(a);
	case TP_ARC_GZIP: return LA(archive_write_add_filter_gzip)(a);
	default: return ARCHIVE_OK;
	}
}

/* on an archive of its own: a filter that says WARN has been added (as an external program) */
bool tp_archive__can_write(enum tp_arccomp c)
{
	struct archive *a;
	bool ok;

	if (c == TP_ARC_NONE)
		return true;
	if (tp_larc__load(NULL))
		return false;
	a = LA(archive_write_new)();
	if (!a)
		return false;
	ok = add_filter(a, c) == ARCHIVE_OK;
	LA(archive_write_free)(a);
	return ok;
}

enum tp_arccomp tp_archive__usable_comp(enum tp_arccomp want)
{
	while (want != TP_ARC_NONE && !tp_archive__can_write(want))
		want++;
	return want;
}

static int set_filter(struct archive *a, enum tp_arccomp comp, int level,
		      const struct tp_log *log)
{
	char lv[16], th[16];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *name = tp_arccomp__name(comp);

	if (comp == TP_ARC_NONE)
		return 0;
	/* WARN: an external program would do it, which this host may lack */
	if (add_filter(a, comp) != ARCHIVE_OK)
		return ar_fail(a, log, name);
	if (level > 0) {
		snprintf(lv, sizeof(lv), "%d", level);
		if (LA(archive_write_set_filter_option)(a, name, "compression-level", lv) !=
		    ARCHIVE_OK)
			return ar_fail(a, log, "compression level");
	}
	if (comp != TP_ARC_GZIP && ncpu > 1) {
		/* libarchive without threads support for the filter says so: one thread then */
		snprintf(th, sizeof(th), "%ld", ncpu > 8 ? 8 : ncpu);
		LA(archive_write_set_filter_option)(a, name, "threads", th);
	}
	return 0;
}

static int write_file(struct archive *a, struct archive_entry *e, const char *src,
		      const struct tp_log *log, uint8_t *chunk, struct tp_arcstats *st)
{
	struct stat sb;
	ssize_t n;
	int fd = tp_fs__open_regular(src, &sb);
	int err = 0;

	if (fd < 0) {
		tp_log__error(log, "cannot archive %s: %s", src, tp_strerror(fd));
		return fd == -TP_ERR_NOT_REGULAR ? -TP_ERR_IO : fd;
	}
	LA(archive_entry_set_size)(e, sb.st_size);
	LA(archive_entry_set_mtime)(e, sb.st_mtime, 0);
	LA(archive_entry_set_perm)(e, (sb.st_mode & 0755) | 0444);
	st->bytes += (uint64_t)sb.st_size;
	if (LA(archive_write_header)(a, e) != ARCHIVE_OK) {
		close(fd);
		return ar_fail(a, log, src);
	}
	/* exactly the size the header announced, even if the file changes meanwhile */
	for (off_t left = sb.st_size; left > 0 && !err; left -= n) {
		n = read(fd, chunk, left < CHUNK ? (size_t)left : CHUNK);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			err = n ? -errno : -TP_ERR_IO;
			tp_log__error(log, "cannot read %s: %s", src, n ? tp_strerror(err) :
				      "the file shrank while it was archived");
		} else if (LA(archive_write_data)(a, chunk, (size_t)n) != n) {
			err = ar_fail(a, log, src);
		}
	}
	close(fd);
	return err;
}

static int write_buf(struct archive *a, struct archive_entry *e, const struct tp_arcmember *m,
		     const uint8_t *buf, size_t len, const struct tp_log *log)
{
	LA(archive_entry_set_filetype)(e, AE_IFREG);
	LA(archive_entry_set_size)(e, (la_int64_t)len);
	if (LA(archive_write_header)(a, e) != ARCHIVE_OK ||
	    (len && LA(archive_write_data)(a, buf, len) != (la_ssize_t)len))
		return ar_fail(a, log, m->path);
	return 0;
}

/* an ELF file without its DWARF, or as it is when that cannot be done */
static int write_slim(struct archive *a, struct archive_entry *e, const struct tp_arcmember *m,
		      struct tp_arcstats *st, const struct tp_log *log, uint8_t *chunk)
{
	struct stat sb;
	uint8_t *buf;
	size_t len;
	int err = tp_elfslim(m->src, &buf, &len, log);

	if (err < 0)
		return err;
	if (err > 0)
		return write_file(a, e, m->src, log, chunk, st);
	if (!stat(m->src, &sb)) {
		LA(archive_entry_set_mtime)(e, sb.st_mtime, 0);
		LA(archive_entry_set_perm)(e, (sb.st_mode & 0755) | 0444);
		if ((uint64_t)sb.st_size > len)
			st->dwarf_dropped += (uint64_t)sb.st_size - len;
	}
	err = write_buf(a, e, m, buf, len, log);
	st->bytes += len;
	free(buf);
	return err;
}

static int write_member(struct archive *a, const struct tp_arcmember *m, time_t now,
			struct tp_arcstats *st, const struct tp_log *log, uint8_t *chunk)
{
	struct archive_entry *e = LA(archive_entry_new)();
	int err = 0;

	if (!e)
		return -TP_ERR_NOMEM;
	LA(archive_entry_set_pathname)(e, m->path);
	LA(archive_entry_set_mtime)(e, now, 0);
	if (m->dir) {
		LA(archive_entry_set_filetype)(e, AE_IFDIR);
		LA(archive_entry_set_perm)(e, 0755);
		if (LA(archive_write_header)(a, e) != ARCHIVE_OK)
			err = ar_fail(a, log, m->path);
	} else if (m->link) {
		LA(archive_entry_set_filetype)(e, AE_IFLNK);
		LA(archive_entry_set_perm)(e, 0777);
		LA(archive_entry_set_symlink)(e, m->link);
		if (LA(archive_write_header)(a, e) != ARCHIVE_OK)
			err = ar_fail(a, log, m->path);
	} else if (m->src && m->slim) {
		LA(archive_entry_set_filetype)(e, AE_IFREG);
		err = write_slim(a, e, m, st, log, chunk);
	} else if (m->src) {
		LA(archive_entry_set_filetype)(e, AE_IFREG);
		err = write_file(a, e, m->src, log, chunk, st);
	} else {
		LA(archive_entry_set_perm)(e, 0644);
		err = write_buf(a, e, m, m->buf, m->len, log);
		st->bytes += m->len;
	}
	LA(archive_entry_free)(e);
	return err;
}

int tp_archive__write(const struct tp_arcplan *p, const char *out, enum tp_arccomp comp,
		      int level, struct tp_arcstats *st, const struct tp_log *log)
{
	struct tp_arcstats dummy;
	struct archive *a = NULL;
	uint8_t *chunk = NULL;
	time_t now = time(NULL);
	char tmp[PATH_MAX];
	int err = tp_larc__load(log);

	if (err)
		return err;
	a = LA(archive_write_new)();
	chunk = malloc(CHUNK);
	if (!a || !chunk) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	if (tp_fs__tmpname(tmp, sizeof(tmp), out)) {
		tp_log__error(log, "%s: name too long", out);
		err = -TP_ERR_INVAL;
		goto out;
	}
	if (LA(archive_write_set_format_pax_restricted)(a) != ARCHIVE_OK) {
		err = ar_fail(a, log, "tar format");
		goto out;
	}
	err = set_filter(a, comp, level, log);
	if (err)
		goto out;
	if (LA(archive_write_open_filename)(a, tmp) != ARCHIVE_OK) {
		err = ar_fail(a, log, out);
		goto out;
	}
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < p->n && !err; i++)
		err = write_member(a, &p->m[i], now, st, log, chunk);
	if (LA(archive_write_close)(a) != ARCHIVE_OK && !err)
		err = ar_fail(a, log, out);
	if (!err && rename(tmp, out)) {
		err = -errno;
		tp_log__error(log, "cannot rename %s to %s: %s", tmp, out, tp_strerror(err));
	}
	if (err)
		unlink(tmp);
out:
	if (a)
		LA(archive_write_free)(a);
	free(chunk);
	return err;
}
