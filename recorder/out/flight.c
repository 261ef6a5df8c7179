/* Flight recorder (--overwrite) and output rotation (--switch-output): snapshots of the
 * write_backward rings, file switching and naming, --switch-max-files. See flight.h. */
#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "recorder/record/record.h"

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

int flight__init(struct record *r)
{
	struct flight *f = &r->fl;
	struct rec_opts *o = &r->o;
	const char *v = o->switch_output;

	if (!v)
		return o->switch_max_files ? fail("--switch-max-files needs --switch-output", "") : 0;
	if (!strcmp(o->output, "-") || (IS_ENABLED(CONFIG_REC_STREAMS) &&
	    (sink_tcp__is(o->output) || sink_serial__is(o->output))))
		return fail("--switch-output writes files, not a stream: ", o->output);
	if (!strcmp(v, "signal"))
		f->trigger = FL_SIGNAL;
	else if (!parse_time(v, &f->every_ms))
		f->trigger = FL_TIME;
	else if (!tp_parse_size(v, &f->size) && f->size)
		f->trigger = FL_SIZE;
	else
		return fail("bad value for --switch-output (signal, SIZE like 100M, TIME like 30s): ",
			    v);
	if (f->trigger == FL_SIZE && o->overwrite)
		return fail("--switch-output=SIZE does not go with --overwrite (nothing is written "
			    "between snapshots): use signal or TIME", "");
	if (strlen(o->output) > sizeof(f->tmp) - 24)
		return fail("output name too long: ", o->output);
	f->base = o->output;
	tp_snprintf(f->tmp, sizeof(f->tmp), "%s.tmp", o->output);
	o->output = f->tmp;
	f->rotate = true;
	return 0;
}

int flight__timeout(struct record *r, int64_t now, int timeout)
{
	struct flight *f = &r->fl;

	if (f->trigger != FL_TIME)
		return timeout;
	if (!f->next_ms)
		f->next_ms = now + f->every_ms;
	if (f->next_ms - now < timeout)
		timeout = f->next_ms > now ? (int)(f->next_ms - now) : 0;
	return timeout;
}

bool flight__due(struct record *r, int64_t now, bool signalled)
{
	struct flight *f = &r->fl;

	if (signalled)
		return true;
	if (f->trigger == FL_SIZE)
		return r->w.pos >= f->size;
	if (f->trigger == FL_TIME && f->next_ms && now >= f->next_ms) {
		f->next_ms = now + f->every_ms;
		return true;
	}
	return false;
}

int flight__snapshot(struct record *r)
{
	unsigned paused = 0;

	/* paused before the synthesis: its own /proc reading would otherwise fill the rings
	 * (with raw_syscalls) and push out the window the snapshot is for. What the kernel drops
	 * meanwhile comes back as PERF_RECORD_LOST in the next snapshot. */
	for (; paused < r->el.nr_rings; paused++) {
		int e = ring__pause(&r->el.rings[paused], true);

		if (e) {
			r->write_err = e;
			break;
		}
	}
	if (!r->write_err) {
		track__forget_procs(&r->track);
		rec_synth(r, REC_SYNTH_KERNEL | REC_SYNTH_TASKS);
	}
	for (unsigned i = 0; i < r->el.nr_rings && !r->write_err; i++)
		ring__read_backward(&r->el.rings[i], &r->fl.ops);
	for (unsigned i = 0; i < paused; i++)
		ring__pause(&r->el.rings[i], false);
	track__end_round(&r->track);
	return r->write_err;
}

/* ---- names: OUTPUT.YYYYMMDDHHMMSScc in UTC (no time zone database on the device) ---- */

static uint64_t stamp_now(struct flight *f)
{
	struct tp_timespec ts = { 0 };
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

static int name_file(struct record *r)
{
	struct flight *f = &r->fl;
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
	if (!r->o.quiet)
		tp_dprintf(2, "[ tinyperf record: dump %s ]\n", name);
	if (!r->o.switch_max_files)
		return 0;
	/* a ring of max + 1 stamps: only those pages of kept[] are ever touched */
	f->kept[(f->first + f->nr_kept++) % (r->o.switch_max_files + 1)] = cs;
	while (f->nr_kept > r->o.switch_max_files) {
		stamp_name(f, f->kept[f->first], name, sizeof(name));
		sys_unlinkat(TP_AT_FDCWD, name, 0);
		f->first = (f->first + 1) % (r->o.switch_max_files + 1);
		f->nr_kept--;
	}
	return 0;
}

static int reopen(struct record *r)
{
	struct tp_writer_attr wa[REC_MAX_EVSELS];
	long fd = sys_open(r->fl.tmp, TP_O_WRONLY | TP_O_CREAT | TP_O_TRUNC | TP_O_CLOEXEC, 0600);

	if (fd < 0)
		return (int)fd;
	r->out_fd = (int)fd;
	tp_sink_fd__init(&r->sink, r->out_fd, true);
	rec_writer_attrs(r, wa);
	return tp_writer__open(&r->w, &r->sink.sink, TP_WRITER_FILE, false, wa, r->spec.nr,
			       PERF_ATTR_SIZE_VER0);
}

int flight__switch(struct record *r)
{
	struct tp_timespec ts;
	int e;

	if (r->o.overwrite)
		flight__snapshot(r);
	if (IS_ENABLED(CONFIG_REC_STREAMS) && r->o.coalesce_ms && !r->write_err) {
		sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
		coalesce__tick(&r->co, ts.sec * 1000 + ts.nsec / 1000000, true);
	}
	if (r->write_err)
		return r->write_err;
	r->fl.reopen = true;
	e = rec_features__finish(r);
	r->fl.reopen = false;
	r->fl.written += r->w.pos;
	sys_close(r->out_fd);
	if (!e)
		e = name_file(r);
	if (!e)
		e = reopen(r);
	if (e) {
		r->write_err = e;
		return e;
	}
	r->first_time = r->last_time = 0;
	track__reset_hits(&r->track);
	/* the kernel and the tasks as they are now, so the file stands alone (perf's
	 * --tail-synthesize) */
	if (!r->o.overwrite)
		rec_synth(r, REC_SYNTH_KERNEL | REC_SYNTH_TASKS);
	return r->write_err;
}

int flight__name_last(struct record *r)
{
	int e = name_file(r);

	/* -o points at tmp: the closing line then names the last file */
	if (!e)
		stamp_name(&r->fl, r->fl.last_cs, r->fl.tmp, sizeof(r->fl.tmp));
	return e;
}
