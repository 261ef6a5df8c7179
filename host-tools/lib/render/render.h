/* The public header of host-tools/lib/render/: pictures of a profile (a flame graph's tree of named frames, drawn as a self-contained SVG). */
/* Layer render: may use common/, data/, session/, sym/, agg/, frames/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RENDER_RENDER_H
#define TINYPERF_HOST_TOOLS_LIB_RENDER_RENDER_H

#include "host-tools/lib/render/flame.h"

#endif
