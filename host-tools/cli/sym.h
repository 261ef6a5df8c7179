/* SPDX-License-Identifier: MIT */
/* What the symbolizing commands (report, script) share: the symbol options (--sysroot ...),
 * opening a session with its symcache, the header lines that say where each DSO's symbols
 * came from or why it has none, and --time ranges. CLI code: it prints. */
#ifndef TINYPERF_HOST_TOOLS_CLI_SYM_H
#define TINYPERF_HOST_TOOLS_CLI_SYM_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/cli/input.h"
#include "host-tools/lib/agg/agg.h"
#include "host-tools/lib/session/session.h"
#include "host-tools/lib/frames/frames.h"

#define CMD_SYM_MAX_DEBUG_DIRS 32

/* getopt_long values of the symbol options (above any short option) */
enum {
	CMD_SYM_SYSROOT = 0x200, CMD_SYM_DEBUG_DIR, CMD_SYM_BUILDID_DIR, CMD_SYM_VMLINUX,
	CMD_SYM_KALLSYMS, CMD_SYM_LINES, CMD_SYM_INLINE, CMD_SYM_OFFLINE, CMD_SYM_STRICT,
	CMD_SYM_NO_DEMANGLE, CMD_SYM_TIME, CMD_SYM_COMM, CMD_SYM_PID, CMD_SYM_TID, CMD_SYM_DSO,
	CMD_SYM_SYMBOL,
};

#define CMD_SYM_LONGOPTS \
	{ "sysroot", required_argument, NULL, CMD_SYM_SYSROOT }, \
	{ "symfs", required_argument, NULL, CMD_SYM_SYSROOT }, \
	{ "debug-dir", required_argument, NULL, CMD_SYM_DEBUG_DIR }, \
	{ "buildid-dir", required_argument, NULL, CMD_SYM_BUILDID_DIR }, \
	{ "vmlinux", required_argument, NULL, CMD_SYM_VMLINUX }, \
	{ "kallsyms", required_argument, NULL, CMD_SYM_KALLSYMS }, \
	{ "lines", no_argument, NULL, CMD_SYM_LINES }, \
	{ "inline", no_argument, NULL, CMD_SYM_INLINE }, \
	{ "offline", no_argument, NULL, CMD_SYM_OFFLINE }, \
	{ "strict", no_argument, NULL, CMD_SYM_STRICT }, \
	{ "no-demangle", no_argument, NULL, CMD_SYM_NO_DEMANGLE }, \
	{ "time", required_argument, NULL, CMD_SYM_TIME }, \
	{ "comm", required_argument, NULL, CMD_SYM_COMM }, \
	{ "comms", required_argument, NULL, CMD_SYM_COMM }, \
	{ "pid", required_argument, NULL, CMD_SYM_PID }, \
	{ "tid", required_argument, NULL, CMD_SYM_TID }, \
	{ "dso", required_argument, NULL, CMD_SYM_DSO }, \
	{ "dsos", required_argument, NULL, CMD_SYM_DSO }, \
	{ "symbol", required_argument, NULL, CMD_SYM_SYMBOL }, \
	{ "symbols", required_argument, NULL, CMD_SYM_SYMBOL }

#define CMD_SYM_HELP \
	"  --sysroot, --symfs DIR  the device's root filesystem on this host (e.g. buildroot's\n" \
	"                     output/staging); device paths are looked up under it\n" \
	"  --debug-dir DIR    more places for unstripped files and debug info (repeatable)\n" \
	"  --buildid-dir DIR  perf's build-id cache (default ~/.debug; '' for none)\n" \
	"  -k, --vmlinux FILE the kernel image; --kallsyms FILE a copy of its /proc/kallsyms\n" \
	"  --lines            script: a file:line under each frame, as perf script\n" \
	"                     -F +srcline; report: a srcline column and \"func file:line\"\n" \
	"                     in the graphs, as perf report -s ...,srcline -g srcline\n" \
	"  --inline           callchains get a \"func (inlined)\" frame above the function\n" \
	"                     it was inlined into, as perf report --inline\n" \
	"  --offline          no debuginfod even if DEBUGINFOD_URLS is set\n" \
	"  --strict           refuse files that cannot be verified (nothing was recorded)\n" \
	"  --no-demangle      keep C++ symbol names mangled\n" \
	"  --time A,B         only samples from A to B (seconds as printed; either may be\n" \
	"                     empty); several ranges separated by spaces\n" \
	"  --comm, --pid, --tid LIST    only these threads (comma-separated)\n" \
	"  --dso, --symbol LIST         only these DSOs (path or basename) and symbols\n"

struct cmd_sym {
	struct tp_symcache_conf conf;
	struct tp_hfilter filter;
	const char *debug_dirs[CMD_SYM_MAX_DEBUG_DIRS];
	struct tp_session *s;
	struct tp_symcache *c;
	bool auto_kallsyms;		/* /proc/kallsyms stood in for an unidentified kernel */
};

void cmd_sym__init(struct cmd_sym *cs);
/* one of the CMD_SYM_LONGOPTS (or -k): 1 if it was, 0 if not, 2 after printing a usage
 * error (the exit status) */
int cmd_sym__option(struct cmd_sym *cs, const char *cmd, int c, const char *arg);
/* the session (walked once more first for a pipe, whose build-ids come at its end) and the
 * symcache: 0, or 1 after printing the error */
int cmd_sym__open(struct cmd_sym *cs, struct cmd_input *ci);
void cmd_sym__close(struct cmd_sym *cs);

/* does a sample pass --time (always true without it) */
bool cmd_sym__time_ok(const struct cmd_sym *cs, const struct tp_event *ev);
/* does a thread pass --comm/--pid/--tid */
bool cmd_sym__thread_ok(struct cmd_sym *cs, uint32_t comm, int32_t pid, int32_t tid);
/* does a frame's DSO pass --dso, its symbol --symbol */
bool cmd_sym__dso_ok(const struct cmd_sym *cs, struct tp_frame f);
bool cmd_sym__sym_ok(const struct cmd_sym *cs, struct tp_frame f);
/* both of them; and whether there is a --dso or --symbol at all */
bool cmd_sym__frame_ok(const struct cmd_sym *cs, struct tp_frame f);
bool cmd_sym__has_frame_filter(const struct cmd_sym *cs);

/* the event's name: from the file, else made from its type and config */
const char *cmd_sym__event_name(const struct tp_attr *a, char *buf, size_t size);

/* "# <dso>: symtab from <file>, build-id verified" / "...: samples unresolved" for every DSO
 * that samples landed in, sorted by name; prefix starts each line. A DSO resolved from the
 * recording's embedded symbols after a file on the host was refused names that file too:
 * "...: dynsym from the recording (embedded), text hash verified; not used: <why>" */
void cmd_sym__print_dsos(const struct cmd_sym *cs, FILE *f, const char *prefix);
/* "# symbols from the recording (embedded): libhot.so, [kernel.kallsyms] - ..." when some
 * DSO was resolved from the symbols embedded in the recording; nothing otherwise */
void cmd_sym__print_embedded(const struct cmd_sym *cs, FILE *f, const char *prefix);

#endif
