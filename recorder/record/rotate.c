/* SPDX-License-Identifier: MIT */
/* The record command's side of the flight recorder (out/flight.c): the snapshots of the
 * write_backward rings (--overwrite), and the switch from one file to the next
 * (--switch-output), each file standing alone. */
#include "libc-shim/shim.h"
#include "recorder/record/record.h"

int rec_snapshot(struct record *r)
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


static int reopen(struct record *r)
{
	struct tp_writer_attr wa[REC_MAX_EVSELS];
	int e;
	long fd = sys_open(r->fl.tmp, TP_O_WRONLY | TP_O_CREAT | TP_O_TRUNC | TP_O_CLOEXEC, 0600);

	if (fd < 0)
		return (int)fd;
	r->out_fd = (int)fd;
	tp_sink_fd__init(&r->sink, r->out_fd, true);
	rec_writer_attrs(r, wa);
	e = tp_writer__open(&r->w, &r->sink.sink, TP_WRITER_FILE, false, wa, r->spec.nr,
			    r->attr_size);
	rec_writer_buffer(r);
	return e;
}

int rec_switch_output(struct record *r)
{
	struct tp_timespec ts;
	int e;

	if (r->o.overwrite)
		rec_snapshot(r);
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
	rec_output_trim(r);
	sys_close(r->out_fd);
	if (!e)
		e = flight__name(&r->fl, r->o.switch_max_files, r->o.quiet);
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

