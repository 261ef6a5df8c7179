/* SPDX-License-Identifier: MIT */
/* Two profiles' entries merged by (DSO, symbol) name: sort each side, then one merge pass. */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/symdiff.h"

static int strcmp_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int key_cmp(const struct tp_dentry *a, const struct tp_dentry *b)
{
	int c = strcmp_null(a->dso, b->dso);

	return c ? c : strcmp_null(a->sym, b->sym);
}

static int by_key(const void *a, const void *b)
{
	return key_cmp(*(const struct tp_dentry *const *)a, *(const struct tp_dentry *const *)b);
}

static int by_delta(const void *a, const void *b)
{
	const struct tp_drow *x = a, *y = b;
	double dx = x->delta < 0 ? -x->delta : x->delta, dy = y->delta < 0 ? -y->delta : y->delta;
	int c;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->weight[0] != y->weight[0])
		return x->weight[0] > y->weight[0] ? -1 : 1;
	c = strcmp_null(x->dso, y->dso);
	return c ? c : strcmp_null(x->sym, y->sym);
}

static const struct tp_dentry **sorted(const struct tp_dentry *e, size_t n)
{
	const struct tp_dentry **v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = &e[i];
	qsort(v, n, sizeof(*v), by_key);
	return v;
}

int tp_symdiff(const struct tp_dentry *old, size_t n_old, uint64_t total_old,
	       const struct tp_dentry *new, size_t n_new, uint64_t total_new,
	       struct tp_drow **rows, size_t *n)
{
	const struct tp_dentry **a = sorted(old, n_old), **b = sorted(new, n_new);
	const uint64_t total[2] = { total_old, total_new };
	struct tp_drow *r = malloc((n_old + n_new + 1) * sizeof(*r));
	size_t i = 0, j = 0, nr = 0;

	*rows = NULL;
	*n = 0;
	if (!a || !b || !r) {
		free(a);
		free(b);
		free(r);
		return -TP_ERR_NOMEM;
	}
	while (i < n_old || j < n_new) {
		const struct tp_dentry *k;
		struct tp_drow *row = &r[nr];
		int c;

		if (i == n_old)
			c = 1;
		else if (j == n_new)
			c = -1;
		else
			c = key_cmp(a[i], b[j]);
		k = c <= 0 ? a[i] : b[j];
		memset(row, 0, sizeof(*row));
		row->dso = k->dso;
		row->sym = k->sym;
		row->level = k->level;
		/* the same key may come several times on one side: sum them */
		for (; i < n_old && !key_cmp(a[i], k); i++) {
			row->weight[0] += a[i]->weight;
			row->samples[0] += a[i]->samples;
		}
		for (; j < n_new && !key_cmp(b[j], k); j++) {
			row->weight[1] += b[j]->weight;
			row->samples[1] += b[j]->samples;
		}
		for (int s = 0; s < 2; s++)
			row->pct[s] = total[s] ? 100.0 * (double)row->weight[s] / (double)total[s]
					       : 0;
		row->delta = row->pct[1] - row->pct[0];
		nr++;
	}
	free(a);
	free(b);
	qsort(r, nr, sizeof(*r), by_delta);
	*rows = r;
	*n = nr;
	return 0;
}
