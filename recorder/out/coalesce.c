/* SPDX-License-Identifier: MIT */
/* Sample coalescing for slow links (what and why in coalesce.h): a hash table keyed by the
 * sample's identity, its periods summed, flushed as ordinary SAMPLE records. */
#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "recorder/out/coalesce.h"

#define NR_BUCKETS	(2 * COALESCE_ENTRIES)		/* a power of two */
#define MAX_CHAIN	1024				/* longer callchains pass through */
#define OUT_SIZE	(8 * (MAX_CHAIN + 16))
#define KEY_FIXED	4				/* id, misc, pid|tid, ip */
#define TYPES_OK	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |		\
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct coalesce_entry {
	uint32_t next;			/* index + 1 of the next entry in the bucket, 0: none */
	uint32_t hash;
	uint32_t key;			/* words at keys[key], KEY_FIXED + callchain length */
	uint32_t nwords;
	uint64_t sample_type;
	uint64_t time, period;
	uint32_t cpu;
};

int coalesce__init(struct coalesce *c, struct arena *a, uint32_t interval_ms,
		   int (*write)(void *ctx, const void *buf, size_t len), void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->write = write;
	c->ctx = ctx;
	c->interval_ms = interval_ms ? interval_ms : COALESCE_DEFAULT_MS;
	c->buckets = arena__alloc(a, NR_BUCKETS * sizeof(*c->buckets));
	c->e = arena__alloc(a, COALESCE_ENTRIES * sizeof(*c->e));
	c->keys = arena__alloc(a, COALESCE_KEY_WORDS * sizeof(*c->keys));
	c->out = arena__alloc(a, OUT_SIZE);
	return c->buckets && c->e && c->keys && c->out ? 0 : -TP_ENOMEM;
}

void coalesce__add_id(struct coalesce *c, uint64_t id, uint64_t sample_type)
{
	if (!c->nr_ids && !c->mixed)
		c->sample_type = sample_type;
	else if (c->sample_type != sample_type)
		c->mixed = true;
	if (c->nr_ids < COALESCE_MAX_IDS) {
		c->ids[c->nr_ids].id = id;
		c->ids[c->nr_ids].sample_type = sample_type;
		c->nr_ids++;
	}
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* 0 when the sample's event cannot be told (mixed types need IDENTIFIER) */
static uint64_t type_of(const struct coalesce *c, const struct perf_event_header *h)
{
	uint64_t id;

	if (!c->mixed)
		return c->sample_type;
	if (h->size < 16)
		return 0;
	id = rd64((const uint8_t *)h + 8);
	for (uint32_t i = 0; i < c->nr_ids; i++)
		if (c->ids[i].id == id && (c->ids[i].sample_type & PERF_SAMPLE_IDENTIFIER))
			return c->ids[i].sample_type;
	return 0;
}

static uint32_t hash_words(const uint64_t *w, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < n; i++) {
		x ^= w[i];
		x *= 0xff51afd7ed558ccdULL;
		x ^= x >> 32;
	}
	return (uint32_t)x;
}

/* reads from a record, never past its end */
struct cur {
	const uint8_t *p, *end;
	bool bad;
};

static TP_NOINLINE const uint8_t *take(struct cur *cu, uint64_t n)
{
	const uint8_t *p = cu->p;

	if (cu->bad || n > (uint64_t)(cu->end - cu->p)) {
		cu->bad = true;
		return NULL;
	}
	cu->p += n;
	return p;
}

static uint64_t take64(struct cur *cu)
{
	const uint8_t *p = take(cu, 8);

	return p ? rd64(p) : 0;
}

static uint32_t take32(struct cur *cu)
{
	const uint8_t *p = take(cu, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

bool coalesce__add(struct coalesce *c, const struct perf_event_header *h)
{
	struct cur cu = { (const uint8_t *)h + sizeof(*h), (const uint8_t *)h + h->size, false };
	uint64_t t = type_of(c, h), key[KEY_FIXED] = { 0 }, time = 0, period, nr = 0;
	const uint8_t *chain = NULL;
	uint32_t cpu = 0, hash, *slot;
	struct coalesce_entry *e;

	if (!t || (t & ~TYPES_OK) || !(t & PERF_SAMPLE_PERIOD))
		return false;
	/* the kernel's field order */
	if (t & PERF_SAMPLE_IDENTIFIER)
		key[0] = take64(&cu);
	if (t & PERF_SAMPLE_IP)
		key[3] = take64(&cu);
	if (t & PERF_SAMPLE_TID) {
		uint32_t pid = take32(&cu);

		key[2] = (uint64_t)pid << 32 | take32(&cu);
	}
	if (t & PERF_SAMPLE_TIME)
		time = take64(&cu);
	if (t & PERF_SAMPLE_ID)
		key[0] = take64(&cu);
	if (t & PERF_SAMPLE_CPU) {
		cpu = take32(&cu);
		take32(&cu);
	}
	period = take64(&cu);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		nr = take64(&cu);
		if (nr > MAX_CHAIN)
			return false;
		chain = take(&cu, 8 * nr);
	}
	if (cu.bad)
		return false;
	key[1] = h->misc;

	if (c->nr == COALESCE_ENTRIES || KEY_FIXED + nr > COALESCE_KEY_WORDS - c->keys_used)
		if (coalesce__tick(c, 0, true))
			return false;
	/* the key is built in place at the end of the key store; kept only if new */
	{
		uint64_t *k = c->keys + c->keys_used;
		uint32_t nw = KEY_FIXED + (uint32_t)nr;

		memcpy(k, key, sizeof(key));
		if (nr)
			memcpy(k + KEY_FIXED, chain, 8 * nr);
		hash = hash_words(k, nw);
		slot = &c->buckets[hash & (NR_BUCKETS - 1)];
		for (uint32_t i = *slot; i; i = c->e[i - 1].next) {
			e = &c->e[i - 1];
			if (e->hash == hash && e->nwords == nw && e->sample_type == t &&
			    !memcmp(c->keys + e->key, k, 8 * (size_t)nw)) {
				e->period += period;
				c->samples_in++;
				return true;
			}
		}
		e = &c->e[c->nr++];
		e->next = *slot;
		*slot = c->nr;
		e->hash = hash;
		e->key = (uint32_t)c->keys_used;
		e->nwords = nw;
		e->sample_type = t;
		e->time = time;
		e->period = period;
		e->cpu = cpu;
		c->keys_used += nw;
	}
	c->samples_in++;
	return true;
}

int coalesce__timeout(const struct coalesce *c, int64_t now_ms)
{
	int64_t left = c->next_flush_ms - now_ms;

	return left < 1 ? 1 : left > c->interval_ms ? (int)c->interval_ms : (int)left;
}

int coalesce__tick(struct coalesce *c, int64_t now_ms, bool force)
{
	const struct tp_rec_fmt fmt = { 0, false };
	int err = 0, n;

	if (!c->next_flush_ms)
		c->next_flush_ms = now_ms + c->interval_ms;
	if (!force && now_ms < c->next_flush_ms)
		return 0;
	if (now_ms)
		c->next_flush_ms = now_ms + c->interval_ms;
	for (uint32_t i = 0; i < c->nr && !err; i++) {
		const struct coalesce_entry *e = &c->e[i];
		const uint64_t *k = c->keys + e->key;
		struct tp_sample s = {
			.id = k[0], .ip = k[3], .pid = (uint32_t)(k[2] >> 32), .tid = (uint32_t)k[2],
			.time = e->time, .cpu = e->cpu, .period = e->period,
			.callchain = k + KEY_FIXED, .nr_callchain = e->nwords - KEY_FIXED,
		};

		n = tp_rec__sample(c->out, OUT_SIZE, &fmt, e->sample_type, (uint16_t)k[1], &s);
		err = n < 0 ? n : c->write(c->ctx, c->out, (size_t)n);
		c->records_out++;
	}
	if (!err && (c->nr || force)) {
		n = tp_rec__finished_round(c->out, OUT_SIZE, &fmt);
		err = n < 0 ? n : c->write(c->ctx, c->out, (size_t)n);
	}
	c->flushes++;
	c->nr = 0;
	c->keys_used = 0;
	memset(c->buckets, 0, NR_BUCKETS * sizeof(*c->buckets));
	return err;
}
