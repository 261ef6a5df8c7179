/* SPDX-License-Identifier: MIT */
/* The feature sections of a recording: what the machine was (hostname, os release, arch, CPUs,
 * memory), how it was recorded (command line, event names), the tracepoint formats, and at the
 * end the build-ids of the DSOs that got samples (known from track/, no pass over the data)
 * plus, for binaries without a build-id, tinyperf's load-segment hash (a private feature). */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/features.h"
#include "recorder/track/buildid.h"
#include "recorder/out/bidcache.h"
#include "recorder/record/record.h"
#include "recorder/embed/symembed.h"
#include "recorder/record/sysinfo.h"
#include "recorder/events/tracing-data.h"

#define MAX_FEATS 16
#define BASE_BUF 32768
#define END_BUF (1u << 20)     /* build-ids: lazily backed, ~100 B per hit DSO */

static struct {
	struct tp_fbuf fb;
	struct tp_feat f[MAX_FEATS];
	unsigned n;
	struct tracing_data td;
	struct tp_utsname u;
	char cpudesc[128];
	uint8_t base[BASE_BUF];	/* last: the fields above stay near (armv7, MIPS) */
} fs;

static void add(struct tp_feat *f)
{
	if (fs.n < MAX_FEATS)
		fs.f[fs.n++] = *f;
}

static void add_string(uint32_t id, const char *s)
{
	struct tp_feat f;

	if (!tp_feat__string(&fs.fb, &f, id, s))
		add(&f);
}

int rec_features__start(struct record *r)
{
	struct tp_writer_attr wa[REC_MAX_EVSELS];
	struct tp_feat f;
	uint32_t avail = 0, online = 0;
	uint64_t mem_kb = 0;
	int err;

	tp_writer__fbuf(&r->w, &fs.fb, fs.base, sizeof(fs.base));
	sys_uname(&fs.u);
	sysinfo__nrcpus(&avail, &online);
	sysinfo__cpudesc(fs.cpudesc, sizeof(fs.cpudesc));
	sysinfo__mem_total_kb(&mem_kb);
	rec_writer_attrs(r, wa);
	add_string(HEADER_HOSTNAME, fs.u.nodename);
	add_string(HEADER_OSRELEASE, fs.u.release);
	add_string(HEADER_VERSION, "tinyperf " TP_VERSION);
	add_string(HEADER_ARCH, fs.u.machine);
	if (avail && !tp_feat__nrcpus(&fs.fb, &f, avail, online)) add(&f);
	if (fs.cpudesc[0])
		add_string(HEADER_CPUDESC, fs.cpudesc);
	if (mem_kb && !tp_feat__total_mem(&fs.fb, &f, mem_kb)) add(&f);
	if (!tp_feat__cmdline(&fs.fb, &f, (uint32_t)r->argc, (const char *const *)r->argv)) add(&f);
	if (!tp_feat__event_desc(&fs.fb, &f, wa, r->spec.nr, r->attr_size)) add(&f);
	if (tp_fbuf__err(&fs.fb))
		return r->write_err = tp_fbuf__err(&fs.fb);
	err = IS_ENABLED(CONFIG_REC_TRACEPOINTS) ? tracing_data__build(&fs.td, &r->spec) : 0;
	if (err) {
		if (!r->o.quiet)	/* -q: errors only, as the other warnings */
			rec_warn("cannot read the tracepoint formats from tracefs: %s: tracepoint "
				 "fields will not decode on the host", tp_strerror(err));
	} else if (fs.td.len) {
		tp_feat__blob(&f, HEADER_TRACING_DATA, fs.td.buf, fs.td.len);
		add(&f);
	}
	err = tp_writer__pipe_features(&r->w, fs.f, fs.n);
	if (err && !r->write_err)
		r->write_err = err;
	return err;
}

/* ---- build-ids of the hit DSOs ---- */

struct bid_ctx {
	struct tp_fbuf *ids;       /* BUILD_ID records */
	struct tp_fbuf *hashes;    /* TP_FEAT_TEXT_HASH entries */
	uint32_t nr_hashes;
	struct rec_bidcache *cache; /* --buildid-cache, or NULL */
	struct symembed *emb;      /* embedded symbols, or NULL */
};

static int one_dso(void *ctx, const char *path, enum track_kind kind, const uint8_t *id_in,
		   uint8_t id_size)
{
	struct bid_ctx *c = ctx;
	uint8_t id[20];
	uint8_t len = 0;
	struct tp_build_id b;
	uint64_t hash = 0;

	if (id_in && id_size) {
		memcpy(id, id_in, id_size);
		len = id_size;
	} else if (kind == TRACK_KERNEL) {
		buildid__kernel(id, &len);
	} else if (kind == TRACK_MODULE) {
		buildid__module(path, id, &len);
	} else if (!strcmp(path, "[vdso]")) {
		buildid__vdso(id, &len);
	} else if (path[0] == '/' && path[1] != '/') {   /* not "//anon" */
		buildid__from_file(path, id, &len, &hash);
	}
	if (IS_ENABLED(CONFIG_REC_BUILDID_CACHE) && c->cache)
		rec_bidcache__add(c->cache, path, kind, id, len, hash);
	if (len) {
		b.cpumode = kind == TRACK_USER ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
		b.id = id;
		b.size = len;
		b.filename = path;	/* track names the kernel "[kernel.kallsyms]" */
		tp_fbuf__build_id(c->ids, &b);
	} else if (hash) {
		tp_fbuf__u64(c->hashes, hash);
		tp_fbuf__string(c->hashes, path);
		c->nr_hashes++;
	}
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && c->emb)
		symembed__dso(c->emb, path, kind, id, len, hash);
	return 0;
}

int rec_features__finish(struct record *r)
{
	struct tp_fbuf ids, hashes;
	struct rec_bidcache cache = { .dir = r->o.buildid_cache };
	struct bid_ctx c = { &ids, &hashes, 0,
			     IS_ENABLED(CONFIG_REC_BUILDID_CACHE) && cache.dir ? &cache : NULL, NULL };
	struct tp_feat f;
	struct symembed emb;
	long addr;
	int err;

	/* the per-file features go after the base ones, dropped again when the next file
	 * (--switch-output) reuses the base */
	size_t base_len = fs.fb.len;
	unsigned base_n = fs.n;

	if (tp_feat__sample_time(&fs.fb, &f, r->first_time, r->last_time) == 0)
		add(&f);
	addr = sys_mmap(NULL, 2 * END_BUF, TP_PROT_READ | TP_PROT_WRITE,
			TP_MAP_PRIVATE | TP_MAP_ANONYMOUS | TP_MAP_NORESERVE, -1, 0);
	if (addr < 0 && addr > -4096)
		return (int)addr;
	tp_writer__fbuf(&r->w, &ids, (void *)addr, END_BUF);
	tp_writer__fbuf(&r->w, &hashes, (char *)addr + END_BUF, END_BUF);
	tp_fbuf__u32(&hashes, 0);   /* nr, patched below */
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) &&
	    !symembed__begin(&emb, &r->track, &r->ksnap, &r->w, r->pipe,
			     r->o.verbose && !r->o.quiet))
		c.emb = &emb;
	track__for_each_hit_dso(&r->track, one_dso, &c);
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && c.emb && !symembed__end(&emb, &f))
		add(&f);
	if (IS_ENABLED(CONFIG_REC_BUILDID_CACHE) && c.cache)
		rec_bidcache__report(c.cache, r->o.quiet);
	if (ids.len && !ids.err) {
		tp_feat__blob(&f, HEADER_BUILD_ID, ids.buf, ids.len);
		add(&f);
	}
	if (c.nr_hashes && !hashes.err) {
		struct tp_fbuf nr;

		tp_writer__fbuf(&r->w, &nr, hashes.buf, 4);
		tp_fbuf__u32(&nr, c.nr_hashes);
		tp_feat__blob(&f, TP_FEAT_TEXT_HASH, hashes.buf, hashes.len);
		add(&f);
	}
	err = tp_writer__close(&r->w, fs.f, fs.n);
	sys_munmap((void *)addr, 2 * END_BUF);
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && c.emb)
		symembed__release(&emb);
	fs.fb.len = base_len;
	fs.n = base_n;
	if (!r->fl.reopen)
		if (IS_ENABLED(CONFIG_REC_TRACEPOINTS))
		tracing_data__free(&fs.td);
	return err;
}
