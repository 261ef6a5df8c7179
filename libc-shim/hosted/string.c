/* SPDX-License-Identifier: MIT */
/* Static musl: the recorder's own small string and memory functions (freestanding/string.c)
 * replace musl's, which are built for speed on long inputs (memcpy alone is 1.3 KiB on MIPS);
 * the linker then takes none of musl's, and musl's own callers use these too. Other C
 * libraries (and the host tools) keep theirs. */
#include "libc-shim/types.h"

#if IS_ENABLED(CONFIG_SHIM_MUSL)
#include "libc-shim/freestanding/string.c"
#endif
