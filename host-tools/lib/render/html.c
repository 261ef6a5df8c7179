/* SPDX-License-Identifier: MIT */
/* The HTML report's data: the flame tree of every sample (event, thread first, each frame with
 * its DSO), the samples' (leaf, time) pairs bucketed, small frames folded into their callers,
 * all as one JSON object inside the page html-page.c writes around it. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/render/internal.h"

struct hsample {
	uint32_t leaf;
	uint32_t bucket;		/* the time until bucketed */
	uint64_t time;
};

struct tp_html {
	struct tp_flame *fl;
	const struct tp_symcache *c;
	uint32_t *dso;			/* by flame node: its frame's DSO id + 1 (0: no frame) */
	size_t nr_dso, cap_dso;
	struct hsample *s;
	size_t nr, cap;
	const char **names;
	uint8_t *kinds;
	size_t cap_names, cap_kinds;
	char buf[64 * 80];		/* the names made up for one stack (80 each) */
	uint64_t t0, t1;		/* first and last time */
};

int tp_html__new(struct tp_html **out)
{
	struct tp_html *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (!h || tp_flame__new(&h->fl)) {
		free(h);
		return -TP_ERR_NOMEM;
	}
	*out = h;
	return 0;
}

void tp_html__delete(struct tp_html *h)
{
	if (h) {
		tp_flame__delete(h->fl);
		free(h->names);
		free(h->kinds);
		free(h->dso);
		free(h->s);
	}
	free(h);
}

int tp_html__add(struct tp_html *h, const struct tp_symcache *c, const struct tp_hsample *s,
		 const char *event, uint64_t time)
{
	size_t need = (size_t)s->nr_frames + 2, used;
	uint32_t leaf;
	int err;

	if (TP_GROW(h->names, h->cap_names, need, 64) || TP_GROW(h->kinds, h->cap_kinds, need, 64) ||
	    TP_GROW(h->s, h->cap, h->nr + 1, 4096))
		return -TP_ERR_NOMEM;
	snprintf(h->buf, 80, "%s %" PRId32, tp_symcache__comm_str(c, s->comm), s->tid);
	h->names[0] = event;
	h->kinds[0] = TP_FK_EVENT;
	h->names[1] = h->buf;
	h->kinds[1] = TP_FK_COMM;
	used = 80;
	for (uint32_t i = 0; i < s->nr_frames; i++) {	/* callee order in, caller order out */
		struct tp_frame f = s->frames[s->nr_frames - 1 - i];
		char *at = used + 80 <= sizeof(h->buf) ? h->buf + used : NULL;
		char spare[80];
		const char *n = render_frame_name(c, f, at ? at : spare, 80);

		if (n == at)
			used += 80;
		else if (n == spare)
			n = "[unknown]";
		h->names[i + 2] = n;
		h->kinds[i + 2] = f.level == 'k' ? TP_FK_KERNEL : TP_FK_USER;
	}
	err = flame__add_leaf(h->fl, h->names, h->kinds, (uint32_t)need, 1, false, &leaf);
	if (err)
		return err;
	h->c = c;
	if (TP_GROW(h->dso, h->cap_dso, h->fl->nr_nodes, 1024))
		return -TP_ERR_NOMEM;
	memset(h->dso + h->nr_dso, 0, (h->fl->nr_nodes - h->nr_dso) * sizeof(*h->dso));
	h->nr_dso = h->fl->nr_nodes;
	/* the frames' nodes, leaf first: a node is keyed by its frame's name, so its DSO is
	 * the one of the first frame that made it */
	for (uint32_t i = 0, n = leaf; i < s->nr_frames; i++, n = h->fl->nodes[n].parent)
		if (!h->dso[n])
			h->dso[n] = s->frames[i].dso + 1;
	if (time && (!h->t0 || time < h->t0))
		h->t0 = time;
	if (time > h->t1)
		h->t1 = time;
	h->s[h->nr++] = (struct hsample){ .leaf = leaf, .time = time };
	return 0;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct hsample *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	return x->bucket < y->bucket ? -1 : x->bucket > y->bucket;
}

/* id[i]: node i's id in the page, or, if it is folded into its caller, the caller's;
 * shown[i]: whether it is in the page */
static int prune(const struct tp_flame *fl, double min_share, uint32_t **id, bool **shown)
{
	double min = (double)fl->nodes[0].weight * min_share;
	uint32_t next = 1;

	*id = malloc(fl->nr_nodes * sizeof(**id));
	*shown = malloc(fl->nr_nodes * sizeof(**shown));
	if (!*id || !*shown)
		return -TP_ERR_NOMEM;
	(*id)[0] = 0;
	(*shown)[0] = true;
	/* a node comes after its parent: one pass in order */
	for (size_t i = 1; i < fl->nr_nodes; i++) {
		const struct fnode *n = &fl->nodes[i];

		(*shown)[i] = (*shown)[n->parent] &&
			      (n->kind == TP_FK_COMM || n->kind == TP_FK_EVENT ||
			       (double)n->weight >= min);
		(*id)[i] = (*shown)[i] ? next++ : (*id)[n->parent];
	}
	return 0;
}

/* [parent, name, kind] for each node shown, and the DSO's index in "dsos" for a frame's */
static void put_nodes(const struct tp_html *h, const uint32_t *id, const bool *shown, FILE *f)
{
	const struct tp_flame *fl = h->fl;

	fputs("\"dsos\":[", f);
	for (uint32_t d = 0; h->c && d < tp_symcache__nr_dsos(h->c); d++) {
		fputs(d ? "," : "", f);
		render_json_str(f, d ? tp_symcache__dso(h->c, d)->short_name : "[unknown]");
	}
	fprintf(f, "],\n\"nodes\":[[0,\"all\",%d]", TP_FK_ROOT);
	for (size_t i = 1; i < fl->nr_nodes; i++) {
		if (!shown[i])
			continue;
		fprintf(f, ",\n[%" PRIu32 ",", id[fl->nodes[i].parent]);
		render_json_str(f, flame__name(fl, &fl->nodes[i]));
		fprintf(f, ",%d", fl->nodes[i].kind);
		if (i < h->nr_dso && h->dso[i])
			fprintf(f, ",%" PRIu32, h->dso[i] - 1);
		fputs("]", f);
	}
	fputs("]", f);
}

/* [node, bucket, samples] for every pair that has samples */
static void put_cells(struct tp_html *h, const uint32_t *id, uint32_t nr_buckets, FILE *f)
{
	uint64_t span = h->t1 > h->t0 ? h->t1 - h->t0 : 1;
	const char *sep = "";

	for (size_t i = 0; i < h->nr; i++) {
		uint64_t t = h->s[i].time ? h->s[i].time - h->t0 : 0;
		uint64_t b = (uint64_t)((double)t / (double)span * nr_buckets);

		h->s[i].leaf = id[h->s[i].leaf];
		h->s[i].bucket = (uint32_t)(b < nr_buckets ? b : nr_buckets - 1);
	}
	if (h->nr)
		qsort(h->s, h->nr, sizeof(*h->s), cmp_sample);
	fputs("\"cells\":[", f);
	for (size_t i = 0, j; i < h->nr; i = j) {
		for (j = i + 1; j < h->nr && !cmp_sample(&h->s[i], &h->s[j]); j++)
			;
		fprintf(f, "%s[%" PRIu32 ",%" PRIu32 ",%zu]", sep, h->s[i].leaf, h->s[i].bucket,
			j - i);
		sep = (j - i) % 8 ? "," : ",\n";
	}
	fputs("]", f);
}

int tp_html__write(struct tp_html *h, const struct tp_html_conf *conf, FILE *f)
{
	uint32_t nr_buckets = conf->nr_buckets ? conf->nr_buckets : 200, *id = NULL;
	bool *shown = NULL;
	int err = prune(h->fl, conf->min_share > 0 ? conf->min_share : 1e-4, &id, &shown);

	if (!err) {
		html__page_start(f, conf->title ? conf->title : "tinyperf report");
		fputs("{\"facts\":[", f);
		for (uint32_t i = 0; i < 2 * conf->nr_facts; i++) {
			fputs(i ? "," : "", f);
			render_json_str(f, conf->facts[i] ? conf->facts[i] : "");
		}
		fputs("],\n\"sources\":", f);
		render_json_str(f, conf->sources ? conf->sources : "");
		fprintf(f, ",\n\"t0\":%" PRIu64 ",\"t1\":%" PRIu64 ",\"buckets\":%" PRIu32 ",\n",
			h->t0, h->t1, nr_buckets);
		put_nodes(h, id, shown, f);
		fputs(",\n", f);
		put_cells(h, id, nr_buckets, f);
		fputs("}\n", f);
		html__page_end(f);
		err = fflush(f) || ferror(f) ? -TP_ERR_IO : 0;
	}
	free(id);
	free(shown);
	return err;
}
