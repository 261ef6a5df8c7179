/* SPDX-License-Identifier: MIT */
/* The disassembler of a host build without Capstone (make host HOST_CAPSTONE=n, as in
 * Buildroot, which has no capstone package): annotate says so instead of disassembling. */
#include <errno.h>
#include <stdlib.h>

#include "host-tools/lib/annotate/internal.h"

int tp_annelf__disasm(struct tp_annelf *e, uint64_t start, uint64_t size, bool thumb_hint,
		      struct tp_insns *out)
{
	(void)e;
	(void)start;
	(void)size;
	(void)thumb_hint;
	out->nr = 0;
	return -ENOSYS;
}

void tp_insns__release(struct tp_insns *in)
{
	free(in->v);
	in->v = NULL;
	in->nr = in->cap = 0;
}
