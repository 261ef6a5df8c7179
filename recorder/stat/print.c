/* SPDX-License-Identifier: MIT */
/* The lines of 'tinyperf stat', laid out as perf stat 6.1 lays them out (aligned columns,
 * or -x SEP fields in perf's order: value, unit, event, noise, run time, percentage, metric
 * value, metric unit). The ratios are computed in integers, rounded to the digits shown:
 * the recorder has no floating point (a soft-float library would cost more than all this). */
#include "libc-shim/shim.h"
#include "recorder/stat/stat.h"

#define METRIC_LEN 35	/* " # ", the value and the unit, padded */
/* -x (CONFIG_REC_STAT_EXTRA): fields, and the separator between them; without it the
 * aligned layout's code only */
#define CSV(p) (STAT_EXTRA && (p)->csv)
#define SEP(p) (STAT_EXTRA ? (p)->sep : " ")

struct pr {
	const struct stat *s;
	struct tp_out out;
	const char *sep;	/* the field separator: " " when aligned */
	bool csv;
	/* per slot: what the metrics divide by, by kind (K_OTHER: the wall time), and which
	 * of them were counted */
	uint64_t base[K_CMISS + 1];
	unsigned have;
};

/* round(a * b / c) for c > 0. Exact while a * b stays below 2^63; beyond, the larger factor
 * loses low bits and the quotient is shifted back by as many: a relative error below
 * b / 2^62 for the smaller factor b (10^-6 up to 2^42), under the digits shown (perf's
 * ratios are doubles). No 128-bit arithmetic: 32-bit targets would call a helper for it. */
uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned k = 0;

	if (a < b) {
		uint64_t t = a;

		a = b;
		b = t;
	}
	while (b && a > (~0ULL >> 1) / b) {
		a >>= 1;
		k++;
	}
	return (a * b + c / 2) / c << k;
}

static const uint32_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
				  100000000, 1000000000 };

/* v / 10^prec as "I.FFF" (prec digits after the point) */
static int fixed(char *buf, size_t cap, uint64_t v, unsigned prec)
{
	if (!prec)
		return tp_snprintf(buf, cap, "%llu", (unsigned long long)v);
	return tp_snprintf(buf, cap, "%llu.%0*u", (unsigned long long)(v / pow10[prec]), (int)prec,
			   (unsigned)(v % pow10[prec]));
}

static void put(struct pr *p, const char *s)
{
	tp_out__puts(&p->out, s);
}

/* " # %8.3f unit" padded to METRIC_LEN, or its CSV fields; num NULL: an empty metric */
static void metric(struct pr *p, const char *num, const char *unit)
{
	int n = num ? (int)strlen(num) + 4 : 0;

	if (CSV(p))
		tp_out__printf(&p->out, "%s%s%s%s", SEP(p), num ? num : "", SEP(p), num ? unit : "");
	else if (!num)
		tp_out__printf(&p->out, "%*s", METRIC_LEN, "");
	else
		tp_out__printf(&p->out, " # %s %-*s", num, n < METRIC_LEN ? METRIC_LEN - n : 0, unit);
}

/* what each kind's metric divides by, times what, shown how (perf's stat-shadow rules for
 * these events): "CPUs utilized" over the wall time, GHz over the clock, IPC over cycles,
 * misses in % of their references, a rate over the clock for the rest (mul 0) */
static const struct rule {
	uint8_t den, mul, prec, width;
	char tail[2];
	uint8_t unit;	/* in units[] */
} rules[] = {
	[K_OTHER] = { K_CLOCK, 0, 3, 8, "", 0 },
	[K_CLOCK] = { K_OTHER, 1, 3, 8, "", 0 },
	[K_CYCLES] = { K_CLOCK, 1, 3, 8, "", 14 },
	[K_INSN] = { K_CYCLES, 1, 2, 7, " ", 18 },
	[K_BRANCHES] = { K_CLOCK, 0, 3, 8, "", 0 },
	[K_BMISS] = { K_BRANCHES, 100, 2, 7, "%", 33 },
	[K_CREFS] = { K_CLOCK, 0, 3, 8, "", 0 },
	[K_CMISS] = { K_CREFS, 100, 2, 7, "%", 49 },
};
static const char units[] = "CPUs utilized\0GHz\0insn per cycle\0of all branches\0of all cache refs";
_Static_assert(sizeof("CPUs utilized\0GHz\0insn per cycle\0of all branches\0") == 49 + 1,
	       "the rules' offsets into units[]");

/* what perf derives a metric from: the kind of an event */
static unsigned kind_of(const struct perf_event_attr *a)
{
	/* the hardware events by config: cycles, instructions, cache references and misses,
	 * branches and their misses (PERF_COUNT_HW_* 0-5) */
	static const uint8_t hw[] = { K_CYCLES, K_INSN, K_CREFS, K_CMISS, K_BRANCHES, K_BMISS };

	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK ?
		       K_CLOCK : K_OTHER;
	return a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) ? hw[a->config] : K_OTHER;
}
_Static_assert(PERF_COUNT_HW_CPU_CYCLES == 0 && PERF_COUNT_HW_INSTRUCTIONS == 1 &&
	       PERF_COUNT_HW_CACHE_REFERENCES == 2 && PERF_COUNT_HW_CACHE_MISSES == 3 &&
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS == 4 && PERF_COUNT_HW_BRANCH_MISSES == 5,
	       "kind_of's table follows the UAPI's numbering");

static void shadow(struct pr *p, unsigned kind, const struct stat_val *v, bool ok)
{
	const struct rule *r = &rules[kind];
	uint64_t den = p->base[r->den], mul = r->mul, val = 0;
	char digits[32], buf[40];
	const char *u = units + r->unit;

	/* an event not counted, or its base: no metric; a rate's base may be 0 ("0.000 /sec"),
	 * the others' may not */
	if (!ok || !(p->have >> r->den & 1) || (mul && !den)) {
		metric(p, NULL, NULL);
		return;
	}
	if (!mul) {	/* a rate: perf's unit goes up at strictly more than 1e3, 1e6, 1e9 */
		unsigned k = 0;
		uint64_t milli = den ? stat_muldiv(v->val, 1000000000000ULL, den) : 0;

		while (k < 3 && milli > 1000000ULL * pow10[3 * k])
			k++;
		u = &"/sec\0K/sec\0M/sec\0G/sec"[k ? 6 * k - 1 : 0];
		mul = 1000000000 / pow10[3 * k];
	}
	if (den)
		val = stat_muldiv(v->val, mul * pow10[r->prec], den);
	fixed(digits, sizeof(digits), val, r->prec);
	/* CSV: the number only, as perf cuts the formatted value at its first other byte */
	tp_snprintf(buf, sizeof(buf), "%*s%s", CSV(p) ? 0 : r->width, digits, CSV(p) ? "" : r->tail);
	metric(p, buf, u);
}

/* "  ( +-  5.38% )" with -r, "  (66.67%)" when multiplexed; in CSV the noise, the run time
 * and the percentage as fields */
static void noise(struct pr *p, const struct stat_val *v)
{
	char pct[16];

	if (!STAT_EXTRA || p->s->o.repeat <= 1)
		return;
	fixed(pct, sizeof(pct), v->noise, 2);
	if (CSV(p))
		tp_out__printf(&p->out, "%s%s%%", SEP(p), pct);
	else if (v->noise)
		tp_out__printf(&p->out, "  ( +-%6s%% )", pct);
}

static void running(struct pr *p, const struct stat_val *v)
{
	char pct[16];

	fixed(pct, sizeof(pct), v->run != v->ena && v->ena ? stat_muldiv(v->run, 10000, v->ena) : 10000, 2);
	if (CSV(p))
		tp_out__printf(&p->out, "%s%llu%s%s", SEP(p), (unsigned long long)v->run, SEP(p), pct);
	else if (v->run != v->ena)
		tp_out__printf(&p->out, "  (%s%%)", pct);
}

static void prefix(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;

	if (STAT_EXTRA && s->o.interval_ms)
		tp_out__printf(&p->out, "%6llu.%09u%s", (unsigned long long)(s->ts_ns / 1000000000),
			       (unsigned)(s->ts_ns % 1000000000), SEP(p));
	if (STAT_EXTRA && s->o.per_cpu)
		tp_out__printf(&p->out, "CPU%-*d%s", CSV(p) ? 0 : 7, s->cpus[slot], SEP(p));
}

static void line(struct pr *p, unsigned ev, unsigned slot)
{
	const struct stat *s = p->s;
	const struct stat_val *v = &s->vals[ev * s->nr_slots + slot];
	unsigned kind = kind_of(&s->spec.ev[ev].attr);
	bool ok = !s->spec.ev[ev].unsupported && v->counted;
	char num[32];

	prefix(p, slot);
	/* task-clock and cpu-clock in msec with two decimals, the others as counted */
	fixed(num, sizeof(num), kind == K_CLOCK ? stat_muldiv(v->val, 1, 10000) : v->val,
	      kind == K_CLOCK ? 2 : 0);
	tp_out__printf(&p->out, "%*s%s%-*s%s%-*s", CSV(p) ? 0 : 18,
		       ok ? num : s->spec.ev[ev].unsupported ? "<not supported>" : "<not counted>", SEP(p),
		       CSV(p) ? 0 : 4, kind == K_CLOCK ? "msec" : "", SEP(p),
		       CSV(p) ? 0 : ok ? 32 : 25, s->spec.ev[ev].name);
	if (!CSV(p))
		shadow(p, kind, v, ok);
	noise(p, v);
	running(p, v);
	if (CSV(p))
		shadow(p, kind, v, ok);
	put(p, "\n");
}

/* the bases of one slot's metrics, as perf keeps them: of each kind the mean of the events
 * counted (-e cycles,cycles: their mean) */
static void slot_stats(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;
	unsigned n[K_CMISS + 1] = { 0 };

	memset(p->base, 0, sizeof(p->base));
	p->base[K_OTHER] = s->wall_ns;
	p->have = s->wall_ns ? 1 << K_OTHER : 0;
	for (unsigned ev = 0; ev < s->spec.nr; ev++) {
		const struct stat_val *v = &s->vals[ev * s->nr_slots + slot];
		unsigned k = kind_of(&s->spec.ev[ev].attr);

		if (s->spec.ev[ev].unsupported || !v->counted || k == K_OTHER)
			continue;
		n[k]++;
		p->base[k] += v->val;
		p->have |= 1u << k;
	}
	for (unsigned k = K_CLOCK; k <= K_CMISS; k++)
		if (n[k] > 1)
			p->base[k] /= n[k];
}

static void header(struct pr *p, unsigned block)
{
	const struct rec_opts *o = &p->s->o;

	if (STAT_EXTRA && o->interval_ms) {
		if (!CSV(p) && block % 25 == 0)
			put(p, o->per_cpu ? "#           time CPU                    counts unit events\n"
					  : "#           time             counts unit events\n");
		return;
	}
	if (CSV(p))
		return;
	put(p, "\n Performance counter stats for ");
	if (o->system_wide && !o->cpu_list)
		put(p, "'system wide");
	else if (o->cpu_list)
		tp_out__printf(&p->out, "'CPU(s) %s", o->cpu_list);
	else if (o->nr_pids || o->nr_tids) {
		const int *id = o->nr_pids ? o->pids : o->tids;

		put(p, o->nr_pids ? "process id '" : "thread id '");
		for (unsigned i = 0; i < (o->nr_pids ? o->nr_pids : o->nr_tids); i++)
			tp_out__printf(&p->out, "%s%d", i ? "," : "", id[i]);
	} else
		for (int i = 0; o->argv[i]; i++)
			tp_out__printf(&p->out, "%s%s", i ? " " : "'", o->argv[i]);
	put(p, "'");
	if (STAT_EXTRA && o->repeat > 1)
		tp_out__printf(&p->out, " (%u runs)", o->repeat);
	put(p, ":\n\n");
}

static void footer(struct pr *p)
{
	const struct stat *s = p->s;
	char num[32], sd[32];

	put(p, "\n");
	if (!STAT_EXTRA || s->o.repeat <= 1) {
		fixed(num, sizeof(num), s->wall_ns, 9);
		tp_out__printf(&p->out, " %17s seconds time elapsed", num);
		if (s->show_ru)	/* perf's " %17.9f", from microseconds */
			tp_out__printf(&p->out, "\n\n %7ld.%06ld000 seconds user\n"
				       " %7ld.%06ld000 seconds sys\n", s->ru[0], s->ru[1], s->ru[2], s->ru[3]);
	} else {
		/* perf shows two digits more than the first significant one of the deviation */
		unsigned prec = 2;
		uint64_t d = 1000000000;

		while (prec < 9 && s->wall_sd_ns < d) {
			d /= 10;
			prec++;
		}
		fixed(num, sizeof(num), stat_muldiv(s->wall_ns, 1, pow10[9 - prec]), prec);
		fixed(sd, sizeof(sd), stat_muldiv(s->wall_sd_ns, 1, pow10[9 - prec]), prec);
		tp_out__printf(&p->out, " %17s +- %s seconds time elapsed", num, sd);
		fixed(num, sizeof(num), s->wall_ns ? stat_muldiv(s->wall_sd_ns, 10000, s->wall_ns) : 0, 2);
		if (s->wall_sd_ns)
			tp_out__printf(&p->out, "  ( +-%6s%% )", num);
	}
	put(p, "\n\n");
}

void stat__print(const struct stat *s, unsigned block)
{
	static char buf[4096];
	struct pr p;

	memset(&p, 0, sizeof(p));
	p.s = s;
	p.csv = STAT_EXTRA && s->o.sep != NULL;
	p.sep = p.csv ? s->o.sep : " ";
	tp_out__init(&p.out, 2, buf, sizeof(buf));
	header(&p, block);
	/* perf's order without aggregation too: each event, then each CPU */
	for (unsigned ev = 0; ev < s->spec.nr; ev++)
		for (unsigned slot = 0; slot < s->nr_slots; slot++) {
			slot_stats(&p, slot);
			line(&p, ev, slot);
		}
	if (!(STAT_EXTRA && s->o.interval_ms) && !CSV(&p))
		footer(&p);
	tp_out__flush(&p.out);
}
