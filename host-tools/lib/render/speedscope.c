/* SPDX-License-Identifier: MIT */
/* The speedscope writer: the frames shared by all profiles (one per symbol), the paths
 * grouped by thread into sampled profiles, JSON strings escaped (bytes that are no UTF-8 as
 * the text \xNN). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/render/internal.h"

struct spath {
	uint32_t comm;
	int32_t pid, tid;
	size_t first;			/* its frame indexes in ss.idx, outermost first */
	uint32_t nr;
	uint64_t weight;
};

struct ss {
	const struct tp_symcache *c;
	uint32_t *frame_of_sym;		/* frame index + 1 by symbol id (0: none yet) */
	size_t cap_fos;
	struct tp_frame *frames;	/* by frame index */
	size_t nr_frames, cap_frames;
	struct spath *paths;
	size_t nr_paths, cap_paths;
	uint32_t *idx;
	size_t nr_idx, cap_idx;
};

static int64_t frame_index(struct ss *ss, struct tp_frame f)
{
	size_t cap = ss->cap_fos;

	if (TP_GROW(ss->frame_of_sym, ss->cap_fos, (size_t)f.sym + 1, 1024))
		return -1;
	memset(ss->frame_of_sym + cap, 0, (ss->cap_fos - cap) * sizeof(*ss->frame_of_sym));
	if (!ss->frame_of_sym[f.sym]) {
		if (TP_GROW(ss->frames, ss->cap_frames, ss->nr_frames + 1, 1024))
			return -1;
		ss->frames[ss->nr_frames++] = f;
		ss->frame_of_sym[f.sym] = (uint32_t)ss->nr_frames;
	}
	return ss->frame_of_sym[f.sym] - 1;
}

static int add_path(void *ctx, const struct tp_hentry *e, const struct tp_frame *frames,
		    uint32_t nr, uint64_t weight)
{
	struct ss *ss = ctx;

	if (TP_GROW(ss->idx, ss->cap_idx, ss->nr_idx + nr, 4096) ||
	    TP_GROW(ss->paths, ss->cap_paths, ss->nr_paths + 1, 1024))
		return -TP_ERR_NOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		int64_t k = frame_index(ss, frames[i]);

		if (k < 0)
			return -TP_ERR_NOMEM;
		ss->idx[ss->nr_idx + i] = (uint32_t)k;
	}
	ss->paths[ss->nr_paths++] = (struct spath){ .comm = e->comm, .pid = e->pid, .tid = e->tid,
						    .first = ss->nr_idx, .nr = nr, .weight = weight };
	ss->nr_idx += nr;
	return 0;
}

/* by thread, then as the walk met them */
static int cmp_path(const void *a, const void *b)
{
	const struct spath *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static bool same_thread(const struct spath *a, const struct spath *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->comm == b->comm;
}

void render_json_str(FILE *f, const char *s)
{
	size_t n = strlen(s);

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t len = render_utf8_char(s + i, n - i);

		if (!len)
			fprintf(f, "\\\\x%02x", (uint8_t)s[i]);
		else if (s[i] == '"' || s[i] == '\\')
			fprintf(f, "\\%c", s[i]);
		else if (s[i] == '<')	/* (never "</script>" inside the HTML report) */
			fputs("\\u003c", f);
		else
			fwrite(s + i, 1, len, f);
		i += len ? len : 1;
	}
	fputc('"', f);
}

static void put_frames(const struct ss *ss, FILE *f)
{
	char buf[300];

	fputs("{\"frames\":[", f);
	for (size_t i = 0; i < ss->nr_frames; i++) {
		const struct tp_cdso *d = tp_symcache__dso(ss->c, ss->frames[i].dso);

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		render_json_str(f, render_frame_name(ss->c, ss->frames[i], buf, sizeof(buf)));
		if (d) {
			fputs(",\"file\":", f);
			render_json_str(f, d->name);
		}
		fputc('}', f);
	}
	fputs("]}", f);
}

/* the profile of paths[from, to): one thread's */
static void put_profile(const struct ss *ss, size_t from, size_t to, FILE *f)
{
	const struct spath *p = &ss->paths[from];
	char name[300];
	uint64_t total = 0;

	snprintf(name, sizeof(name), "%s (%" PRId32 "/%" PRId32 ")",
		 tp_symcache__comm_str(ss->c, p->comm), p->pid, p->tid);
	for (size_t i = from; i < to; i++)
		total += ss->paths[i].weight;
	fputs("{\"type\":\"sampled\",\"name\":", f);
	render_json_str(f, name);
	fprintf(f, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		total);
	for (size_t i = from; i < to; i++) {
		fputs(i > from ? ",[" : "[", f);
		for (uint32_t k = 0; k < ss->paths[i].nr; k++)
			fprintf(f, k ? ",%" PRIu32 : "%" PRIu32, ss->idx[ss->paths[i].first + k]);
		fputc(']', f);
	}
	fputs("],\n\"weights\":[", f);
	for (size_t i = from; i < to; i++)
		fprintf(f, i > from ? ",%" PRIu64 : "%" PRIu64, ss->paths[i].weight);
	fputs("]}", f);
}

int tp_speedscope__write(struct tp_hist *h, const struct tp_symcache *c, const char *name,
			 FILE *f)
{
	struct ss ss = { .c = c };
	int err = tp_hist__each_path(h, add_path, &ss);

	if (!err) {
		qsort(ss.paths, ss.nr_paths, sizeof(*ss.paths), cmp_path);
		fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		      "\"exporter\":\"tinyperf " TP_VERSION "\",\"name\":", f);
		render_json_str(f, name ? name : "perf.data");
		fputs(",\"activeProfileIndex\":0,\n\"shared\":", f);
		put_frames(&ss, f);
		fputs(",\n\"profiles\":[", f);
		for (size_t i = 0, j; i < ss.nr_paths; i = j) {
			for (j = i + 1; j < ss.nr_paths && same_thread(&ss.paths[i], &ss.paths[j]); j++)
				;
			if (i)
				fputs(",\n", f);
			put_profile(&ss, i, j, f);
		}
		fputs("]}\n", f);
		err = fflush(f) || ferror(f) ? -TP_ERR_IO : 0;
	}
	free(ss.frame_of_sym);
	free(ss.frames);
	free(ss.paths);
	free(ss.idx);
	return err;
}
