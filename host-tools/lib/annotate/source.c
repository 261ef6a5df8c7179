/* SPDX-License-Identifier: MIT */
/* Source text for annotate: each file read once, whole, and split into lines. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/annotate/annotate.h"
#include "host-tools/lib/common/common.h"

/* sources bigger than this are not read: no source file is, and a wrong path may be */
#define MAX_SOURCE (64u << 20)

struct srcfile {
	char *path;
	char *text;		/* NULL: could not be read */
	char **lines;		/* into text, NUL-terminated in place */
	uint32_t nr_lines, cap_lines;
};

struct tp_annsrc {
	struct srcfile *files;
	uint32_t nr, cap;
};

int tp_annsrc__new(struct tp_annsrc **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -TP_ERR_NOMEM;
}

void tp_annsrc__delete(struct tp_annsrc *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nr; i++) {
		free(s->files[i].path);
		free(s->files[i].text);
		free(s->files[i].lines);
	}
	free(s->files);
	free(s);
}

/* the file's text, split; a file that cannot be read keeps text NULL */
static void load(struct srcfile *f)
{
	FILE *fp = fopen(f->path, "rb");
	size_t len = 0, cap = 0;
	char *text = NULL;

	if (!fp)
		return;
	for (;;) {
		size_t got;

		if (len + 4096 + 1 > cap) {
			char *n;

			if (cap >= MAX_SOURCE)
				goto fail;
			cap = cap ? 2 * cap : 16384;
			n = realloc(text, cap);
			if (!n)
				goto fail;
			text = n;
		}
		got = fread(text + len, 1, cap - len - 1, fp);
		len += got;
		if (!got)
			break;
	}
	if (ferror(fp))
		goto fail;
	fclose(fp);
	text[len] = '\0';
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		if (tp_grow((void **)&f->lines, &f->cap_lines, f->nr_lines + 1,
			    sizeof(*f->lines))) {
			free(f->lines);
			f->lines = NULL;
			f->nr_lines = 0;
			free(text);
			return;
		}
		f->lines[f->nr_lines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
	f->text = text;
	return;
fail:
	fclose(fp);
	free(text);
}

const char *tp_annsrc__line(struct tp_annsrc *s, const char *file, unsigned line)
{
	struct srcfile *f = NULL;

	if (!file || !line)
		return NULL;
	for (uint32_t i = 0; i < s->nr; i++)
		if (!strcmp(s->files[i].path, file))
			f = &s->files[i];
	if (!f) {
		char *path = strdup(file);

		if (!path || tp_grow((void **)&s->files, &s->cap, s->nr + 1, sizeof(*s->files))) {
			free(path);
			return NULL;
		}
		f = &s->files[s->nr++];
		memset(f, 0, sizeof(*f));
		f->path = path;
		load(f);
	}
	return f->text && line <= f->nr_lines ? f->lines[line - 1] : NULL;
}
