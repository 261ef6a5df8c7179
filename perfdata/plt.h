/* SPDX-License-Identifier: MIT */
/* The .plt layout perf 6.1 assumes when it names PLT stubs "name@plt", one per .rela.plt
 * (.rel.plt) entry: a header, then entries of one size. The recorder (embedded symbols,
 * recorder/embed/symembed-elf.c) and the host's symbolizer (host-tools/lib/sym/plt.c) both lay the
 * stubs out through it, so that both name an address as perf does. */
#ifndef TINYPERF_PERFDATA_PLT_H
#define TINYPERF_PERFDATA_PLT_H

#include "libc-shim/types.h"

#define TP_EM_ARM	40
#define TP_EM_AARCH64	183

/* from e_machine and .plt's sh_entsize: the header's size and each entry's (0: no layout) */
static inline void tp_plt_layout(unsigned machine, uint64_t entsize, uint64_t *header,
				 uint64_t *entry)
{
	*header = *entry = entsize;
	if (machine == TP_EM_ARM)
		*header = 20, *entry = 12;
	else if (machine == TP_EM_AARCH64)
		*header = 32, *entry = 16;
}

#endif
