/* SPDX-License-Identifier: MIT */
/* Library-internal: the build-id cache object, shared by bidcache.c (single entries) and
 * bidcache/list.c (listing, eviction). */
#ifndef TINYPERF_HOST_TOOLS_LIB_BIDCACHE_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_BIDCACHE_INTERNAL_H

#include <limits.h>

#include "host-tools/lib/bidcache/bidcache.h"

struct tp_bidcache {
	char dir[PATH_MAX];		/* absolute, resolved */
	size_t dir_len;
	int lock_fd;			/* <dir>/.tinyperf/lock */
	struct tp_log log;
};

/* log "<what> <path>: <tp_strerror(err)>" at ERROR; returns err (a -errno) */
int bidcache__fail(struct tp_bidcache *c, int err, const char *what, const char *path);
void bidcache__lock(struct tp_bidcache *c, bool exclusive);
void bidcache__unlock(struct tp_bidcache *c);
/* 1 and k's entry directory (or old-style file: *is_file) if the index leads inside the
 * cache; *link_exists whether the index link itself is there */
int bidcache__entry(struct tp_bidcache *c, const struct tp_bidkey *k, char *path, size_t size,
		    bool *is_file, bool *link_exists);
/* remove k's entry with the lock held: 1 removed, 0 not there, <0 error */
int bidcache__remove_locked(struct tp_bidcache *c, const struct tp_bidkey *k);

#endif
