/* SPDX-License-Identifier: MIT */
/* What this binary was built as, from Kconfig: printed by --version and recorded in perf.data. */
#include "libc-shim/types.h"
#include "recorder/base/build-info.h"

const char *tp_build_arch(void)
{
	return CONFIG_ARCH_NAME;
}

const char *tp_build_libc(void)
{
	if (IS_ENABLED(CONFIG_SHIM_FREESTANDING))
		return "freestanding";
	if (IS_ENABLED(CONFIG_SHIM_MUSL))
		return "musl";
	return "toolchain libc";
}
