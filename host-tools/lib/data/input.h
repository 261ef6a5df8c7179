/* SPDX-License-Identifier: MIT */
/* Getting perf.data bytes into memory: a regular file is mapped, a pipe or stdin is read to
 * its end into a growing buffer. The parsers only ever see (buf, len). */
#ifndef TINYPERF_HOST_TOOLS_LIB_DATA_INPUT_H
#define TINYPERF_HOST_TOOLS_LIB_DATA_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

struct tp_input {
	const uint8_t *buf;
	size_t len;
	void *map;		/* mmap()ed file, or NULL */
	uint8_t *heap;		/* read() buffer, or NULL */
};

/* path "-" is standard input. 0, -errno (open, read or mmap failed) or -TP_ERR_*, the detail
 * logged. */
int tp_input__open(struct tp_input *in, const char *path, const struct tp_log *log);
void tp_input__close(struct tp_input *in);

#endif
