/* SPDX-License-Identifier: MIT */
/* Messages and hints for the host library's errors: errno values through strerror(), TP codes
 * from the table below. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host-tools/lib/common/error.h"

#define TP(code) [(code) - TP_ERR_START]

static const struct {
	const char *msg;
	const char *hint;
} tp_errors[TP_ERR_MAX - TP_ERR_START] = {
	TP(TP_ERR_NOMEM) = { "out of memory", "free some memory and try again" },
	TP(TP_ERR_IO) = { "cannot read the input", "check the path and its permissions" },
	TP(TP_ERR_EMPTY) = { "the file is empty", "the recording wrote nothing: record again" },
	TP(TP_ERR_BAD_MAGIC) = { "not a perf.data file (bad magic)",
				 "give a file written by tinyperf record or perf record" },
	TP(TP_ERR_OLD_MAGIC) = { "perf.data version 1 (PERFFILE) is not supported",
				 "convert it with a newer 'perf inject'" },
	TP(TP_ERR_SHORT_HEADER) = { "the file ends inside its header",
				    "the file was cut short: copy it again or record again" },
	TP(TP_ERR_BAD_HEADER) = { "the file header is corrupt",
				  "the file is damaged: copy it again or record again" },
	TP(TP_ERR_BAD_ATTR) = { "the event attributes are corrupt",
				"the file is damaged: copy it again or record again" },
	TP(TP_ERR_ATTR_ABI) = { "the file uses a newer perf_event_attr ABI",
				"update tinyperf, or record with an older perf" },
	TP(TP_ERR_COMPRESSED) = { "the file holds zstd-compressed records",
				  "record without -z/--compression-level, or 'perf inject' it "
				  "to an uncompressed file" },
	TP(TP_ERR_BAD_RECORD) = { "corrupt record", "the file is damaged" },
	TP(TP_ERR_UNKNOWN_ID) = { "sample id matches no event", "the file is damaged" },
	TP(TP_ERR_BAD_FEATURE) = { "corrupt feature section", "the file is damaged" },
	TP(TP_ERR_NO_ATTRS) = { "the file describes no events",
				"the file is damaged: record again" },
	TP(TP_ERR_INVAL) = { "invalid argument", "this is a bug in the caller" },
	TP(TP_ERR_STOPPED) = { "stopped by the caller", NULL },
	TP(TP_ERR_NOT_REGULAR) = { "not a regular file (a FIFO, device or socket)",
				   "put the file itself at that path, or remove what is there" },
};

/* |err|, without overflow for LONG_MIN */
static unsigned long magnitude(long err)
{
	return err < 0 ? 0UL - (unsigned long)err : (unsigned long)err;
}

static int tp_index(unsigned long e)
{
	return e >= TP_ERR_START && e < TP_ERR_MAX && tp_errors[e - TP_ERR_START].msg ?
	       (int)(e - TP_ERR_START) : -1;
}

const char *tp_strerror(long err)
{
	/* per thread, as strerror's own buffer for its unknown numbers */
	static _Thread_local char unknown[40];
	unsigned long e = magnitude(err);
	int i = tp_index(e);

	if (i >= 0)
		return tp_errors[i].msg;
	if (e < TP_ERR_START)
		return strerror((int)e);
	snprintf(unknown, sizeof(unknown), "unknown error %lu", e);
	return unknown;
}

const char *tp_error_hint(long err)
{
	unsigned long e = magnitude(err);
	int i = tp_index(e);

	if (i >= 0)
		return tp_errors[i].hint;
	switch (e) {
	case ENOENT:
		return "check the path";
	case EACCES:
	case EPERM:
		return "check the permissions";
	case ENOSPC:
	case EDQUOT:
		return "free some disk space";
	case EISDIR:
		return "give a file, not a directory";
	case ENOMEM:
		return tp_errors[TP_ERR_NOMEM - TP_ERR_START].hint;
	default:
		return NULL;
	}
}
