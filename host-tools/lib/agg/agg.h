/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/agg/: aggregation: histograms, call graphs, sample filters, diff pairing. */
/* Layer agg: may use common/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_AGG_AGG_H
#define TINYPERF_HOST_TOOLS_LIB_AGG_AGG_H

#include "host-tools/lib/agg/hist.h"
#include "host-tools/lib/agg/hfilter.h"
#include "host-tools/lib/agg/symdiff.h"

#endif
