/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/common/: errors, logging, files, hashing, growing arrays, bounded reads, paths, ELF predicates and libraries opened on first use that every layer uses. */
/* Layer common: may use nothing else of the library. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_COMMON_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_COMMON_H

#include "host-tools/lib/common/error.h"
#include "host-tools/lib/common/log.h"
#include "host-tools/lib/common/fsutil.h"
#include "host-tools/lib/common/htab.h"
#include "host-tools/lib/common/grow.h"
#include "host-tools/lib/common/cursor.h"
#include "host-tools/lib/common/path.h"
#include "host-tools/lib/common/elfinfo.h"
#include "host-tools/lib/common/dl.h"

#endif
