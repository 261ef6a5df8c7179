/* SPDX-License-Identifier: MIT */
/* libFuzzer target for `tinyperf recv`'s input side: the stream framing decoder
 * (perfdata/deframe.c, through a serial line) and the session assembly (host-tools/lib/recv/)
 * that turns a TCP stream or a line's frames into a perf.data file. The first byte picks the
 * path and how the rest is cut into reads: bits 0-1: 0 a capture file (tp_recv_file, as
 * `tinyperf recv --file`), 1 a TCP connection, 2 a serial line, 3 a serial line that goes idle
 * between reads; bits 2-7: the read size (1 << (n % 12)). Finished files are read back with
 * the reader the report uses, then deleted. */
#include "tests/fuzz/fuzz.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include "host-tools/lib/data/reader.h"
#include "host-tools/lib/recv/recv.h"

static int dirfd_ = -1;

static void check_file(const char *path)
{
	struct tp_reader *r;
	struct tp_event ev;
	struct stat st;
	void *map;
	int fd = openat(dirfd_, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		abort();	/* recv said it wrote this file */
	if (fstat(fd, &st) || st.st_size == 0) {
		close(fd);
		return;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		abort();
	if (!tp_reader__new(&r, map, (size_t)st.st_size, &fuzz_log)) {
		while (tp_reader__next(r, &ev) > 0)
			sink += ev.type;
		tp_reader__delete(r);
	}
	munmap(map, (size_t)st.st_size);
}

static void on_event(void *ctx, enum tp_recv_event ev, const struct tp_recv_info *info)
{
	size_t dl = strlen(info->device);

	(void)ctx;
	sink += info->bytes + strlen(info->device) + strlen(info->origin);
	if (ev != TP_RECV_FINISHED || !info->path[0])
		return;
	/* a session's file is always <device>/<file>, inside the output directory */
	if (!dl || info->device[0] == '.' || strncmp(info->path, info->device, dl) ||
	    info->path[dl] != '/' || strchr(info->path + dl + 1, '/'))
		abort();
	check_file(info->path);
	unlinkat(dirfd_, info->path, 0);
	unlinkat(dirfd_, info->device, AT_REMOVEDIR);
}

static void on_text(void *ctx, const char *origin, const uint8_t *text, size_t len)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++)
		sink += text[i];
	sink += strlen(origin);
}

static void on_record(void *ctx, const uint8_t *rec, size_t size, bool swapped)
{
	(void)ctx;
	sink += rec[0] + rec[size - 1] + swapped;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_recv_conf conf = { .log = &fuzz_log, .on_event = on_event, .on_text = on_text,
				     .on_record = on_record, .meta_max = 1 << 20 };
	struct tp_deframer_stats st;
	size_t chunk, off;
	unsigned mode;

	if (dirfd_ < 0) {
		dirfd_ = open(fuzz_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd_ < 0)
			abort();
	}
	conf.dirfd = dirfd_;
	if (size < 1)
		return 0;
	mode = data[0] & 3;
	chunk = (size_t)1 << ((data[0] >> 2) % 12);
	data++;
	size--;
	if (mode == 0) {
		int fd = memfd_create("capture", MFD_CLOEXEC);

		if (fd < 0)
			abort();
		if (size && write(fd, data, size) != (ssize_t)size)
			abort();
		lseek(fd, 0, SEEK_SET);
		tp_recv_file(&conf, fd, "capture", &st, NULL);
		close(fd);
	} else if (mode == 1) {
		struct tp_recv_conn *c;

		if (tp_recv_conn__new(&c, &conf, "127.0.0.1:40000"))
			return 0;
		for (off = 0; off < size; off += chunk) {
			size_t n = size - off < chunk ? size - off : chunk;

			if (tp_recv_conn__feed(c, data + off, n))
				break;
			if (tp_recv_conn__session(c))
				sink += tp_recv_sess__info(tp_recv_conn__session(c))->records;
		}
		sink += tp_recv_conn__error(c) != NULL;
		tp_recv_conn__close(c, "the input ends");
	} else {
		struct tp_recv_line *l;

		if (tp_recv_line__new(&l, &conf, "/dev/ttyFUZZ"))
			return 0;
		for (off = 0; off < size; off += chunk) {
			size_t n = size - off < chunk ? size - off : chunk;

			tp_recv_line__feed(l, data + off, n);
			if (mode == 3)
				tp_recv_line__idle(l);
		}
		sink += tp_recv_line__stats(l)->frames;
		tp_recv_line__close(l, "the input ends");
	}
	return 0;
}
