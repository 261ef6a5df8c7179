/* SPDX-License-Identifier: MIT */
/* The public header of host-tools/lib/sym/: the symbolizer: addresses of a recorded DSO or kernel to names, lines and inlines. */
/* Layer sym: may use common/, data/, bidcache/. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_SYM_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_SYM_H

#include "host-tools/lib/sym/symbolizer.h"
#include "host-tools/lib/sym/symtab.h"
#include "host-tools/lib/sym/kallsyms.h"
#include "host-tools/lib/sym/debugpath.h"

#endif
