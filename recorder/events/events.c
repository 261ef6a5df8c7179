/* SPDX-License-Identifier: MIT */
/* Turning perf-style event names into perf_event_attr templates. Sampling fields (period,
 * sample_type, flags that depend on the target) are filled in later by the command. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/events/events.h"
#include "recorder/events/tracefs.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE

/* the names as one NUL-separated string and their codes, type << 4 | config, in a byte each
 * (as libc-shim/common/strerror.c): no pointer per name */
#define EVENT_LIST(X) \
	X("cpu-clock", SW, PERF_COUNT_SW_CPU_CLOCK) \
	X("task-clock", SW, PERF_COUNT_SW_TASK_CLOCK) \
	X("page-faults", SW, PERF_COUNT_SW_PAGE_FAULTS) \
	X("faults", SW, PERF_COUNT_SW_PAGE_FAULTS) \
	X("minor-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MIN) \
	X("major-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ) \
	X("context-switches", SW, PERF_COUNT_SW_CONTEXT_SWITCHES) \
	X("cs", SW, PERF_COUNT_SW_CONTEXT_SWITCHES) \
	X("cpu-migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS) \
	X("migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS) \
	X("alignment-faults", SW, PERF_COUNT_SW_ALIGNMENT_FAULTS) \
	X("emulation-faults", SW, PERF_COUNT_SW_EMULATION_FAULTS) \
	X("dummy", SW, PERF_COUNT_SW_DUMMY) \
	X("cycles", HW, PERF_COUNT_HW_CPU_CYCLES) \
	X("cpu-cycles", HW, PERF_COUNT_HW_CPU_CYCLES) \
	X("instructions", HW, PERF_COUNT_HW_INSTRUCTIONS) \
	X("cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES) \
	X("cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES) \
	X("branch-instructions", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS) \
	X("branches", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS) \
	X("branch-misses", HW, PERF_COUNT_HW_BRANCH_MISSES) \
	X("bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES) \
	X("ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES)
#define NAME(name, type, config) name "\0"
#define CODE(name, type, config) (uint8_t)((type) << 4 | (config)),

const char tp_event_names[] = EVENT_LIST(NAME);
const uint8_t tp_event_codes[] = { EVENT_LIST(CODE) };
const unsigned tp_nr_event_names = sizeof(tp_event_codes);
#define CHECK(name, type, config) _Static_assert((config) < 16, name);
EVENT_LIST(CHECK)

/* a new event named name (cut to fit) */
static struct evsel *add(struct evlist_spec *l, const char *name)
{
	struct evsel *e;

	if (l->nr >= REC_MAX_EVSELS)
		return NULL;
	e = &l->ev[l->nr++];
	memset(e, 0, sizeof(*e));
	e->callgraph = -1;
	tp_strlcpy(e->name, name, sizeof(e->name));
	return e;
}

/* ":u", ":k", ":p", ":pp"... */
static int modifiers(struct evsel *e, const char *m)
{
	unsigned precise = 0;

	for (; *m; m++) {
		switch (*m) {
		case 'u': e->attr.flags |= PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV; break;
		case 'k': e->attr.flags |= PERF_ATTR_FLAG_EXCLUDE_USER | PERF_ATTR_FLAG_EXCLUDE_HV; break;
		case 'h': e->attr.flags |= PERF_ATTR_FLAG_EXCLUDE_USER | PERF_ATTR_FLAG_EXCLUDE_KERNEL; break;
		case 'p': precise++; break;
		default: return -TP_EINVAL;
		}
	}
	if (precise > 3)
		return -TP_EINVAL;
	PERF_ATTR_SET_PRECISE_IP(e->attr.flags, precise);
	return 0;
}

/* a dwarf sample's stack size, 1..EVS_STACK_MAX rounded up to 8 */
static int stack_size(const char *s, uint16_t *stack)
{
	uint64_t v;

	if (tp_parse_u64(s, 0, &v) || v - 1 >= EVS_STACK_MAX)	/* v - 1 wraps for 0 */
		return -TP_EINVAL;
	*stack = (uint16_t)((v + 7) & ~7u);
	return 0;
}

int events__call_graph(const char *s, uint16_t *stack)
{
	if (!strcmp(s, "fp"))
		return EVS_CG_FP;
	if (!IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) || strncmp(s, "dwarf", 5) ||
	    (s[5] && (s[5] != ',' || stack_size(s + 6, stack))))
		return -TP_EINVAL;
	return EVS_CG_DWARF;
}

/* "call-graph=no,period=1,freq=99", "call-graph=dwarf,stack-size=4096" */
static int terms(struct evsel *e, const char *t, size_t len)
{
	static char buf[96];	/* static: armv7 sets up a smaller frame, no target grows */
	char *p = buf;

	if (len >= sizeof(buf))
		return -TP_EINVAL;
	memcpy(buf, t, len);
	buf[len] = 0;
	while (*p) {
		char *end = strchr(p, ','), *eq;
		uint64_t v;
		bool freq = false;

		if (end)
			*end = 0;
		eq = strchr(p, '=');
		if (!eq)
			return -TP_EINVAL;
		*eq++ = 0;
		if (!strcmp(p, "call-graph")) {
			int cg = strcmp(eq, "no") ? events__call_graph(eq, &e->stack_size) : EVS_CG_NO;

			if (cg < 0)
				return -TP_EINVAL;
			e->callgraph = (int8_t)cg;
		} else if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) && !strcmp(p, "stack-size")) {
			if (stack_size(eq, &e->stack_size))
				return -TP_EINVAL;
		} else if ((!strcmp(p, "period") || (freq = !strcmp(p, "freq"))) &&
			   !tp_parse_u64(eq, 0, &v) && v) {
			e->attr.sample_period = v;	/* a union with sample_freq */
			e->attr.flags = freq ? e->attr.flags | PERF_ATTR_FLAG_FREQ :
					       e->attr.flags & ~PERF_ATTR_FLAG_FREQ;
			e->has_period = true;
		} else {
			return -TP_EINVAL;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

struct glob_ctx {
	struct evlist_spec *l;
	const char *terms;
	size_t terms_len;
	int err;		/* -TP_EINVAL: the terms did not parse (the glob has read the id) */
};

static int add_tracepoint(void *ctx, const char *sys, const char *name)
{
	struct glob_ctx *g = ctx;
	char full[64];
	long id = tracefs__event_id(sys, name);
	struct evsel *e;

	tp_snprintf(full, sizeof(full), "%s:%s", sys, name);
	e = add(g->l, full);
	if (!e)
		return g->err = -TP_E2BIG;
	if (id < 0)
		return g->err = (int)id;
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = (uint64_t)id;
	e->attr.sample_period = 1;
	e->has_period = true;
	if (g->terms_len && terms(e, g->terms, g->terms_len))
		return g->err = -TP_EINVAL;
	return 0;
}

/* a hardware, software or raw (rNNNN) event: its type and config, or false */
static bool builtin(const char *name, uint32_t *type, uint64_t *config)
{
	const char *n = tp_event_names;

	if (name[0] == 'r' && name[1] && !tp_parse_u64(name + 1, 16, config)) {
		*type = PERF_TYPE_RAW;
		return true;
	}
	for (unsigned i = 0; i < tp_nr_event_names; i++, n += strlen(n) + 1)
		if (!strcmp(name, n)) {
			*type = tp_event_codes[i] >> 4;
			*config = tp_event_codes[i] & 15;
			return true;
		}
	return false;
}

static int one(struct evlist_spec *l, const char *s, size_t len)
{
	char name[128];
	const char *slash = memchr(s, '/', len), *term = NULL, *what = "event";
	size_t nlen = len, tlen = 0;
	char *colon;
	struct evsel *e;
	uint32_t type = 0;
	uint64_t config = 0;
	bool known;
	int r = -TP_ENOENT;

	if (slash) {
		nlen = (size_t)(slash - s);
		term = slash + 1;
		tlen = len - nlen - 1;
		if (!tlen || term[tlen - 1] != '/')
			goto bad;
		tlen--;
	}
	if (!nlen || nlen >= sizeof(name))
		goto bad;
	memcpy(name, s, nlen);
	name[nlen] = 0;
	colon = strchr(name, ':');
	if (colon)
		*colon = 0;
	known = builtin(name, &type, &config);
	if (colon)
		*colon = ':';
	/* "cpu-clock:u" is an event with modifiers, whatever tracefs holds */
	if (IS_ENABLED(CONFIG_REC_TRACEPOINTS) && colon && !known && tracefs__dir()) {
		/* sys:name or sys:glob (a tracing system exists under that name) */
		struct glob_ctx g = { l, term, tlen, 0 };
		char *mod = strchr(colon + 1, ':');
		long n;

		*colon = 0;
		if (mod)
			*mod = 0;
		n = tracefs__glob(name, colon + 1, add_tracepoint, &g);
		if (n > 0 && !g.err)
			return 0;
		if (g.err == -TP_E2BIG)
			goto too_many;
		if (g.err == -TP_EINVAL)
			goto bad;	/* the spec's fault, not tracefs' */
		*colon = ':';
		if (mod)
			*mod = ':';
		what = "tracepoint";
		if (n != -TP_ENOENT && n && n != -TP_ENOTDIR) {
			r = n < 0 ? (int)n : g.err;
			rec_fail("cannot read tracepoint '%s': %s", name, tp_strerror(r));
			return r;
		}
	} else if (!known) {
		if (colon)
			*colon = 0;
	} else {
		/* the name with its modifiers */
		e = add(l, name);
		if (!e)
			goto too_many;
		e->attr.type = type;
		e->attr.config = config;
		if ((colon && modifiers(e, colon + 1)) || (term && terms(e, term, tlen)))
			goto bad;
		return 0;
	}
	rec_fail("unknown %s '%s': see 'tinyperf list'", what, name);
	return r;
too_many:
	rec_fail("too many events (at most %d)", REC_MAX_EVSELS);
	return -TP_E2BIG;
bad:
	rec_fail("cannot parse event '%.*s': see 'tinyperf list' and 'tinyperf record --help'",
		 (int)len, s);
	return -TP_EINVAL;
}

int events__parse(struct evlist_spec *l, const char *spec)
{
	while (*spec) {
		/* split at commas outside /terms/ */
		size_t n = 0;
		bool in_terms = false;
		int r;

		for (; spec[n] && (in_terms || spec[n] != ','); n++)
			if (spec[n] == '/')
				in_terms = !in_terms;
		r = one(l, spec, n);
		if (r)
			return r;
		spec += n;
		if (*spec == ',')
			spec++;
	}
	return 0;
}

void events__add_default(struct evlist_spec *l)
{
	struct evsel *e = add(l, "cycles");

	e->attr.type = PERF_TYPE_HARDWARE;
	e->attr.config = PERF_COUNT_HW_CPU_CYCLES;
	e->is_default = true;
}

void events__fallback_cpu_clock(struct evsel *e)
{
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	tp_strlcpy(e->name, "cpu-clock", sizeof(e->name));
}
