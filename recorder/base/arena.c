/* SPDX-License-Identifier: MIT */
/* Bump arena and size-class free lists over anonymous mappings (arena.h). */
#include "libc-shim/shim.h"
#include "recorder/base/arena.h"

/* at the start of every mapping, so release() can find and unmap them all */
struct chunk {
	struct chunk *next;
	size_t len;
};

#define HDR TP_ALIGN(sizeof(struct chunk), (size_t)16)

void arena__init(struct arena *a, size_t limit)
{
	memset(a, 0, sizeof(*a));
	a->limit = limit;
}

static void *map(struct arena *a, size_t len)
{
	struct chunk *c;
	long r;

	if (a->limit && (len > a->limit || a->mapped > a->limit - len))
		return NULL;
	r = sys_mmap(NULL, len, TP_PROT_READ | TP_PROT_WRITE, TP_MAP_PRIVATE | TP_MAP_ANONYMOUS,
		     -1, 0);
	if ((unsigned long)r >= (unsigned long)-4095)	/* -errno; 32-bit addresses may be "negative" */
		return NULL;
	c = (struct chunk *)r;
	c->next = a->chunks;
	c->len = len;
	a->chunks = c;
	a->mapped += len;
	return (char *)c + HDR;
}

void *arena__alloc(struct arena *a, size_t size)
{
	char *p;

	if (size > ARENA_CHUNK - HDR) {
		if (size > (size_t)-1 - HDR - 4095)
			return NULL;
		p = map(a, TP_ALIGN(size + HDR, (size_t)4096));
	} else {
		size = TP_ALIGN(size, (size_t)8);
		if ((size_t)(a->end - a->cur) < size) {
			/* the old chunk's tail is abandoned: at most one class block */
			p = map(a, ARENA_CHUNK);
			if (!p)
				return NULL;
			a->cur = p;
			a->end = (char *)p - HDR + ARENA_CHUNK;
		}
		p = a->cur;
		a->cur += size;
	}
	if (p)
		a->used += size;	/* fresh mappings are zero */
	return p;
}

static int class_of(size_t size)
{
	int k = 0;

	while ((16u << k) < size)
		if (++k == ARENA_CLASSES)
			return -1;
	return k;
}

size_t arena__class_size(size_t size)
{
	int k = class_of(size);

	return k < 0 ? 0 : 16u << k;
}

void *arena__get(struct arena *a, size_t size)
{
	int k = class_of(size);
	void *p;

	if (k < 0)
		return NULL;
	p = a->free[k];
	if (!p)
		return arena__alloc(a, 16u << k);	/* counts itself in used */
	a->free[k] = *(void **)p;
	memset(p, 0, 16u << k);
	a->used += 16u << k;
	return p;
}

void arena__put(struct arena *a, void *p, size_t size)
{
	int k = class_of(size);

	if (!p || k < 0)
		return;
	*(void **)p = a->free[k];
	a->free[k] = p;
	a->used -= 16u << k;
}

void arena__release(struct arena *a)
{
	struct chunk *c = a->chunks, *next;

	for (; c; c = next) {
		next = c->next;
		sys_munmap(c, c->len);
	}
	arena__init(a, a->limit);
}
