/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the recorder's .xz decoder (recorder/embed/xz.c, built for the host):
 * a .xz stream as MiniDebugInfo (.gnu_debugdata) holds it, sized from its index then decoded
 * into a buffer of exactly that size, and the same bytes as the packed recorder's raw LZMA2
 * payload (recorder/pack/unpack.c) into a buffer whose size the first two bytes give. */
#include "tests/fuzz/fuzz.h"

#include "recorder/embed/xz.h"

static struct xz_work work;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out;
	size_t cap;
	long n;

	if (size < 2)
		return 0;
	n = xz__size(data, size);
	if (n >= 0 && (size_t)n <= XZ_OUT_MAX) {
		out = malloc(n ? (size_t)n : 1);	/* exact: ASan sees every overrun */
		if (!out)
			abort();
		if (xz__decode(&work, data, size, out, (size_t)n) > n)
			abort();
		free(out);
	}
	/* raw LZMA2 after a 2-byte output size (times 16: up to 1 MiB) */
	cap = ((size_t)data[0] | (size_t)data[1] << 8) * 16;
	out = malloc(cap ? cap : 1);
	if (!out)
		abort();
	n = xz__lzma2(&work, data + 2, size - 2, out, cap);
	if (n > (long)cap)
		abort();
	free(out);
	return 0;
}
