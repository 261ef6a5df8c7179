/* SPDX-License-Identifier: MIT */
/* libFuzzer target for archive unpacking (host-tools/lib/archive/tar-unpack.c through
 * libarchive), as `tinyperf archive --unpack`: the input is the archive file (tar, gzip or zstd;
 * a plain tar gets its header checksums fixed up first), unpacked into a scratch build-id cache
 * and data directory with force on. Afterwards nothing may exist beside those two (a member
 * that got out of its tree aborts); then both are removed. */
#include "tests/fuzz/fuzz.h"

#include <dirent.h>
#include <ftw.h>

#include "host-tools/lib/archive/archive.h"

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* dir holds only the names in keep[] */
static void only(const char *dir, const char *const *keep, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		abort();
	while ((de = readdir(d))) {
		size_t i;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; i < n && strcmp(de->d_name, keep[i]); i++)
			;
		if (i == n) {
			fprintf(stderr, "a member escaped: %s/%s\n", dir, de->d_name);
			abort();
		}
	}
	closedir(d);
}

/* a plain tar's header checksums made right again, so that mutations reach the unpacker's
 * checks instead of failing libarchive's (a compressed archive is left as it is) */
static void fix_sums(uint8_t *t, size_t size)
{
	for (size_t off = 0; off + 512 <= size && !memcmp(t + off + 257, "ustar", 5);) {
		uint8_t *h = t + off;
		unsigned long sum = 0, len = 0;

		for (int i = 0; i < 512; i++)
			sum += i >= 148 && i < 156 ? ' ' : h[i];
		snprintf((char *)h + 148, 8, "%06lo", sum & 0777777);
		h[155] = ' ';
		for (int i = 124; i < 135 && h[i] >= '0' && h[i] <= '7'; i++)
			len = len * 8 + (unsigned long)(h[i] - '0');
		if (len > size)
			break;
		off += 512 + (len + 511) / 512 * 512;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char in[300], root[300], cache[300], out[300];
	static const char *const top[] = { "in.tar", "root" }, *const trees[] = { "cache", "data" };
	struct tp_unpack_conf conf = { .cache_dir = cache, .data_dir = out, .force = true,
				       .log = fuzz_log };
	struct tp_unpack_stats st;
	uint8_t *copy;

	if (!in[0]) {
		snprintf(in, sizeof(in), "%s/in.tar", fuzz_dir());
		snprintf(root, sizeof(root), "%s/root", fuzz_dir());
		snprintf(cache, sizeof(cache), "%s/cache", root);
		snprintf(out, sizeof(out), "%s/data", root);
	}
	copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	fix_sums(copy, size);
	fuzz_write(in, copy, size);
	free(copy);
	memset(&st, 0, sizeof(st));
	if (!tp_archive__unpack(in, &conf, &st))
		sink += st.files + st.links + st.data_files + st.bytes;
	only(fuzz_dir(), top, 2);
	if (!access(root, F_OK)) {
		only(root, trees, 2);
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	return 0;
}
