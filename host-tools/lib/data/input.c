/* SPDX-License-Identifier: MIT */
/* Loading the input: mmap for files, read-to-end for pipes. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/data/input.h"

/* The first 8 bytes decide whether the rest is worth reading or mapping: a 4 GiB file of
 * zeros (or /dev/zero, a pipe of noise) is refused here, before any of it is in memory.
 * Fewer than 8 bytes are left to the reader, which says how short the file is. */
static int check_magic(const uint8_t *p, size_t n)
{
	if (n < 8 || !memcmp(p, "PERFILE2", 8) || !memcmp(p, "2ELIFREP", 8))
		return 0;
	return memcmp(p, "PERFFILE", 8) ? -TP_ERR_BAD_MAGIC : -TP_ERR_OLD_MAGIC;
}

static int read_all(struct tp_input *in, int fd, const char *path, const struct tp_log *log)
{
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	bool checked = false;

	if (!buf)
		return -TP_ERR_NOMEM;
	for (;;) {
		ssize_t n;

		if (TP_GROW(buf, cap, len + 1, 0)) {	/* room for a read */
			free(buf);
			return -TP_ERR_NOMEM;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			tp_log__error(log, "cannot read %s: %s", path, tp_strerror(err));
			free(buf);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (!checked && len >= 8) {	/* read to the end only after a valid magic */
			int err = check_magic(buf, len);

			if (err) {
				free(buf);
				return err;
			}
			checked = true;
		}
	}
	in->heap = buf;
	in->buf = buf;
	in->len = len;
	return len ? 0 : -TP_ERR_EMPTY;
}

int tp_input__open(struct tp_input *in, const char *path, const struct tp_log *log)
{
	struct stat st;
	int fd, err;

	memset(in, 0, sizeof(*in));
	if (!strcmp(path, "-"))
		return read_all(in, STDIN_FILENO, "standard input", log);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		tp_log__error(log, "cannot open %s: %s", path, tp_strerror(err));
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		tp_log__error(log, "cannot stat %s: %s", path, tp_strerror(err));
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		err = read_all(in, fd, path, log);
		close(fd);
		return err;
	}
	if (st.st_size == 0) {
		close(fd);
		return -TP_ERR_EMPTY;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -TP_ERR_NOMEM;
	}
	{
		uint8_t head[8];
		ssize_t n;

		do
			n = pread(fd, head, sizeof(head), 0);
		while (n < 0 && errno == EINTR);
		err = n < 0 ? -errno : check_magic(head, (size_t)n);
		if (err) {
			if (n < 0)
				tp_log__error(log, "cannot read %s: %s", path, tp_strerror(err));
			close(fd);
			return err;
		}
	}
	/* mapped lazily (no MAP_POPULATE): pages come in as the reader walks them, so a
	 * huge file whose header turns out bad never costs its size in memory */
	in->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	err = in->map == MAP_FAILED ? -errno : 0;
	close(fd);
	if (err) {
		in->map = NULL;
		tp_log__error(log, "cannot map %s: %s", path, tp_strerror(err));
		return err;
	}
	madvise(in->map, (size_t)st.st_size, MADV_SEQUENTIAL);	/* readahead, not populate */
	in->buf = in->map;
	in->len = (size_t)st.st_size;
	return 0;
}

void tp_input__close(struct tp_input *in)
{
	if (in->map)
		munmap(in->map, in->len);
	free(in->heap);
	memset(in, 0, sizeof(*in));
}
