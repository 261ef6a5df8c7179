/* SPDX-License-Identifier: MIT */
/* The lines of 'tinyperf stat', laid out as perf stat 6.1 lays them out (aligned columns,
 * or -x SEP fields in perf's order: value, unit, event, noise, run time, percentage, metric
 * value, metric unit). The ratios are computed in integers, rounded to the digits shown:
 * the recorder has no floating point (a soft-float library would cost more than all this).
 * Each piece goes to stderr as it is formatted, as perf's unbuffered stderr gets them: a
 * buffer for the block cost more code than the writes (i386 and x86_64: 160 bytes). */
#include "libc-shim/shim.h"
#include "recorder/stat/stat.h"

#define METRIC_LEN 35	/* " # ", the value and the unit, padded */
/* -x (CONFIG_REC_STAT_EXTRA): fields, and the separator between them; without it the
 * aligned layout's code only */
#define CSV(p) (STAT_EXTRA && (p)->csv)
#define SEP(p) (STAT_EXTRA ? (p)->sep : " ")

struct pr {
	const struct stat *s;
	const char *sep;	/* the field separator: " " when aligned */
	bool csv;
	/* per slot: what the metrics divide by, by kind, as the sum of the events of the kind
	 * counted and how many they are (K_OTHER: the wall time, 1 when it is known) */
	struct {
		uint64_t base[K_CMISS + 1];
		unsigned n[K_CMISS + 1];
	} b;
};

/* round(a * b / c), 0 when c is 0. Exact while a * b stays below 2^63; beyond, a loses as many
 * low bits as the product has beyond 63 and the quotient is shifted back by as many: a
 * relative error below b / 2^62 (b: the rate's 10^12, a time in ns, or a count), under the
 * digits shown (perf's ratios are doubles). No 128-bit arithmetic: 32-bit targets would call
 * a helper for it. */
ARCH_COLD_CODE uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	int k = 0;

	if (!c)
		return 0;
	if (a && b) {	/* the product has at most this many bits */
		k = 65 - __builtin_clzll(a) - __builtin_clzll(b);
		if (k < 0)
			k = 0;
		a >>= k;
	}
	return (a * b + c / 2) / c << k;
}

/* m * 10^e */
ARCH_COLD_CODE static uint64_t p10(uint64_t m, unsigned e)
{
	while (e--)
		m *= 10;
	return m;
}

/* q / 10^prec as "I.FFF" (prec digits after the point): the digits with at least prec + 1 of
 * them, then the point put in */
ARCH_COLD_CODE static void ratio(char *buf, uint64_t q, unsigned prec)
{
	int n = tp_snprintf(buf, 32, "%0*llu", (int)prec + 1, (unsigned long long)q) - (int)prec;

	if (prec) {
		memmove(buf + n + 1, buf + n, prec + 1);
		buf[n] = '.';
	}
}

/* what each kind's metric divides by, times 10^exp (the unit, and prec digits after the
 * point), shown how (perf's stat-shadow rules for these events): "CPUs utilized" over the
 * wall time, GHz over the clock, IPC over cycles, misses in % of their references, a rate over
 * the clock for the rest (RATE: in thousandths per second, or K, M, G per second) */
#define RATE 12
static const struct rule {
	uint8_t den, exp, prec, width;
	char tail[2];
	uint8_t unit;	/* in units[] */
} rules[] = {
	[K_OTHER] = { K_CLOCK, RATE, 3, 8, "", 0 },
	[K_CLOCK] = { K_OTHER, 3, 3, 8, "", 0 },
	[K_CYCLES] = { K_CLOCK, 3, 3, 8, "", 14 },
	[K_INSN] = { K_CYCLES, 2, 2, 7, " ", 18 },
	[K_BRANCHES] = { K_CLOCK, RATE, 3, 8, "", 0 },
	[K_BMISS] = { K_BRANCHES, 4, 2, 7, "%", 33 },
	[K_CREFS] = { K_CLOCK, RATE, 3, 8, "", 0 },
	[K_CMISS] = { K_CREFS, 4, 2, 7, "%", 49 },
};
static const char units[] = "CPUs utilized\0GHz\0insn per cycle\0of all branches\0of all cache refs";
_Static_assert(sizeof("CPUs utilized\0GHz\0insn per cycle\0of all branches\0") == 49 + 1,
	       "the rules' offsets into units[]");

/* what perf derives a metric from: the kind of an event */
ARCH_COLD_CODE static unsigned kind_of(const struct perf_event_attr *a)
{
	/* the hardware events by config: cycles, instructions, cache references and misses,
	 * branches and their misses (PERF_COUNT_HW_* 0-5) */
	static const uint8_t hw[] = { K_CYCLES, K_INSN, K_CREFS, K_CMISS, K_BRANCHES, K_BMISS };

	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config <= PERF_COUNT_SW_TASK_CLOCK ? K_CLOCK : K_OTHER;
	return a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) ? hw[a->config] : K_OTHER;
}
_Static_assert(PERF_COUNT_SW_CPU_CLOCK == 0 && PERF_COUNT_SW_TASK_CLOCK == 1 &&
	       PERF_COUNT_HW_CPU_CYCLES == 0 && PERF_COUNT_HW_INSTRUCTIONS == 1 &&
	       PERF_COUNT_HW_CACHE_REFERENCES == 2 && PERF_COUNT_HW_CACHE_MISSES == 3 &&
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS == 4 && PERF_COUNT_HW_BRANCH_MISSES == 5,
	       "kind_of's table follows the UAPI's numbering");

/* " # %8.3f unit" padded to METRIC_LEN, blank when there is no metric; or its CSV fields,
 * the number only (perf cuts the formatted value at its first other byte) */
ARCH_COLD_CODE static void shadow(struct pr *p, unsigned kind, const struct stat_val *v, bool ok)
{
	const struct rule *r = &rules[kind];
	uint64_t den = p->b.base[r->den];	/* of n events: v * n / sum, v over their mean */
	unsigned n = p->b.n[r->den];
	unsigned e = r->exp;
	uint64_t q;
	char digits[32], m[64];
	const char *u = "";

	digits[0] = m[0] = 0;

	/* an event not counted, or its base: no metric; a rate's base may be 0 ("0.000 /sec"),
	 * the others' may not */
	if (ok && n && (e == RATE || den)) {
		u = units + r->unit;
		/* q: the metric in units of 10^-prec; a rate's unit goes up (perf's) at strictly
		 * more than 1e3, 1e6, 1e9 per second */
		while ((q = stat_muldiv(v->val, p10(n, e), den)) > 1000000 && r->exp == RATE &&
		       e > 3)
			e -= 3;
		if (r->exp == RATE)
			u = &"G/sec\0M/sec\0K/sec\0/sec"[2 * e - 6];
		ratio(digits, q, r->prec);
		/* then padded to METRIC_LEN as one field, as the blanks of no metric are */
		tp_snprintf(m, sizeof(m), " # %*s%s %s", r->width, digits, r->tail, u);
	}
	if (CSV(p))
		tp_dprintf(2, "%s%s%s%s", SEP(p), digits, SEP(p), u);
	else
		tp_dprintf(2, "%-*s", METRIC_LEN, m);
}

/* "  ( +-  5.38% )" with -r, "  (66.67%)" when multiplexed; in CSV the noise, the run time
 * and the percentage as fields */
ARCH_COLD_CODE static void noise(struct pr *p, const struct stat_val *v)
{
	char pct[32];

	if (!STAT_EXTRA || p->s->o.repeat <= 1)
		return;
	ratio(pct, v->noise - !!v->noise, 2);
	if (CSV(p))
		tp_dprintf(2, "%s%s%%", SEP(p), pct);
	else if (v->noise)
		tp_dprintf(2, "  ( +-%6s%% )", pct);
}

ARCH_COLD_CODE static void running(struct pr *p, const struct stat_val *v)
{
	char pct[32];
	bool mux = v->run != v->ena;

	if (!mux && !CSV(p))	/* aligned: only a multiplexed count shows it */
		return;
	ratio(pct, stat_muldiv(mux ? v->run : 1, 10000, mux ? v->ena : 1), 2);
	if (CSV(p))
		tp_dprintf(2, "%s%llu%s%s", SEP(p), (unsigned long long)v->run, SEP(p), pct);
	else
		tp_dprintf(2, "  (%s%%)", pct);
}

ARCH_COLD_CODE static void prefix(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;

	if (STAT_EXTRA && s->o.interval_ms)
		tp_dprintf(2, "%6llu.%09u%s", (unsigned long long)(s->ts_ns / 1000000000),
			   (unsigned)(s->ts_ns % 1000000000), SEP(p));
	if (STAT_EXTRA && s->o.per_cpu)
		tp_dprintf(2, "CPU%-*d%s", CSV(p) ? 0 : 7, s->cpus[slot], SEP(p));
}

ARCH_COLD_CODE static void line(struct pr *p, unsigned ev, unsigned slot)
{
	const struct stat *s = p->s;
	const struct stat_val *v = &s->vals[ev * SLOTS(s) + slot];
	unsigned kind = kind_of(&s->spec.ev[ev].attr);
	bool ok = v->run != 0;	/* never, for an event not supported: it has no fds */
	char num[32];

	prefix(p, slot);
	/* task-clock and cpu-clock in msec with two decimals, the others as counted */
	ratio(num, kind == K_CLOCK ? stat_muldiv(v->val, 1, 10000) : v->val, kind == K_CLOCK ? 2 : 0);
	tp_dprintf(2, CSV(p) ? "%s%s%s%s%-*s" : "%18s%s%-4s%s%-*s",
		   ok ? num : s->spec.ev[ev].unsupported ? "<not supported>" : "<not counted>", SEP(p),
		   kind == K_CLOCK ? "msec" : "", SEP(p), CSV(p) ? 0 : ok ? 32 : 25,
		   s->spec.ev[ev].name);
	if (!CSV(p))
		shadow(p, kind, v, ok);
	noise(p, v);
	running(p, v);
	if (CSV(p))
		shadow(p, kind, v, ok);
	tp_dprintf(2, "\n");
}

/* the bases of one slot's metrics, as perf keeps them: of each kind the mean of the events
 * counted (-e cycles,cycles: their mean), kept as their sum and count */
ARCH_COLD_CODE static void slot_stats(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;
	memset(&p->b, 0, sizeof(p->b));
	for (unsigned ev = 0; ev < s->spec.nr; ev++) {
		const struct stat_val *v = &s->vals[ev * SLOTS(s) + slot];
		unsigned k = kind_of(&s->spec.ev[ev].attr);

		if (v->run) {
			p->b.n[k]++;
			p->b.base[k] += v->val;
		}
	}
	p->b.base[K_OTHER] = s->wall_ns;	/* the other events' sum is not a base */
	p->b.n[K_OTHER] = s->wall_ns != 0;
}

ARCH_COLD_CODE static void header(struct pr *p, unsigned block)
{
	const struct rec_opts *o = &p->s->o;
	const char *what, *list;
	char **arg = NULL;

	if (STAT_EXTRA && o->interval_ms) {
		if (!CSV(p) && block % 25 == 0)
			tp_dprintf(2, o->per_cpu ?
				   "#           time CPU                    counts unit events\n" :
				   "#           time             counts unit events\n");
		return;
	}
	if (CSV(p))
		return;
	/* the lists as given, as perf prints them, or the command */
	if (o->cpu_list) {
		what = "'CPU(s) ";
		list = o->cpu_list;
	} else if (o->system_wide) {
		what = "'system wide";
		list = "";
	} else if (o->pid_list || o->tid_list) {
		what = o->pid_list ? "process id '" : "thread id '";
		list = o->pid_list ? o->pid_list : o->tid_list;
	} else {
		what = "'";
		list = o->argv[0];
		arg = o->argv + 1;
	}
	tp_dprintf(2, "\n Performance counter stats for %s%s", what, list);
	for (; arg && *arg; arg++)
		tp_dprintf(2, " %s", *arg);
	if (STAT_EXTRA && o->repeat > 1)
		tp_dprintf(2, "' (%u runs):\n\n", o->repeat);
	else
		tp_dprintf(2, "':\n\n");
}

ARCH_COLD_CODE static void footer(struct pr *p)
{
	const struct stat *s = p->s;
	char num[32], sd[32];
	unsigned prec = 2;
	uint64_t d = 1000000000;

	if (!STAT_EXTRA || s->o.repeat <= 1) {
		ratio(num, s->wall_ns, 9);
		tp_dprintf(2, "\n %17s seconds time elapsed\n\n", num);
		if (s->o.argv && !s->o.system_wide)	/* perf's " %17.9f", from microseconds */
			tp_dprintf(2, " %7ld.%06ld000 seconds user\n"
				   " %7ld.%06ld000 seconds sys\n\n\n", s->ru[0], s->ru[1], s->ru[2], s->ru[3]);
		return;
	}
	/* -r: perf shows two digits more than the first significant one of the deviation */
	while (prec < 9 && s->wall_sd_ns < d) {
		d /= 10;
		prec++;
	}
	ratio(num, stat_muldiv(s->wall_ns, 1, p10(1, 9 - prec)), prec);
	ratio(sd, stat_muldiv(s->wall_sd_ns, 1, p10(1, 9 - prec)), prec);
	tp_dprintf(2, "\n %17s +- %s seconds time elapsed", num, sd);
	ratio(num, s->wall_noise - 1, 2);
	if (s->wall_noise)
		tp_dprintf(2, "  ( +-%6s%% )", num);
	tp_dprintf(2, "\n\n");
}

ARCH_COLD_CODE void stat__print(const struct stat *s, unsigned block)
{
	struct pr p;	/* p.b: slot_stats() sets it before each line */

	p.s = s;
	p.csv = STAT_EXTRA && s->o.sep != NULL;
	p.sep = p.csv ? s->o.sep : " ";
	header(&p, block);
	/* perf's order without aggregation too: each event, then each CPU */
	for (unsigned ev = 0; ev < s->spec.nr; ev++)
		for (unsigned slot = 0; slot < SLOTS(s); slot++) {
			slot_stats(&p, slot);
			line(&p, ev, slot);
		}
	if (!(STAT_EXTRA && s->o.interval_ms) && !CSV(&p))
		footer(&p);
}
