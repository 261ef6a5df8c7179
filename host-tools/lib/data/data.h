/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/data/: perf.data in memory: the reader, record decoding, feature sections. */
/* Layer data: may use common/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_DATA_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_DATA_H

#include "host-tools/lib/data/input.h"
#include "host-tools/lib/data/reader.h"
#include "host-tools/lib/data/event.h"
#include "host-tools/lib/data/attrs.h"
#include "host-tools/lib/data/feature.h"
#include "host-tools/lib/data/decode.h"
#include "host-tools/lib/data/symembed.h"

#endif
