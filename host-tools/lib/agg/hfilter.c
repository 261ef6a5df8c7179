/* SPDX-License-Identifier: MIT */
/* Sample filters: lists of names and ids, time ranges, and the per-comm answer cache that
 * keeps the per-sample check to an array lookup. */
#define _GNU_SOURCE		/* strtok_r, strdup */
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/agg/hfilter.h"

static bool is_id(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtol(s, &end, 10);
	return !*end;
}

int tp_hfilter__add_list(struct tp_hfilter *f, enum tp_hfilter_list which, const char *csv)
{
	char *copy = strdup(csv), *save = NULL;
	bool ids = which == TP_HFILTER_PID || which == TP_HFILTER_TID;
	int err = 0;

	if (!copy)
		return -TP_ERR_NOMEM;
	for (char *t = strtok_r(copy, ",", &save); t && !err; t = strtok_r(NULL, ",", &save)) {
		char **v;

		if (ids && !is_id(t)) {
			err = -TP_ERR_INVAL;
			break;
		}
		v = realloc(f->lists[which].v, (f->lists[which].n + 1) * sizeof(*v));
		if (!v) {
			err = -TP_ERR_NOMEM;
			break;
		}
		f->lists[which].v = v;
		v[f->lists[which].n] = strdup(t);
		if (!v[f->lists[which].n])
			err = -TP_ERR_NOMEM;
		else
			f->lists[which].n++;
	}
	free(copy);
	if (!err && strspn(csv, ",") == strlen(csv))
		err = -TP_ERR_INVAL;	/* nothing in it */
	return err;
}

/* "12.5" seconds -> ns, exactly (no floating point); false if it is not a number */
static bool parse_secs(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	bool digits = false;

	for (; s < end && *s >= '0' && *s <= '9'; s++, digits = true) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return false;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, digits = true) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*s - '0') * scale;
			}
		}
	}
	*ns = sec * 1000000000ULL + frac;
	return digits && s == end;
}

int tp_hfilter__add_times(struct tp_hfilter *f, const char *arg)
{
	unsigned before = f->nr_times;

	for (const char *p = arg; *p;) {
		const char *end = p + strcspn(p, " "), *comma = memchr(p, ',', (size_t)(end - p));
		struct tp_hfilter_time r = { 0, UINT64_MAX }, *n;

		if (end == p) {
			p++;
			continue;
		}
		if (!comma || (comma > p && !parse_secs(p, comma, &r.start)) ||
		    (comma + 1 < end && !parse_secs(comma + 1, end, &r.end)) || r.start > r.end)
			return -TP_ERR_INVAL;
		n = realloc(f->times, (f->nr_times + 1) * sizeof(*n));
		if (!n)
			return -TP_ERR_NOMEM;
		f->times = n;
		f->times[f->nr_times++] = r;
		p = end;
	}
	return f->nr_times > before ? 0 : -TP_ERR_INVAL;
}

void tp_hfilter__release(struct tp_hfilter *f)
{
	for (int l = 0; l < TP_HFILTER_MAX; l++) {
		for (unsigned i = 0; i < f->lists[l].n; i++)
			free(f->lists[l].v[i]);
		free(f->lists[l].v);
	}
	free(f->times);
	free(f->comm_ok);
	memset(f, 0, sizeof(*f));
}

static bool in_list(const struct tp_hfilter *f, enum tp_hfilter_list which, const char *s)
{
	for (unsigned i = 0; s && i < f->lists[which].n; i++)
		if (!strcmp(f->lists[which].v[i], s))
			return true;
	return false;
}

static bool id_in_list(const struct tp_hfilter *f, enum tp_hfilter_list which, int32_t id)
{
	for (unsigned i = 0; i < f->lists[which].n; i++)
		if (atoi(f->lists[which].v[i]) == id)
			return true;
	return false;
}

bool tp_hfilter__time_ok(const struct tp_hfilter *f, bool has_time, uint64_t t)
{
	if (!f->nr_times)
		return true;
	for (unsigned i = 0; has_time && i < f->nr_times; i++)
		if (t >= f->times[i].start && t <= f->times[i].end)
			return true;
	return false;
}

bool tp_hfilter__thread_ok(struct tp_hfilter *f, uint32_t comm_id, const char *comm,
			   int32_t pid, int32_t tid)
{
	if (f->lists[TP_HFILTER_PID].n && !id_in_list(f, TP_HFILTER_PID, pid))
		return false;
	if (f->lists[TP_HFILTER_TID].n && !id_in_list(f, TP_HFILTER_TID, tid))
		return false;
	if (!f->lists[TP_HFILTER_COMM].n)
		return true;
	if (comm_id >= f->nr_comm_ok) {
		uint32_t n = comm_id + 64;
		int8_t *ok = n > comm_id ? realloc(f->comm_ok, n) : NULL;

		if (!ok)	/* without room for the answer, ask every time */
			return in_list(f, TP_HFILTER_COMM, comm);
		memset(ok + f->nr_comm_ok, 0, n - f->nr_comm_ok);
		f->comm_ok = ok;
		f->nr_comm_ok = n;
	}
	if (!f->comm_ok[comm_id])
		f->comm_ok[comm_id] = in_list(f, TP_HFILTER_COMM, comm) ? 1 : -1;
	return f->comm_ok[comm_id] > 0;
}

bool tp_hfilter__dso_ok(const struct tp_hfilter *f, const char *dso, const char *dso_short)
{
	return !f->lists[TP_HFILTER_DSO].n || in_list(f, TP_HFILTER_DSO, dso) ||
	       in_list(f, TP_HFILTER_DSO, dso_short);
}

bool tp_hfilter__sym_ok(const struct tp_hfilter *f, const char *sym, bool resolved)
{
	return !f->lists[TP_HFILTER_SYM].n || (resolved && in_list(f, TP_HFILTER_SYM, sym));
}
