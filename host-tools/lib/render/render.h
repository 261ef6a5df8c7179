/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/render/: pictures of a profile and exports (a flame graph drawn as a self-contained SVG; a one-file HTML report; pprof's profile.proto; speedscope's JSON). */
/* Layer render: may use common/, data/, session/, sym/, agg/, frames/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_RENDER_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_RENDER_H

#include "host-tools/lib/render/flame.h"
#include "host-tools/lib/render/pprof.h"
#include "host-tools/lib/render/speedscope.h"
#include "host-tools/lib/render/html.h"

#endif
