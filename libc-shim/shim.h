/* SPDX-License-Identifier: MIT */
/* libc-shim: the only "libc" the recorder and perfdata/ see.
 * Two backends implement it: hosted (over any libc) and freestanding (over arch/ only).
 * Every sys_*() returns a value >= 0 on success or -errno; nothing here touches errno. */
#ifndef TINYPERF_LIBC_SHIM_SHIM_H
#define TINYPERF_LIBC_SHIM_SHIM_H

#include "libc-shim/types.h"
#include "libc-shim/errno.h"
#include "libc-shim/sys.h"
#include "libc-shim/str.h"
#include "libc-shim/fmt.h"
#include "libc-shim/out.h"
#include "libc-shim/parse.h"
#include "libc-shim/file.h"

#endif
