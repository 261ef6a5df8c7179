/* SPDX-License-Identifier: MIT */
/* What 'tinyperf top''s three files share: the command (cmd-top.c: options, the loop), the
 * link (cmd-top-link.c: the device's stream through host-tools/lib/recv/, which is kept apart
 * because its framing header and the symbolizer's both name a struct tp_frame) and the view
 * (cmd-top-view.c: the ncurses screen, the --stdio blocks, the keys). */
#ifndef TINYPERF_HOST_TOOLS_CMD_TOP_H
#define TINYPERF_HOST_TOOLS_CMD_TOP_H

#include <stdbool.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/lib/live/live.h"

#define TOP_FILTER_MAX	64

enum top_link_kind { TOP_NONE, TOP_LISTEN, TOP_CONNECT, TOP_SERIAL, TOP_PIPE };

struct top_link_conf {
	enum top_link_kind kind;
	const char *spec;		/* [ADDR:]PORT, HOST:PORT, DEV[,BAUD], "-" */
	const char *out;		/* -o DIR, or NULL */
	void (*on_record)(void *ctx, const uint8_t *rec, size_t size, bool swapped);
	void (*on_restart)(void *ctx);	/* a new stream begins */
	const struct tp_log *log;
	void *ctx;
};

struct top_link;

/* listening, connecting, the line or the pipe opened: 0, or 1 after printing why */
int top_link__open(struct top_link **out, const struct top_link_conf *conf);
/* the stream finished (its file with -o too), closed */
void top_link__close(struct top_link *l);
/* its descriptors to poll into p (at most 2): how many */
int top_link__fds(struct top_link *l, struct pollfd *p);
/* after the poll: take what came, accept, connect, open again */
void top_link__step(struct top_link *l, const struct pollfd *p, int n);
const char *top_link__state(struct top_link *l);
uint64_t top_link__frames_lost(const struct top_link *l);
/* a pipe that ended: nothing more will come */
bool top_link__ended(const struct top_link *l);
/* the last file saved with -o, or NULL */
const char *top_link__saved(const struct top_link *l);
/* the monotonic clock in milliseconds: the link's retries, the refreshes */
int64_t top_now_ms(void);

struct top_view {
	bool stdio;			/* plain blocks on stdout, no keys */
	bool tui_on;			/* ncurses is up (endwin owed) */
	unsigned entries;		/* rows shown; 0: as many as fit (stdio: 20) */
	enum tp_live_sort sort;
	struct tp_live_filter filter;
	char comm[TOP_FILTER_MAX], dso[TOP_FILTER_MAX];
	int prompt;			/* 'c' or 'd' while a filter is typed, else 0 */
	char typed[TOP_FILTER_MAX];
	bool quit;
	FILE *tty;			/* the keys' terminal when stdin is the stream */
	void *screen;			/* ncurses SCREEN */
};

/* what the status line says */
struct top_status {
	const char *link;		/* "receiving from 127.0.0.1:40312", "link down (...)..." */
	double rate;			/* samples per second over the last refresh */
	uint64_t samples, lost, frames_lost;
	const char *note;		/* the last warning, or NULL */
};

/* the screen (fd 0 is the stream: keys from /dev/tty then): 0, or -1 after printing why */
int top_view__start(struct top_view *v, bool stdin_is_stream);
void top_view__stop(struct top_view *v);
/* the keys' descriptor to poll, or -1 */
int top_view__key_fd(const struct top_view *v);
/* take the keys that are waiting; true when the view must be drawn again */
bool top_view__keys(struct top_view *v);
void top_view__draw(struct top_view *v, struct tp_live_win *w, const struct top_status *st);

#endif
