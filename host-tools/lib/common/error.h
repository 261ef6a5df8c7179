/* SPDX-License-Identifier: MIT */
/* The host library's one error space: a lib function that fails returns -errno when a system
 * call said why, or -TP_ERR_* for what errno has no word for; tp_strerror() names either. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_ERROR_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_ERROR_H

/* TP codes start far above any errno (Linux's highest is below 200, MIPS's EDQUOT 1133), so a
 * return value is one or the other, never both (libbpf's LIBBPF_ERRNO__START idea). */
#define TP_ERR_START	4096

/* stable numbers: never renumbered, only appended */
enum tp_error {
	TP_OK			= 0,
	TP_ERR_NOMEM		= TP_ERR_START + 1, /* out of memory */
	TP_ERR_IO		= TP_ERR_START + 2, /* the input could not be read (see the log) */
	TP_ERR_EMPTY		= TP_ERR_START + 3, /* zero-length input */
	TP_ERR_BAD_MAGIC	= TP_ERR_START + 4, /* not a perf.data file */
	TP_ERR_OLD_MAGIC	= TP_ERR_START + 5, /* "PERFFILE" v1 format, not supported */
	TP_ERR_SHORT_HEADER	= TP_ERR_START + 6, /* input ends inside the file/pipe header */
	TP_ERR_BAD_HEADER	= TP_ERR_START + 7, /* header fields out of bounds or at odds */
	TP_ERR_BAD_ATTR		= TP_ERR_START + 8, /* attr section or an attr is malformed */
	TP_ERR_ATTR_ABI		= TP_ERR_START + 9, /* attr bigger than ours, extra bytes set */
	TP_ERR_COMPRESSED	= TP_ERR_START + 10, /* PERF_RECORD_COMPRESSED(2) (zstd) */
	TP_ERR_BAD_RECORD	= TP_ERR_START + 11, /* a record is corrupt (skipped, warned) */
	TP_ERR_UNKNOWN_ID	= TP_ERR_START + 12, /* a sample's id matches no attr */
	TP_ERR_BAD_FEATURE	= TP_ERR_START + 13, /* a feature section is malformed */
	TP_ERR_NO_ATTRS		= TP_ERR_START + 14, /* no event attrs at all */
	TP_ERR_INVAL		= TP_ERR_START + 15, /* bad argument from the caller */
	TP_ERR_STOPPED		= TP_ERR_START + 16, /* a callback asked to stop */
	TP_ERR_NOT_REGULAR	= TP_ERR_START + 17, /* a FIFO, device or socket, not a file */
	TP_ERR_MAX
};

/* The message of an errno value (strerror's) or of a TP code (ours); err may be given
 * negative or positive. Never NULL: an unknown code gives "unknown error N". The same
 * declaration as libc-shim/errno.h's, which the host build does not link: one function. */
const char *tp_strerror(long err);
/* what the user can do about it, for the end of an error line; NULL when we know nothing */
const char *tp_error_hint(long err);

#endif
