/* SPDX-License-Identifier: MIT */
/* 'tinyperf stat': open counting events on a command (inherited, enabled at its exec), on
 * CPUs (-a, -C) or on threads (-p, -t); run; read them with their enabled and running times
 * (so multiplexed counts are scaled up as perf scales them); print. -I prints the counts of
 * each interval, -r repeats the command and keeps every run's count for the spread. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/events/evlist.h"
#include "recorder/record/sysinfo.h"
#include "recorder/record/workload.h"
#include "recorder/stat/stat.h"

/* perf stat 6.1's default set; -a counts cpu-clock instead of task-clock. The hardware
 * events last: the no-PMU note names them from here. */
static const char default_events[] = "context-switches,cpu-migrations,page-faults,"
	"cycles,instructions,branches,branch-misses";
#define HW_EVENTS (default_events + 44)	/* "cycles,..." */
_Static_assert(sizeof("context-switches,cpu-migrations,page-faults,") == 44 + 1,
	       "HW_EVENTS points at cycles");
_Static_assert(REC_MAX_EVENT_SPECS >= 2, "the default set takes two of -e's places");

/* the command's state: static (large: the event list), one run per process; one object, so
 * one base address for all of it (on MIPS and ARM each address is a constant to load) */
static struct {
	struct stat st;
	struct evlist el;		/* the fds: [event][task][cpu] */
	int cpus[REC_MAX_CPUS];
	int tasks[REC_MAX_TASKS];
	/* without REC_STAT_EXTRA the printed values (see targets()); with it -r's times */
	struct stat_val vals[STAT_EXTRA ? 1 : REC_MAX_EVSELS];
	uint64_t walls[STAT_EXTRA ? REC_MAX_RUNS : 1];
	volatile int got_signal;
} g;

struct runner {
	unsigned nr_cpus, nr_tasks;
	/* [event][slot], summed over the slot's fds: the printed values themselves without
	 * REC_STAT_EXTRA (no -I deltas, no -r totals) */
	struct stat_val *now, *prev;
	uint64_t *hist;			/* -r: [run][event][slot] scaled counts */
	struct workload wl;
	int status;			/* the command's exit status */
	int term_sig;			/* the command died of this signal */
	int stop_sig;			/* the signal passed on to the command */
};

ARCH_COLD_CODE static void on_signal(int sig)
{
	if (sig != TP_SIGCHLD)
		g.got_signal = sig;
}

ARCH_COLD_CODE static uint64_t now_ns(void)
{
	struct tp_timespec ts = { 0 };

	sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
	/* seconds since boot: 32 bits for 136 years, and a 32-bit multiply on 32-bit CPUs */
	return (uint64_t)(uint32_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
}

ARCH_COLD_CODE static void *zalloc(size_t bytes)
{
	long a = sys_mmap(NULL, bytes ? bytes : 1, TP_PROT_READ | TP_PROT_WRITE,
			  TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0);

	return a < 0 && a > -4096 ? NULL : (void *)a;
}

ARCH_COLD_CODE static int events(struct stat *s)
{
	struct evlist_spec *l = &s->spec;
	uint32_t flags;	/* the low word's bits: one 32-bit OR on 32-bit targets */

	if (!s->o.nr_events) {	/* perf's set: events[1] says so (the no-PMU note) */
		s->o.events[0] = s->o.system_wide ? "cpu-clock" : "task-clock";
		s->o.events[1] = default_events;
		s->o.nr_events = 2;
	}
	for (unsigned i = 0; i < s->o.nr_events; i++)
		if (events__parse(l, s->o.events[i]))
			return STAT_EXIT_USAGE;
	flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_INHERIT |
		(s->o.argv && !s->o.system_wide ? PERF_ATTR_FLAG_ENABLE_ON_EXEC : 0);
	for (unsigned i = 0; i < l->nr; i++) {
		struct perf_event_attr *a = &l->ev[i].attr;

		a->sample_period = 0;	/* a tracepoint's default 1: counting only */
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->flags |= flags;
	}
	return 0;
}

ARCH_COLD_CODE static int targets(struct stat *s, struct runner *r)
{
	int n = 1;
	size_t nv;

	g.cpus[0] = -1;
	if (s->o.system_wide && !(n = rec_cpus_of(s->o.cpu_list, g.cpus)))	/* -C sets it */
		return s->o.cpu_list ? STAT_EXIT_USAGE : 255;
	r->nr_cpus = (unsigned)n;
	/* r->nr_tasks is 0: every task on the CPUs (-1), -p and -t, or the command's pid (0 until
	 * it is forked) */
	if (!s->o.system_wide && (s->o.nr_pids || s->o.nr_tids)) {
		if (rec_tasks_of(s->o.pids, s->o.nr_pids, s->o.tids, s->o.nr_tids, g.tasks,
				 &r->nr_tasks))
			return 255;
	} else {
		g.tasks[0] = -(int)s->o.system_wide;
		r->nr_tasks = 1;
	}
	if (STAT_EXTRA)	/* -A names them */
		s->cpus = g.cpus;
	s->nr_slots = STAT_EXTRA && s->o.per_cpu && g.cpus[0] >= 0 ? r->nr_cpus : 1;
	/* one mapping: now and prev counts, the printed values, -r's history; without
	 * REC_STAT_EXTRA the values alone, the most a list can have, in bss */
	if (!STAT_EXTRA) {
		r->now = s->vals = g.vals;
		return 0;
	}
	nv = s->spec.nr * SLOTS(s);
	r->now = zalloc(nv * (3 * sizeof(struct stat_val) + s->o.repeat * sizeof(uint64_t)));
	if (!r->now)
		return rec_fail("out of memory"), 255;
	r->prev = r->now + nv;
	s->vals = (struct stat_val *)(r->prev + nv);
	r->hist = (uint64_t *)(s->vals + nv);
	return 0;
}

/* every event's fds; one this kernel or CPU lacks is <not supported>, as perf's; no
 * permission is the record command's one line, perf_event_paranoid named; with
 * perf_event_paranoid >= 2 a command counts user space only, named :u as perf names it */
ARCH_COLD_CODE static int open_all(struct stat *s, struct runner *r)
{
	if (evlist__open(&g.el, &s->spec, g.tasks, r->nr_tasks, g.cpus, r->nr_cpus, EVL_MAY_LACK))
		return 255;
	for (unsigned ev = 0; ev < s->spec.nr; ev++) {
		char *name = s->spec.ev[ev].name;
		size_t n = strlen(name);

		if ((s->spec.ev[ev].attr.flags & PERF_ATTR_FLAG_EXCLUDE_KERNEL) &&
		    !strchr(name, ':') && n + 3 <= sizeof(s->spec.ev[ev].name))
			memcpy(name + n, ":u", 3);
	}
	return 0;
}

/* read every fd into r->now, summed per slot */
ARCH_COLD_CODE static void read_all(struct stat *s, struct runner *r)
{
	size_t per_ev = (size_t)r->nr_tasks * r->nr_cpus;

	memset(r->now, 0, s->spec.nr * SLOTS(s) * sizeof(struct stat_val));
	for (size_t i = 0; i < g.el.nr_fds; i++) {	/* [event][task][cpu] */
		int fd = g.el.fds[i];
		struct stat_val *c = &r->now[i / per_ev * SLOTS(s) + (SLOTS(s) > 1 ? i % r->nr_cpus : 0)];
		uint64_t v[3];

		if (fd > 0 && sys_read(fd, v, sizeof(v)) == sizeof(v))
			for (int k = 0; k < 3; k++)
				c->v[k] += v[k];
	}
}

/* now - prev (the last interval), or now, into the printed values (without
 * REC_STAT_EXTRA they are now), scaled */
ARCH_COLD_CODE static void values(struct stat *s, struct runner *r, bool delta)
{
	for (unsigned i = 0; i < s->spec.nr * SLOTS(s); i++) {
		struct stat_val *v = &s->vals[i];

		if (STAT_EXTRA) {
			*v = r->now[i];
			if (delta) {
				for (int k = 0; k < 3; k++)
					v->v[k] -= r->prev[i].v[k];
				r->prev[i] = r->now[i];
			}
		}
		/* scaled when multiplexed; 0 when it never ran */
		if (v->run < v->ena)
			v->val = stat_muldiv(v->val, v->ena, v->run);
	}
}

/* reap the command if it ended (or wait for it): 1 when it did */
ARCH_COLD_CODE static int reap(struct stat *s, struct runner *r, bool block)
{
	int status = 0;
	long p;

	if (r->wl.pid <= 0)
		return 1;
	p = sys_wait4(r->wl.pid, &status, block ? 0 : TP_WNOHANG, s->ru);
	if (p != r->wl.pid)
		return 0;
	r->wl.pid = 0;
	r->term_sig = status & 0x7f;
	r->status = r->term_sig ? 0 : (status >> 8) & 0xff;	/* perf: 0 after a signal */
	return 1;
}

/* -p/-t: has every target thread gone? */
ARCH_COLD_CODE static bool targets_gone(const struct stat *s, const struct runner *r)
{
	if (s->o.system_wide)
		return false;
	for (unsigned i = 0; i < r->nr_tasks; i++)
		if (sys_kill(g.tasks[i], 0) != -TP_ESRCH)
			return false;
	return true;
}

ARCH_COLD_CODE static void nap(uint64_t ns)
{
	struct tp_timespec ts = { (int64_t)(ns / 1000000000), (long)(ns % 1000000000) };

	sys_nanosleep(&ts);	/* a signal (the command's SIGCHLD too) ends it early */
}

/* one run: open, start, wait (printing intervals), read; 0 or an exit status */
ARCH_COLD_CODE static int run(struct stat *s, struct runner *r)
{
	bool cmd = s->o.argv != NULL, on_exec = cmd && !s->o.system_wide;
	uint64_t ival = STAT_EXTRA ? (uint64_t)s->o.interval_ms * 1000000 : 0, t0, next;
	unsigned block = 0;
	bool fresh = false;	/* -I: an interval printed since the last nap */
	int e = 0;

	if (cmd) {
		e = workload__prepare(&r->wl, s->o.argv, tp_environ);
		if (e)
			goto cannot_run;
		if (on_exec)
			g.tasks[0] = r->wl.pid;
	}
	if (open_all(s, r))
		goto fail;	/* said why */
	if (!on_exec)
		evlist__enable(&g.el, true);
	if (ival)
		memset(r->prev, 0, s->spec.nr * SLOTS(s) * sizeof(struct stat_val));
	t0 = now_ns();
	next = t0 + ival;
	s->wall_ns = ival;	/* -I: CPUs utilized over the interval, as perf */
	if (cmd) {
		e = workload__start(&r->wl);
		if (e) {
			evlist__close(&g.el);
			goto fail;
		}
	}
	for (;;) {
		uint64_t t = ival ? now_ns() : 0;	/* only -I reads the time in the loop */

		if (ival && t >= next) {
			read_all(s, r);
			values(s, r, true);
			s->ts_ns = t - t0;
			stat__print(s, block++);
			next += ival;
			fresh = true;
			continue;
		}
		/* a command: wait for it, but not past the next interval */
		if (cmd ? reap(s, r, !ival) : g.got_signal || targets_gone(s, r))
			break;
		if (g.got_signal && cmd) {	/* pass it on, and count until the command ends */
			sys_kill(r->wl.pid, g.got_signal);
			r->stop_sig = g.got_signal;
			g.got_signal = 0;
		}
		if (ival) {
			nap(next - t);
			fresh = false;
		} else if (!cmd)
			nap(1000000000);
	}
	s->wall_ns = now_ns() - t0;
	if (!on_exec)
		evlist__enable(&g.el, false);
	read_all(s, r);
	/* the last, partial interval, as perf prints it when the command's end cuts its nap
	 * short; none when the command ended before the interval just printed was read */
	if (ival && !fresh) {
		values(s, r, true);
		s->ts_ns = s->wall_ns;
		s->wall_ns = ival;
		stat__print(s, block);
	}
	evlist__close(&g.el);
	if (STAT_EXTRA)	/* -r opens them again */
		evlist__free(&g.el);
	return 0;
fail:	/* a command that did not exec has ended already: killed in vain, reaped */
	if (cmd) {
		sys_kill(r->wl.pid, TP_SIGKILL);
		reap(s, r, true);
	}
	if (!e)
		return 255;
cannot_run:
	return rec_fail("cannot run '%s': %s", s->o.argv[0], tp_strerror(e)), 255;
}

ARCH_COLD_CODE int cmd_stat(int argc, char **argv)
{
	struct stat *s = &g.st;
	struct runner r;
	unsigned nv;
	int e;

	rec_msg__command("stat");
	e = stat_opts__parse(&s->o, argc, argv);
	if (e)
		return e < 0 ? 0 : e;
	memset(&r, 0, sizeof(r));
	e = events(s);
	if (!e)
		e = targets(s, &r);
	if (e)
		return e;
	for (int sig = 1; sig < 32; sig++)	/* a loop, not four calls */
		if ((1u << TP_SIGINT | 1u << TP_SIGTERM | 1u << TP_SIGHUP | 1u << TP_SIGCHLD) >> sig & 1)
			sys_signal(sig, on_signal, 0);
	nv = s->spec.nr * SLOTS(s);
	for (unsigned k = 0; k < (STAT_EXTRA ? s->o.repeat : 1); k++) {
		e = run(s, &r);
		if (e)
			return e;
		if (k == 0 && s->o.events[1] == default_events && !(STAT_EXTRA && s->o.sep)) {
			unsigned hw = 4;	/* the first hardware event of the default set */

			while (hw < 8 && s->spec.ev[hw].unsupported)
				hw++;
			if (hw == 8)
				rec_warn("no PMU here: %s not supported", HW_EVENTS);
		}
		if (STAT_EXTRA && s->o.interval_ms)
			break;
		values(s, &r, false);
		if (!STAT_EXTRA)
			break;
		g.walls[k] = s->wall_ns;
		for (unsigned i = 0; i < nv; i++) {
			r.hist[(size_t)k * nv + i] = s->vals[i].val;
			r.prev[i].v[1] += s->vals[i].ena;	/* -r: the totals */
			r.prev[i].v[2] += s->vals[i].run;
		}
	}
	if (!(STAT_EXTRA && s->o.interval_ms)) {
		if (STAT_EXTRA) {
			for (unsigned i = 0; i < nv; i++) {
				struct stat_val *v = &s->vals[i];
				uint64_t sd;

				v->val = stat_spread(r.hist + i, s->o.repeat, nv, &v->noise, &sd);
				v->ena = r.prev[i].v[1];
				v->run = r.prev[i].v[2];
			}
			s->wall_ns = stat_spread(g.walls, s->o.repeat, 1, &s->wall_noise, &s->wall_sd_ns);
		}
		if (r.term_sig)
			rec_warn("'%s' ended by signal %d", s->o.argv[0], r.term_sig);
		stat__print(s, 0);
	}
	e = g.got_signal ? g.got_signal : r.stop_sig;
	if (e) {	/* as perf: die of the signal that stopped counting */
		sys_signal(e, TP_SIG_DFL, 0);
		sys_kill((int)sys_getpid(), e);
	}
	return r.status;
}
