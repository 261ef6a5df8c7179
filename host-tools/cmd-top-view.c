/* SPDX-License-Identifier: MIT */
/* 'tinyperf top''s view: the hottest functions of the window on a full screen (ncurses),
 * with the status line and the keys, or as plain blocks on stdout (--stdio) for a log. */
#define _GNU_SOURCE
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/cmd-top.h"
#include "host-tools/lib/common/common.h"

/* ncurses is opened when the full-screen view starts (common/dl.h): other commands, and top
 * --stdio, do not load it. Its macros (getch, attron, mvaddnstr ...) are spelled here as the
 * functions they stand for, on the library's stdscr. */
#if NCURSES_REENTRANT || NCURSES_VERSION_MAJOR != 6
#error "ncurses 6 (libncurses.so.6), not built reentrant, expected"
#endif
#define NC_FNS(X)	X(newterm) X(delscreen) X(endwin) X(cbreak) X(noecho) X(nodelay)	\
			X(keypad) X(curs_set) X(wgetch) X(werase) X(wrefresh) X(waddch)	\
			X(wattron) X(wattroff) X(wmove) X(waddnstr)
#define NC_ENUM(fn)	NC_##fn,
enum { NC_FNS(NC_ENUM) NC_NR };
#define NC_NAME(fn)	#fn,
static const char *const nc_names[NC_NR] = { NC_FNS(NC_NAME) };
static tp_dl_fn nc_fns[NC_NR];
static WINDOW **nc_stdscr;
static int *nc_lines, *nc_cols;
/* ncurses' function fn, once loaded */
#define NC(fn)		TP_DL_CALL(nc_fns, NC_##fn, fn)

/* libncurses.so.6 (or the wide-character build of the same ABI), its variables: 0 or -1 */
static int nc_load(void)
{
	static const char *const sonames[] = { "libncurses.so.6", "libncursesw.so.6" };

	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		if (tp_dl__load(sonames[i], nc_names, nc_fns, NC_NR, NULL))
			continue;
		nc_stdscr = tp_dl__data("stdscr");
		nc_lines = tp_dl__data("LINES");
		nc_cols = tp_dl__data("COLS");
		if (nc_stdscr && nc_lines && nc_cols)
			return 0;
	}
	return -1;
}

/* mvaddnstr() */
static void nc_put(int y, int x, const char *s, int n)
{
	if (NC(wmove)(*nc_stdscr, y, x) != ERR)
		NC(waddnstr)(*nc_stdscr, s, n);
}

#define STDIO_ENTRIES	20
#define KEYS_HELP	"q quit  s sort  c comm  d dso  k kernel"

int top_view__start(struct top_view *v, bool stdin_is_stream)
{
	SCREEN *scr;

	if (v->stdio)
		return 0;
	if (stdin_is_stream || !isatty(0)) {
		/* the keys come from the terminal itself */
		v->tty = fopen("/dev/tty", "r+e");
		if (!v->tty) {
			fprintf(stderr, "tinyperf: top: no terminal to read keys from: use --stdio\n");
			return -1;
		}
	}
	if (nc_load()) {
		fprintf(stderr, "tinyperf: top: cannot load libncurses.so.6: use --stdio\n");
		if (v->tty)
			fclose(v->tty);
		v->tty = NULL;
		return -1;
	}
	scr = NC(newterm)(NULL, stdout, v->tty ? v->tty : stdin);
	if (!scr) {
		fprintf(stderr, "tinyperf: top: cannot use this terminal (TERM=%s): use --stdio\n",
			getenv("TERM") ? getenv("TERM") : "");
		if (v->tty)
			fclose(v->tty);
		v->tty = NULL;
		return -1;
	}
	v->screen = scr;
	v->tui_on = true;
	NC(cbreak)();
	NC(noecho)();
	NC(nodelay)(*nc_stdscr, TRUE);
	NC(keypad)(*nc_stdscr, TRUE);
	NC(curs_set)(0);
	return 0;
}

void top_view__stop(struct top_view *v)
{
	if (v->tui_on) {
		NC(endwin)();
		NC(delscreen)(v->screen);
		v->tui_on = false;
	}
	if (v->tty)
		fclose(v->tty);
	v->tty = NULL;
}

int top_view__key_fd(const struct top_view *v)
{
	if (!v->tui_on)
		return -1;
	return v->tty ? fileno(v->tty) : 0;
}

/* a key while a filter is typed */
static void prompt_key(struct top_view *v, int ch)
{
	size_t n = strlen(v->typed);

	if (ch == 27) {				/* Esc: as it was */
		v->prompt = 0;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		snprintf(v->prompt == 'c' ? v->comm : v->dso, TOP_FILTER_MAX, "%s", v->typed);
		v->prompt = 0;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			v->typed[n - 1] = 0;
	} else if (ch >= 32 && ch < 127 && n + 1 < sizeof(v->typed)) {
		v->typed[n] = (char)ch;
		v->typed[n + 1] = 0;
	}
}

bool top_view__keys(struct top_view *v)
{
	bool redraw = false;
	int ch;

	if (!v->tui_on)
		return false;
	while ((ch = NC(wgetch)(*nc_stdscr)) != ERR) {
		redraw = true;
		if (v->prompt) {
			prompt_key(v, ch);
			continue;
		}
		switch (ch) {
		case 'q': case 'Q':
			v->quit = true;
			return true;
		case 's':
			v->sort = (v->sort + 1) % TP_LIVE_NR_SORTS;
			break;
		case 'S':
			v->sort = (v->sort + TP_LIVE_NR_SORTS - 1) % TP_LIVE_NR_SORTS;
			break;
		case 'k': case 'K':
			v->filter.hide_kernel = !v->filter.hide_kernel;
			break;
		case 'c': case 'd':
			v->prompt = ch;
			snprintf(v->typed, sizeof(v->typed), "%s", ch == 'c' ? v->comm : v->dso);
			break;
		}
	}
	return redraw;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static void status_text(char *buf, size_t cap, const struct top_view *v,
			const struct top_status *st)
{
	char lost[64] = "";

	if (st->frames_lost)
		snprintf(lost, sizeof(lost), ", %llu frames lost",
			 (unsigned long long)st->frames_lost);
	snprintf(buf, cap, "%s | %.0f samples/s, %llu samples, %llu lost%s | sort %s%s%s%s%s%s",
		 st->link, st->rate, (unsigned long long)st->samples,
		 (unsigned long long)st->lost, lost, tp_live_sort_name(v->sort),
		 v->comm[0] ? " | comm " : "", v->comm, v->dso[0] ? " | dso " : "", v->dso,
		 v->filter.hide_kernel ? " | no kernel" : "");
}

/* one row's text, as perf top's: "  95.12%  spin  spin  [.] leaf" with samples */
static void row_text(char *buf, size_t cap, const struct tp_live_row *r, double sum)
{
	snprintf(buf, cap, "%7.2f%% %8llu  %-15.15s %-22.22s [%c] %s",
		 sum > 0 ? 100.0 * r->weight / sum : 0.0, (unsigned long long)r->last, r->comm,
		 base(r->dso), r->kernel ? 'k' : '.', r->sym);
}

#define HEADER_TEXT "Overhead  Samples  Command         Shared Object          Symbol"

static void draw_stdio(struct top_view *v, const struct tp_live_row *const *rows, size_t n,
		       double sum, const struct top_status *st)
{
	unsigned max = v->entries ? v->entries : STDIO_ENTRIES;
	char line[1024];

	status_text(line, sizeof(line), v, st);
	printf("tinyperf top: %s\n%s\n", line, HEADER_TEXT);
	for (size_t i = 0; i < n && i < max; i++) {
		row_text(line, sizeof(line), rows[i], sum);
		printf("%s\n", line);
	}
	if (!n)
		printf("   (no samples in the window)\n");
	printf("\n");
	fflush(stdout);
}

static void draw_tui(struct top_view *v, const struct tp_live_row *const *rows, size_t n,
		     double sum, const struct top_status *st)
{
	int h = *nc_lines, wd = *nc_cols;
	size_t max = h > 3 ? (size_t)(h - 3) : 0;
	char line[1024];

	if (v->entries && v->entries < max)
		max = v->entries;
	NC(werase)(*nc_stdscr);
	status_text(line, sizeof(line), v, st);
	NC(wattron)(*nc_stdscr, A_REVERSE);
	nc_put(0, 0, line, wd);
	for (int x = (int)strlen(line); x < wd; x++)
		NC(waddch)(*nc_stdscr, ' ');
	NC(wattroff)(*nc_stdscr, A_REVERSE);
	NC(wattron)(*nc_stdscr, A_BOLD);
	nc_put(1, 0, HEADER_TEXT, wd);
	NC(wattroff)(*nc_stdscr, A_BOLD);
	for (size_t i = 0; i < n && i < max; i++) {
		row_text(line, sizeof(line), rows[i], sum);
		nc_put(2 + (int)i, 0, line, wd);
	}
	if (!n)
		nc_put(2, 0, "   (no samples in the window)", wd);
	if (v->prompt)
		snprintf(line, sizeof(line), "%s filter (a substring; empty for all): %s",
			 v->prompt == 'c' ? "comm" : "dso", v->typed);
	else if (st->note)
		snprintf(line, sizeof(line), "%s | %s", KEYS_HELP, st->note);
	else
		snprintf(line, sizeof(line), "%s", KEYS_HELP);
	nc_put(h - 1, 0, line, wd);
	NC(wrefresh)(*nc_stdscr);
}

void top_view__draw(struct top_view *v, struct tp_live_win *w, const struct top_status *st)
{
	const struct tp_live_row *const *rows;
	size_t n;
	double sum;

	v->filter.comm = v->comm;
	v->filter.dso = v->dso;
	if (tp_live_win__view(w, &v->filter, v->sort, &rows, &n, &sum))
		n = 0;
	if (v->stdio)
		draw_stdio(v, rows, n, sum, st);
	else if (v->tui_on)
		draw_tui(v, rows, n, sum, st);
}
