/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets (tests/fuzz/fuzz-*.c): a log that swallows messages (but reads
 * them, so the sanitizers check every formatted byte), a sink the compiler cannot drop, and the
 * input written to a file for the entry points that take a path. */
#ifndef TINYPERF_TESTS_FUZZ_FUZZ_H
#define TINYPERF_TESTS_FUZZ_FUZZ_H
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static inline void fuzz_log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	(void)ctx;
	sink += (uint64_t)level + strlen(msg);
}

static const struct tp_log fuzz_log = { fuzz_log_fn, NULL };

/* a scratch directory of this process (under $TMPDIR, else /tmp), made once */
static inline const char *fuzz_dir(void)
{
	static char dir[256];

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/tp-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
	}
	return dir;
}

/* the input as the file at path (replaced whole): 0, or abort when the disk refuses */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		abort();
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			abort();
		data += n;
		size -= (size_t)n;
	}
	close(fd);
}

#endif
