/* SPDX-License-Identifier: MIT */
/* What this binary was built as (build-info.c): for --version and the usage line. */
#ifndef TINYPERF_RECORDER_BASE_BUILD_INFO_H
#define TINYPERF_RECORDER_BASE_BUILD_INFO_H

const char *tp_build_arch(void);
const char *tp_build_libc(void);

#endif
