/* The lines of 'tinyperf stat', laid out as perf stat 6.1 lays them out (aligned columns,
 * or -x SEP fields in perf's order: value, unit, event, noise, run time, percentage, metric
 * value, metric unit). The ratios are computed in integers, rounded to the digits shown:
 * the recorder has no floating point (a soft-float library would cost more than all this). */
#include "libc-shim/shim.h"
#include "recorder/stat/stat.h"

#define METRIC_LEN 35	/* " # ", the value and the unit, padded */

struct pr {
	const struct stat *s;
	struct tp_out out;
	const char *sep;	/* the field separator: " " when aligned */
	bool csv;
	/* per slot: what the metrics divide by */
	uint64_t nsecs, cycles, branches, crefs;
	bool have_nsecs, have_cycles, have_branches, have_crefs;
};

/* round(a * b / c) for c > 0, through a 128-bit product: a count times 10^12 does not fit
 * 64 bits; one quotient bit a step (the 32-bit targets would call a helper anyway) */
uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t lo = a0 * b0, m1 = a1 * b0, m2 = a0 * b1, hi = a1 * b1, q = 0, r = 0, t;

	t = (lo >> 32) + (uint32_t)m1 + (uint32_t)m2;
	lo = (uint32_t)lo | t << 32;
	hi += (m1 >> 32) + (m2 >> 32) + (t >> 32);
	t = lo + c / 2;
	hi += t < lo;
	lo = t;
	if (!hi)
		return lo / c;
	for (int i = 127; i >= 0; i--) {
		uint64_t top = r >> 63;

		r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
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
	size_t n;

	if (p->csv) {
		tp_out__printf(&p->out, "%s%s%s%s", p->sep, num ? num : "", p->sep,
			       num ? unit : "");
		return;
	}
	if (!num) {
		tp_out__printf(&p->out, "%*s", METRIC_LEN, "");
		return;
	}
	n = strlen(num) + 3;
	tp_out__printf(&p->out, " # %s %-*s", num, (int)(n + 1 < METRIC_LEN ? METRIC_LEN - n - 1 : 0),
		       unit);
}

/* num * mul / den with prec decimals, right-aligned in width (perf's "%8.3f", "%7.2f") */
static void ratio(struct pr *p, uint64_t num, uint64_t mul, uint64_t den, unsigned prec,
		  unsigned width, const char *tail, const char *unit)
{
	char digits[32], buf[40];

	fixed(digits, sizeof(digits), den ? stat_muldiv(num, mul * pow10[prec], den) : 0, prec);
	/* CSV: the number only, as perf cuts the formatted value at its first other byte */
	tp_snprintf(buf, sizeof(buf), "%*s%s", p->csv ? 0 : (int)width, digits, p->csv ? "" : tail);
	metric(p, buf, unit);
}

static void rate(struct pr *p, uint64_t v)
{
	static const char units[] = " KMG";
	unsigned u = 0;
	uint64_t per_s_milli = p->nsecs ? stat_muldiv(v, 1000000000000ULL, p->nsecs) : 0;
	char unit[8];

	/* perf switches at strictly more than 1e3, 1e6, 1e9 a second */
	while (u < 3 && per_s_milli > 1000000ULL * pow10[3 * u])
		u++;
	tp_snprintf(unit, sizeof(unit), "%.*s/sec", u ? 1 : 0, &units[u]);
	ratio(p, v, 1000000000 / pow10[3 * u], p->nsecs, 3, 8, "", unit);
}

/* the derived value perf prints after a count (stat-shadow's rules for these events) */
static void shadow(struct pr *p, unsigned kind, const struct stat_val *v)
{
	const struct stat *s = p->s;

	switch (kind) {
	case K_CLOCK:
		if (s->wall_ns)
			ratio(p, v->val, 1, s->wall_ns, 3, 8, "", "CPUs utilized");
		else
			metric(p, NULL, NULL);
		return;
	case K_CYCLES:
		if (p->have_nsecs && p->nsecs)
			ratio(p, v->val, 1, p->nsecs, 3, 8, "", "GHz");
		else
			metric(p, NULL, NULL);
		return;
	case K_INSN:
		if (p->have_cycles && p->cycles)
			ratio(p, v->val, 1, p->cycles, 2, 7, " ", "insn per cycle");
		else
			metric(p, NULL, NULL);
		return;
	case K_BMISS:
		if (p->have_branches)
			ratio(p, v->val, 100, p->branches, 2, 7, "%", "of all branches");
		else
			metric(p, NULL, NULL);
		return;
	case K_CMISS:
		if (p->have_crefs)
			ratio(p, v->val, 100, p->crefs, 2, 7, "%", "of all cache refs");
		else
			metric(p, NULL, NULL);
		return;
	}
	if (p->have_nsecs)
		rate(p, v->val);
	else
		metric(p, NULL, NULL);
}

/* "  ( +-  5.38% )" with -r, "  (66.67%)" when multiplexed; in CSV the noise, the run time
 * and the percentage as fields */
static void noise(struct pr *p, const struct stat_val *v)
{
	char pct[16];

	if (p->s->o.repeat <= 1)
		return;
	fixed(pct, sizeof(pct), v->noise, 2);
	if (p->csv)
		tp_out__printf(&p->out, "%s%s%%", p->sep, pct);
	else if (v->noise)
		tp_out__printf(&p->out, "  ( +-%6s%% )", pct);
}

static void running(struct pr *p, const struct stat_val *v)
{
	char pct[16];

	fixed(pct, sizeof(pct), v->run != v->ena && v->ena ? stat_muldiv(v->run, 10000, v->ena) : 10000, 2);
	if (p->csv)
		tp_out__printf(&p->out, "%s%llu%s%s", p->sep, (unsigned long long)v->run, p->sep, pct);
	else if (v->run != v->ena)
		tp_out__printf(&p->out, "  (%s%%)", pct);
}

static void prefix(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;

	if (s->o.interval_ms)
		tp_out__printf(&p->out, "%6llu.%09u%s", (unsigned long long)(s->ts_ns / 1000000000),
			       (unsigned)(s->ts_ns % 1000000000), p->sep);
	if (s->o.per_cpu)
		tp_out__printf(&p->out, "CPU%-*d%s", p->csv ? 0 : 7, s->cpus[slot], p->sep);
}

static void line(struct pr *p, unsigned ev, unsigned slot)
{
	const struct stat *s = p->s;
	const struct stat_val *v = &s->vals[ev * s->nr_slots + slot];
	const char *name = s->spec.ev[ev].name;
	const char *unit = s->kind[ev] == K_CLOCK ? "msec" : "";
	int uw = p->csv ? 0 : 4;
	char num[32];

	prefix(p, slot);
	if (s->unsupported[ev] || !v->counted) {
		tp_out__printf(&p->out, "%*s%s%-*s%s%-*s", p->csv ? 0 : 18,
			       s->unsupported[ev] ? "<not supported>" : "<not counted>", p->sep,
			       uw, unit, p->sep, p->csv ? 0 : 25, name);
		if (!p->csv)
			metric(p, NULL, NULL);
		noise(p, v);
		running(p, v);
		if (p->csv)
			metric(p, NULL, NULL);
		put(p, "\n");
		return;
	}
	if (s->kind[ev] == K_CLOCK)	/* msec, two decimals */
		fixed(num, sizeof(num), stat_muldiv(v->val, 1, 10000), 2);
	else
		fixed(num, sizeof(num), v->val, 0);
	tp_out__printf(&p->out, "%*s%s%-*s%s%-*s", p->csv ? 0 : 18, num, p->sep, uw, unit, p->sep,
		       p->csv ? 0 : 32, name);
	if (p->csv) {
		noise(p, v);
		running(p, v);
	}
	shadow(p, s->kind[ev], v);
	if (!p->csv) {
		noise(p, v);
		running(p, v);
	}
	put(p, "\n");
}

/* the values the metrics of one slot divide by, as perf keeps them: the mean of the clock
 * events, the others' counts */
static void slot_stats(struct pr *p, unsigned slot)
{
	const struct stat *s = p->s;
	unsigned nclk = 0;

	p->nsecs = p->cycles = p->branches = p->crefs = 0;
	p->have_nsecs = p->have_cycles = p->have_branches = p->have_crefs = false;
	for (unsigned ev = 0; ev < s->spec.nr; ev++) {
		const struct stat_val *v = &s->vals[ev * s->nr_slots + slot];

		if (s->unsupported[ev] || !v->counted)
			continue;
		switch (s->kind[ev]) {
		case K_CLOCK: p->nsecs += v->val; nclk++; p->have_nsecs = true; break;
		case K_CYCLES: p->cycles = v->val; p->have_cycles = true; break;
		case K_BRANCHES: p->branches = v->val; p->have_branches = true; break;
		case K_CREFS: p->crefs = v->val; p->have_crefs = true; break;
		}
	}
	if (nclk > 1)
		p->nsecs /= nclk;
}

static void header(struct pr *p, unsigned block)
{
	const struct stat_opts *o = &p->s->o;

	if (o->interval_ms) {
		if (!p->csv && block % 25 == 0)
			put(p, o->per_cpu ? "#           time CPU                    counts unit events\n"
					  : "#           time             counts unit events\n");
		return;
	}
	if (p->csv)
		return;
	put(p, "\n Performance counter stats for ");
	if (o->system_wide && !o->cpu_list)
		put(p, "'system wide");
	else if (o->cpu_list)
		tp_out__printf(&p->out, "'CPU(s) %s", o->cpu_list);
	else if (o->pid_list)
		tp_out__printf(&p->out, "process id '%s", o->pid_list);
	else if (o->tid_list)
		tp_out__printf(&p->out, "thread id '%s", o->tid_list);
	else
		for (int i = 0; i < o->argc; i++)
			tp_out__printf(&p->out, "%s%s", i ? " " : "'", o->argv[i]);
	put(p, "'");
	if (o->repeat > 1)
		tp_out__printf(&p->out, " (%u runs)", o->repeat);
	put(p, ":\n\n");
}

/* " %17.9f seconds ..." from microseconds */
static void seconds_us(struct pr *p, int64_t us, const char *what)
{
	char num[32];

	fixed(num, sizeof(num), (uint64_t)(us < 0 ? 0 : us) * 1000, 9);
	tp_out__printf(&p->out, " %17s seconds %s\n", num, what);
}

static void footer(struct pr *p)
{
	const struct stat *s = p->s;
	char num[32], sd[32];

	put(p, "\n");
	if (s->o.repeat <= 1) {
		fixed(num, sizeof(num), s->wall_ns, 9);
		tp_out__printf(&p->out, " %17s seconds time elapsed", num);
		if (s->show_ru) {
			put(p, "\n\n");
			seconds_us(p, s->utime_us, "user");
			seconds_us(p, s->stime_us, "sys");
		}
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
	p.csv = s->o.sep != NULL;
	p.sep = p.csv ? s->o.sep : " ";
	tp_out__init(&p.out, 2, buf, sizeof(buf));
	header(&p, block);
	/* perf's order without aggregation too: each event, then each CPU */
	for (unsigned ev = 0; ev < s->spec.nr; ev++)
		for (unsigned slot = 0; slot < s->nr_slots; slot++) {
			slot_stats(&p, slot);
			line(&p, ev, slot);
		}
	if (!s->o.interval_ms && !p.csv)
		footer(&p);
	tp_out__flush(&p.out);
}
