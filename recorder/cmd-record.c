/* 'tinyperf record': open the events, synthesize what existed before, copy the rings to the
 * output while noting which DSOs got samples, then write the build-ids and features.
 * The recorder does as little as possible while recording: ring bytes go to the sink as they
 * are (zero copy for contiguous runs), and only enough is parsed to know the hit DSOs. */
#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "recorder/cmd.h"
#include "recorder/record.h"
#include "recorder/synth.h"
#include "recorder/sysinfo.h"

#define BOUNCE_SIZE 65536

static struct record rec;          /* one run per process; signal handlers reach it here */
static int sig_pipe[2] = { -1, -1 };
static volatile int stop_signal;
static volatile int switch_signal;	/* SIGUSR2 with --switch-output */

static void on_signal(int sig)
{
	char c = (char)sig;

	if (sig == TP_SIGUSR2)
		switch_signal = 1;
	else if (sig != TP_SIGCHLD)
		stop_signal = sig;
	sys_write(sig_pipe[1], &c, 1);
}

static void msg(const struct record *r, const char *fmt, ...) TP_PRINTF(2, 3);
static void msg(const struct record *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (r->o.quiet)
		return;
	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	tp_write_all(2, buf, (size_t)n);
}

static int fail(const char *fmt, ...) TP_PRINTF(1, 2);
static int fail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	tp_dprintf(2, "tinyperf: record: %.*s\n", n, buf);
	return 1;
}

/* ---- records: every one passes here, from the rings and from synthesis ---- */

/* --coalesce exists with the stream outputs (CONFIG_REC_STREAMS) */
static bool coalescing(const struct record *r)
{
	return IS_ENABLED(CONFIG_REC_STREAMS) && r->o.coalesce_ms;
}

static uint32_t rd32(const struct perf_event_header *h, unsigned off)
{
	uint32_t v;

	memcpy(&v, (const char *)h + off, 4);
	return v;
}

static uint64_t rd64(const struct perf_event_header *h, unsigned off)
{
	uint64_t v;

	memcpy(&v, (const char *)h + off, 8);
	return v;
}

static bool on_record(void *ctx, const struct perf_event_header *h)
{
	struct record *r = ctx;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size < r->off_time + 8)
			return true;
		if (r->target == REC_TREE && !track__in_tree(&r->track, rd32(h, r->off_tid)))
			return false;
		r->samples++;
		{
			uint64_t t = rd64(h, r->off_time);

			if (!r->first_time || t < r->first_time)
				r->first_time = t;
			if (t > r->last_time)
				r->last_time = t;
		}
		break;
	case PERF_RECORD_FORK:
		/* a child of the tree joins it (track__record does that) */
		if (r->target == REC_TREE && h->size >= 16 &&
		    !track__in_tree(&r->track, rd32(h, 12)))
			return false;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_EXIT:
		if (r->target == REC_TREE && h->size >= 12 &&
		    !(h->misc & PERF_RECORD_MISC_KERNEL && h->type == PERF_RECORD_MMAP) &&
		    !track__in_tree(&r->track, rd32(h, 8)))
			return false;
		break;
	case PERF_RECORD_LOST:
		if (h->size >= 24)
			r->lost += rd64(h, 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= 16)
			r->lost_samples += rd64(h, 8);
		break;
	}
	track__record(&r->track, h);
	/* --coalesce: the sample comes back merged with its likes at the next flush */
	if (h->type == PERF_RECORD_SAMPLE && coalescing(r) && coalesce__add(&r->co, h))
		return false;
	return true;
}

static int write_out(void *ctx, const void *buf, size_t len)
{
	struct record *r = ctx;
	int err = tp_writer__add(&r->w, buf, len);

	if (err && !r->write_err)
		r->write_err = err;
	return err;
}

/* synthesized records: tracked and written like the ring's */
static int emit(void *ctx, const void *rec_buf, size_t len)
{
	struct record *r = ctx;

	track__record(&r->track, rec_buf);
	return write_out(r, rec_buf, len);
}

/* ---- setup ---- */

static int parse_events(struct record *r)
{
	char err[160];

	for (unsigned i = 0; i < r->o.nr_events; i++)
		if (events__parse(&r->spec, r->o.events[i], err, sizeof(err)))
			return fail("%s", err);
	if (!r->spec.nr)
		events__add_default(&r->spec);
	return 0;
}

/* sample_type and flags: the same sample prefix for every event so that pid and time sit at
 * fixed offsets; IDENTIFIER when there is more than one event; side-band on the first. */
static void fill_attrs(struct record *r)
{
	bool many = r->spec.nr > 1;
	bool cpu = r->target == REC_SYSTEM || r->target == REC_TREE;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
		      (many ? PERF_SAMPLE_IDENTIFIER : 0) | (cpu ? PERF_SAMPLE_CPU : 0);
	uint32_t watermark = (uint32_t)((uint64_t)r->o.mmap_pages * tp_page_size() / 2);

	r->sample_type = st;
	r->off_tid = 8 + (many ? 8 : 0) + 8;
	r->off_time = r->off_tid + 8;
	for (unsigned i = 0; i < r->spec.nr; i++) {
		struct evsel *e = &r->spec.ev[i];
		struct perf_event_attr *a = &e->attr;
		bool cg = e->callgraph < 0 ? r->o.callgraph : e->callgraph > 0;

		a->size = PERF_ATTR_SIZE_VER0;
		a->sample_type = st | (cg ? PERF_SAMPLE_CALLCHAIN : 0);
		if (a->type == PERF_TYPE_TRACEPOINT)
			a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
		if (!e->has_period) {
			if (r->o.period) {
				a->sample_period = r->o.period;
			} else {
				a->sample_freq = r->o.freq;
				a->flags |= PERF_ATTR_FLAG_FREQ;
			}
		}
		a->flags |= PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_SAMPLE_ID_ALL |
			    PERF_ATTR_FLAG_WATERMARK;
		a->wakeup_watermark = watermark;
		if (r->o.overwrite)
			a->flags |= PERF_ATTR_FLAG_WRITE_BACKWARD;
		if (i == 0)
			a->flags |= PERF_ATTR_FLAG_MMAP | PERF_ATTR_FLAG_MMAP2 | PERF_ATTR_FLAG_COMM |
				    PERF_ATTR_FLAG_COMM_EXEC | PERF_ATTR_FLAG_TASK;
		if (r->target == REC_INHERIT)
			a->flags |= PERF_ATTR_FLAG_ENABLE_ON_EXEC |
				    (r->o.no_inherit ? 0 : PERF_ATTR_FLAG_INHERIT);
		else if (r->target == REC_TASKS && !r->o.nr_tids)
			a->flags |= PERF_ATTR_FLAG_INHERIT;
	}
	/* tracepoints carry RAW and CPU: keep the prefix identical for every event */
	for (unsigned i = 0; i < r->spec.nr; i++)
		if (r->spec.ev[i].attr.sample_type & PERF_SAMPLE_CPU)
			r->sample_type |= PERF_SAMPLE_CPU;
	for (unsigned i = 0; i < r->spec.nr; i++)
		r->spec.ev[i].attr.sample_type |= r->sample_type & PERF_SAMPLE_CPU;
}

static int add_tasks_of(struct record *r, int pid)
{
	char path[48];
	uint64_t buf[256];
	long fd, n;

	tp_snprintf(path, sizeof(path), "/proc/%d/task", pid);
	fd = sys_open(path, TP_O_RDONLY | TP_O_DIRECTORY | TP_O_CLOEXEC, 0);
	if (fd < 0)
		return fail("no process %d: %s", pid, tp_strerror(fd));
	while ((n = sys_getdents64((int)fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const char *d = (const char *)buf + off;
			uint16_t reclen;
			uint64_t tid;

			memcpy(&reclen, d + 16, 2);
			off += reclen;
			if (tp_parse_u64(d + 19, 10, &tid))
				continue;
			if (r->nr_tasks >= REC_MAX_TASKS) {
				sys_close((int)fd);
				return fail("too many threads (at most %d): use -t", REC_MAX_TASKS);
			}
			r->tasks[r->nr_tasks++] = (int)tid;
		}
	}
	sys_close((int)fd);
	return 0;
}

/* "0-3,8" -> cpus[]; the count, or -errno */
static int cpus_from_list(const char *list, int *cpus, unsigned max)
{
	uint64_t mask[REC_MAX_CPUS / 64];
	unsigned top = 0;
	int n = 0;

	memset(mask, 0, sizeof(mask));
	if (cpulist__parse(list, mask, max, &top) < 0)
		return -TP_EINVAL;
	for (unsigned c = 0; c < max; c++)
		if (mask[c / 64] >> (c % 64) & 1)
			cpus[n++] = (int)c;
	return n;
}

static int choose_target(struct record *r)
{
	char online[256];
	int n = -TP_EINVAL;

	if (r->o.cpu_list)
		n = cpus_from_list(r->o.cpu_list, r->cpus, REC_MAX_CPUS);
	else if (tp_read_file("/sys/devices/system/cpu/online", online, sizeof(online)) > 0)
		n = cpus_from_list(online, r->cpus, REC_MAX_CPUS);
	if (n <= 0)
		return fail(r->o.cpu_list ? "bad CPU list '%s': give e.g. 0-3,6" :
			    "cannot read the online CPUs%s", r->o.cpu_list ? r->o.cpu_list : "");
	r->nr_cpus = (unsigned)n;
	if (r->o.system_wide) {
		r->target = REC_SYSTEM;
		r->tasks[r->nr_tasks++] = -1;
	} else if (r->o.nr_pids || r->o.nr_tids) {
		r->target = REC_TASKS;
		for (unsigned i = 0; i < r->o.nr_pids; i++)
			if (add_tasks_of(r, r->o.pids[i]))
				return 1;
		for (unsigned i = 0; i < r->o.nr_tids && r->nr_tasks < REC_MAX_TASKS; i++)
			r->tasks[r->nr_tasks++] = r->o.tids[i];
	} else {
		/* --overwrite reads records newest first: a tree cannot be followed through its
		 * FORKs then, inherited events need no following */
		r->target = r->o.no_inherit || r->o.overwrite ? REC_INHERIT : REC_TREE;
		r->tasks[r->nr_tasks++] = r->target == REC_TREE ? -1 : r->wl.pid;
	}
	return 0;
}

static int open_events(struct record *r)
{
	char err[256];
	int e;

	fill_attrs(r);
	e = evlist__open(&r->el, &r->spec, r->tasks, r->nr_tasks, r->cpus, r->nr_cpus,
			 err, sizeof(err));
	if ((e == -TP_EACCES || e == -TP_EPERM) && r->target == REC_TREE) {
		/* not allowed to watch whole CPUs: inherited per-task events, as perf does
		 * (short-lived children then start a fresh sampling period each) */
		r->target = REC_INHERIT;
		r->tasks[0] = r->wl.pid;
		fill_attrs(r);
		e = evlist__open(&r->el, &r->spec, r->tasks, r->nr_tasks, r->cpus, r->nr_cpus,
				 err, sizeof(err));
	}
	if (e == -TP_EINVAL && r->o.overwrite)
		return fail("%s; --overwrite needs write_backward ring buffers: Linux 4.7 or later",
			    err);
	if (e)
		return fail("%s", err);
	if (r->el.notes & EVL_FELL_BACK_CPU_CLOCK)
		msg(r, "tinyperf: record: no hardware 'cycles' event here (no PMU): using cpu-clock");
	if (r->el.notes & EVL_EXCLUDED_KERNEL)
		msg(r, "tinyperf: record: kernel.perf_event_paranoid >= 2: recording user space only");
	r->el.backward = r->o.overwrite;
	if (evlist__mmap(&r->el, r->o.mmap_pages, err, sizeof(err)))
		return fail("%s", err);
	for (unsigned i = 0; i < r->spec.nr; i++)
		for (unsigned k = 0; k < r->spec.ev[i].nr_ids; k++)
			track__add_id(&r->track, r->spec.ev[i].ids[k], r->spec.ev[i].attr.sample_type);
	if (coalescing(r)) {
		if (coalesce__init(&r->co, &r->arena, r->o.coalesce_ms, write_out, r))
			return fail("out of memory");
		for (unsigned i = 0; i < r->spec.nr; i++)
			for (unsigned k = 0; k < r->spec.ev[i].nr_ids; k++)
				coalesce__add_id(&r->co, r->spec.ev[i].ids[k],
						 r->spec.ev[i].attr.sample_type);
	}
	return 0;
}

static const char *out_name(const struct record *r)
{
	return r->out_kind == REC_OUT_STDOUT ? "stdout" : r->o.output;
}

/* the end of a TCP or serial stream (serial: the last frame, END, the tty settings back) */
static int close_stream(struct record *r)
{
	int e = 0;

	if (!IS_ENABLED(CONFIG_REC_STREAMS))
		return 0;
	if (r->out_kind == REC_OUT_TCP)
		sink_tcp__close(&r->tcp);
	else if (r->out_kind == REC_OUT_SERIAL)
		e = sink_serial__close(&r->serial);
	else
		return 0;
	r->out_kind = REC_OUT_FILE;	/* closed: once is enough */
	return e;
}

/* -o: a file, stdout (-) or a stream to 'tinyperf recv' (recorder/sinks.h); every output
 * but a file gets the pipe-mode stream */
static int open_output(struct record *r)
{
	struct tp_writer_attr wa[REC_MAX_EVSELS];
	struct tp_sink *sink = &r->sink.sink;
	struct tp_hello hello;
	char err[200];
	long fd = 1;
	int e;

	r->out_kind = !strcmp(r->o.output, "-") ? REC_OUT_STDOUT :
		      !IS_ENABLED(CONFIG_REC_STREAMS) ? REC_OUT_FILE :
		      sink_tcp__is(r->o.output) ? REC_OUT_TCP :
		      sink_serial__is(r->o.output) ? REC_OUT_SERIAL : REC_OUT_FILE;
	r->pipe = r->out_kind != REC_OUT_FILE;
	if (IS_ENABLED(CONFIG_REC_STREAMS) &&
	    (r->out_kind == REC_OUT_TCP || r->out_kind == REC_OUT_SERIAL)) {
		rec_hello__init(&hello);
		e = r->out_kind == REC_OUT_TCP ?
		    sink_tcp__open(&r->tcp, r->o.output, &hello, r->o.retries, r->o.quiet, err,
				   sizeof(err)) :
		    sink_serial__open(&r->serial, r->o.output, &hello, err, sizeof(err));
		if (e) {
			r->out_kind = REC_OUT_FILE;	/* nothing to close */
			return fail("%s", err);
		}
		sink = r->out_kind == REC_OUT_TCP ? &r->tcp.sink : &r->serial.sink;
	} else if (!r->pipe) {
		fd = sys_open(r->o.output, TP_O_WRONLY | TP_O_CREAT | TP_O_TRUNC | TP_O_CLOEXEC, 0600);
		if (fd < 0)
			return fail("cannot create %s: %s", r->o.output, tp_strerror(fd));
	}
	r->out_fd = (int)fd;
	tp_sink_fd__init(&r->sink, r->out_fd, !r->pipe);
	for (unsigned i = 0; i < r->spec.nr; i++) {
		wa[i].attr = &r->spec.ev[i].attr;
		wa[i].name = r->spec.ev[i].name;
		wa[i].ids = r->spec.ev[i].ids;
		wa[i].nr_ids = r->spec.ev[i].nr_ids;
	}
	/* a pipe's attrs at 128 bytes: perf 6.1 looks for HEADER_ATTR's ids there */
	e = tp_writer__open(&r->w, sink, r->pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, false, wa,
			    r->spec.nr, r->pipe ? PERF_ATTR_SIZE_VER7 : PERF_ATTR_SIZE_VER0);
	if (e)
		return fail("cannot write %s: %s", out_name(r), tp_strerror(e));
	/* only tinyperf recv reads these streams: send its private features too */
	r->w.pipe_private = r->out_kind == REC_OUT_TCP || r->out_kind == REC_OUT_SERIAL;
	return rec_features__start(r) ? fail("cannot write the header features: %s",
					      tp_strerror(r->write_err)) : 0;
}

static int synthesize(struct record *r)
{
	static char scratch[SYNTH_SCRATCH_MIN];
	const struct tp_rec_fmt fmt = { .id_hdr_size = tp_id_hdr_size(r->sample_type) };
	struct synth sc = {
		.emit = emit, .ctx = r, .fmt = &fmt, .scratch = scratch,
		.scratch_size = sizeof(scratch),
	};
	struct synth_kernel k;

	memset(&k, 0, sizeof(k));
	synth__kernel(&sc, &k);
	if (k.hidden)
		msg(r, "tinyperf: record: kernel addresses are hidden (kptr_restrict=%d): kernel "
		       "samples will not resolve; run as root or 'sysctl kernel.kptr_restrict=0'",
		    k.kptr_restrict);
	if (r->target == REC_SYSTEM)
		synth__all_tasks(&sc);
	else if (r->target == REC_TASKS)
		for (unsigned i = 0; i < r->o.nr_pids; i++)
			synth__task(&sc, r->o.pids[i]);
	return r->write_err;
}

/* ---- the loop ---- */

static void drain(struct record *r)
{
	const struct ring_ops ops = { on_record, write_out, r, r->bounce };
	bool any = false;

	if (r->o.overwrite)	/* read only at snapshots (recorder/flight.c) */
		return;
	for (unsigned i = 0; i < r->el.nr_rings && !r->write_err; i++)
		if (ring__read(&r->el.rings[i], &ops) > 0)
			any = true;
	if (any && !r->write_err && !coalescing(r)) {	/* the coalescer writes its own */
		r->rounds++;
		if (tp_writer__finished_round(&r->w) && !r->write_err)
			r->write_err = r->w.err;
	}
}

static int64_t now_ms(void)
{
	struct tp_timespec ts = { 0 };	/* LTO's -Wmaybe-uninitialized: the call may fail */

	sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
	return ts.sec * 1000 + ts.nsec / 1000000;
}

static void reap(struct record *r, bool wait)
{
	int status;
	long p;

	if (r->wl.pid <= 0)
		return;
	p = sys_wait4(r->wl.pid, &status, wait ? 0 : TP_WNOHANG, NULL);
	if (p != r->wl.pid)
		return;
	r->wl.pid = 0;
	r->exit_status = (status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
}

static void loop(struct record *r)
{
	struct tp_pollfd pfd[REC_MAX_CPUS + 1];
	int64_t start = now_ms(), last_ckpt = start;
	unsigned n = 0;

	pfd[n++] = (struct tp_pollfd){ sig_pipe[0], TP_POLLIN, 0 };
	for (unsigned i = 0; i < r->el.nr_rings; i++)
		pfd[n++] = (struct tp_pollfd){ r->el.rings[i].fd, TP_POLLIN, 0 };
	for (;;) {
		int64_t t = now_ms();
		int timeout = 1000;
		long k;

		if (r->o.duration_ms) {
			int64_t left = (int64_t)r->o.duration_ms - (t - start);

			if (left <= 0)
				break;
			if (left < timeout)
				timeout = (int)left;
		}
		if (coalescing(r))
			timeout = TP_MIN(timeout, coalesce__timeout(&r->co, t));
		if (r->fl.rotate)
			timeout = flight__timeout(r, t, timeout);
		k = sys_poll(pfd, n, timeout);
		if (k > 0 && (pfd[0].revents & TP_POLLIN)) {
			char c[16];

			sys_read(sig_pipe[0], c, sizeof(c));
			reap(r, false);
		}
		r->wakeups++;
		drain(r);
		if (coalescing(r) && !r->write_err)
			coalesce__tick(&r->co, now_ms(), false);
		if (r->write_err || stop_signal || (r->o.argv && r->wl.pid == 0))
			break;
		if (r->fl.rotate && flight__due(r, now_ms(), switch_signal)) {
			switch_signal = 0;
			if (flight__switch(r))
				break;
		}
		if (r->target == REC_TASKS) {
			/* every task gone: every ring fd hangs up */
			unsigned hup = 0;

			for (unsigned i = 1; i < n; i++)
				hup += !!(pfd[i].revents & TP_POLLHUP);
			if (hup == n - 1)
				break;
		}
		if (!r->pipe && now_ms() - last_ckpt >= 1000) {
			tp_writer__checkpoint(&r->w);
			last_ckpt = now_ms();
		}
	}
}

static void install_signals(void)
{
	sys_pipe2(sig_pipe, TP_O_CLOEXEC | TP_O_NONBLOCK);
	sys_signal(TP_SIGINT, on_signal, 0);
	sys_signal(TP_SIGTERM, on_signal, 0);
	sys_signal(TP_SIGHUP, on_signal, 0);
	sys_signal(TP_SIGCHLD, on_signal, 1);
	sys_signal(TP_SIGPIPE, TP_SIG_IGN, 1);
	if (rec.o.switch_output)
		sys_signal(TP_SIGUSR2, on_signal, 1);
}

static void closing_line(struct record *r)
{
	uint64_t bytes = r->w.pos;

	if (r->o.quiet)
		return;
	if (coalescing(r))
		tp_dprintf(2, "tinyperf: record: %llu samples coalesced into %llu records\n",
			   (unsigned long long)r->co.samples_in,
			   (unsigned long long)r->co.records_out);
	tp_dprintf(2, "[ tinyperf record: %llu samples, %llu lost, %llu.%02llu MB written to %s ]\n",
		   (unsigned long long)r->samples,
		   (unsigned long long)(r->lost + r->lost_samples),
		   (unsigned long long)(bytes / 1000000),
		   (unsigned long long)(bytes % 1000000 / 10000), out_name(r));
}

int cmd_record(int argc, char **argv)
{
	struct record *r = &rec;
	char err[160];
	int e;
	long addr;

	memset(r, 0, sizeof(*r));
	r->envp = tp_environ;
	e = rec_opts__parse(&r->o, argc, argv, err, sizeof(err));
	if (e > 0) {
		rec_opts__usage(1);
		return 0;
	}
	if (e < 0) {
		tp_dprintf(2, "tinyperf: record: %s\n", err);
		rec_opts__usage(2);
		return 2;
	}
	/* CMDLINE records the whole command line, tinyperf's path first, as perf does: main()
	 * hands commands its argv shifted by one, and argv[-1] is its argv[0] */
	r->argv = argv - 1;
	r->argc = argc + 1;
	if (parse_events(r) || flight__init(r))
		return 1;
	r->fl.ops = (struct ring_ops){ on_record, write_out, r, NULL };
	r->fl.emit = emit;
	addr = sys_mmap(NULL, BOUNCE_SIZE, TP_PROT_READ | TP_PROT_WRITE,
			TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0);
	if (addr < 0 && addr > -4096)
		return fail("out of memory");
	r->bounce = (uint8_t *)addr;
	r->fl.ops.bounce = r->bounce;
	arena__init(&r->arena, 0);
	if (track__init(&r->track, &r->arena, NULL))
		return fail("out of memory");
	install_signals();
	if (r->o.argv) {
		e = workload__prepare(&r->wl, r->o.argv, r->envp);
		if (e)
			return fail("cannot start '%s': %s", r->o.argv[0], tp_strerror(e));
		track__set_root(&r->track, (uint32_t)r->wl.pid);
		r->root = (uint32_t)r->wl.pid;
	}
	if (choose_target(r) || open_events(r) || open_output(r) ||
	    (!r->o.overwrite && synthesize(r)))
		goto out_kill;
	if (r->target != REC_INHERIT)
		evlist__enable(&r->el, true);
	if (r->o.argv) {
		e = workload__start(&r->wl);
		if (e) {
			reap(r, true);
			fail("cannot run '%s': %s", r->o.argv[0], tp_strerror(e));
			r->exit_status = 127;
			goto out_finish;
		}
	}
	loop(r);
out_finish:
	evlist__enable(&r->el, false);
	drain(r);
	if (coalescing(r) && !r->write_err)
		coalesce__tick(&r->co, now_ms(), true);
	if (r->wl.pid > 0 && stop_signal)
		sys_kill(r->wl.pid, TP_SIGTERM);
	reap(r, true);
	if (r->o.buildid_all)
		track__mark_all(&r->track);
	if (r->o.overwrite && !r->write_err)
		flight__snapshot(r);
	e = r->write_err ? r->write_err : rec_features__finish(r);
	if (e && !r->pipe)
		tp_writer__salvage(&r->w);
	evlist__close(&r->el);
	if (!r->pipe)
		sys_close(r->out_fd);
	if (!e && r->fl.rotate)
		e = flight__name_last(r);
	{
		int ce = close_stream(r);

		if (!e)
			e = ce;
	}
	if (e) {
		fail("writing %s failed: %s: recording stopped; %s", out_name(r), tp_strerror(e),
		     r->pipe ? "the stream ends at the last whole record" :
		     "the file keeps the records written before the error (perf report reads it)");
		return r->exit_status ? r->exit_status : 1;
	}
	closing_line(r);
	return r->exit_status;
out_kill:
	close_stream(r);
	if (r->wl.pid > 0) {
		sys_kill(r->wl.pid, TP_SIGKILL);
		reap(r, true);
	}
	return 1;
}
