/* SPDX-License-Identifier: MIT */
/* libFuzzer target for tracepoint formats (host-tools/lib/trace/): a TRACING_DATA blob parsed
 * (its format files, fields and print-fmt expressions) and one raw record printed with every
 * event it defines, as `tinyperf script` prints tracepoint samples, into a roomy buffer and a
 * short one. Input: a little-endian u16 n, n bytes of raw record, then the blob. */
#include "tests/fuzz/fuzz.h"

#include "host-tools/lib/trace/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char big[4096], small[16];
	struct tp_tracefmt *tf;
	uint8_t *raw;
	size_t n;

	if (size < 2)
		return 0;
	n = (size_t)data[0] | (size_t)data[1] << 8;
	if (n > size - 2)
		n = size - 2;
	if (tp_tracefmt__parse(&tf, data + 2 + n, size - 2 - n, &fuzz_log))
		return 0;
	raw = malloc(n ? n : 1);	/* a copy of its exact size: ASan sees every over-read */
	if (!raw)
		abort();
	memcpy(raw, data + 2, n);
	sink += tp_tracefmt__nr_events(tf);
	for (uint32_t i = 0; i < tf->nr_events && i < 32; i++) {
		const struct tp_tpevent *e = &tf->events[i];

		if (tp_tracefmt__event(tf, e->id) == NULL)
			abort();	/* every event is found by its id */
		if (tp_tpevent__format(tf, e, raw, n, big, sizeof(big)) >= sizeof(big))
			sink++;
		sink += strlen(big);
		tp_tpevent__format(tf, e, raw, n, small, sizeof(small));
		if (strlen(small) >= sizeof(small))
			abort();
	}
	free(raw);
	tp_tracefmt__delete(tf);
	return 0;
}
