/* SPDX-License-Identifier: MIT */
/* Option parsing for 'stat': record's parser (recorder/record/opts.c) with stat's options,
 * then what stat adds to it, as perf stat checks it. A bad option or value is one line and
 * exit 129, perf's status for it. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/stat/stat.h"

ARCH_COLD_CODE static void usage(void)
{
	tp_dprintf(1, "usage: tinyperf stat [-e EV,...] [-a] [-C LIST] [-p PIDS|-t TIDS]%s"
		   " [--] [COMMAND [ARGS]]\n%s", STAT_EXTRA ? " [-I MS] [-r N]\n"
		   "                     [-x SEP] [-A|--per-cpu]" : "", IS_ENABLED(CONFIG_REC_HELP) ?
		   "Counts events as perf stat does.\n" : "");
}

ARCH_COLD_CODE int stat_opts__parse(struct rec_opts *o, int argc, char **argv)
{
	char err[96];
	const char *what = err;
	int e = rec_opts__parse(o, argc, argv, err, sizeof(err), true);

	if (e > 0) {
		usage();
		return -1;
	}
	if (!e && STAT_EXTRA) {
		if (!o->repeat)
			o->repeat = 1;
		what = "-A/--per-cpu needs -a or -C (as perf)";
		e = o->per_cpu && !o->system_wide;
		if (!e) {
			what = "-r needs a command, and no -I";
			e = o->repeat > 1 && (!o->argv || o->interval_ms);
		}
	}
	if (!e)
		return 0;
	rec_usage_fail(what);
	return STAT_EXIT_USAGE;
}
