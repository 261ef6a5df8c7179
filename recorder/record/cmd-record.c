/* SPDX-License-Identifier: MIT */
/* 'tinyperf record': open the events, synthesize what existed before, copy the rings to the
 * output while noting which DSOs got samples, then write the build-ids and features.
 * The recorder does as little as possible while recording: ring bytes go to the sink as they
 * are (zero copy for contiguous runs), and only enough is parsed to know the hit DSOs.
 * Here: the command, its loop and the records' path; the events and target are set up in
 * setup.c, the output in output.c, the state records in state.c, snapshots and rotation in
 * rotate.c and out/flight.c (record.h). */
#include "libc-shim/shim.h"
#include "perfdata/records.h"
#include "recorder/record/record.h"
#include "recorder/embed/symembed.h"

#define BOUNCE_SIZE 65536

static struct record rec;          /* one run per process; signal handlers reach it here */
/* .bss as rec: zero pages taken only when touched, like an anonymous map, with no call */
static _Alignas(8) uint8_t bounce[BOUNCE_SIZE];
static int sig_pipe[2] = { -1, -1 };
static volatile int stop_signal;
static volatile int switch_signal;	/* SIGUSR2 with --switch-output */

static void on_signal(int sig)
{
	char c = (char)sig;

	if (IS_ENABLED(CONFIG_REC_FLIGHT) && sig == TP_SIGUSR2)	/* installed only then */
		switch_signal = 1;
	else if (sig != TP_SIGCHLD)
		stop_signal = sig;
	sys_write(sig_pipe[1], &c, 1);
}

/* ---- records: every one passes here, from the rings and from synthesis ---- */

static uint32_t rd32(const struct perf_event_header *h, unsigned off)
{
	return tp_get32((const char *)h + off);
}

static uint64_t rd64(const struct perf_event_header *h, unsigned off)
{
	return tp_get64((const char *)h + off);
}

static bool on_record(void *ctx, const struct perf_event_header *h)
{
	struct record *r = ctx;
	unsigned off;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size < r->off_time + 8)
			return true;
		{
			uint32_t pid = rd32(h, r->off_tid);
			uint64_t t = rd64(h, r->off_time);

			if (r->target == REC_TREE && (!track__in_tree(&r->track, pid) ||
			    (pid == r->root && t < r->root_exec)))
				return false;	/* not the tree's, or the command before its exec */
			r->samples++;
			if (!r->first_time || t < r->first_time)
				r->first_time = t;
			if (t > r->last_time)
				r->last_time = t;
		}
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_EXIT:
		/* the pid, or a FORK's parent's (a child of the tree joins it: track__record) */
		off = h->type == PERF_RECORD_FORK ? 12 : 8;
		if (r->target == REC_TREE && h->size >= off + 4 &&
		    !(h->misc & PERF_RECORD_MISC_KERNEL && h->type == PERF_RECORD_MMAP) &&
		    !track__in_tree(&r->track, rd32(h, off)))
			return false;
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		/* LOST's count is after its id. Both kinds are one count: the closing line
		 * shows only their sum */
		off = h->type == PERF_RECORD_LOST ? 16 : 8;
		if (h->size >= off + 8)
			r->lost += rd64(h, off);
		break;
	}
	/* --overwrite reads each ring newest first: a process's samples come before its MMAPs,
	 * its EXIT before its FORK. Its state comes from the tail synthesis instead (rotate.c),
	 * and a snapshot's churn then leaves nothing behind in the tables. */
	if (h->type == PERF_RECORD_SAMPLE || !rec_overwrite(r))
		track__record(&r->track, h);
	/* --coalesce: the sample comes back merged with its likes at the next flush */
	if (h->type == PERF_RECORD_SAMPLE && rec_coalescing(r) && coalesce__add(&r->co, h))
		return false;
	return true;
}

int rec_write_out(void *ctx, const void *buf, size_t len)
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
	return rec_write_out(r, rec_buf, len);
}

/* ---- the loop ---- */

/* the pre-pass of a tree's drain, nothing kept: the tree's FORKs and MMAPs, and the time of
 * the command's exec (its COMM_EXEC; the events are on from before the exec, and what the
 * child ran before it is tinyperf's own code) */
static bool tree_pre(void *ctx, const struct perf_event_header *h)
{
	struct record *r = ctx;
	uint16_t idh = 0;
	bool take;

	switch (h->type) {
	case PERF_RECORD_FORK:
		track__record(&r->track, h);
		return false;
	case PERF_RECORD_COMM:	/* an exec starts the maps afresh */
		idh = tp_id_hdr_size(r->sample_type);
		take = (h->misc & PERF_RECORD_MISC_COMM_EXEC) && h->size >= 16 + idh;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		take = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
		       h->size >= 12;
		break;
	default:
		return false;
	}
	if (take && track__in_tree(&r->track, rd32(h, 8))) {
		/* the command's exec: the time in its id trailer */
		if (h->type == PERF_RECORD_COMM && rd32(h, 8) == r->root && r->root_exec == ~0ULL)
			r->root_exec = rd64(h, h->size - idh + 8);
		track__record(&r->track, h);
	}
	return false;
}

static int64_t now_ms(void)
{
	struct tp_timespec ts;	/* 0 when the clock cannot be read: no timer fires then */

	sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
	return ts.sec * 1000 + ts.nsec / 1000000;
}

static void drain(struct record *r)
{
	/* heads not on the stack: 2 KiB of u64 there make i386 realign its frame and address
	 * every other local from %ebp beyond one-byte offsets (one drain at a time: no signal
	 * handler drains) */
	static uint64_t heads[REC_MAX_CPUS];
	struct ring_ops ops = { tree_pre, rec_write_out, r, bounce };	/* then on_record */
	uint64_t pos;
	bool any = false, bad;

	if (rec_overwrite(r))	/* read only at snapshots (rotate.c) */
		return;
	/* a command's tree: a child's first samples can sit in one CPU's ring ahead of its FORK
	 * or MMAPs in another's. Every ring's up to its head are taken first, then the pass
	 * reads up to those heads, filtering with the whole picture. */
	for (unsigned i = 0; i < r->el.nr_rings; i++) {
		struct ring *g = &r->el.rings[i];

		heads[i] = g->page ? ring__head(g) : 0;
		if (r->target == REC_TREE && g->page && heads[i] - g->prev <= g->size)
			ring__walk(g, g->prev, heads[i], &ops, &pos, &bad);
	}
	ops.record = on_record;
	/* the heads were read after the exec; its close-on-exec EOF (wl.started) comes a moment
	 * before its COMM_EXEC, though. None 100 ms on, or once the command is reaped, means it
	 * was lost (an overrun ring), and from then on every sample of the command counts */
	if (r->target == REC_TREE && r->root_exec == ~0ULL && r->wl.started) {
		int64_t t = now_ms();

		if (!r->exec_ms)
			r->exec_ms = t;
		if (t - r->exec_ms >= 100 || r->wl.pid == 0)
			r->root_exec = 0;
	}
	for (unsigned i = 0; i < r->el.nr_rings && !r->write_err; i++)
		if (ring__read_to(&r->el.rings[i], heads[i], &ops) > 0)
			any = true;
	if (any && !r->write_err && !rec_coalescing(r)) {	/* the coalescer writes its own */
		if (tp_writer__finished_round(&r->w) && !r->write_err)
			r->write_err = r->w.err;
	}
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
	/* static (loop runs once): no large stack frame to set up; the pair with choose_target's
	 * online[] shrinks every target */
	static struct tp_pollfd pfd[REC_MAX_CPUS + 1];
	int64_t start = now_ms();
	/* checkpoints a second apart: 32 bits of milliseconds, their difference modulo 2^32
	 * (the loop comes round at least every second) */
	uint32_t last_ckpt = (uint32_t)start, last_keep = (uint32_t)start - 1000;
	unsigned n = 0, hup = 0;

	pfd[n++] = (struct tp_pollfd){ sig_pipe[0], TP_POLLIN, 0 };
	for (unsigned i = 0; i < r->el.nr_rings; i++)
		pfd[n++] = (struct tp_pollfd){ r->el.rings[i].fd, TP_POLLIN, 0 };
	/* the header says how much is there from the start: a recorder killed before the first
	 * second leaves a file perf reads too (perf refuses a data size of 0) */
	if (!r->pipe)
		tp_writer__checkpoint(&r->w);
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
		if (rec_coalescing(r))
			timeout = TP_MIN(timeout, coalesce__timeout(&r->co, t));
		if (rec_rotating(r))
			timeout = flight__timeout(&r->fl, t, timeout);
		/* nothing waits in the writer's buffer while the recorder does (an error stays
		 * in the writer: the next write or the end reports it) */
		tp_writer__flush(&r->w);
		rec_output_reserve(r);
		k = sys_poll(pfd, n, timeout);
		if (k > 0 && (pfd[0].revents & TP_POLLIN)) {
			char c[16];

			sys_read(sig_pipe[0], c, sizeof(c));
			reap(r, false);
		}
		drain(r);
		if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
			ksyms_snap__poll(&r->ksnap, &r->track,
					 r->pipe ? NULL : r->o.output, r->envp);
		if (rec_coalescing(r) && !r->write_err)
			coalesce__tick(&r->co, now_ms(), false);
		if (r->write_err || stop_signal || (r->o.argv && r->wl.pid == 0))
			break;
		if (rec_rotating(r) && flight__due(&r->fl, now_ms(), switch_signal, r->w.pos)) {
			switch_signal = 0;
			if (rec_switch_output(r))
				break;
		}
		/* a ring whose tasks are all gone hangs up, and poll says so at once from then
		 * on: polled no more (what it holds is drained all the same). The loop would
		 * spin otherwise from a command's exit until its SIGCHLD, 1-7 ms. */
		for (unsigned i = 1; k > 0 && i < n; i++)
			if (pfd[i].revents & TP_POLLHUP) {
				pfd[i].fd = -1;
				hup++;
			}
		if (r->target == REC_TASKS && hup == n - 1)	/* every task gone */
			break;
		if (!r->pipe && (uint32_t)now_ms() - last_ckpt >= 1000) {
			tp_writer__checkpoint(&r->w);
			last_ckpt = (uint32_t)now_ms();
		}
		/* --overwrite: a command's maps for a last snapshot after it ended (state.c) */
		if (rec_overwrite(r) && r->root && (uint32_t)now_ms() - last_keep >= 1000) {
			rec_keep_tree(r);
			last_keep = (uint32_t)now_ms();
		}
	}
}

static void install_signals(void)
{
	/* the stop signals, then SIGCHLD, the one that restarts interrupted calls */
	static const uint8_t sigs[] = { TP_SIGINT, TP_SIGTERM, TP_SIGHUP, TP_SIGCHLD };

	sys_pipe2(sig_pipe, TP_O_CLOEXEC | TP_O_NONBLOCK);
	for (unsigned i = 0; i < sizeof(sigs); i++)
		sys_signal(sigs[i], on_signal, sigs[i] == TP_SIGCHLD);
	sys_signal(TP_SIGPIPE, TP_SIG_IGN, 1);
	if (IS_ENABLED(CONFIG_REC_FLIGHT) && rec.o.switch_output)
		sys_signal(TP_SIGUSR2, on_signal, 1);
}

static void closing_line(struct record *r)
{
	/* every file with --switch-output (only the flight recorder writes several) */
	uint64_t bytes = r->w.pos + (IS_ENABLED(CONFIG_REC_FLIGHT) ? r->fl.written : 0);
	const char *files = "";
	char buf[40];
	unsigned cents;

	if (r->o.quiet)
		return;
	if (rec_rotating(r)) {
		tp_snprintf(buf, sizeof(buf), "%u files, the last ", r->fl.files);
		files = buf;
	}
	if (rec_coalescing(r))
		tp_dprintf(2, "tinyperf: record: %llu samples coalesced into %llu records\n",
			   (unsigned long long)r->co.samples_in,
			   (unsigned long long)r->co.records_out);
	tp_divmod(&bytes, 10000);	/* MB with two decimals, without 64-bit division */
	cents = tp_divmod(&bytes, 100);
	tp_dprintf(2, "[ tinyperf record: %llu samples, %llu lost, %llu.%02u MB written to %s%s ]\n",
		   (unsigned long long)r->samples,
		   (unsigned long long)r->lost,
		   (unsigned long long)bytes, cents, files, rec_out_name(r));
}

/* ---- the command: prepare, start, loop, finish ---- */

/* the events parsed, the state tables, the signals, the command forked and held before its
 * exec: 0, or 1 after a message */
static int prepare(struct record *r)
{
	int e;

	if (rec_parse_events(r) || (IS_ENABLED(CONFIG_REC_FLIGHT) &&
	    flight__init(&r->fl, &r->o.output, r->o.switch_output, r->o.switch_max_files,
			 r->o.overwrite)))
		return 1;
	r->fl.emit = emit;
	if (IS_ENABLED(CONFIG_REC_FLIGHT))	/* how snapshots read the rings (rotate.c) */
		r->fl.ops = (struct ring_ops){ on_record, rec_write_out, r, bounce };
	arena__init(&r->arena, 0);
	if (track__init(&r->track, &r->arena, NULL))
		return rec_fail("out of memory");
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) && !r->o.no_embed_symbols &&
	    symembed__init(&r->track, &r->kcache, r->envp))
		return rec_fail("out of memory");
	install_signals();
	if (r->o.argv) {
		e = workload__prepare(&r->wl, r->o.argv, r->envp);
		if (e)
			return rec_fail("cannot start '%s': %s", r->o.argv[0], tp_strerror(e));
		track__set_root(&r->track, (uint32_t)r->wl.pid);
		r->root = (uint32_t)r->wl.pid;
	}
	return 0;
}

/* a failure between prepare and start: the command is killed, the output closed; 1 */
static int kill_prepared(struct record *r)
{
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
		ksyms_snap__close(&r->ksnap);
	rec_close_stream(r);
	if (r->wl.pid > 0) {
		sys_kill(r->wl.pid, TP_SIGKILL);
		reap(r, true);
	}
	return 1;
}

/* the events on and the command released into its exec: false when it could not run */
static bool start(struct record *r)
{
	int e;

	/* a command's tree: on before the command starts, so that nothing it does goes
	 * unrecorded however long tinyperf waits for the CPU after the exec (one CPU: the whole
	 * run); the kernel's COMM_EXEC and MMAP2s describe the exec, and the samples from
	 * before it (tinyperf's code in the child) are left out (tree_pre, on_record) */
	r->root_exec = ~0ULL;
	if (r->target <= REC_TREE)
		evlist__enable(&r->el, true);
	if (r->o.argv) {
		e = workload__start(&r->wl);
		if (e) {
			reap(r, true);
			rec_fail("cannot run '%s': %s", r->o.argv[0], tp_strerror(e));
			r->exit_status = 127;
			return false;
		}
	}
	return true;
}

/* the events off, the last records, the command reaped, the end of the output (build-ids,
 * features, the file's name): the exit status */
static int finish(struct record *r)
{
	int e, ce;

	evlist__enable(&r->el, false);
	drain(r);
	if (rec_coalescing(r) && !r->write_err)
		coalesce__tick(&r->co, now_ms(), true);
	if (r->wl.pid > 0 && stop_signal)
		sys_kill(r->wl.pid, TP_SIGTERM);
	reap(r, true);
	if (r->o.buildid_all)
		track__mark_all(&r->track);
	if (rec_overwrite(r) && !r->write_err)
		rec_snapshot(r);
	e = r->write_err ? r->write_err : rec_features__finish(r);
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
		ksyms_snap__close(&r->ksnap);
	if (e && !r->pipe)
		tp_writer__salvage(&r->w);
	evlist__close(&r->el);
	if (!r->pipe) {
		rec_output_trim(r);
		sys_close(r->out_fd);
	}
	if (!e && rec_rotating(r))
		e = flight__name_last(&r->fl, r->o.switch_max_files, r->o.quiet);
	ce = rec_close_stream(r);
	if (!e)
		e = ce;
	if (e && IS_ENABLED(CONFIG_REC_STREAMS) && r->tcp.bye[0]) {
		rec_output_failed(r, "", e);
		return r->exit_status ? r->exit_status : 1;
	}
	if (e) {
		rec_fail("writing %s failed: %s: recording stopped; %s", rec_out_name(r), tp_strerror(e),
		     r->pipe ? "the stream ends at the last whole record" :
		     "the file keeps the records written before the error (perf report reads it)");
		return r->exit_status ? r->exit_status : 1;
	}
	closing_line(r);
	return r->exit_status;
}

int cmd_record(int argc, char **argv)
{
	struct record *r = &rec;
	char err[160];
	int e;

	r->envp = tp_environ;	/* rec starts zeroed, as static storage: one run per process */
	e = rec_opts__parse(&r->o, argc, argv, err, sizeof(err), false);
	if (e < 0) {	/* an error: it and where the usage is, so the error stays in sight */
		rec_usage_fail(err);
		return 2;
	}
	if (e) {	/* -h: the usage on stdout */
		rec_opts__usage(1);
		return 0;
	}
	/* CMDLINE records the whole command line, tinyperf's path first, as perf does: main()
	 * hands commands its argv shifted by one, and argv[-1] is its argv[0] */
	r->argv = argv - 1;
	r->argc = argc + 1;
	if (prepare(r))
		return 1;
	/* the events open, the output's header, the state records as they are now (opened
	 * here, not in prepare: gcc then inlines as it did in one function, i386 -0.3 KiB) */
	if (rec_open_events(r) || rec_open_output(r))
		return kill_prepared(r);
	/* writing the state records can fail too (recv refusing the device right after its
	 * hello): said in one line, as a failure in the loop is */
	if (!rec_overwrite(r) && rec_synth(r, REC_SYNTH_KERNEL | REC_SYNTH_WARN |
					   (r->target <= REC_TASKS ? REC_SYNTH_TASKS : 0))) {
		rec_output_failed(r, "", r->write_err);
		return kill_prepared(r);
	}
	if (start(r))
		loop(r);
	return finish(r);
}
