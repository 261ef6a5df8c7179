/* SPDX-License-Identifier: MIT */
/* The kernel functions earlier recordings of this boot embedded (ksyms-cache.h). */
#include "libc-shim/shim.h"
#include "recorder/track/ksyms-cache.h"

static const char magic[8] = { 'T', 'P', 'K', 'S', 'Y', 'M', '1', '\n' };

/* the entries and names of a mapped file: true if they are a cache (sorted, disjoint, every
 * name inside the names and ended) */
static bool valid(const struct ksyms_cache_ent *v, uint32_t nr, const char *names, uint32_t len)
{
	uint64_t end = 0;

	if (nr ? !len || names[len - 1] : len)
		return false;
	for (uint32_t i = 0; i < nr; i++) {
		if (!v[i].size || v[i].name >= len || v[i].addr < end ||
		    v[i].addr + v[i].size < v[i].addr)
			return false;
		end = v[i].addr + v[i].size;
	}
	return true;
}

void ksyms_cache__open(struct ksyms_cache *c, char **envp)
{
	const char *path = tp_getenv(envp, "TINYPERF_KSYMS_CACHE");
	char boot[KSYMS_CACHE_BOOT + 4];

	memset(c, 0, sizeof(*c));
	if (!path && sys_getuid() == 0)
		path = "/run/tinyperf-ksyms";
	if (!path || !*path || strlen(path) >= sizeof(c->path) - 16 ||
	    tp_read_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) <
	    KSYMS_CACHE_BOOT)
		return;
	memcpy(c->boot, boot, sizeof(c->boot));
	memcpy(c->path, path, strlen(path) + 1);
	ksyms_cache__load(c);
}

void ksyms_cache__load(struct ksyms_cache *c)
{
	struct ksyms_cache_hdr h;
	long fd, m;
	int64_t size;

	ksyms_cache__close(c);
	if (!c->path[0])
		return;
	fd = sys_open(c->path, TP_O_RDONLY | TP_O_NOFOLLOW | TP_O_CLOEXEC, 0);
	if (fd < 0)
		return;
	size = sys_lseek((int)fd, 0, 2);
	if (size < (int64_t)sizeof(h) || sys_pread((int)fd, &h, sizeof(h), 0) != (long)sizeof(h) ||
	    memcmp(h.magic, magic, sizeof(magic)) || memcmp(h.boot, c->boot, sizeof(c->boot)) ||
	    h.nr > KSYMS_CACHE_MAX || h.names_len > KSYMS_CACHE_NAMES ||
	    (uint64_t)size != sizeof(h) + (uint64_t)h.nr * sizeof(*c->v) + h.names_len) {
		sys_close((int)fd);
		return;
	}
	m = sys_mmap(NULL, (size_t)size, TP_PROT_READ, TP_MAP_PRIVATE, (int)fd, 0);
	sys_close((int)fd);
	if (m < 0 && m > -4096)
		return;
	c->map = (void *)m;
	c->map_size = (size_t)size;
	if (!valid((const struct ksyms_cache_ent *)((const char *)c->map + sizeof(h)), h.nr,
		   (const char *)c->map + sizeof(h) + (size_t)h.nr * sizeof(*c->v), h.names_len)) {
		ksyms_cache__close(c);
		return;
	}
	c->v = (const struct ksyms_cache_ent *)((const char *)c->map + sizeof(h));
	c->names = (const char *)(c->v + h.nr);
	c->nr = h.nr;
	c->names_len = h.names_len;
}

/* the first cached function ending above addr (nr: none) */
static uint32_t above(const struct ksyms_cache *c, uint64_t addr)
{
	uint32_t lo = 0, hi = c->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].addr + c->v[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ksyms_cache_ent *ksyms_cache__find(const struct ksyms_cache *c, uint64_t addr)
{
	uint32_t i = above(c, addr);

	return i < c->nr && c->v[i].addr <= addr ? &c->v[i] : NULL;
}

/* the new functions worth keeping: the kernel's, sized, not overlapping a cached one or
 * the previous new one */
static bool fresh(const struct ksyms_cache *c, const struct symembed_sel *s, uint64_t *end)
{
	uint32_t i;

	if (s->mod || !s->size || s->size > UINT32_MAX || s->addr < *end ||
	    s->addr + s->size < s->addr)
		return false;
	/* the first cached one ending above its start must start at or above its end */
	i = above(c, s->addr);
	if (i < c->nr && c->v[i].addr < s->addr + s->size)
		return false;
	*end = s->addr + s->size;
	return true;
}

struct out {
	int fd;
	uint32_t n;
	struct ksyms_cache_ent buf[128];
	long err;
};

static void put(struct out *o, const struct ksyms_cache_ent *x)
{
	if (x)
		o->buf[o->n++] = *x;
	if ((!x && o->n) || o->n == TP_ARRAY_SIZE(o->buf)) {
		if (!o->err)
			o->err = tp_write_all(o->fd, o->buf, o->n * sizeof(*x));
		o->n = 0;
	}
}

int ksyms_cache__save(const struct ksyms_cache *c, const struct symembed_sel *sel, uint32_t n,
		      const char *strs)
{
	struct ksyms_cache_hdr h = { .nr = c->nr, .names_len = c->names_len };
	struct out o = { .fd = -1 };
	char tmp[sizeof(c->path) + 16];
	uint64_t end = 0;
	uint32_t i, j, k, add = 0;
	bool have = false;	/* sel[j] is one to add */
	long fd;

	if (!c->path[0])
		return 0;
	/* what is new, and how much of it fits */
	for (i = 0; i < n; i++) {
		size_t len = strlen(strs + sel[i].name) + 1;

		if (h.nr == KSYMS_CACHE_MAX || h.names_len + len > KSYMS_CACHE_NAMES)
			break;
		if (fresh(c, &sel[i], &end)) {
			h.nr++;
			h.names_len += (uint32_t)len;
			add++;
		}
	}
	if (!add)
		return 0;
	n = i;
	memcpy(h.magic, magic, sizeof(magic));
	memcpy(h.boot, c->boot, sizeof(h.boot));
	tp_snprintf(tmp, sizeof(tmp), "%s.%ld", c->path, sys_getpid());
	fd = sys_open(tmp, TP_O_WRONLY | TP_O_CREAT | TP_O_EXCL | TP_O_NOFOLLOW | TP_O_CLOEXEC, 0600);
	if (fd < 0)
		return (int)fd;
	o.fd = (int)fd;
	o.err = tp_write_all(o.fd, &h, sizeof(h));
	/* the entries, both runs merged by address; new names go after the old ones */
	end = 0;
	for (i = j = 0, k = c->names_len;;) {
		struct ksyms_cache_ent x;

		while (!have && j < n && !(have = fresh(c, &sel[j], &end)))
			j++;
		if (!have && i == c->nr)
			break;
		if (!have || (i < c->nr && c->v[i].addr < sel[j].addr)) {
			put(&o, &c->v[i++]);
			continue;
		}
		x = (struct ksyms_cache_ent){ sel[j].addr, (uint32_t)sel[j].size, k };
		k += (uint32_t)strlen(strs + sel[j++].name) + 1;
		have = false;
		put(&o, &x);
	}
	put(&o, NULL);
	if (!o.err && c->names_len)
		o.err = tp_write_all(o.fd, c->names, c->names_len);
	end = 0;
	for (j = 0; j < n && !o.err; j++)
		if (fresh(c, &sel[j], &end))
			o.err = tp_write_all(o.fd, strs + sel[j].name, strlen(strs + sel[j].name) + 1);
	sys_close(o.fd);
	if (!o.err)
		o.err = sys_renameat(TP_AT_FDCWD, tmp, TP_AT_FDCWD, c->path);
	if (o.err < 0)
		sys_unlinkat(TP_AT_FDCWD, tmp, 0);
	return o.err < 0 ? (int)o.err : 0;
}

void ksyms_cache__close(struct ksyms_cache *c)
{
	if (c->map)
		sys_munmap(c->map, c->map_size);
	c->map = NULL;
	c->v = NULL;
	c->nr = c->names_len = 0;
}
