/* SPDX-License-Identifier: MIT */
/* Which samples a report or a script shows, as perf's options say it: --comm, --pid, --tid
 * (the thread), --dso, --symbol (where the sample, or an entry, is) and --time ranges in
 * seconds. Names are compared as given; an empty filter lets everything through. */
#ifndef TINYPERF_HOST_TOOLS_LIB_AGG_HFILTER_H
#define TINYPERF_HOST_TOOLS_LIB_AGG_HFILTER_H

#include <stdbool.h>
#include <stdint.h>

enum tp_hfilter_list {
	TP_HFILTER_COMM,
	TP_HFILTER_PID,
	TP_HFILTER_TID,
	TP_HFILTER_DSO,
	TP_HFILTER_SYM,
	TP_HFILTER_MAX
};

struct tp_hfilter_time {
	uint64_t start, end;		/* ns, inclusive */
};

struct tp_hfilter {
	struct {
		char **v;
		unsigned n;
	} lists[TP_HFILTER_MAX];
	struct tp_hfilter_time *times;
	unsigned nr_times;
	int8_t *comm_ok;		/* by comm id: 0 unknown yet, 1 passes, -1 does not */
	uint32_t nr_comm_ok;
};

/* a comma-separated list (PID and TID lists must be numbers): 0, -TP_ERR_INVAL,
 * -TP_ERR_NOMEM; lists given twice add up */
int tp_hfilter__add_list(struct tp_hfilter *f, enum tp_hfilter_list which, const char *csv);
/* "START,END" in seconds ("12.5,13", ",13", "12.5,"), several separated by spaces:
 * 0, -TP_ERR_INVAL or -TP_ERR_NOMEM */
int tp_hfilter__add_times(struct tp_hfilter *f, const char *arg);
void tp_hfilter__release(struct tp_hfilter *f);

static inline bool tp_hfilter__has(const struct tp_hfilter *f, enum tp_hfilter_list which)
{
	return f->lists[which].n > 0;
}

/* a sample's time (has_time false: the sample has none, and fails any --time) */
bool tp_hfilter__time_ok(const struct tp_hfilter *f, bool has_time, uint64_t t);
/* a thread; comm_id (any stable numbering of comm strings) caches the answer per comm */
bool tp_hfilter__thread_ok(struct tp_hfilter *f, uint32_t comm_id, const char *comm,
			   int32_t pid, int32_t tid);
/* a DSO (its path or basename matches) and a symbol (NULL: unresolved, never matches);
 * a NULL dso or sym is not checked */
bool tp_hfilter__dso_ok(const struct tp_hfilter *f, const char *dso, const char *dso_short);
bool tp_hfilter__sym_ok(const struct tp_hfilter *f, const char *sym, bool resolved);

#endif
