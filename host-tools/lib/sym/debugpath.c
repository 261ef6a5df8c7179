/* SPDX-License-Identifier: MIT */
/* The --debug-dir basename index (debugpath.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host-tools/lib/sym/debugpath.h"
#include "host-tools/lib/common/common.h"

/* deeper than any real build tree; stops runaway recursion */
#define WALK_MAX_DEPTH 40

int tp_debugdirs__init(struct tp_debugdirs *d, const char *const *roots, size_t n)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!n)
		return 0;
	d->roots = calloc(n, sizeof(*d->roots));
	if (!d->roots)
		return -TP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		d->roots[i] = strdup(roots[i]);
		if (!d->roots[i]) {
			d->n_roots = i;
			tp_debugdirs__exit(d);
			return -TP_ERR_NOMEM;
		}
	}
	d->n_roots = n;
	return 0;
}

/* files that are never ELF (keeps the index of a large build tree small) */
static bool skip_name(const char *name)
{
	static const char *const ext[] = {
		".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".o", ".a", ".lo", ".la", ".S",
		".s", ".txt", ".html", ".htm", ".md", ".rst", ".json", ".xml", ".yml", ".yaml",
		".py", ".pyc", ".pl", ".pm", ".sh", ".mk", ".in", ".am", ".ac", ".m4", ".po",
		".mo", ".gmo", ".png", ".svg", ".jpg", ".gz", ".xz", ".bz2", ".zst", ".tar",
		".patch", ".d", ".cmake", ".log", ".pc", ".texi", ".info", ".1", ".3", ".5", ".8",
	};
	const char *dot = strrchr(name, '.');
	size_t i;

	if (!dot)
		return false;
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

static int add_dir(struct tp_debugdirs *d, const char *path)
{
	if (TP_GROW(d->dirs, d->cap_dirs, d->n_dirs + 1, 64))
		return -TP_ERR_NOMEM;
	d->dirs[d->n_dirs] = strdup(path);
	if (!d->dirs[d->n_dirs])
		return -TP_ERR_NOMEM;
	d->n_dirs++;
	return 0;
}

static int add_ent(struct tp_debugdirs *d, const char *name, const char *dir)
{
	if (TP_GROW(d->ents, d->cap_ents, d->n_ents + 1, 256))
		return -TP_ERR_NOMEM;
	d->ents[d->n_ents].name = strdup(name);
	if (!d->ents[d->n_ents].name)
		return -TP_ERR_NOMEM;
	d->ents[d->n_ents++].dir = dir;
	return 0;
}

static int walk(struct tp_debugdirs *d, const char *path, int depth)
{
	char sub[PATH_MAX];
	bool have_dir = false;
	struct dirent *de;
	DIR *dir;
	int err = 0;

	if (depth > WALK_MAX_DEPTH)
		return 0;
	dir = opendir(path);
	if (!dir)
		return 0;	/* unreadable parts of a tree are not an error */
	while (!err && (de = readdir(dir))) {
		unsigned char type = de->d_type;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git"))
			continue;
		if (tp_path_fmt(sub, sizeof(sub), "%s/%s", path, de->d_name))
			continue;
		if (type == DT_UNKNOWN || type == DT_LNK) {
			/* symlinked directories are not followed: they make cycles */
			if (lstat(sub, &st))
				continue;
			if (S_ISDIR(st.st_mode))
				type = DT_DIR;
			else if (S_ISLNK(st.st_mode))
				type = stat(sub, &st) == 0 && S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
			else
				type = S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			err = walk(d, sub, depth + 1);
		} else if (type == DT_REG && !skip_name(de->d_name)) {
			if (!have_dir) {
				err = add_dir(d, path);
				have_dir = true;
			}
			if (!err)
				err = add_ent(d, de->d_name, d->dirs[d->n_dirs - 1]);
		}
	}
	closedir(dir);
	return err;
}

static int cmp_ent(const void *pa, const void *pb)
{
	const struct tp_dd_entry *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->dir, b->dir);
}

static int build_index(struct tp_debugdirs *d)
{
	size_t i;
	int err;

	d->indexed = true;
	for (i = 0; i < d->n_roots; i++) {
		err = walk(d, d->roots[i], 0);
		if (err)
			return err;
	}
	if (d->n_ents)
		qsort(d->ents, d->n_ents, sizeof(*d->ents), cmp_ent);
	return 0;
}

int tp_debugdirs__each(struct tp_debugdirs *d, const char *basename,
		       int (*fn)(void *ctx, const char *path), void *ctx)
{
	char path[PATH_MAX];
	size_t lo = 0, hi, i;
	int err;

	if (!d->indexed) {
		err = build_index(d);
		if (err)
			return err;
	}
	hi = d->n_ents;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->ents[mid].name, basename) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < d->n_ents && !strcmp(d->ents[i].name, basename); i++) {
		if (tp_path_fmt(path, sizeof(path), "%s/%s", d->ents[i].dir, d->ents[i].name))
			continue;
		err = fn(ctx, path);
		if (err)
			return err;
	}
	return 0;
}

void tp_debugdirs__exit(struct tp_debugdirs *d)
{
	size_t i;

	for (i = 0; i < d->n_roots; i++)
		free(d->roots[i]);
	for (i = 0; i < d->n_dirs; i++)
		free(d->dirs[i]);
	for (i = 0; i < d->n_ents; i++)
		free((char *)d->ents[i].name);
	free(d->roots);
	free(d->dirs);
	free(d->ents);
	memset(d, 0, sizeof(*d));
}
