/* SPDX-License-Identifier: MIT */
/* tests for the recorder's one-shot .xz decoder (recorder/embed/xz.c), with Debian's xz as the peer:
 * streams it makes (-0, -9e, --check=crc32/crc64/none, several blocks, incompressible data in
 * stored chunks, empty input, raw LZMA2 as the packed recorder's payload) decode to the exact
 * input; corrupt and truncated ones (every
 * truncation, every single-bit flip of a small stream) are refused without a crash (run under
 * ASan); sizes past XZ_OUT_MAX are refused from the index. Needs xz(1) in PATH.
 * Prints [OK]/[FAIL] per case and "test-rec-xz: N passed, N failed". */
#define _GNU_SOURCE
#include "tests/unit/rec-test.h"
#include <unistd.h>
#include "recorder/embed/xz.h"

static struct xz_work work;

/* deterministic input: text-like runs mixed with noise (compressible, with repeats at
 * many distances), or pure noise */
static uint8_t *make_input(size_t n, bool noise)
{
	static const char *words[] = { "symbol ", "static_hot ", ".gnu_debugdata ", "main\n",
				       "_ZN4core3fmt5write17h ", "lzma2 ", "\x7f" "ELF\2\1\1" };
	uint8_t *p = malloc(n + 1);
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < n;) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (noise || x % 7 == 0) {
			p[i++] = (uint8_t)(x >> 8);
		} else {
			const char *w = words[x % TP_ARRAY_SIZE(words)];

			for (size_t k = 0; w[k] && i < n; k++)
				p[i++] = (uint8_t)w[k];
		}
	}
	return p;
}

/* xz ARGS over in[0, n): the compressed bytes (malloc'd) and their length, or NULL */
static uint8_t *run_xz(const char *args, const uint8_t *in, size_t n, size_t *out_len)
{
	char cmd[256];
	FILE *f;
	uint8_t *out;
	size_t cap = n + 65536, len = 0, got;

	snprintf(cmd, sizeof(cmd), "xz -c %s >xz-test.out", args);
	f = popen(cmd, "w");
	if (!f)
		return NULL;
	fwrite(in, 1, n, f);
	if (pclose(f) != 0)
		return NULL;
	f = fopen("xz-test.out", "rb");
	if (!f)
		return NULL;
	out = malloc(cap);
	while ((got = fread(out + len, 1, cap - len, f)) > 0)
		len += got;
	fclose(f);
	unlink("xz-test.out");
	*out_len = len;
	return out;
}

/* decode into an exactly sized heap buffer (ASan sees any overrun) */
static long decode(const uint8_t *xz, size_t len, uint8_t **res)
{
	long size = xz__size(xz, len), n;
	uint8_t *out;

	*res = NULL;
	if (size < 0)
		return size;
	out = malloc(size ? (size_t)size : 1);
	n = xz__decode(&work, xz, len, out, (size_t)size);
	if (n < 0) {
		free(out);
		return n;
	}
	*res = out;
	return n;
}

static void roundtrip(const char *name, const char *args, size_t n, bool noise)
{
	uint8_t *in = make_input(n, noise), *xz, *out;
	size_t xz_len = 0;
	long got;

	xz = run_xz(args, in, n, &xz_len);
	if (!xz) {
		check(name, false, "xz %s failed", args);
		free(in);
		return;
	}
	got = decode(xz, xz_len, &out);
	check(name, got == (long)n && !memcmp(out, in, n), "%zu -> %zu bytes (%s): got %ld (%s)",
	      n, xz_len, args, got, got < 0 ? tp_strerror(got) : "content differs");
	free(out);
	free(xz);
	free(in);
}

/* every truncation and every single-bit flip of a small CRC-checked stream: refused, no crash */
static void corrupt(const char *args)
{
	uint8_t *in = make_input(3000, false), *xz, *out;
	size_t xz_len = 0, bad_trunc = 0, bad_flip = 0, flips = 0;
	char name[96];

	xz = run_xz(args, in, 3000, &xz_len);
	if (!xz) {
		check("corrupt: xz", false, "xz %s failed", args);
		free(in);
		return;
	}
	for (size_t cut = 0; cut < xz_len; cut++) {
		uint8_t *t = malloc(cut ? cut : 1);

		memcpy(t, xz, cut);
		if (decode(t, cut, &out) >= 0)
			bad_trunc++;
		free(out);
		free(t);
	}
	snprintf(name, sizeof(name), "%s: all %zu truncations refused", args, xz_len);
	check(name, !bad_trunc, "%zu decoded", bad_trunc);
	for (size_t i = 0; i < xz_len; i++)
		for (int b = 0; b < 8; b++) {
			long n;

			xz[i] ^= (uint8_t)(1 << b);
			n = decode(xz, xz_len, &out);
			/* a flip the checks cannot see would decode to other bytes */
			if (n >= 0 && (n != 3000 || memcmp(out, in, 3000)))
				bad_flip++;
			free(out);
			xz[i] ^= (uint8_t)(1 << b);
			flips++;
		}
	snprintf(name, sizeof(name), "%s: all %zu bit flips refused or harmless", args, flips);
	check(name, !bad_flip, "%zu decoded to wrong data", bad_flip);
	free(xz);
	free(in);
}

/* hostile: random bytes behind a valid stream header and footer shape; never crashes */
static void garbage(void)
{
	uint8_t *in = make_input(4096, false), *xz, *out;
	size_t xz_len = 0, ok = 0;
	uint32_t x = 12345;

	xz = run_xz("-6 --check=none", in, 4096, &xz_len);
	if (!xz) {
		check("garbage: xz", false, "xz failed");
		free(in);
		return;
	}
	/* without a check, damage inside the LZMA2 data reaches the range decoder */
	for (int round = 0; round < 3000; round++) {
		uint8_t *t = malloc(xz_len);

		memcpy(t, xz, xz_len);
		for (int k = 0; k < 1 + round % 8; k++) {
			x = x * 1103515245u + 12345u;
			size_t at = 12 + 6 + (x >> 8) % (xz_len / 2);	/* block data */

			t[at] = (uint8_t)(x >> 16);
		}
		if (decode(t, xz_len, &out) >= 0)
			ok++;
		free(out);
		free(t);
	}
	check("3000 streams with damaged LZMA2 data: no crash, no overrun", true, "");
	printf("      (%zu of them still decoded: no check to catch them)\n", ok);
	free(xz);
	free(in);
}

/* a raw LZMA2 stream (the packed recorder's payload): decodes exactly into an exactly sized
 * buffer; every truncation, a byte past its end, and a buffer one byte short are refused */
static void raw(const char *name, const char *args, size_t n, bool noise)
{
	uint8_t *in = make_input(n, noise), *z, *out = malloc(n + 1), *t;
	size_t z_len = 0, bad = 0;
	long got;

	z = run_xz(args, in, n, &z_len);
	if (!z) {
		check(name, false, "xz %s failed", args);
		free(out);
		free(in);
		return;
	}
	got = xz__lzma2(&work, z, z_len, out, n);
	check(name, got == (long)n && !memcmp(out, in, n), "%zu -> %zu bytes (%s): got %ld", n,
	      z_len, args, got);
	for (size_t cut = 0; cut < z_len; cut++) {
		t = malloc(cut ? cut : 1);
		memcpy(t, z, cut);
		if (xz__lzma2(&work, t, cut, out, n) >= 0)
			bad++;
		free(t);
	}
	t = malloc(z_len + 1);
	memcpy(t, z, z_len);
	t[z_len] = 0;
	check("raw: every truncation, a byte past the end, a short buffer: refused",
	      !bad && xz__lzma2(&work, t, z_len + 1, out, n) == -TP_EBADMSG &&
	      (!n || xz__lzma2(&work, z, z_len, out, n - 1) == -TP_EBADMSG),
	      "%zu truncations decoded", bad);
	free(t);
	free(z);
	free(out);
	free(in);
}

int main(void)
{
	uint8_t *out, *z;
	size_t len = 0;
	long n;

	roundtrip("xz -0 --check=crc32, 200 KiB", "-0 --check=crc32", 200000, false);
	roundtrip("xz -9e --check=crc64, 300 KiB", "-9e --check=crc64", 300000, false);
	roundtrip("xz -6 --check=none, 100 KiB", "-6 --check=none", 100000, false);
	roundtrip("xz -6 default check (crc64), 1 byte", "-6", 1, false);
	roundtrip("xz, empty input (no block)", "-6 --check=crc32", 0, false);
	roundtrip("xz --block-size=65536: several blocks", "-6 --check=crc32 --block-size=65536",
		  400000, false);
	roundtrip("xz -9: noise, stored chunks, several LZMA2 chunks", "-9 --check=crc32",
		  250000, true);
	roundtrip("xz -1 mixed 3 MiB: many LZMA2 chunks", "-1 --check=crc64", 3u << 20, false);
	corrupt("-6 --check=crc32");
	corrupt("-0 --check=crc64");
	garbage();
	raw("raw LZMA2, lc=1 lp=2 pb=2 (the packed recorder's), 60 KiB",
	    "--format=raw --lzma2=preset=9e,lc=1,lp=2,pb=2", 60000, false);
	raw("raw LZMA2, preset 9e, noise: stored chunks, 40 KiB", "--format=raw --lzma2=preset=9e",
	    40000, true);

	/* SHA-256 is a valid check this decoder does not have: a distinct error */
	z = make_input(1000, false);
	out = run_xz("--check=sha256", z, 1000, &len);
	n = out ? xz__size(out, len) : 0;
	check("--check=sha256: refused as unsupported", n == -TP_ENOSYS, "got %ld", n);
	free(out);
	free(z);
	/* a BCJ filter chain */
	z = make_input(1000, false);
	out = run_xz("--x86 --lzma2 --check=crc32", z, 1000, &len);
	if (out) {
		uint8_t *res;

		n = decode(out, len, &res);
		free(res);
	}
	check("--x86 filter chain: refused as unsupported", out && n == -TP_ENOSYS, "got %ld", n);
	free(out);
	free(z);
	/* past the cap: refused from the index, before any decoding */
	z = calloc(1, XZ_OUT_MAX + 1);
	out = run_xz("-1", z, XZ_OUT_MAX + 1, &len);
	n = out ? xz__size(out, len) : 0;
	check("4 MiB + 1 byte: refused (-EFBIG)", n == -TP_EFBIG, "got %ld", n);
	free(out);
	free(z);
	/* a caller buffer smaller than the index says */
	z = make_input(5000, false);
	out = run_xz("-6", z, 5000, &len);
	{
		uint8_t small[4999];

		n = out ? xz__decode(&work, out, len, small, sizeof(small)) : 0;
	}
	check("a buffer short of the index's size: -EINVAL", n == -TP_EINVAL, "got %ld", n);
	free(out);
	free(z);
	/* not xz at all */
	n = xz__size((const uint8_t *)"\177ELF this is not xz at all, padded..", 36);
	check("not an xz stream: -EBADMSG", n == -TP_EBADMSG, "got %ld", n);

	printf("test-rec-xz: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
