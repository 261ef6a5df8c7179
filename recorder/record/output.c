/* SPDX-License-Identifier: MIT */
/* The output of a recording: a perf.data file, stdout, or a stream to 'tinyperf recv'
 * (record.h). */
#include "libc-shim/shim.h"
#include "recorder/record/record.h"

TP_NOINLINE const char *rec_out_name(const struct record *r)
{
	return r->out_kind == REC_OUT_STDOUT ? "stdout" : r->o.output;
}

/* the small records (state, coalesced samples, a round's end) gathered into whole writes: 4 KiB,
 * at most what one pass of the loop makes, is what a SIGKILL can cost (the loop flushes before
 * it waits, a checkpoint before it rewrites the header) */
static uint8_t wbuf[4096];

void rec_writer_buffer(struct record *r)
{
	r->w.buf = wbuf;
	r->w.buf_cap = sizeof(wbuf);
}

void rec_writer_attrs(const struct record *r, struct tp_writer_attr *wa)
{
	for (unsigned i = 0; i < r->spec.nr; i++) {
		wa[i].attr = &r->spec.ev[i].attr;
		wa[i].name = r->spec.ev[i].name;
		wa[i].ids = r->spec.ev[i].ids;
		wa[i].nr_ids = r->spec.ev[i].nr_ids;
	}
}

/* --call-graph dwarf writes fast (8 KiB stacks: 170 MB in 10 s of -a -F 1000 on two CPUs),
 * and ext4 reserves each block as a write first reaches it (delayed allocation): 10 ms of
 * our CPU for those 170 MB, a third of what the page cache costs beyond the copy. The blocks
 * for twice what the rings hold (16 MiB at most) are reserved in one call instead, before
 * the writer needs them, past the file's size, which stays what was written: a reader, or a
 * SIGKILL, sees nothing else (a killed recorder leaves that much reserved past the end, which
 * any truncate or rm frees). A file system without fallocate, or one full, ends it. */
void rec_output_reserve(struct record *r)
{
	uint64_t ahead = 2 * (uint64_t)r->alloc_step;

	if (!IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) || !ahead || r->w.pos + ahead / 2 <= r->alloc_end)
		return;
	r->alloc_end = r->w.pos + ahead;
	if (sys_fallocate(r->out_fd, TP_FALLOC_FL_KEEP_SIZE, r->w.pos, ahead))
		r->alloc_step = 0;
}

/* the reserved blocks past the end back (a truncate to the file's size frees them on ext4,
 * xfs, btrfs and tmpfs alike): the size is where write() left the file offset, which is
 * what reached the file even after a failed write */
void rec_output_trim(struct record *r)
{
	int64_t end;

	if (!IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) || !r->alloc_end)
		return;
	end = sys_lseek(r->out_fd, 0, TP_SEEK_CUR);
	if (end >= 0)
		sys_ftruncate(r->out_fd, (uint64_t)end);
	r->alloc_end = 0;
}

/* the end of a TCP or serial stream (serial: the last frame, END, the tty settings back) */
int rec_close_stream(struct record *r)
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

/* writing the output failed: one line, recv's own words when it closed the connection */
TP_NOINLINE int rec_output_failed(const struct record *r, const char *what, long e)
{
	if (IS_ENABLED(CONFIG_REC_STREAMS) && r->tcp.bye[0])
		return rec_fail("recv at %s %s: recording stopped", r->tcp.peer, r->tcp.bye);
	return rec_fail("cannot write %s%s: %s", what, rec_out_name(r), tp_strerror(e));
}

/* -o: a file, stdout (-) or a stream to 'tinyperf recv' (recorder/out/sinks.h); every output
 * but a file gets the pipe-mode stream */
int rec_open_output(struct record *r)
{
	static struct tp_writer_attr wa[REC_MAX_EVSELS];	/* static: with cpus_from_list's mask[], no
							 * frame to set up; no target grows */
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
			return rec_fail("%s", err);
		}
		sink = r->out_kind == REC_OUT_TCP ? &r->tcp.sink : &r->serial.sink;
	} else if (!r->pipe) {
		/* ext4 and xfs write a file cut to 0 bytes out when the handle that cut it closes
		 * (against empty files after a crash): 170 MB at the end of a 10 s dwarf
		 * recording, 15 ms of our CPU. That handle closes now, while there is nothing
		 * to write, and the recording goes through another */
		fd = sys_open(r->o.output, TP_O_WRONLY | TP_O_CREAT | TP_O_TRUNC | TP_O_CLOEXEC, 0600);
		if (fd >= 0) {
			sys_close(fd);
			fd = sys_open(r->o.output, TP_O_WRONLY | TP_O_CLOEXEC, 0);
		}
		if (fd < 0)
			return rec_fail("cannot create %s: %s", r->o.output, tp_strerror(fd));
	}
	r->out_fd = (int)fd;
	tp_sink_fd__init(&r->sink, r->out_fd, !r->pipe);
	if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) && r->dwarf && !r->pipe)
		r->alloc_step = (uint32_t)TP_MIN((uint64_t)r->el.nr_rings * r->el.rings[0].size,
						 8u << 20);
	rec_writer_attrs(r, wa);
	/* a pipe's attrs at 128 bytes: perf 6.1 looks for HEADER_ATTR's ids there */
	e = tp_writer__open(&r->w, sink, r->pipe ? TP_WRITER_PIPE : TP_WRITER_FILE, false, wa,
			    r->spec.nr, r->pipe ? PERF_ATTR_SIZE_VER7 : r->attr_size);
	if (e)
		return rec_output_failed(r, "", e);
	rec_writer_buffer(r);
	/* only tinyperf recv reads these streams: send its private features too */
	r->w.pipe_private = IS_ENABLED(CONFIG_REC_STREAMS) &&
			    (r->out_kind == REC_OUT_TCP || r->out_kind == REC_OUT_SERIAL);
	return rec_features__start(r) ? rec_output_failed(r, "the header features to ",
							  r->write_err) : 0;
}
