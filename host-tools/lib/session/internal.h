/* SPDX-License-Identifier: MIT */
/* Library-internal: the session's state, shared by session.c (ordering, delivery) and
 * machine.c (threads, maps, DSOs). */
#ifndef TINYPERF_HOST_TOOLS_LIB_SESSION_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_SESSION_INTERNAL_H

#include <stddef.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/session/session.h"

/* sorted by start, never overlapping; a forked process shares its parent's until one of
 * them changes (copy on write), so fork+exec never copies */
struct tp_maps {
	struct tp_map *v;
	size_t nr, cap;
	unsigned refs;
};

struct tp_proc {
	int32_t pid;
	struct tp_maps *maps;
};

/* a queued record: re-decoded from the input when it is delivered */
struct tp_qent {
	uint64_t time, seq, offset;
	const uint8_t *data;
};

/* a growing array of pointers, freed with the session */
struct tp_ptrs {
	void **v;
	size_t nr, cap;
};

struct tp_session {
	struct tp_reader *r;
	struct tp_ptrs all_threads, all_procs;	/* everything ever made, for freeing */
	struct tp_ptrs dsos;		/* creation order */
	struct tp_htab threads;		/* tid -> the current thread in all_threads */
	struct tp_htab procs;		/* pid -> the current process in all_procs */
	struct tp_htab dso_names;	/* name -> dsos */
	struct tp_maps kmaps;		/* kernel and modules */
	const char *kref_name;
	uint64_t kref_addr;

	struct tp_qent *q;		/* min-heap on (time, seq) */
	size_t nr_q, cap_q;
	uint64_t seq, max_time, next_flush;
	struct tp_event ev;		/* the record being delivered from the queue */
	bool processed;
};

int tp_ptrs__push(struct tp_ptrs *p, void *v);

/* apply a record to threads/maps/DSOs; *thread gets the record's thread when it has one */
int tp_machine__apply(struct tp_session *s, const struct tp_event *ev,
		      struct tp_thread **thread);
/* the DSO called name (made if new); NULL on ENOMEM */
struct tp_dso *tp_machine__dso(struct tp_session *s, const char *name, bool kernel);
/* a build-id entry of the features or a HEADER_BUILD_ID record */
int tp_machine__build_id(struct tp_session *s, const struct tp_buildid_entry *b);
void tp_machine__release(struct tp_session *s);

#endif
