/* SPDX-License-Identifier: MIT */
/* The tracing-data blob (perf's "\027\010Dtracing" version 0.6), in the recorder's byte order:
 *   magic, "0.6", big_endian, sizeof(long), page size,
 *   header_page, header_event, no ftrace formats, the format files of the events in use grouped
 *   by system, no kallsyms (newer perf writes none), printk_formats, saved_cmdlines.
 * tracefs files report size 0, so each is read until EOF straight into the blob. */
#include "libc-shim/shim.h"
#include "recorder/events/tracefs.h"
#include "recorder/events/tracing-data.h"

#define TD_RESERVE (32u << 20)

/* the constant head of the blob, in the recorder's byte order */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BE_LONG		"\1"
#define PAGE_4096	"\0\0\020\0"
#else
#define BE_LONG		"\0"
#define PAGE_4096	"\0\020\0\0"
#endif
#if __SIZEOF_LONG__ == 8
#define LONG_SIZE	"\010"
#else
#define LONG_SIZE	"\4"
#endif

static int put(struct tracing_data *td, const void *p, size_t n)
{
	if (n > td->cap - td->len)
		return -TP_ENOSPC;
	memcpy(td->buf + td->len, p, n);
	td->len += n;
	return 0;
}

static int put_u32(struct tracing_data *td, uint32_t v) { return put(td, &v, 4); }

/* append a file's bytes preceded by its size (u64 or u32); a missing file is size 0 */
static int put_file(struct tracing_data *td, const char *rel, bool size64)
{
	char path[256];
	size_t at = td->len, n = 0, w = size64 ? 8 : 4;
	/* the size as a u64 whose first w bytes are the u32 or u64 one in our byte order */
	uint64_t v = 0;
	long fd, r;
	int err;

	tp_snprintf(path, sizeof(path), "%s/%s", tracefs__dir(), rel);
	err = put(td, &v, w);
	if (err)
		return err;
	fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	while ((r = sys_read((int)fd, td->buf + td->len, td->cap - td->len)) > 0) {
		td->len += (size_t)r;
		n += (size_t)r;
		if (td->len == td->cap) {
			r = -TP_ENOSPC;
			break;
		}
	}
	sys_close((int)fd);
	if (r < 0 && r != -TP_EINTR)
		return (int)r;
	if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && !size64)
		v = (uint64_t)n << 32;
	else
		v = n;
	memcpy(td->buf + at, &v, w);
	return 0;
}

static bool is_tp(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_TRACEPOINT;
}

/* "sched:sched_switch" -> system length */
static size_t sys_len(const char *name)
{
	const char *c = strchr(name, ':');

	return c ? (size_t)(c - name) : 0;
}

/* b is a tracepoint of a's system */
static bool same_sys(const struct evsel *a, const struct evsel *b)
{
	size_t n = sys_len(a->name);

	return is_tp(b) && n == sys_len(b->name) && !memcmp(a->name, b->name, n);
}

int tracing_data__build(struct tracing_data *td, const struct evlist_spec *l)
{
	/* magic, version, big_endian, sizeof(long), page size 4096 (u32), "header_page" */
	static const char head[] = "\027\010Dtracing0.6\0" BE_LONG LONG_SIZE PAGE_4096 "header_page";
	/* the events written already, with an earlier one of their system */
	bool done[REC_MAX_EVSELS] = { 0 };
	uint32_t nsys = 0;
	unsigned tp = 0;	/* the first tracepoint */
	size_t at, at_ev;
	long addr;
	int err = 0;

	memset(td, 0, sizeof(*td));
	while (tp < l->nr && !is_tp(&l->ev[tp]))
		tp++;
	if (tp == l->nr)
		return 0;	/* no tracepoint */
	if (!tracefs__dir())
		return -TP_ENOENT;
	addr = sys_mmap(NULL, TD_RESERVE, TP_PROT_READ | TP_PROT_WRITE,
			TP_MAP_PRIVATE | TP_MAP_ANONYMOUS | TP_MAP_NORESERVE, -1, 0);
	if (addr < 0 && addr > -4096)
		return (int)addr;
	td->buf = (uint8_t *)addr;
	td->cap = TD_RESERVE;

	err = put(td, head, sizeof(head));
	err = err ?: put_file(td, "events/header_page", true);
	err = err ?: put(td, "header_event", 13);
	err = err ?: put_file(td, "events/header_event", true);
	/* no ftrace formats (u32 0), then the systems in first-use order, each with its events (a
	 * system used twice counts once); their count (u32) goes in front, patched once they are
	 * written */
	err = err ?: put(td, "\0\0\0\0\0\0\0", 8);
	at = td->len - 4;
	for (unsigned i = 0; i < l->nr && !err; i++) {
		const struct evsel *e = &l->ev[i];
		size_t n = sys_len(e->name);
		uint32_t nev = 0;

		if (!is_tp(e) || done[i])
			continue;
		nsys++;
		/* the name with its ':' turned into the NUL, then the event count (patched) */
		err = put(td, e->name, n + 1);
		if (err)
			break;
		td->buf[td->len - 1] = '\0';
		at_ev = td->len;
		err = put_u32(td, 0);
		for (unsigned j = i; j < l->nr && !err; j++) {
			char rel[160];
			const struct evsel *f = &l->ev[j];

			if (!same_sys(e, f))
				continue;
			done[j] = true;
			tp_snprintf(rel, sizeof(rel), "events/%.*s/%s/format", (int)n, f->name,
				    f->name + n + 1);
			err = put_file(td, rel, true);
			nev++;
		}
		if (!err)
			memcpy(td->buf + at_ev, &nev, 4);
	}
	if (!err)
		memcpy(td->buf + at, &nsys, 4);
	err = err ?: put_u32(td, 0);   /* kallsyms */
	err = err ?: put_file(td, "printk_formats", false);
	err = err ?: put_file(td, "saved_cmdlines", true);
	if (err)
		tracing_data__free(td);
	return err;
}

void tracing_data__free(struct tracing_data *td)
{
	if (td->buf)
		sys_munmap(td->buf, td->cap);
	memset(td, 0, sizeof(*td));
}
