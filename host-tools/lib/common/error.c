/* Messages for enum tp_error. */
#include "host-tools/lib/common/error.h"

static const struct {
	const char *msg;
	const char *hint;
} errors[TP_ERR_MAX] = {
	[TP_OK] = { "success", "" },
	[TP_ERR_NOMEM] = { "out of memory", "free some memory and try again" },
	[TP_ERR_IO] = { "cannot read the input", "check the path and its permissions" },
	[TP_ERR_EMPTY] = { "the file is empty", "the recording wrote nothing: record again" },
	[TP_ERR_BAD_MAGIC] = { "not a perf.data file (bad magic)",
			       "give a file written by tinyperf record or perf record" },
	[TP_ERR_OLD_MAGIC] = { "perf.data version 1 (PERFFILE) is not supported",
			       "convert it with a newer 'perf inject'" },
	[TP_ERR_SHORT_HEADER] = { "the file ends inside its header",
				  "the file was cut short: copy it again or record again" },
	[TP_ERR_BAD_HEADER] = { "the file header is corrupt",
				"the file is damaged: copy it again or record again" },
	[TP_ERR_BAD_ATTR] = { "the event attributes are corrupt",
			      "the file is damaged: copy it again or record again" },
	[TP_ERR_ATTR_ABI] = { "the file uses a newer perf_event_attr ABI",
			      "update tinyperf, or record with an older perf" },
	[TP_ERR_COMPRESSED] = { "the file holds zstd-compressed records",
				"record without -z/--compression-level, or 'perf inject' it "
				"to an uncompressed file" },
	[TP_ERR_BAD_RECORD] = { "corrupt record", "the file is damaged" },
	[TP_ERR_UNKNOWN_ID] = { "sample id matches no event", "the file is damaged" },
	[TP_ERR_BAD_FEATURE] = { "corrupt feature section", "the file is damaged" },
	[TP_ERR_NO_ATTRS] = { "the file describes no events",
			      "the file is damaged: record again" },
	[TP_ERR_INVAL] = { "invalid argument", "this is a bug in the caller" },
	[TP_ERR_STOPPED] = { "stopped by the caller", "" },
};

static int index_of(int err)
{
	if (err < 0)
		err = -err;
	return err < TP_ERR_MAX ? err : -1;
}

const char *tp_error_str(int err)
{
	int i = index_of(err);

	return i < 0 ? "unknown error" : errors[i].msg;
}

const char *tp_error_hint(int err)
{
	int i = index_of(err);

	return i < 0 ? "" : errors[i].hint;
}
