/* Option parsing for 'stat', as perf stat takes them: short options bundled or with their
 * value attached (-aA, -I100), long ones with "=value" or the next argument; the command
 * starts at "--" or at the first word that is not an option. A bad option or value is one
 * line and exit 129, perf's status for it. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/stat/stat.h"

/* each option: its short letter, whether it takes a value, its long names ("\0"-separated,
 * ending in an empty one) */
#define OPT_LIST(X) \
	X('e', 1, "event\0") \
	X('a', 0, "all-cpus\0") \
	X('A', 0, "no-aggr\0per-cpu\0") \
	X('C', 1, "cpu\0") \
	X('p', 1, "pid\0") \
	X('t', 1, "tid\0") \
	X('I', 1, "interval-print\0") \
	X('r', 1, "repeat\0") \
	X('x', 1, "field-separator\0") \
	X('h', 0, "help\0")
#define SHORT(c, v, l) c,
#define VALUE(c, v, l) v,
#define LONG(c, v, l) l "\0"
static const char shorts[] = { OPT_LIST(SHORT) };
static const uint8_t takes[] = { OPT_LIST(VALUE) };
static const char longs[] = OPT_LIST(LONG);

#define USAGE "usage: tinyperf stat [OPTIONS] [--] [COMMAND [ARGS]]\n"

static void usage(void)
{
	tp_dprintf(1, USAGE "%s", !IS_ENABLED(CONFIG_REC_HELP) ? "" :
	"Count events while COMMAND runs (or on -a, -C, -p, -t targets until Ctrl-C), as perf stat.\n"
	"  -e, --event EV[,EV]  task-clock cpu-clock context-switches cpu-migrations page-faults\n"
	"                       cycles instructions branches branch-misses cache-references\n"
	"                       cache-misses sys:name, :u :k ('tinyperf list'); default: perf's set\n"
	"  -a, --all-cpus       system-wide\n"
	"  -C, --cpu LIST       only these CPUs (0-3,6)\n"
	"  -p, --pid PIDS       attach to processes (a,b)\n"
	"  -t, --tid TIDS       attach to threads (a,b)\n"
	"  -A, --no-aggr, --per-cpu  one line per CPU (with -a or -C)\n"
	"  -I, --interval-print MS   print the counts of every MS ms (10 or more)\n"
	"  -r, --repeat N       run COMMAND N times: means and their spread ( +- x.xx% )\n"
	"  -x, --field-separator SEP  fields, not columns: value, unit, event, run time,\n"
	"                       percentage running, metric value, metric unit\n"
	"Counts go to stderr; the exit status is the command's.\n");
}

/* the option of long name s[0..n), or -1 */
static int find_long(const char *s, size_t n)
{
	const char *l = longs;

	for (int f = 0; f < (int)sizeof(shorts); f++, l++)
		for (; *l; l += strlen(l) + 1)
			if (n && !strncmp(l, s, n) && !l[n])
				return f;
	return -1;
}

static int ids(struct stat_opts *o, const char *s)
{
	o->nr_ids = 0;
	while (*s) {
		uint64_t v;

		if (o->nr_ids >= STAT_MAX_IDS || tp_parse_u64_prefix(&s, 10, &v) || v - 1 >= 0x7fffffff)
			return -TP_EINVAL;
		o->ids[o->nr_ids++] = (int)v;
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return -TP_EINVAL;
	}
	return o->nr_ids ? 0 : -TP_EINVAL;
}

static int apply(struct stat_opts *o, char c, const char *v)
{
	unsigned n;

	switch (c) {
	case 'e':
		if (o->nr_events >= TP_ARRAY_SIZE(o->events))
			return -TP_EINVAL;
		o->events[o->nr_events++] = v;
		return 0;
	case 'a': o->system_wide = true; return 0;
	case 'A': o->per_cpu = true; return 0;
	case 'C': o->cpu_list = v; return 0;
	case 'p': o->pid_list = v; return ids(o, v);
	case 't': o->tid_list = v; return ids(o, v);
	case 'x': o->sep = v; return 0;
	case 'h': usage(); return 1;
	}
	if (tp_parse_uint(v, &n) || (c == 'I' && n < 10) || (c == 'r' && (!n || n > STAT_MAX_RUNS)))
		return -TP_EINVAL;
	if (c == 'I')
		o->interval_ms = n;
	else
		o->repeat = n;
	return 0;
}

static int bad(const char *what, const char *opt)
{
	rec_fail("%s%s%s%s: see 'tinyperf stat --help'", what, opt ? " '" : "", opt ? opt : "",
		 opt ? "'" : "");
	return STAT_EXIT_USAGE;
}

int stat_opts__parse(struct stat_opts *o, int argc, char **argv)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		for (const char *p = a + 1; *p; p++) {
			bool lng = p == a + 1 && *p == '-';
			const char *eq = lng ? strchr(p, '=') : NULL;
			const char *v = NULL;
			int f, r;

			if (lng)
				f = find_long(p + 1, eq ? (size_t)(eq - p - 1) : strlen(p + 1));
			else
				for (f = 0; f < (int)sizeof(shorts) && shorts[f] != *p; f++)
					;
			if (f < 0 || f >= (int)sizeof(shorts))
				return bad("unknown option", a);
			if (takes[f]) {
				v = lng ? (eq ? eq + 1 : NULL) : (p[1] ? p + 1 : NULL);
				if (!v && i + 1 < argc)
					v = argv[++i];
				if (!v)
					return bad("a value is needed for", a);
			} else if (eq) {
				return bad("no value is taken by", a);
			}
			r = apply(o, shorts[f], v);
			if (r > 0)
				return -1;	/* --help: printed */
			if (r < 0)
				return bad("bad value for", a);
			if (v || lng)
				break;
		}
	}
	if (i < argc) {
		o->argv = argv + i;
		o->argc = argc - i;
	}
	if (o->cpu_list)
		o->system_wide = true;
	if (!o->argv && !o->system_wide && !o->nr_ids)
		return bad("nothing to count: give a command, -a, -C, -p or -t", NULL);
	if (o->repeat > 1 && !o->argv)
		return bad("-r needs a command", NULL);
	if (o->argv && o->nr_ids)
		return bad("-p/-t and a command exclude each other", NULL);
	return 0;
}
