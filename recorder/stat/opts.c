/* Option parsing for 'stat', as perf stat takes them: short options bundled or with their
 * value attached (-aA, -I100), long ones with "=value" or the next argument; the command
 * starts at "--" or at the first word that is not an option. A bad option or value is one
 * line and exit 129, perf's status for it. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/stat/stat.h"

/* each long name followed by its short letter; the letters that take a value */
static const char longs[] = "event\0e" "all-cpus\0a" "no-aggr\0A" "per-cpu\0A" "cpu\0C"
	"pid\0p" "tid\0t" "interval-print\0I" "repeat\0r" "field-separator\0x" "help\0h";
static const char valued[] = "eCptIrx";

static void usage(void)
{
	tp_dprintf(1, "usage: tinyperf stat [-e EV,...] [-a] [-C LIST] [-p PIDS|-t TIDS]%s"
		   " [--] [COMMAND [ARGS]]\n", STAT_EXTRA ? " [-I MS] [-r N]\n"
		   "                     [-x SEP] [-A|--per-cpu]" : "");
	if (IS_ENABLED(CONFIG_REC_HELP))
		tp_dprintf(1, "Count events as perf stat (long options: --event --all-cpus --cpu --pid\n"
			   "--tid%s); counts on stderr,\nthe command's exit status. Default events: "
			   "perf's; see 'tinyperf list'.\n", STAT_EXTRA ? " --interval-print --repeat "
			   "--field-separator --no-aggr" : "");
}

/* a value to o: 0, or -1 when it does not parse */
static int apply(struct stat_opts *o, char c, const char *v)
{
	unsigned n = 0;

	switch (c) {
	case 'e':
		if (o->nr_events >= TP_ARRAY_SIZE(o->events))
			return -1;
		o->events[o->nr_events++] = v;
		return 0;
	case 'a': o->system_wide = true; return 0;
	case 'C': o->cpu_list = v; return 0;
	case 'p': o->pid_list = v; break;
	case 't': o->tid_list = v; break;
	default:	/* A, x, I, r (CONFIG_REC_STAT_EXTRA) */
		if (!STAT_EXTRA)
			return -1;
		if (c == 'A') {
			o->per_cpu = true;
			return 0;
		}
		if (c == 'x') {
			o->sep = v;
			return 0;
		}
		if (tp_parse_uint(v, &n) || n < (c == 'I' ? 10u : 1u) || n > STAT_MAX_RUNS * (c == 'I' ? 3600u : 1u))
			return -1;
		if (c == 'I')
			o->interval_ms = n;
		else
			o->repeat = n;
		return 0;
	}
	/* -p/-t: a comma list of ids */
	o->nr_ids = 0;
	do {
		uint64_t id;

		/* id - 1 wraps for 0: one comparison for 1..INT_MAX */
		if (o->nr_ids >= STAT_MAX_IDS || tp_parse_u64_prefix(&v, 10, &id) || id - 1 >= 0x7fffffff)
			return -1;
		o->ids[o->nr_ids++] = (int)id;
	} while (*v++ == ',');
	return v[-1] ? -1 : 0;
}

int stat_opts__parse(struct stat_opts *o, int argc, char **argv)
{
	const char *what = NULL;
	int i;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *p = argv[i] + 1, *v = NULL;
		char c = *p;

		if (c == '-') {	/* --name[=value], or "--" */
			const char *l = longs, *eq = strchr(++p, '=');
			size_t n = eq ? (size_t)(eq - p) : strlen(p);

			if (!n) {
				i++;
				break;
			}
			for (c = 0; *l && !c; l += strlen(l) + 2)
				if (strlen(l) == n && !strncmp(l, p, n))
					c = l[n + 1];
			if (eq)
				v = eq + 1;
			p = "";
		} else {
			p++;
		}
		for (;;) {	/* c, then the bundled letters after it */
			if (!c || !strchr(STAT_EXTRA ? "eaACptIrxh" : "eaCpth", c))
				goto bad;
			if (c == 'h') {
				usage();
				return -1;
			}
			if (strchr(valued, c)) {
				if (!v)
					v = *p ? p : i + 1 < argc ? argv[++i] : NULL;
				if (!v || apply(o, c, v))
					goto bad;
				break;
			}
			if (v)
				goto bad;
			apply(o, c, NULL);
			if (!(c = *p++))
				break;
		}
	}
	if (i < argc) {
		o->argv = argv + i;
		o->argc = argc - i;
	}
	if (o->cpu_list)
		o->system_wide = true;
	what = "nothing to count: give a command, -a, -C, -p or -t";
	if (!o->argv && !o->system_wide && !o->nr_ids)
		goto bad;
	what = "-A/--per-cpu needs -a or -C (as perf)";
	if (STAT_EXTRA && o->per_cpu && !o->system_wide)
		goto bad;
	what = STAT_EXTRA ? "-p/-t take no command; -r needs one, and no -I" : "-p/-t take no command";
	if (o->argv ? o->nr_ids : STAT_EXTRA && o->repeat > 1)
		goto bad;
	if (STAT_EXTRA && o->interval_ms && o->repeat > 1)
		goto bad;
	return 0;
bad:
	if (what)
		rec_fail("%s: see 'tinyperf stat --help'", what);
	else
		rec_fail("bad option or value '%s': see 'tinyperf stat --help'", argv[i]);
	return STAT_EXIT_USAGE;
}
