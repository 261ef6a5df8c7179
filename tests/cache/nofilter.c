/* SPDX-License-Identifier: MIT */
/* Test interposer (LD_PRELOAD) making this host's libarchive act as one built without some
 * compression libraries, as Buildroot's host-libarchive is without zstd: for each filter named
 * in TP_TEST_NO_FILTERS ("zstd xz gzip"), archive_write_add_filter_<name>() answers as
 * libarchive's own code does then - zstd and gzip ARCHIVE_WARN (it would run the external
 * program), xz ARCHIVE_FATAL. Everything else, and reading, is the real library's. */
#define _GNU_SOURCE
#include <archive.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef int (*add_fn)(struct archive *);

static int refused(struct archive *a, const char *name, int how)
{
	const char *no = getenv("TP_TEST_NO_FILTERS");

	if (!no || !strstr(no, name))
		return ARCHIVE_OK;
	if (how == ARCHIVE_WARN)		/* (-1: libarchive's ARCHIVE_ERRNO_MISC) */
		archive_set_error(a, -1, "Using external %s program", name);
	else
		archive_set_error(a, -1, "%s compression not supported on this platform", name);
	return how;
}

#define INTERPOSE(fn, name, how)						\
	int fn(struct archive *a)						\
	{									\
		int r = refused(a, name, how);					\
		add_fn real = (add_fn)(void (*)(void))dlsym(RTLD_NEXT, #fn);	\
									\
		return r != ARCHIVE_OK ? r : real(a);				\
	}

INTERPOSE(archive_write_add_filter_zstd, "zstd", ARCHIVE_WARN)
INTERPOSE(archive_write_add_filter_xz, "xz", ARCHIVE_FATAL)
INTERPOSE(archive_write_add_filter_gzip, "gzip", ARCHIVE_WARN)
