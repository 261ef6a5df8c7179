/* The parts of 'tinyperf record' (recorder/record/cmd-record.c: the command, its loop and its
 * records; setup.c: events and target; output.c: the output). Functions returning
 * int give 0, or 1 after printing a one-line error. */
#ifndef TINYPERF_RECORDER_RECORD_PARTS_H
#define TINYPERF_RECORDER_RECORD_PARTS_H

#include "libc-shim/types.h"

struct record;
struct tp_writer_attr;

/* "tinyperf: record: ..." on stderr; returns 1 */
int rec_fail(const char *fmt, ...) TP_PRINTF(1, 2);
/* the same line as a warning: recording goes on */
#define rec_warn(...) ((void)rec_fail(__VA_ARGS__))
/* a note on stderr unless -q */
void rec_msg(const struct record *r, const char *fmt, ...) TP_PRINTF(2, 3);
/* every byte for the output goes through here (the first error is kept in r->write_err) */
int rec_write_out(void *ctx, const void *buf, size_t len);

/* -e into r->spec (the default event without -e) */
int rec_parse_events(struct record *r);
/* choose the target, fill the attrs, open the events, map the rings, register the ids */
int rec_open_events(struct record *r);

/* -o: a file, "-" or a stream, with its header and starting features */
int rec_open_output(struct record *r);
/* the name for messages ("stdout" for -) */
const char *rec_out_name(const struct record *r);
/* the events as the writer takes them (wa: REC_MAX_EVSELS entries) */
void rec_writer_attrs(const struct record *r, struct tp_writer_attr *wa);
/* end a TCP or serial stream (nothing for a file); 0 or -errno */
int rec_close_stream(struct record *r);

#endif
