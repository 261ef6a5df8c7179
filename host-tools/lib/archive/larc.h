/* SPDX-License-Identifier: MIT */
/* libarchive for the archive's writer and unpacker, opened when one of them first runs
 * (common/dl.h): the library and the ones it pulls in (libxml2, ICU, libstdc++ ...) are not
 * loaded by the commands that never touch a tar. Calls read LA(archive_write_new)(). */
#ifndef TINYPERF_HOST_TOOLS_LIB_ARCHIVE_LARC_H
#define TINYPERF_HOST_TOOLS_LIB_ARCHIVE_LARC_H

#include <archive.h>
#include <archive_entry.h>

#include "host-tools/lib/common/common.h"

/* every libarchive function the archive layer calls */
#define TP_LARC_FNS(X)								\
	X(archive_entry_filetype) X(archive_entry_free) X(archive_entry_hardlink)	\
	X(archive_entry_new) X(archive_entry_pathname) X(archive_entry_set_filetype)	\
	X(archive_entry_set_mtime) X(archive_entry_set_pathname)			\
	X(archive_entry_set_perm) X(archive_entry_set_size)				\
	X(archive_entry_set_symlink) X(archive_entry_size) X(archive_entry_symlink)	\
	X(archive_error_string) X(archive_read_data_block) X(archive_read_free)		\
	X(archive_read_new) X(archive_read_next_header) X(archive_read_open_filename)	\
	X(archive_read_support_filter_all) X(archive_read_support_format_gnutar)	\
	X(archive_read_support_format_tar) X(archive_write_add_filter_gzip)		\
	X(archive_write_add_filter_xz) X(archive_write_add_filter_zstd)			\
	X(archive_write_close) X(archive_write_data) X(archive_write_free)		\
	X(archive_write_header) X(archive_write_new) X(archive_write_open_filename)	\
	X(archive_write_set_filter_option) X(archive_write_set_format_pax_restricted)

#define TP_LARC_ENUM(fn)	TP_LARC_##fn,
enum { TP_LARC_FNS(TP_LARC_ENUM) TP_LARC_NR };
#undef TP_LARC_ENUM

extern tp_dl_fn tp_larc[TP_LARC_NR];

/* libarchive's function fn, once tp_larc__load() said 0 */
#define LA(fn)	TP_DL_CALL(tp_larc, TP_LARC_##fn, fn)

/* opens libarchive when not yet open: 0 or -TP_ERR_IO (logged to log, which may be NULL) */
int tp_larc__load(const struct tp_log *log);

#endif
