/* SPDX-License-Identifier: MIT */
/* Embedded symbols (symembed.h): the section's memory, the sampled ranges, the symbols kept
 * and their encoding, and the kernel's and modules' blocks (ksyms.c reads kallsyms). */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/features.h"
#include "recorder/track/buildid.h"
#include "recorder/base/msg.h"
#include "recorder/embed/ksyms-snap.h"
#include "recorder/embed/symembed.h"
#include "recorder/track/ksyms-cache.h"

#define OUT_MAX		(1u << 20)	/* the section (a stream sends it in 64 KiB parts) */
#define STR_CAP		(512u << 10)
#define HASH_SLOTS	16384u		/* names shared up to 8192 distinct ones */

int symembed__init(struct track *t, struct ksyms_cache *kc, char **envp)
{
	struct addrset *as = arena__alloc(t->arena, sizeof(*as));

	if (!as || addrset__init(as, t->arena, 0, t->lim.max_dsos))
		return -TP_ENOMEM;
	t->as = as;
	if (IS_ENABLED(CONFIG_REC_KSYMS_CACHE)) {
		ksyms_cache__open(kc, envp);
		t->kc = kc;
	}
	return 0;
}

int symembed__begin(struct symembed *e, struct track *t, struct ksyms_snap *ks,
		    struct tp_writer *w, bool pipe, bool notes)
{
	size_t out_cap = OUT_MAX;
	size_t lo_size = ADDRSET_MAX * sizeof(uint64_t);
	size_t gap_size = (ADDRSET_MAX + 1) * (size_t)SYMEMBED_GAP_SIZE;
	size_t sel_size = SYMEMBED_SEL_MAX * sizeof(struct symembed_sel);
	long m;
	uint8_t *p;

	memset(e, 0, sizeof(*e));
	e->as = t->as;
	e->dsos = &t->dsos;
	e->vdso_classes = t->vdso_classes;
	/* a pipe to stdout is for Linux perf, which refuses private features in a pipe */
	if (!e->as || !e->as->nr || (pipe && !w->pipe_private))
		return -TP_ENODATA;
	e->mem_size = out_cap + STR_CAP + HASH_SLOTS * 4 + lo_size + gap_size + sel_size +
		      SYMEMBED_NAME_MAX + SYMEMBED_LINEBUF;
	m = sys_mmap(NULL, e->mem_size, TP_PROT_READ | TP_PROT_WRITE,
		     TP_MAP_PRIVATE | TP_MAP_ANONYMOUS | TP_MAP_NORESERVE, -1, 0);
	if (m < 0 && m > -4096)
		return (int)m;
	e->mem = p = (uint8_t *)m;
	tp_writer__fbuf(w, &e->out, p, out_cap);
	p += out_cap;
	tp_symtab_enc__init(&e->enc, &e->out, e->as->shift, (char *)p, STR_CAP,
			    (uint32_t *)(p + STR_CAP), HASH_SLOTS);
	e->enc.release = addrset_release;
	p += STR_CAP + HASH_SLOTS * 4;
	e->lo_map = (uint64_t *)p;
	e->gaps_map = p + lo_size;
	e->sel = (struct symembed_sel *)(p + lo_size + gap_size);
	e->name = (char *)e->sel + sel_size;
	e->linebuf = e->name + SYMEMBED_NAME_MAX;
	e->nr_ents = addrset__sort(e->as);
	for (uint32_t i = 0; i < e->nr_ents; i++)
		if (e->dsos->v[addrset_dso(e->as->tmp[i])].kind != TRACK_USER)
			e->have_kernel = true;
	e->kfd[0] = -1;
	e->ksnap = ks;
	e->track = t;
	e->notes = notes;
	return 0;
}

void symembed__release(struct symembed *e)
{
	if (e->mem)
		sys_munmap(e->mem, e->mem_size);
	e->mem = NULL;
	addrset__reset(e->as);	/* its table held the ranges: the next output starts empty */
}

/* Where the ranges of one DSO and their gap slots go: into the address set's hash table,
 * which the sorted copy made idle and which is resident already, when they fit (they
 * usually do); else into this section's mapping. */
void symembed__place(struct symembed *e)
{
	size_t table = (e->as->mask + 1) * sizeof(*e->as->v);

	if ((size_t)e->nr_lo * 8 + (e->nr_lo + 1) * (size_t)SYMEMBED_GAP_SIZE <= table) {
		e->lo = (uint64_t *)e->as->v;
		e->gaps = e->lo + e->nr_lo;
	} else {
		e->lo = e->lo_map;
		e->gaps = e->gaps_map;
	}
}

/* ---- ranges ---- */

uint64_t symembed__range_end(const struct symembed *e, uint32_t i)
{
	uint8_t sh = e->shift;
	uint64_t end = sh >= 48 ? ~0ULL : e->lo[i] + (1ULL << sh);

	return end < e->lo[i] ? ~0ULL : end;	/* the last range of the address space */
}

/* index of the first range starting at or above addr: addr's gap */
uint32_t symembed__gap_of(const struct symembed *e, uint64_t addr)
{
	uint32_t lo = 0, hi = e->nr_lo;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (e->lo[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void symembed__keep(struct symembed *e, const struct symembed_sel *s)
{
	if (e->nr_sel < SYMEMBED_SEL_MAX)
		e->sel[e->nr_sel++] = *s;
	else
		e->enc.flags |= TP_SYMTAB_F_INCOMPLETE;
}

uint8_t symembed__rank(bool sized, char bind, const char *name)
{
	unsigned us = 0;

	while (name && name[us] == '_' && us < 15)
		us++;
	/* bind: 'g'lobal, 'w'eak, 'l'ocal */
	return (uint8_t)(!sized << 7 | (bind == 'w') << 6 | (bind != 'g') << 5 | us << 1);
}

static bool sel_less(const struct symembed_sel *a, const struct symembed_sel *b)
{
	if (a->mod != b->mod)
		return a->mod < b->mod;
	return a->addr < b->addr || (a->addr == b->addr && a->rank < b->rank);
}

static void sel_sift(struct symembed_sel *v, uint32_t i, uint32_t n)
{
	struct symembed_sel x = v[i];
	uint32_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && sel_less(&v[c], &v[c + 1]))
			c++;
		if (!sel_less(&x, &v[c]))
			break;
		v[i] = v[c];
		i = c;
	}
	v[i] = x;
}

/* sort e->sel by (module, address, rank) */
static void sel_sort(struct symembed *e)
{
	struct symembed_sel *v = e->sel, x;
	uint32_t n = e->nr_sel;

	for (uint32_t i = n / 2; i-- > 0;)
		sel_sift(v, i, n);
	for (uint32_t i = n; i-- > 1;) {
		x = v[0];
		v[0] = v[i];
		v[i] = x;
		sel_sift(v, 0, i);
	}
}

/* perf's choice of a name at one address: by rank, then the longest (section strings, or
 * names through nm) */
static bool better(struct symembed *e, const struct symembed_names *nm,
		   const struct symembed_sel *a, const struct symembed_sel *b)
{
	const char *n;
	uint8_t ra, rb;
	size_t la;

	if (!nm)
		return a->rank == b->rank &&
		       strlen(e->enc.str + a->name) > strlen(e->enc.str + b->name);
	n = nm->name(e, nm->ctx, a->name);
	ra = (uint8_t)(a->rank | symembed__rank(true, 'g', n));
	la = strlen(n);
	n = nm->name(e, nm->ctx, b->name);	/* (the same window: a's is done with) */
	rb = (uint8_t)(b->rank | symembed__rank(true, 'g', n));
	return ra != rb ? ra < rb : la > strlen(n);
}

/* sorted, one per address, encoded as one block */
void symembed__emit(struct symembed *e, const struct tp_symtab_block *b,
		    const struct symembed_names *nm)
{
	struct symembed_sel *v = e->sel;
	uint32_t n = 0, i, j;

	sel_sort(e);
	for (i = 0; i < e->nr_sel; i = j) {
		struct symembed_sel best = v[i];

		for (j = i + 1; j < e->nr_sel && v[j].addr == v[i].addr && v[j].mod == v[i].mod; j++)
			if (better(e, nm, &v[j], &best))
				best = v[j];
		v[n++] = best;
	}
	if (tp_symtab_enc__block(&e->enc, b, n))
		goto out_drop;
	for (i = 0; i < n; i++) {
		uint32_t name = nm ? tp_symtab_enc__str(&e->enc, nm->name(e, nm->ctx, v[i].name))
				   : v[i].name;

		if (name == (uint32_t)-1 || tp_symtab_enc__sym(&e->enc, v[i].addr, v[i].size, name))
			goto out_drop;
	}
	return;
out_drop:
	tp_symtab_enc__drop(&e->enc);
}

void symembed__set_id(struct tp_symtab_block *b, const uint8_t *id, uint8_t len, uint64_t hash)
{
	if (len) {
		b->id_type = TP_SYMTAB_ID_BUILD_ID;
		b->id_len = (uint8_t)TP_MIN(len, (uint8_t)TP_SYMTAB_ID_MAX);
		memcpy(b->id, id, b->id_len);
	} else if (hash) {
		b->id_type = TP_SYMTAB_ID_TEXT_HASH;
		b->text_hash = hash;
	}
}

/* The kernel ranges inside functions earlier recordings of this boot named: those kept
 * from the cache (ksyms-cache.h) and taken out of e->lo, so that kallsyms is read only for
 * the rest, if any (exact ranges only: a coarse one may overlap several functions). How
 * many were kept. */
static uint32_t from_cache(struct symembed *e, const struct ksyms_cache *c)
{
	const struct ksyms_cache_ent *last = NULL, *x;
	uint32_t m = 0, kept = 0;

	for (uint32_t k = 0; k < e->nr_lo; k++) {
		x = e->shift ? NULL : ksyms_cache__find(c, e->lo[k]);
		if (!x) {
			e->lo[m++] = e->lo[k];
		} else if (x != last) {
			struct symembed_sel s = { x->addr, x->size, 0, 0, 0 };

			last = x;
			s.name = tp_symtab_enc__str(&e->enc, c->names + x->name);
			if (s.name == (uint32_t)-1) {
				e->enc.flags |= TP_SYMTAB_F_INCOMPLETE;
				continue;
			}
			symembed__keep(e, &s);
			kept++;
		}
	}
	if (e->notes && c->path[0])
		rec_msg(false, "embedded symbols: %u kernel functions from %s, %u addresses left",
			kept, c->path, m);
	e->nr_lo = m;
	return kept;
}

int symembed__end(struct symembed *e, struct tp_feat *f)
{
	struct ksyms_cache *kc = e->track->kc;
	uint32_t cached = 0;
	int err;

	if (e->have_kernel) {
		e->nr_lo = 0;
		e->nr_sel = 0;
		e->shift = 0;
		for (uint32_t i = 0; i < e->nr_ents; i++) {
			uint32_t d = addrset_dso(e->as->tmp[i]);

			if (e->dsos->v[d].kind != TRACK_USER) {
				e->nr_lo++;
				/* one extent for all: the coarsest covers every finer one */
				e->shift = TP_MAX(e->shift, addrset_shift(e->as, d));
			}
		}
		symembed__place(e);
		e->nr_lo = 0;
		for (uint32_t i = 0; i < e->nr_ents; i++)
			if (e->dsos->v[addrset_dso(e->as->tmp[i])].kind != TRACK_USER) {
				e->lo[e->nr_lo++] = addrset_start(e->as, e->as->tmp[i]);
				e->kernel_mods |= e->dsos->v[addrset_dso(e->as->tmp[i])].kind ==
						  TRACK_MODULE;
			}
		addrset_sort_u64(e->lo, e->nr_lo);
		if (IS_ENABLED(CONFIG_REC_KSYMS_CACHE))
			cached = from_cache(e, kc);
		err = 0;
		if (e->nr_lo) {
			/* the kallsyms copy, as far as the last range's end (all of it with
			 * modules) */
			ksyms_snap__get(e->ksnap, e->track, e->kernel_mods ? ~0ULL :
					symembed__range_end(e, e->nr_lo - 1), e->kfd, e->notes);
			err = ksyms__read(e);
			if (err)
				e->nr_sel = cached;	/* what the cache named stands */
		}
		if (e->nr_sel) {
			/* the pairs were sorted by DSO first: merge the kernel's and modules' */
			struct symembed_sel *v = e->sel;
			uint32_t n = e->nr_sel, start;

			sel_sort(e);
			/* what kallsyms named, for the next recordings of this boot */
			if (IS_ENABLED(CONFIG_REC_KSYMS_CACHE) && !err && n > cached &&
			    !ksyms_cache__save(kc, v, n, e->enc.str))
				ksyms_cache__load(kc);
			for (uint32_t i = 0; i < n; i = start) {
				struct tp_symtab_block b = { .src = TP_SYMTAB_SRC_KALLSYMS };
				uint8_t id[20], len = 0;

				for (start = i; start < n && v[start].mod == v[i].mod; start++)
					;
				if (v[i].mod) {
					b.kind = TP_SYMTAB_MODULE;
					b.name = e->enc.str + v[i].mod;
					buildid__module(b.name, id, &len);
					symembed__set_id(&b, id, len, 0);
				} else {
					b.kind = TP_SYMTAB_KERNEL;
					b.name = "[kernel.kallsyms]";
					if (!e->kernel_id_len)
						buildid__kernel(e->kernel_id, &e->kernel_id_len);
					symembed__set_id(&b, e->kernel_id, e->kernel_id_len, 0);
				}
				/* symembed__emit sorts what it is given: give it this module's run */
				e->sel = v + i;
				e->nr_sel = start - i;
				symembed__emit(e, &b, NULL);
				e->sel = v;
			}
		}
	}
	/* the pairs are done with: their memory goes before the strings are copied (the peak) */
	addrset__drop(e->as);
	e->nr_ents = 0;
	err = tp_symtab_enc__finish(&e->enc);
	if (err)
		return err;
	if (!e->enc.nr_blocks)
		return -TP_ENODATA;
	tp_feat__blob(f, TP_FEAT_SYMTAB, e->out.buf, e->out.len);
	return 0;
}
