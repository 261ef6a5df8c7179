/* SPDX-License-Identifier: MIT */
/* The table of mapped files behind track.c (dsos.h). */
#include "libc-shim/shim.h"
#include "recorder/track/dsos.h"

int dsos__init(struct dsos *d, struct arena *a, uint32_t max)
{
	uint32_t nb = 16;

	while (nb < max)
		nb <<= 1;
	d->arena = a;
	d->max = max;
	d->mask = nb - 1;
	/* one block: the entries, then the buckets */
	d->v = arena__alloc(a, (size_t)max * sizeof(*d->v) + nb * sizeof(*d->buckets));
	if (!d->v)
		return -TP_ENOMEM;
	d->buckets = (uint32_t *)(d->v + max);
	return 0;
}

/* FNV-1a of s, and its size with the NUL */
static uint32_t hash_str(const char *s, size_t *size)
{
	const char *p = s;
	uint32_t h = 2166136261u;

	while (*p)
		h = (h ^ (uint8_t)*p++) * 16777619u;
	*size = (size_t)(p - s) + 1;
	return h;
}

static bool same_file(const struct dso *e, const struct dso_ident *id)
{
	if (e->bid_size && id->bid_size)
		return e->bid_size == id->bid_size && !memcmp(e->bid, id->bid, e->bid_size);
	if (e->has_ino && id->fid)
		return !memcmp(&e->fid, id->fid, sizeof(e->fid));
	return true;	/* nothing to tell them apart: the same name is the same file */
}

static void learn(struct dso *e, const struct dso_ident *id)
{
	if (!e->bid_size && id->bid_size) {
		e->bid_size = id->bid_size;
		memcpy(e->bid, id->bid, id->bid_size);
	}
	if (!e->has_ino && id->fid) {
		e->has_ino = true;
		memcpy(&e->fid, id->fid, sizeof(e->fid));
	}
}

/* entry i out of its bucket, its name back to the arena: a free slot */
static struct dso *drop(struct dsos *d, uint32_t i)
{
	struct dso *e = &d->v[i];
	uint32_t *link;

	for (link = &d->buckets[e->hash & d->mask]; *link != i + 1; link = &d->v[*link - 1].hnext)
		;
	*link = e->hnext;
	arena__put(d->arena, e->name, e->name_size);
	memset(e, 0, sizeof(*e));
	if (i < d->free_from)
		d->free_from = i;
	return e;
}

/* a slot for a new entry: a freed one, a fresh one, else one nothing maps and nothing hit */
static struct dso *slot(struct dsos *d)
{
	for (; d->free_from < d->nr; d->free_from++)
		if (!d->v[d->free_from].name)
			return &d->v[d->free_from++];
	if (d->nr < d->max) {
		d->free_from = d->nr + 1;
		return &d->v[d->nr++];
	}
	for (uint32_t i = 0; i < d->nr && !d->mark_all; i++)	/* mark_all: every one is hit */
		if (!d->v[i].refs && !d->v[i].hit)
			return drop(d, i);
	return NULL;
}

void dsos__sweep(struct dsos *d)
{
	for (uint32_t i = 0; i < d->nr; i++)
		if (d->v[i].name && !d->v[i].refs && !d->v[i].hit && !d->mark_all)
			drop(d, i);
}

int dsos__get(struct dsos *d, const char *name, uint8_t kind, const struct dso_ident *id)
{
	size_t len;
	uint32_t h = hash_str(name, &len), x;
	struct dso *e;
	char *copy;

	for (x = d->buckets[h & d->mask]; x; x = e->hnext) {
		e = &d->v[x - 1];
		if (e->hash == h && e->kind == kind && !strcmp(e->name, name) && same_file(e, id)) {
			learn(e, id);
			return (int)x - 1;
		}
	}
	copy = arena__get(d->arena, len);	/* NULL too past ARENA_MAX_GET */
	if (!copy)
		return -TP_ENOMEM;
	e = slot(d);
	if (!e) {
		arena__put(d->arena, copy, len);
		return -TP_ENOSPC;
	}
	memcpy(copy, name, len);
	e->name = copy;
	e->name_size = (uint32_t)len;
	e->hash = h;
	e->kind = kind;
	learn(e, id);
	x = (uint32_t)(e - d->v);
	e->hnext = d->buckets[h & d->mask];
	d->buckets[h & d->mask] = x + 1;
	return (int)x;
}
