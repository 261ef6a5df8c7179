/* The symbol options and session set-up that report and script share, and the header lines
 * that account for every DSO's symbols. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "host-tools/cmd-sym.h"
#include "host-tools/lib/error.h"

void cmd_sym__init(struct cmd_sym *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->conf.sym.debug_dirs = cs->debug_dirs;
}

/* "12.5" seconds -> ns, exactly; false if it is not a number */
static bool parse_secs(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	bool digits = false;

	for (; s < end && *s >= '0' && *s <= '9'; s++, digits = true) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return false;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, digits = true) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*s - '0') * scale;
			}
		}
	}
	*ns = sec * 1000000000ULL + frac;
	return digits && s == end;
}

static bool parse_times(struct cmd_sym *cs, const char *arg)
{
	const char *p = arg;

	while (*p) {
		const char *end = p + strcspn(p, " "), *comma = memchr(p, ',', (size_t)(end - p));
		struct cmd_time_range r = { 0, UINT64_MAX }, *n;

		if (end == p) {
			p++;
			continue;
		}
		if (!comma || (comma > p && !parse_secs(p, comma, &r.start)) ||
		    (comma + 1 < end && !parse_secs(comma + 1, end, &r.end)) || r.start > r.end)
			return false;
		n = realloc(cs->times, (cs->nr_times + 1) * sizeof(*n));
		if (!n)
			return false;
		cs->times = n;
		cs->times[cs->nr_times++] = r;
		p = end;
	}
	return cs->nr_times > 0;
}

/* a comma-separated list, appended */
static bool parse_list(struct cmd_list *l, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;

	if (!copy)
		return false;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

		if (!v || !(v[l->n] = strdup(t))) {
			if (v)
				l->v = v;
			free(copy);
			return false;
		}
		l->v = v;
		l->n++;
	}
	free(copy);
	return true;
}

static bool parse_ids(struct cmd_list *l, const char *arg)
{
	unsigned first = l->n;

	if (!parse_list(l, arg))
		return false;
	for (unsigned i = first; i < l->n; i++) {
		char *end;

		strtol(l->v[i], &end, 10);
		if (!l->v[i][0] || *end)
			return false;
	}
	return true;
}

static void free_list(struct cmd_list *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static bool in_list(const struct cmd_list *l, const char *s)
{
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static bool id_in_list(const struct cmd_list *l, int32_t id)
{
	for (unsigned i = 0; i < l->n; i++)
		if (atoi(l->v[i]) == id)
			return true;
	return false;
}

int cmd_sym__option(struct cmd_sym *cs, const char *cmd, int c, const char *arg)
{
	struct tp_symconf *sc = &cs->conf.sym;

	switch (c) {
	case CMD_SYM_COMM: return parse_list(&cs->comms, arg) ? 1 : 2;
	case CMD_SYM_DSO: return parse_list(&cs->dsos, arg) ? 1 : 2;
	case CMD_SYM_SYMBOL: return parse_list(&cs->syms, arg) ? 1 : 2;
	case CMD_SYM_PID:
	case CMD_SYM_TID:
		if (!parse_ids(c == CMD_SYM_PID ? &cs->pids : &cs->tids, arg)) {
			fprintf(stderr, "tinyperf: %s: --%s '%s': expected numbers separated by "
				"commas\n", cmd, c == CMD_SYM_PID ? "pid" : "tid", arg);
			return 2;
		}
		return 1;
	case CMD_SYM_SYSROOT: sc->sysroot = arg; return 1;
	case CMD_SYM_BUILDID_DIR: sc->buildid_dir = arg; return 1;
	case 'k':
	case CMD_SYM_VMLINUX: sc->vmlinux = arg; return 1;
	case CMD_SYM_KALLSYMS: sc->kallsyms = arg; return 1;
	case CMD_SYM_LINES: sc->want_lines = true; return 1;
	case CMD_SYM_INLINE: sc->want_inlines = true; return 1;
	case CMD_SYM_OFFLINE: sc->offline = true; return 1;
	case CMD_SYM_STRICT: sc->strict = true; return 1;
	case CMD_SYM_NO_DEMANGLE: cs->conf.no_demangle = true; return 1;
	case CMD_SYM_DEBUG_DIR:
		if (sc->n_debug_dirs == CMD_SYM_MAX_DEBUG_DIRS) {
			fprintf(stderr, "tinyperf: %s: at most %d --debug-dir\n", cmd,
				CMD_SYM_MAX_DEBUG_DIRS);
			return 2;
		}
		cs->debug_dirs[sc->n_debug_dirs++] = arg;
		return 1;
	case CMD_SYM_TIME:
		if (!parse_times(cs, arg)) {
			fprintf(stderr, "tinyperf: %s: --time '%s': expected START,END in seconds "
				"(either may be empty), e.g. --time 2394.5,2394.9\n", cmd, arg);
			return 2;
		}
		return 1;
	default:
		return 0;
	}
}

/* As perf: a recording that does not identify its kernel, read on a host running the same
 * release with no kernel or sysroot given, is taken to be of the running kernel. */
static void use_running_kernel(struct cmd_sym *cs)
{
	const struct tp_features *f = cs->conf.features;
	struct tp_symconf *sc = &cs->conf.sym;
	struct utsname u;

	if (sc->kallsyms || sc->vmlinux || (sc->sysroot && sc->sysroot[0] &&
					     strcmp(sc->sysroot, "/")))
		return;
	for (size_t i = 0; i < f->nr_build_ids; i++)
		if (!strcmp(f->build_ids[i].filename, "[kernel.kallsyms]") && f->build_ids[i].size)
			return;
	if (f->osrelease && (uname(&u) || strcmp(u.release, f->osrelease)))
		return;
	sc->kallsyms = "/proc/kallsyms";
	cs->auto_kallsyms = true;
}

int cmd_sym__open(struct cmd_sym *cs, struct cmd_input *ci)
{
	static const struct tp_session_ops no_ops;
	int err = 0;

	if (tp_reader__info(ci->r)->pipe) {
		/* a pipe's build-ids and text hashes come after its samples */
		struct tp_session *pre;

		err = tp_session__new(&pre, ci->r);
		if (!err)
			err = tp_session__process(pre, &no_ops, NULL);
		tp_session__delete(pre);
	}
	if (!err)
		err = tp_session__new(&cs->s, ci->r);
	cs->conf.features = tp_reader__features(ci->r);
	use_running_kernel(cs);
	if (!err)
		err = tp_symcache__new(&cs->c, cs->s, &cs->conf);
	if (err) {
		cmd_sym__close(cs);
		return cmd_input__fail(ci, err);
	}
	return 0;
}

void cmd_sym__close(struct cmd_sym *cs)
{
	tp_symcache__delete(cs->c);
	tp_session__delete(cs->s);
	free(cs->times);
	free(cs->comm_ok);
	free_list(&cs->comms);
	free_list(&cs->pids);
	free_list(&cs->tids);
	free_list(&cs->dsos);
	free_list(&cs->syms);
	cs->comm_ok = NULL;
	cs->c = NULL;
	cs->s = NULL;
	cs->times = NULL;
}

bool cmd_sym__in_time(const struct cmd_sym *cs, uint64_t t)
{
	if (!cs->nr_times)
		return true;
	for (unsigned i = 0; i < cs->nr_times; i++)
		if (t >= cs->times[i].start && t <= cs->times[i].end)
			return true;
	return false;
}

bool cmd_sym__thread_ok(struct cmd_sym *cs, uint32_t comm, int32_t pid, int32_t tid)
{
	if (cs->pids.n && !id_in_list(&cs->pids, pid))
		return false;
	if (cs->tids.n && !id_in_list(&cs->tids, tid))
		return false;
	if (!cs->comms.n)
		return true;
	if (comm >= cs->nr_comm_ok) {
		uint32_t n = comm + 64;
		int8_t *ok = realloc(cs->comm_ok, n);

		if (!ok)	/* without memory for the cache, ask every time */
			return in_list(&cs->comms, tp_symcache__comm_str(cs->c, comm));
		memset(ok + cs->nr_comm_ok, 0, n - cs->nr_comm_ok);
		cs->comm_ok = ok;
		cs->nr_comm_ok = n;
	}
	if (!cs->comm_ok[comm])
		cs->comm_ok[comm] = in_list(&cs->comms, tp_symcache__comm_str(cs->c, comm)) ? 1 : -1;
	return cs->comm_ok[comm] > 0;
}

bool cmd_sym__has_frame_filter(const struct cmd_sym *cs)
{
	return cs->dsos.n || cs->syms.n;
}

bool cmd_sym__frame_ok(const struct cmd_sym *cs, struct tp_frame f)
{
	if (cs->dsos.n) {
		const struct tp_cdso *d = tp_symcache__dso(cs->c, f.dso);

		if (!d || (!in_list(&cs->dsos, d->name) && !in_list(&cs->dsos, d->short_name)))
			return false;
	}
	if (cs->syms.n) {
		const struct tp_csym *s = tp_symcache__sym(cs->c, f.sym);

		if (!s || !s->name || !in_list(&cs->syms, s->name))
			return false;
	}
	return true;
}

const char *cmd_sym__event_name(const struct tp_attr *a, char *buf, size_t size)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
		"bpf-output", "cgroup-switches",
	};
	uint64_t cfg = a ? a->attr.config : 0;

	if (!a)
		return "[unknown]";
	if (a->name)
		return a->name;
	if (a->attr.type == PERF_TYPE_HARDWARE && cfg < sizeof(hw) / sizeof(hw[0]))
		return hw[cfg];
	if (a->attr.type == PERF_TYPE_SOFTWARE && cfg < sizeof(sw) / sizeof(sw[0]))
		return sw[cfg];
	snprintf(buf, size, "raw:%u:%#llx", a->attr.type, (unsigned long long)cfg);
	return buf;
}

static const char *verify_str(enum tp_symverify v)
{
	switch (v) {
	case TP_SYMVERIFY_BUILD_ID: return "build-id verified";
	case TP_SYMVERIFY_TEXT_HASH: return "text hash verified";
	case TP_SYMVERIFY_USER: return "given by the user";
	case TP_SYMVERIFY_NONE: break;
	}
	return "unverified (nothing recorded to check against)";
}

static int cmp_dso(const void *a, const void *b, void *arg)
{
	const struct tp_symcache *c = arg;

	return strcmp(tp_symcache__dso(c, *(const uint32_t *)a)->name,
		      tp_symcache__dso(c, *(const uint32_t *)b)->name);
}

void cmd_sym__print_dsos(const struct cmd_sym *cs, FILE *f, const char *prefix)
{
	uint32_t n = tp_symcache__nr_dsos(cs->c), nr = 0, *ids = malloc(n * sizeof(*ids));

	if (!ids)
		return;
	for (uint32_t i = 1; i < n; i++)
		if (tp_symcache__dso(cs->c, i)->sd)
			ids[nr++] = i;
	qsort_r(ids, nr, sizeof(*ids), cmp_dso, cs->c);
	for (uint32_t i = 0; i < nr; i++) {
		const struct tp_cdso *d = tp_symcache__dso(cs->c, ids[i]);
		const struct tp_symdso_info *in = tp_symdso__info(d->sd);

		fprintf(f, "%s%s: ", prefix, d->name);
		switch (in->status) {
		case TP_SYMDSO_OK:
			if (in->src == TP_SYMSRC_NONE) {
				fprintf(f, "no symbols in %s: samples unresolved\n",
					in->elf_path ? in->elf_path : "its file");
				break;
			}
			fprintf(f, "%s from %s", tp_symsrc_str(in->src),
				in->sym_path ? in->sym_path : in->elf_path ? in->elf_path : "?");
			if (in->debug_path && (!in->sym_path || strcmp(in->debug_path, in->sym_path)))
				fprintf(f, " (debug info %s)", in->debug_path);
			if (d->kernel && in->kernel_reloc)
				fprintf(f, ", relocated by %+lld", (long long)in->kernel_reloc);
			if (d->kernel && cs->auto_kallsyms)
				fprintf(f, ", the running kernel's (the recording does not "
					"identify its kernel)\n");
			else
				fprintf(f, ", %s\n", verify_str(in->verify));
			break;
		case TP_SYMDSO_NOT_FOUND:
			fprintf(f, "%s: samples unresolved\n", d->problem ? d->problem : "not found");
			break;
		case TP_SYMDSO_MISMATCH:
			fprintf(f, "%s: samples unresolved\n", d->problem ? d->problem :
				"no file with the recorded identity");
			break;
		case TP_SYMDSO_UNREADABLE:
			fprintf(f, "%s: samples unresolved\n", d->problem ? d->problem :
				"its file could not be read");
			break;
		}
	}
	free(ids);
}
