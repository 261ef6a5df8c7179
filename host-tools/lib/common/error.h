/* The host library's error codes: stable numbers (never renumbered, only appended), returned
 * negated by every lib function that can fail, and their messages. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_ERROR_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_ERROR_H

enum tp_error {
	TP_OK			= 0,
	TP_ERR_NOMEM		= 1,	/* out of memory */
	TP_ERR_IO		= 2,	/* the input could not be read (errno in the log) */
	TP_ERR_EMPTY		= 3,	/* zero-length input */
	TP_ERR_BAD_MAGIC	= 4,	/* not a perf.data file */
	TP_ERR_OLD_MAGIC	= 5,	/* "PERFFILE" v1 format, not supported */
	TP_ERR_SHORT_HEADER	= 6,	/* input ends inside the file or pipe header */
	TP_ERR_BAD_HEADER	= 7,	/* header fields out of bounds or inconsistent */
	TP_ERR_BAD_ATTR		= 8,	/* attr section or an attr is malformed */
	TP_ERR_ATTR_ABI		= 9,	/* attr bigger than ours with non-zero extra bytes */
	TP_ERR_COMPRESSED	= 10,	/* PERF_RECORD_COMPRESSED(2): zstd data we do not inflate */
	TP_ERR_BAD_RECORD	= 11,	/* a record is corrupt (skipped, reported as a warning) */
	TP_ERR_UNKNOWN_ID	= 12,	/* a sample's id matches no attr */
	TP_ERR_BAD_FEATURE	= 13,	/* a feature section is malformed */
	TP_ERR_NO_ATTRS		= 14,	/* no event attrs at all */
	TP_ERR_INVAL		= 15,	/* bad argument from the caller */
	TP_ERR_STOPPED		= 16,	/* a callback asked to stop */
	TP_ERR_MAX
};

/* err may be given positive or negative; never returns NULL */
const char *tp_error_str(int err);
/* what the user can do about it, for the second half of an error line; never NULL */
const char *tp_error_hint(int err);

#endif
