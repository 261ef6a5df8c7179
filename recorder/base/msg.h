/* SPDX-License-Identifier: MIT */
/* The recorder's messages on stderr (msg.c): errors and warnings as one line each, and notes
 * that -q silences. Every part of 'tinyperf record' and 'tinyperf stat' prints through these. */
#ifndef TINYPERF_RECORDER_BASE_MSG_H
#define TINYPERF_RECORDER_BASE_MSG_H

#include "libc-shim/types.h"

/* the command the messages name: "record" unless another command says so first */
void rec_msg__command(const char *name);
/* "tinyperf: record: ..." on stderr; returns 1 */
int rec_fail(const char *fmt, ...) TP_PRINTF(1, 2);
/* a usage error: "tinyperf: CMD: what", then "see 'tinyperf CMD --help'", so the error stays
 * in sight (perf prints the whole usage after it) */
void rec_usage_fail(const char *what);
/* the same line as a warning: recording goes on */
#define rec_warn(...) ((void)rec_fail(__VA_ARGS__))
/* a note on stderr, unless quiet (-q) */
void rec_msg(bool quiet, const char *fmt, ...) TP_PRINTF(2, 3);

#endif
