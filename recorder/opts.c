/* Option parsing for 'record': short options may be bundled or take their value attached
 * (-aF999, -F 999), long ones take "=value" or the next argument; parsing stops at "--" or at
 * the first word that is not an option (the command), as perf does. */
#include "libc-shim/shim.h"
#include "recorder/opts.h"

enum { O_FLAG, O_STR, O_U64, O_SECS, O_PIDS, O_PAGES, O_OPTVAL /* long only: --x[=v] */ };

struct opt {	/* pointer first: 16 bytes an entry on 64-bit targets, not 24 */
	const char *l;
	char s;
	uint8_t kind;
	uint8_t field;
};

enum { F_EVENT, F_FREQ, F_PERIOD, F_G, F_ALL, F_CPU, F_PID, F_TID, F_OUT, F_MMAP, F_DUR,
       F_NOINH, F_BIDALL, F_QUIET, F_VERB, F_RETRY, F_COALESCE, F_HELP, F_BIDCACHE,
       F_OVERWRITE, F_SWITCH, F_MAXFILES, F_NOEMBED };

static const struct opt opts[] = {
	{ "event", 'e', O_STR, F_EVENT },
	{ "freq", 'F', O_U64, F_FREQ },
	{ "count", 'c', O_U64, F_PERIOD },
	{ NULL, 'g', O_FLAG, F_G },
	{ "all-cpus", 'a', O_FLAG, F_ALL },
	{ "cpu", 'C', O_STR, F_CPU },
	{ "pid", 'p', O_PIDS, F_PID },
	{ "tid", 't', O_PIDS, F_TID },
	{ "output", 'o', O_STR, F_OUT },
	{ "mmap-pages", 'm', O_PAGES, F_MMAP },
	{ "duration", 0, O_SECS, F_DUR },
	{ "no-inherit", 'i', O_FLAG, F_NOINH },
	{ "buildid-all", 0, O_FLAG, F_BIDALL },
	{ IS_ENABLED(CONFIG_REC_BUILDID_CACHE) ? "buildid-cache" : NULL, 0, O_STR, F_BIDCACHE },
	{ "quiet", 'q', O_FLAG, F_QUIET },
	{ "verbose", 'v', O_FLAG, F_VERB },
	{ IS_ENABLED(CONFIG_REC_STREAMS) ? "retry" : NULL, 0, O_U64, F_RETRY },
	{ IS_ENABLED(CONFIG_REC_STREAMS) ? "coalesce" : NULL, 0, O_OPTVAL, F_COALESCE },
	{ "overwrite", 0, O_FLAG, F_OVERWRITE },
	{ "switch-output", 0, O_OPTVAL, F_SWITCH },
	{ "switch-max-files", 0, O_U64, F_MAXFILES },
	{ "help", 'h', O_FLAG, F_HELP },
	{ IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS) ? "no-embed-symbols" : NULL, 0, O_FLAG, F_NOEMBED },
};

void rec_opts__usage(int fd)
{
	tp_dprintf(fd, "usage: tinyperf record [OPTIONS] [--] [COMMAND [ARGS]]\n");
	if (!IS_ENABLED(CONFIG_REC_HELP))
		return;
	tp_dprintf(fd,
		"Record a profile into perf.data (for 'perf report' or 'tinyperf report').\n"
		"  -e, --event EV[,EV]  cpu-clock task-clock page-faults context-switches cycles\n"
		"                       instructions cache-misses branch-misses rNNNN%s\n"
		"                       ('tinyperf list'); :u :k, /call-graph=no/ /period=N/ /freq=N/\n"
		"  -F, --freq HZ        sample frequency (4000)\n"
		"  -c, --count N        sample every N events\n"
		"  -g                   frame-pointer callchains\n"
		"  -a, --all-cpus       system-wide\n"
		"  -C, --cpu LIST       only these CPUs (0-3,6)\n"
		"  -p, --pid PIDS       attach to processes (a,b)\n"
		"  -t, --tid TIDS       attach to threads (a,b)\n"
		"  -o, --output FILE    default perf.data; - is stdout (pipe mode)\n",
		IS_ENABLED(CONFIG_REC_TRACEPOINTS) ? " sys:name sys:*" : "");
	if (IS_ENABLED(CONFIG_REC_STREAMS))
		tp_dprintf(fd,
		"                       tcp://HOST:PORT, tcp-listen://[ADDR]:PORT,\n"
		"                       serial:DEV[,BAUD][,text][,frame=16..240]: to 'tinyperf recv'\n"
		"      --retry N        tcp://: N more connects, a second apart\n"
		"      --coalesce[=MS]  merge like samples per MS ms (1000), periods summed;\n"
		"                       drops their time and CPU\n");
	tp_dprintf(fd,
		"  -m, --mmap-pages N   ring pages per CPU, a power of two (128)\n"
		"      --duration SECS  stop after SECS seconds\n"
		"  -i, --no-inherit     do not follow children\n"
		"      --buildid-all    build-ids of every mapped DSO, not only hit ones\n"
		"      --overwrite      flight recorder: rings keep the latest, written per snapshot\n"
		"      --switch-output[=signal|SIZE|TIME]  new file per SIGUSR2, SIZE (100M) or\n"
		"                       TIME (30s, 5m): OUTPUT.YYYYMMDDHHMMSScc (UTC)\n"
		"      --switch-max-files N  keep the newest N\n"
		"  -q, --quiet          errors only\n"
		"  -v, --verbose        more messages\n");
	if (IS_ENABLED(CONFIG_REC_BUILDID_CACHE))
		tp_dprintf(fd, "      --buildid-cache DIR  link (or copy) the hit binaries into DIR\n");
	if (IS_ENABLED(CONFIG_REC_EMBED_SYMBOLS))
		tp_dprintf(fd, "      --no-embed-symbols  do not store the symbols of the sampled\n"
			   "                       functions in the recording\n");
}

static int parse_ids(const char *s, int *out, unsigned *nr)
{
	while (*s) {
		uint64_t v;

		if (*nr >= REC_MAX_PIDS || tp_parse_u64_prefix(&s, 10, &v) || !v || v > 0x7fffffff)
			return -TP_EINVAL;
		out[(*nr)++] = (int)v;
		if (*s == ',')
			s++;
		else if (*s)
			return -TP_EINVAL;
	}
	return 0;
}

static int apply(struct rec_opts *o, const struct opt *op, const char *val)
{
	uint64_t v;

	switch (op->field) {
	case F_EVENT:
		if (o->nr_events >= REC_MAX_EVENT_SPECS)
			return -TP_E2BIG;
		o->events[o->nr_events++] = val;
		return 0;
	case F_FREQ:
		if (tp_parse_u64(val, 10, &v) || !v)
			return -TP_EINVAL;
		o->freq = v;
		o->period = 0;
		return 0;
	case F_PERIOD:
		if (tp_parse_u64(val, 0, &v) || !v)
			return -TP_EINVAL;
		o->period = v;
		o->freq = 0;
		return 0;
	case F_G: o->callgraph = true; return 0;
	case F_ALL: o->system_wide = true; return 0;
	case F_CPU: o->cpu_list = val; return 0;
	case F_PID: return parse_ids(val, o->pids, &o->nr_pids);
	case F_TID: return parse_ids(val, o->tids, &o->nr_tids);
	case F_OUT: o->output = val; return 0;
	case F_MMAP:
		if (tp_parse_u64(val, 0, &v) || !v || (v & (v - 1)) || v > (1u << 20))
			return -TP_EINVAL;
		o->mmap_pages = (unsigned)v;
		return 0;
	case F_DUR:
		return tp_parse_seconds_ms(val, &o->duration_ms) || !o->duration_ms ? -TP_EINVAL : 0;
	case F_NOINH: o->no_inherit = true; return 0;
	case F_BIDALL: o->buildid_all = true; return 0;
	case F_BIDCACHE: o->buildid_cache = val; return 0;
	case F_OVERWRITE: o->overwrite = true; return 0;
	case F_NOEMBED: o->no_embed_symbols = true; return 0;
	case F_SWITCH: o->switch_output = val ? val : "signal"; return 0;
	case F_MAXFILES:
		if (tp_parse_u64(val, 10, &v) || !v || v > 4096)
			return -TP_EINVAL;
		o->switch_max_files = (unsigned)v;
		return 0;
	case F_QUIET: o->quiet = true; return 0;
	case F_VERB: o->verbose++; return 0;
	case F_RETRY:
		if (tp_parse_u64(val, 10, &v) || v > 1000000)
			return -TP_EINVAL;
		o->retries = (unsigned)v;
		return 0;
	case F_COALESCE:
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

static const struct opt *find_short(char c)
{
	for (size_t i = 0; i < TP_ARRAY_SIZE(opts); i++)
		if (opts[i].s == c)
			return &opts[i];
	return NULL;
}

static const struct opt *find_long(const char *s, size_t n)
{
	for (size_t i = 0; i < TP_ARRAY_SIZE(opts); i++)
		if (opts[i].l && strlen(opts[i].l) == n && !strncmp(opts[i].l, s, n))
			return &opts[i];
	return NULL;
}

int rec_opts__parse(struct rec_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int i, r;

	memset(o, 0, sizeof(*o));
	o->freq = 4000;
	o->output = "perf.data";
	o->mmap_pages = 128;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct opt *op;
		const char *val = NULL;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			op = find_long(a + 2, n);
			if (!op) {
				tp_snprintf(err, errlen, "unknown option '%s'", a);
				return -TP_EINVAL;
			}
			if (op->kind == O_OPTVAL) {
				val = eq ? eq + 1 : NULL;
			} else if (op->kind != O_FLAG) {
				val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
				if (!val) {
					tp_snprintf(err, errlen, "option '--%s' needs a value", op->l);
					return -TP_EINVAL;
				}
			} else if (eq) {
				tp_snprintf(err, errlen, "option '--%s' takes no value", op->l);
				return -TP_EINVAL;
			}
			r = apply(o, op, val);
			if (r < 0) {
				tp_snprintf(err, errlen, "bad value '%s' for --%s", val ? val : "", op->l);
				return -TP_EINVAL;
			}
			if (r > 0)
				return 1;
			continue;
		}
		for (char *p = a + 1; *p; p++) {
			op = find_short(*p);
			if (!op) {
				tp_snprintf(err, errlen, "unknown option '-%c'", *p);
				return -TP_EINVAL;
			}
			if (op->kind != O_FLAG) {
				val = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
				if (!val) {
					tp_snprintf(err, errlen, "option '-%c' needs a value", *p);
					return -TP_EINVAL;
				}
			}
			r = apply(o, op, val);
			if (r < 0) {
				tp_snprintf(err, errlen, "bad value '%s' for -%c", val ? val : "", *p);
				return -TP_EINVAL;
			}
			if (r > 0)
				return 1;
			if (val)
				break;
		}
	}
	if (i < argc)
		o->argv = argv + i;
	if (!o->argv && !o->system_wide && !o->nr_pids && !o->nr_tids && !o->cpu_list) {
		tp_snprintf(err, errlen, "nothing to record: give a command, -p PID, -t TID, -a or -C");
		return -TP_EINVAL;
	}
	if (o->argv && (o->nr_pids || o->nr_tids)) {
		tp_snprintf(err, errlen, "-p/-t and a command exclude each other");
		return -TP_EINVAL;
	}
	if (o->cpu_list)
		o->system_wide = true;
	return 0;
}
