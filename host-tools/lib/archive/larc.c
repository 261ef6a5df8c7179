/* SPDX-License-Identifier: MIT */
/* Opens libarchive for the archive layer on first use (larc.h). */
#include "host-tools/lib/archive/larc.h"

/* libarchive's soname since 3.0 (2011); the header gives no way to spell it */
_Static_assert(ARCHIVE_VERSION_NUMBER >= 3000000, "libarchive 3 (libarchive.so.13) expected");
#define TP_LARC_SONAME	"libarchive.so.13"

tp_dl_fn tp_larc[TP_LARC_NR];

#define TP_LARC_NAME(fn)	#fn,
static const char *const names[TP_LARC_NR] = { TP_LARC_FNS(TP_LARC_NAME) };

int tp_larc__load(const struct tp_log *log)
{
	return tp_dl__load(TP_LARC_SONAME, names, tp_larc, TP_LARC_NR, log);
}
