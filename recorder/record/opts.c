/* SPDX-License-Identifier: MIT */
/* Option parsing for 'record' and 'stat' (one table, each command refusing the other's
 * options as unknown): short options may be bundled or take their value attached
 * (-aF999, -F 999), long ones take "=value" or the next argument; parsing stops at "--" or at
 * the first word that is not an option (the command), as perf does. */
#include "libc-shim/shim.h"
#include "recorder/events/events.h"
#include "recorder/record/opts.h"

enum { O_FLAG, O_STR, O_U64, O_SECS, O_PIDS, O_PAGES, O_OPTVAL /* long only: --x[=v] */ };

/* The options as a list: the long names one NUL-separated string ("" for none), the short
 * letter and the kind a byte each, the field the index (no pointer per option). F_G..F_NOEMBED
 * in the order of struct rec_opts' flags[]: apply() sets them by index. */
#define OPT_LIST(X) \
	X(EVENT, "event", 'e', O_STR) \
	X(FREQ, "freq", 'F', O_U64) \
	X(PERIOD, "count", 'c', O_U64) \
	X(G, "", 'g', O_FLAG) \
	X(ALL, "all-cpus", 'a', O_FLAG) \
	X(NOINH, "no-inherit", 'i', O_FLAG) \
	X(BIDALL, "buildid-all", 0, O_FLAG) \
	X(QUIET, "quiet", 'q', O_FLAG) \
	X(OVERWRITE, "overwrite", 0, O_FLAG) \
	X(NOEMBED, "no-embed-symbols", 0, O_FLAG) \
	X(CPU, "cpu", 'C', O_STR) \
	X(PID, "pid", 'p', O_PIDS) \
	X(TID, "tid", 't', O_PIDS) \
	X(OUT, "output", 'o', O_STR) \
	X(MMAP, "mmap-pages", 'm', O_PAGES) \
	X(DUR, "duration", 0, O_SECS) \
	X(BIDCACHE, "buildid-cache", 0, O_STR) \
	X(VERB, "verbose", 'v', O_FLAG) \
	X(RETRY, "retry", 0, O_U64) \
	X(COALESCE, "coalesce", 0, O_OPTVAL) \
	X(SWITCH, "switch-output", 0, O_OPTVAL) \
	X(CALLGRAPH, "call-graph", 0, O_STR) \
	X(MAXFILES, "switch-max-files", 0, O_U64) \
	X(HELP, "help", 'h', O_FLAG) \
	X(PERCPU, STATX("per-cpu"), 'A', O_FLAG) \
	X(NOAGGR, STATX("no-aggr"), 0, O_FLAG) \
	X(INTERVAL, STATX("interval-print"), 'I', O_U64) \
	X(REPEAT, STATX("repeat"), 'r', O_U64) \
	X(SEP, STATX("field-separator"), 'x', O_STR)
/* stat's own options (-A/--per-cpu/--no-aggr, -I, -r, -x: CONFIG_REC_STAT_EXTRA); their
 * long names are left out of builds without them */
#ifdef CONFIG_REC_STAT_EXTRA
#define STATX(name) name
#else
#define STATX(name) ""
#endif
#define FIELD(f, l, s, k) F_##f,
#define LONG(f, l, s, k) l "\0"
#define SHORT(f, l, s, k) s,
#define KIND(f, l, s, k) k,

enum { OPT_LIST(FIELD) NR_OPTS };
_Static_assert(F_NOEMBED - F_G + 1 == sizeof(((struct rec_opts *)0)->flags),
	       "one flag per option F_G..F_NOEMBED");
static const char long_names[] = OPT_LIST(LONG);
static const char short_names[NR_OPTS] = { OPT_LIST(SHORT) };
static const uint8_t kinds[NR_OPTS] = { OPT_LIST(KIND) };

/* the long options of features this build leaves out */
#define OFF ((IS_ENABLED(CONFIG_REC_BUILDID_CACHE) ? 0 : 1u << F_BIDCACHE) |			\
	     (IS_ENABLED(CONFIG_REC_STREAMS) ? 0 : 1u << F_RETRY | 1u << F_COALESCE) |		\
	     (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) ? 0 : 1u << F_NOEMBED) |			\
	     (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) ? 0 : 1u << F_CALLGRAPH) |			\
	     (IS_ENABLED(CONFIG_REC_FLIGHT) ? 0 : 1u << F_OVERWRITE | 1u << F_SWITCH | 1u << F_MAXFILES) | \
	     (IS_ENABLED(CONFIG_REC_STAT_EXTRA) ? 0 : STAT_ONLY))
/* what each command takes */
#define STAT_ONLY (1u << F_PERCPU | 1u << F_NOAGGR | 1u << F_INTERVAL | 1u << F_REPEAT | 1u << F_SEP)
#define STAT_OPTS (STAT_ONLY | 1u << F_EVENT | 1u << F_ALL | 1u << F_CPU | 1u << F_PID | \
		   1u << F_TID | 1u << F_HELP)
_Static_assert(NR_OPTS <= 32, "the option masks are 32 bits");

/* --help: "usage:", then the option lines: "  ", the option padded to 21 columns, its text.
 * A block of lines is L(OPTION, TEXT)... "\0" (the padding made by the format, not stored:
 * ~130 bytes) */
#define USAGE "usage: tinyperf record [OPTIONS] [--] [COMMAND [ARGS]]\n"
#define L(opt, text) opt "\0" text "\0"
#define HELP_EVENT(tracepoints)									\
	L("-e, --event EV[,EV]", "cpu-clock task-clock page-faults context-switches cycles")	\
	L("", "instructions cache-misses branch-misses rNNNN" tracepoints)			\
	L("", "('tinyperf list'); :u :k, /period=N/ /freq=N/ /call-graph=no/")			\
	L("-F, --freq HZ", "sample frequency (4000)")						\
	L("-c, --count N", "sample every N events")						\
	L("-g", "frame-pointer callchains")							\
	L("-a, --all-cpus", "system-wide")							\
	L("-C, --cpu LIST", "only these CPUs (0-3,6)")						\
	L("-p, --pid PIDS", "attach to processes (a,b)")					\
	L("-t, --tid TIDS", "attach to threads (a,b)")						\
	L("-o, --output FILE", "default perf.data; - is stdout (pipe mode)") "\0"

static void help(int fd, const char *s)
{
	for (;;) {
		const char *t = s + strlen(s) + 1;

		if (!*t)
			return;
		tp_dprintf(fd, "  %-21s%s\n", s, t);
		s = t + strlen(t) + 1;
	}
}

void rec_opts__usage(int fd)
{
	if (!IS_ENABLED(CONFIG_REC_HELP)) {
		tp_dprintf(fd, USAGE);
		return;
	}
	tp_dprintf(fd, USAGE "Record a profile into perf.data (for 'perf report' or 'tinyperf report').\n");
	help(fd, IS_ENABLED(CONFIG_REC_TRACEPOINTS) ? HELP_EVENT(" sys:name sys:*") : HELP_EVENT(""));
	if (IS_ENABLED(CONFIG_REC_STREAMS))
		help(fd,
		     L("", "tcp://HOST:PORT, tcp-listen://[ADDR]:PORT,")
		     L("", "serial:DEV[,BAUD][,text][,frame=16..240]: to 'tinyperf recv'")
		     L("    --retry N", "tcp://: N more connects, a second apart")
		     L("    --coalesce[=MS]", "merge like samples per MS ms (1000), periods summed;")
		     L("", "drops their time and CPU") "\0");
	if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF))
		help(fd,
		     L("    --call-graph MODE  ", "fp (as -g), or dwarf[,SIZE]: the user")
		     L("", "registers and SIZE bytes of user stack per sample, for")
		     L("", "the host to unwind code without frame pointers (2048:")
		     L("", "a 40-deep recursion to main on every target; <= 65528);")
		     L("", "per event /call-graph=dwarf,stack-size=SIZE/; as root")
		     L("", "without -m, rings of 128 samples (up to 2 MiB)") "\0");
	help(fd,
	     L("-m, --mmap-pages N", "ring pages per CPU, a power of two (128)")
	     L("    --duration SECS", "stop after SECS seconds")
	     L("-i, --no-inherit", "do not follow children")
	     L("    --buildid-all", "build-ids of every mapped DSO, not only hit ones")
	     L("-q, --quiet", "errors only")
	     L("-v, --verbose", "more messages") "\0");
	if (IS_ENABLED(CONFIG_REC_FLIGHT))
		help(fd,
		     L("    --overwrite", "flight recorder: rings keep the latest, written per snapshot")
		     L("    --switch-output[=signal|SIZE|TIME]  ", "new file per SIGUSR2, SIZE (100M) or")
		     L("", "TIME (30s, 5m): OUTPUT.YYYYMMDDHHMMSScc (UTC)")
		     L("    --switch-max-files N  ", "keep the newest N") "\0");
	if (IS_ENABLED(CONFIG_REC_BUILDID_CACHE))
		help(fd, L("    --buildid-cache DIR  ", "link (or copy) the hit binaries into DIR") "\0");
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
		help(fd, L("    --no-embed-symbols  ", "do not store the symbols of the sampled")
			 L("", "functions in the recording") "\0");
	if (IS_ENABLED(CONFIG_REC_KSYMS_CACHE))
		tp_dprintf(fd, "Environment: TINYPERF_KSYMS_CACHE=FILE  kernel functions named in this\n"
			   "  boot, for the next recordings (root: /run/tinyperf-ksyms); empty: none\n");
}

/* a -p or -t list; given twice, the last one counts, as in perf */
static int parse_ids(const char *s, int *out, unsigned *nr)
{
	*nr = 0;
	while (*s) {
		uint64_t v;

		/* v - 1 wraps for 0: one comparison for 1..INT_MAX */
		if (*nr >= REC_MAX_PIDS || tp_parse_u64_prefix(&s, 10, &v) || v - 1 >= 0x7fffffff)
			return -TP_EINVAL;
		out[(*nr)++] = (int)v;
		if (*s == ',')
			s++;
		else if (*s)
			return -TP_EINVAL;
	}
	return 0;
}

/* in apply(): the options OFF leaves out never get there, and their cases fold away */
#define LEFT_OUT(f) if (OFF & 1u << (f)) break

static int apply(struct rec_opts *o, unsigned f, const char *val)
{
	uint64_t v;
	int cg;

	switch (f) {
	case F_G: case F_ALL: case F_NOINH: case F_BIDALL: case F_QUIET: case F_OVERWRITE:
	case F_NOEMBED:	/* the flags, in their order (those OFF leaves out never get here) */
		o->flags[f - F_G] = true;
		return 0;
	case F_EVENT:
		if (o->nr_events >= REC_MAX_EVENT_SPECS)
			return -TP_E2BIG;
		o->events[o->nr_events++] = val;
		return 0;
	case F_FREQ:
	case F_PERIOD:	/* the last one given wins */
		if (tp_parse_u64(val, f == F_FREQ ? 10 : 0, &o->sample) || !o->sample)
			return -TP_EINVAL;
		o->by_period = f == F_PERIOD;
		return 0;
	case F_CPU: o->cpu_list = val; return 0;
	case F_PID:
		if (IS_ENABLED(CONFIG_REC_STAT))
			o->pid_list = val;
		return parse_ids(val, o->pids, &o->nr_pids);
	case F_TID:
		if (IS_ENABLED(CONFIG_REC_STAT))
			o->tid_list = val;
		return parse_ids(val, o->tids, &o->nr_tids);
	case F_OUT: o->output = val; return 0;
	case F_MMAP:
		/* 1..2^20 (v - 1 wraps for 0), then a power of two in 32 bits */
		if (tp_parse_u64(val, 0, &v) || v - 1 >= 1u << 20 || ((uint32_t)v & ((uint32_t)v - 1)))
			return -TP_EINVAL;
		o->mmap_pages = (unsigned)v;
		return 0;
	case F_DUR:
		return tp_parse_seconds_ms(val, &o->duration_ms) || !o->duration_ms ? -TP_EINVAL : 0;
	case F_BIDCACHE: LEFT_OUT(F_BIDCACHE); o->buildid_cache = val; return 0;
	case F_SWITCH: LEFT_OUT(F_SWITCH); o->switch_output = val ? val : "signal"; return 0;
	case F_MAXFILES:
		LEFT_OUT(F_MAXFILES);
		if (tp_parse_u64(val, 10, &v) || !v || v > 4096)
			return -TP_EINVAL;
		o->switch_max_files = (unsigned)v;
		return 0;
	case F_CALLGRAPH:
		LEFT_OUT(F_CALLGRAPH);
		o->stack_size = EVS_STACK_DEFAULT;	/* "dwarf" without SIZE */
		cg = events__call_graph(val, &o->stack_size);
		if (cg < 0)
			return -TP_EINVAL;
		o->callgraph = true;
		if (cg == EVS_CG_FP)
			o->stack_size = 0;
		return 0;
	case F_VERB: o->verbose++; return 0;
	case F_PERCPU:
	case F_NOAGGR:
		LEFT_OUT(F_PERCPU);
		o->per_cpu = true;
		return 0;
	case F_INTERVAL:
	case F_REPEAT:	/* 10 ms..1 h; 1..REC_MAX_RUNS runs */
		LEFT_OUT(F_REPEAT);
		if (tp_parse_u64(val, 10, &v) || (f == F_INTERVAL ? v - 10 > 3600000 - 10 :
							       v - 1 >= REC_MAX_RUNS))
			return -TP_EINVAL;
		*(f == F_INTERVAL ? &o->interval_ms : &o->repeat) = (unsigned)v;
		return 0;
	case F_SEP: LEFT_OUT(F_SEP); o->sep = val; return 0;
	case F_RETRY:
		LEFT_OUT(F_RETRY);
		if (tp_parse_u64(val, 10, &v) || v > 1000000)
			return -TP_EINVAL;
		o->retries = (unsigned)v;
		return 0;
	case F_COALESCE:
		LEFT_OUT(F_COALESCE);
		if (!val) {
			o->coalesce_ms = 1000;
			return 0;
		}
		if (tp_parse_u64(val, 10, &v) || !v || v > 3600000)
			return -TP_EINVAL;
		o->coalesce_ms = (uint32_t)v;
		return 0;
	}
	return 1; /* F_HELP */
}

/* the option of short letter c, or NR_OPTS */
static unsigned find_short(char c)
{
	unsigned f = 0;

	while (f < NR_OPTS && short_names[f] != c)
		f++;
	return f;
}

/* the option of long name s[0..n), or NR_OPTS */
static unsigned find_long(const char *s, size_t n)
{
	const char *l = long_names;
	unsigned f;

	for (f = 0; f < NR_OPTS; f++, l += strlen(l) + 1)
		if (n && !strncmp(l, s, n) && !l[n])
			break;
	return f;
}

int rec_opts__parse(struct rec_opts *o, int argc, char **argv, char *err, size_t errlen,
		    bool stat)
{
	uint32_t refuse = IS_ENABLED(CONFIG_REC_STAT) && stat ? ~(uint32_t)STAT_OPTS : STAT_ONLY;

	const char *msg, *p = NULL;
	int i, r, nl = 0;

	memset(o, 0, sizeof(*o));
	o->sample = 4000;
	o->output = "perf.data";
	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		/* one long option or a bundle of short ones: p past the first '-', and the messages
		 * name the option as "-%.*s" of nl bytes at p ("-F", "--freq") */
		for (p = a + 1; *p; p++) {
			bool lng = p == a + 1 && *p == '-';
			const char *eq = lng ? strchr(p, '=') : NULL;
			const char *att = lng ? (eq ? eq + 1 : NULL) : (p[1] ? p + 1 : NULL);
			const char *val = NULL;
			unsigned f;

			nl = !lng ? 1 : eq ? (int)(eq - p) : (int)strlen(p);
			f = lng ? find_long(p + 1, (size_t)nl - 1) : find_short(*p);

			if (f == NR_OPTS || refuse & 1u << f) {
				nl = lng ? (int)strlen(p) : 1;
				msg = "unknown option '-%.*s'";
				goto fail;
			}
			if (OFF & 1u << f) {
				msg = "option '-%.*s' is not in this build: turn its feature on in "
				      "'make menuconfig' and rebuild";
				goto fail;
			}
			if (kinds[f] == O_OPTVAL) {
				val = att;
			} else if (kinds[f] != O_FLAG) {
				val = att ? att : (i + 1 < argc ? argv[++i] : NULL);
				if (!val) {
					msg = "option '-%.*s' needs a value";
					goto fail;
				}
			} else if (eq) {
				msg = "option '-%.*s' takes no value";
				goto fail;
			}
			r = apply(o, f, val);
			if (r < 0) {
				tp_snprintf(err, errlen, "bad value '%s' for -%.*s", val ? val : "", nl, p);
				return -TP_EINVAL;
			}
			if (r > 0)
				return 1;
			if (val || lng)
				break;
		}
	}
	if (i < argc)
		o->argv = argv + i;
	if (o->cpu_list)	/* -C: -a on those CPUs */
		o->system_wide = true;
	if (o->nr_pids)		/* -p overrides -t, silently, as in perf */
		o->nr_tids = 0;
	msg = "nothing to watch: give a command, -p PID, -t TID, -a or -C";
	if (!o->argv && !o->system_wide && !o->nr_pids && !o->nr_tids)
		goto fail;
	msg = "-p/-t and a command exclude each other";
	if (o->argv && (o->nr_pids || o->nr_tids))
		goto fail;
	return 0;
fail:
	tp_snprintf(err, errlen, msg, nl, p);
	return -TP_EINVAL;
}
