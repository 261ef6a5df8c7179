/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the recorder's readers of the files it sampled (built for the host):
 * the input is a binary a process mapped and got samples in. As at the end of a recording
 * (recorder/record/features.c): its build-id from the ELF notes, else its text hash
 * (recorder/track/buildid.c, perfdata/texthash.c), then its symbols around the sampled
 * addresses from .symtab, .dynsym, PLT entries or MiniDebugInfo (recorder/embed/symembed-elf.c,
 * xz.c) encoded as the TP_FEAT_SYMTAB section, which the host's decoder must accept. */
#include "tests/fuzz/fuzz.h"

#include "host-tools/lib/data/symembed.h"
#include "include/tinyperf/perf_data.h"
#include "perfdata/records.h"
#include "perfdata/texthash.h"
#include "perfdata/writer.h"
#include "recorder/embed/symembed.h"
#include "recorder/track/buildid.h"
#include "recorder/track/track.h"

#define TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD)
#define BASE 0x400000ULL
#define NR_SAMPLES 32

static uint64_t rb[512];
static const struct tp_rec_fmt fmt;

static void feed(struct track *t, int len)
{
	if (len < 0)
		abort();
	track__record(t, (const struct perf_event_header *)rb);
}

static int one_dso(void *ctx, const char *path, enum track_kind kind, const uint8_t *id_in,
		   uint8_t id_size)
{
	struct symembed *e = ctx;
	uint8_t id[BUILD_ID_MAX], len = 0;
	uint64_t hash = 0;

	(void)id_in;
	(void)id_size;
	if (kind != TRACK_USER)
		abort();	/* only user samples were fed */
	if (buildid__from_file(path, id, &len, &hash) == 0 && (!len || len > BUILD_ID_MAX))
		abort();
	sink += len + hash;
	symembed__dso(e, path, kind, id, len, hash);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[300];
	struct tp_mmap2 m = { .pid = 100, .tid = 100, .addr = BASE, .maj = 8, .ino = 1,
			      .prot = 5, .flags = 2 };
	struct tp_writer w;
	struct arena a;
	struct track t;
	struct symembed e;
	struct tp_feat f;

	if (!path[0])
		snprintf(path, sizeof(path), "%s/libsampled.so", fuzz_dir());
	sink += tp_text_hash(data, size);
	fuzz_write(path, data, size);
	arena__init(&a, 0);
	if (track__init(&t, &a, NULL) || track__add_id(&t, 0, TYPE) ||
	    symembed__init(&t, NULL, NULL))
		abort();
	m.len = (size + 4095) & ~4095ULL;
	m.len = m.len ? m.len : 4096;
	m.filename = path;
	feed(&t, tp_rec__comm(rb, sizeof(rb), &fmt, 100, 100, "sampled", true));
	feed(&t, tp_rec__mmap2(rb, sizeof(rb), &fmt, PERF_RECORD_MISC_USER, &m));
	/* samples spread over the file (its offsets are the addresses the section keeps) */
	for (unsigned i = 0; i < NR_SAMPLES; i++) {
		struct tp_sample s = { .ip = BASE + m.len / NR_SAMPLES * i + i, .pid = 100,
				       .tid = 100, .period = 1 };

		feed(&t, tp_rec__sample(rb, sizeof(rb), &fmt, TYPE, PERF_RECORD_MISC_USER, &s));
	}
	track__end_round(&t);
	memset(&w, 0, sizeof(w));
	if (!symembed__begin(&e, &t, NULL, &w, false, false)) {
		track__for_each_hit_dso(&t, one_dso, &e);
		if (!symembed__end(&e, &f)) {
			struct tp_embsyms *es;
			const char *why;

			/* what the recorder wrote, the host reads */
			if (tp_embsyms__parse(f.data, f.size, false, &es, &why)) {
				fprintf(stderr, "the host refuses the section: %s\n", why);
				abort();
			}
			sink += es->nr_syms;
			tp_embsyms__free(es);
		}
		symembed__release(&e);
	}
	arena__release(&a);
	return 0;
}
