/* SPDX-License-Identifier: MIT */
/* Flight recorder (--overwrite) and output rotation (--switch-output): the options, when to
 * switch, the files' names and --switch-max-files. See flight.h; the snapshots and the
 * switches themselves are the record command's (record/output.c). */
#include "libc-shim/shim.h"
#include "recorder/out/flight.h"
#include "recorder/out/sinks.h"

static TP_NOINLINE int fail(const char *what, const char *arg)
{
	tp_dprintf(2, "tinyperf: record: %s%s\n", what, arg);
	return 1;
}

/* "30s", "5m", "2h", "1d" (perf's TIME); 0 or -TP_EINVAL */
static int parse_time(const char *s, int64_t *ms)
{
	static const struct { char c; int64_t ms; } units[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 }, { 'd', 86400000 } };
	uint64_t v;

	if (tp_parse_u64_prefix(&s, 10, &v) || !v || v > 1000000 || !s[0] || s[1])
		return -TP_EINVAL;
	for (unsigned i = 0; i < TP_ARRAY_SIZE(units); i++)
		if (s[0] == units[i].c) {
			*ms = (int64_t)v * units[i].ms;
			return 0;
		}
	return -TP_EINVAL;
}

int flight__init(struct flight *f, const char **output, const char *v, unsigned max_files,
		 bool overwrite)
{
	if (!v)
		return max_files ? fail("--switch-max-files needs --switch-output", "") : 0;
	if (!strcmp(*output, "-") || (IS_ENABLED(CONFIG_REC_STREAMS) &&
	    (sink_tcp__is(*output) || sink_serial__is(*output))))
		return fail("--switch-output writes files, not a stream: ", *output);
	if (!strcmp(v, "signal"))
		f->trigger = FL_SIGNAL;
	else if (!parse_time(v, &f->every_ms))
		f->trigger = FL_TIME;
	else if (!tp_parse_size(v, &f->size) && f->size)
		f->trigger = FL_SIZE;
	else
		return fail("bad value for --switch-output (signal, SIZE like 100M, TIME like 30s): ",
			    v);
	if (f->trigger == FL_SIZE && overwrite)
		return fail("--switch-output=SIZE does not go with --overwrite (nothing is written "
			    "between snapshots): use signal or TIME", "");
	if (strlen(*output) > sizeof(f->tmp) - 24)
		return fail("output name too long: ", *output);
	f->base = *output;
	tp_snprintf(f->tmp, sizeof(f->tmp), "%s.tmp", *output);
	*output = f->tmp;
	f->rotate = true;
	return 0;
}

int flight__timeout(struct flight *f, int64_t now, int timeout)
{
	if (f->trigger != FL_TIME)
		return timeout;
	if (!f->next_ms)
		f->next_ms = now + f->every_ms;
	if (f->next_ms - now < timeout)
		timeout = f->next_ms > now ? (int)(f->next_ms - now) : 0;
	return timeout;
}

bool flight__due(struct flight *f, int64_t now, bool signalled, uint64_t pos)
{
	if (signalled)
		return true;
	if (f->trigger == FL_SIZE)
		return pos >= f->size;
	if (f->trigger == FL_TIME && f->next_ms && now >= f->next_ms) {
		f->next_ms = now + f->every_ms;
		return true;
	}
	return false;
}

/* ---- names: OUTPUT.YYYYMMDDHHMMSScc in UTC (no time zone database on the device) ---- */

static uint64_t stamp_now(struct flight *f)
{
	struct tp_timespec ts;	/* 0 when the clock cannot be read: names count on below */
	uint64_t cs;

	sys_clock_gettime(TP_CLOCK_REALTIME, &ts);
	cs = (uint64_t)ts.sec * 100 + (uint64_t)ts.nsec / 10000000;
	if (cs <= f->last_cs)		/* two switches in one centisecond: keep names distinct */
		cs = f->last_cs + 1;
	f->last_cs = cs;
	return cs;
}

/* days since 1970-01-01 -> civil date (the proleptic Gregorian calendar, eras of 400 years) */
static void civil(uint32_t days, unsigned *y, unsigned *m, unsigned *d)
{
	/* no date before 1970: 32-bit unsigned arithmetic, no 64-bit division on 32-bit targets */
	uint32_t z = days + 719468, era = z / 146097;
	unsigned doe = z - era * 146097;
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (unsigned)(yoe + era * 400) + (*m <= 2);
}

static void stamp_name(const struct flight *f, uint64_t cs, char *buf, size_t n)
{
	uint64_t sec = cs / 100;
	unsigned y, m, d, s = (unsigned)(sec % 86400);

	civil((uint32_t)(sec / 86400), &y, &m, &d);
	tp_snprintf(buf, n, "%s.%04u%02u%02u%02u%02u%02u%02u", f->base, y, m, d, s / 3600,
		    s / 60 % 60, s % 60, (unsigned)(cs % 100));
}

int flight__name(struct flight *f, unsigned max_files, bool quiet)
{
	char name[sizeof(f->tmp)];
	uint64_t cs = stamp_now(f);
	long e;

	stamp_name(f, cs, name, sizeof(name));
	e = sys_renameat(TP_AT_FDCWD, f->tmp, TP_AT_FDCWD, name);
	if (e < 0) {
		tp_dprintf(2, "tinyperf: record: cannot rename %s to %s: %s\n", f->tmp, name,
			   tp_strerror(e));
		return (int)e;
	}
	f->files++;
	if (!quiet)
		tp_dprintf(2, "[ tinyperf record: dump %s ]\n", name);
	if (!max_files)
		return 0;
	/* a ring of max + 1 stamps: only those pages of kept[] are ever touched */
	f->kept[(f->first + f->nr_kept++) % (max_files + 1)] = cs;
	while (f->nr_kept > max_files) {
		stamp_name(f, f->kept[f->first], name, sizeof(name));
		sys_unlinkat(TP_AT_FDCWD, name, 0);
		f->first = (f->first + 1) % (max_files + 1);
		f->nr_kept--;
	}
	return 0;
}

int flight__name_last(struct flight *f, unsigned max_files, bool quiet)
{
	int e = flight__name(f, max_files, quiet);

	/* -o points at tmp: the closing line then names the last file */
	if (!e)
		stamp_name(f, f->last_cs, f->tmp, sizeof(f->tmp));
	return e;
}
