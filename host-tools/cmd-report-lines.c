/* SPDX-License-Identifier: MIT */
/* tinyperf report's source lines: the text perf's srcline sort key and `-g srcline` graphs
 * show for an address ("file.c:12"; without line info "sym+<offset>" or "dso[addr]"; no map
 * "??:0"), interned to the ids that tp_frame.line carries, each address looked up once. The
 * stand-ins carry TP_LINE_NOSRC: graphs show and merge those frames by function, as perf. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/cmd-report.h"
#include "host-tools/lib/common/common.h"

struct text_key {
	const struct report *rp;
	const char *s;
};

static bool text_eq(const void *p, uint32_t i)
{
	const struct text_key *k = p;

	return !strcmp(k->rp->line_texts[i], k->s);
}

static uint32_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return tp_hash64(h);
}

/* the id of text s (ids from 1; 0 stays "none") */
static int intern(struct report *rp, const char *s, uint32_t *out)
{
	struct text_key k = { rp, s };
	uint32_t hv = text_hash(s);
	struct tp_hslot *slot;

	if (!rp->nr_line_texts) {	/* id 0: none */
		if (tp_grow((void **)&rp->line_texts, &rp->cap_line_texts, 1,
			    sizeof(*rp->line_texts)))
			return -TP_ERR_NOMEM;
		rp->line_texts[0] = NULL;
		rp->nr_line_texts = 1;
	}
	if (tp_htab__reserve(&rp->line_text_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&rp->line_text_idx, hv, text_eq, &k);
	if (!slot->idx) {
		char *copy = strdup(s);

		if (!copy || tp_grow((void **)&rp->line_texts, &rp->cap_line_texts,
				     rp->nr_line_texts + 1, sizeof(*rp->line_texts))) {
			free(copy);
			return -TP_ERR_NOMEM;
		}
		rp->line_texts[rp->nr_line_texts] = copy;
		tp_htab__fill(&rp->line_text_idx, slot, hv, rp->nr_line_texts++);
	}
	*out = slot->idx - 1;
	return 0;
}

struct addr_key {
	const struct report *rp;
	uint32_t dso;
	uint64_t addr;
};

static bool addr_eq(const void *p, uint32_t i)
{
	const struct addr_key *k = p;
	const struct report_line_at *a = &k->rp->line_at[i];

	return a->dso == k->dso && a->addr == k->addr;
}

/* perf's text for one address (map__srcline with its symbol and address shown); false when
 * it is a stand-in, not a source line */
static bool compose(struct report *rp, struct tp_frame f, uint64_t addr, uint64_t off,
		    char *buf, size_t n)
{
	const struct tp_symres *r;
	const struct tp_csym *sym;
	const char *file;

	if (!f.dso) {
		snprintf(buf, n, "??:0");
		return false;
	}
	r = tp_symcache__where(rp->cs.c, f.dso, addr);
	if (r && r->file && r->line) {
		file = strrchr(r->file, '/');
		snprintf(buf, n, "%s:%u", file ? file + 1 : r->file, r->line);
		return true;
	}
	sym = tp_symcache__sym(rp->cs.c, f.sym);
	if (sym->name && !sym->inlined)
		snprintf(buf, n, "%s+%" PRIu64, sym->name, off);
	else
		snprintf(buf, n, "%s[%" PRIx64 "]", tp_symcache__dso(rp->cs.c, f.dso)->short_name,
			 addr);
	return false;
}

int report__line(struct report *rp, struct tp_frame *f, uint64_t addr, uint64_t off)
{
	struct addr_key k = { rp, f->dso, addr };
	uint32_t hv = tp_hash2(addr, f->dso);
	struct tp_hslot *slot;
	char buf[1024];
	uint32_t id = 0;
	int err;

	if (f->dso && tp_symcache__sym(rp->cs.c, f->sym)->inlined)
		k.dso |= 1u << 31;	/* an inlined frame's text is its own */
	if (tp_htab__reserve(&rp->line_at_idx))
		return -TP_ERR_NOMEM;
	slot = tp_htab__probe(&rp->line_at_idx, hv, addr_eq, &k);
	if (!slot->idx) {
		bool src = compose(rp, *f, addr, off, buf, sizeof(buf));

		err = intern(rp, buf, &id);
		id |= src ? 0 : TP_LINE_NOSRC;
		if (err || tp_grow((void **)&rp->line_at, &rp->cap_line_at, rp->nr_line_at + 1,
				   sizeof(*rp->line_at)))
			return -TP_ERR_NOMEM;
		rp->line_at[rp->nr_line_at] = (struct report_line_at){ addr, k.dso, id };
		tp_htab__fill(&rp->line_at_idx, slot, hv, rp->nr_line_at++);
	}
	f->line = rp->line_at[slot->idx - 1].id;
	return 0;
}

const char *report__line_text(const struct report *rp, uint32_t id)
{
	id &= ~TP_LINE_NOSRC;
	return id && id < rp->nr_line_texts ? rp->line_texts[id] : "??:0";
}

void report__lines_free(struct report *rp)
{
	for (uint32_t i = 1; i < rp->nr_line_texts; i++)
		free(rp->line_texts[i]);
	free(rp->line_texts);
	tp_htab__free(&rp->line_text_idx);
	free(rp->line_at);
	tp_htab__free(&rp->line_at_idx);
}
