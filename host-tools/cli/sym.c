/* SPDX-License-Identifier: MIT */
/* The symbol options and session set-up that report and script share, and the header lines
 * that account for every DSO's symbols. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "host-tools/cli/sym.h"
#include "host-tools/lib/common/common.h"

void cmd_sym__init(struct cmd_sym *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->conf.sym.debug_dirs = cs->debug_dirs;
}

static int list_option(struct cmd_sym *cs, const char *cmd, const char *name,
		       enum tp_hfilter_list which, const char *arg)
{
	if (!tp_hfilter__add_list(&cs->filter, which, arg))
		return 1;
	fprintf(stderr, "tinyperf: %s: --%s '%s': expected %s separated by commas\n", cmd, name,
		arg, which == TP_HFILTER_PID || which == TP_HFILTER_TID ? "numbers" : "names");
	return 2;
}

int cmd_sym__option(struct cmd_sym *cs, const char *cmd, int c, const char *arg)
{
	struct tp_symconf *sc = &cs->conf.sym;

	switch (c) {
	case CMD_SYM_COMM: return list_option(cs, cmd, "comm", TP_HFILTER_COMM, arg);
	case CMD_SYM_DSO: return list_option(cs, cmd, "dso", TP_HFILTER_DSO, arg);
	case CMD_SYM_SYMBOL: return list_option(cs, cmd, "symbol", TP_HFILTER_SYM, arg);
	case CMD_SYM_PID: return list_option(cs, cmd, "pid", TP_HFILTER_PID, arg);
	case CMD_SYM_TID: return list_option(cs, cmd, "tid", TP_HFILTER_TID, arg);
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
		if (tp_hfilter__add_times(&cs->filter, arg)) {
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

/* As perf: a "[vdso]" without a build-id (pipe mode) is this host's own vdso when the
 * recording is of the kernel running here (same release and machine) and no sysroot is given. */
static void use_host_vdso(struct cmd_sym *cs)
{
	const struct tp_features *f = cs->conf.features;
	struct tp_symconf *sc = &cs->conf.sym;
	struct utsname u;

	if ((sc->sysroot && sc->sysroot[0] && strcmp(sc->sysroot, "/")) || !f->osrelease ||
	    uname(&u) || strcmp(u.release, f->osrelease) || (f->arch && strcmp(u.machine, f->arch)))
		return;
	sc->host_vdso = true;
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
	use_host_vdso(cs);
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
	tp_hfilter__release(&cs->filter);
	cs->c = NULL;
	cs->s = NULL;
}

bool cmd_sym__time_ok(const struct cmd_sym *cs, const struct tp_event *ev)
{
	return tp_hfilter__time_ok(&cs->filter, ev->sid_type & PERF_SAMPLE_TIME, ev->sid.time);
}

bool cmd_sym__thread_ok(struct cmd_sym *cs, uint32_t comm, int32_t pid, int32_t tid)
{
	return tp_hfilter__thread_ok(&cs->filter, comm, tp_symcache__comm_str(cs->c, comm), pid,
				     tid);
}

bool cmd_sym__dso_ok(const struct cmd_sym *cs, struct tp_frame f)
{
	const struct tp_cdso *d = tp_symcache__dso(cs->c, f.dso);

	return tp_hfilter__dso_ok(&cs->filter, d ? d->name : NULL, d ? d->short_name : NULL);
}

bool cmd_sym__sym_ok(const struct cmd_sym *cs, struct tp_frame f)
{
	const struct tp_csym *s = tp_symcache__sym(cs->c, f.sym);

	return tp_hfilter__sym_ok(&cs->filter, s ? s->name : NULL, s && s->name);
}

bool cmd_sym__frame_ok(const struct cmd_sym *cs, struct tp_frame f)
{
	return cmd_sym__dso_ok(cs, f) && cmd_sym__sym_ok(cs, f);
}

bool cmd_sym__has_frame_filter(const struct cmd_sym *cs)
{
	return tp_hfilter__has(&cs->filter, TP_HFILTER_DSO) ||
	       tp_hfilter__has(&cs->filter, TP_HFILTER_SYM);
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

/* the end of a served DSO's line: how it was verified, what else served it, what not */
static void print_verified(FILE *f, const struct tp_cdso *d, const struct tp_symdso_info *in)
{
	fprintf(f, ", %s", verify_str(in->verify));
	if (in->embedded_names)
		fputs("; names it lacks from the recording (embedded)", f);
	if (in->embedded && d->problem)	/* a file on the host was refused first: which, why */
		fprintf(f, "; not used: %s", d->problem);
	else if (in->refused)
		fprintf(f, "; a richer copy not used: %s", in->refused);
	fputc('\n', f);
}

void cmd_sym__print_dsos(const struct cmd_sym *cs, FILE *f, const char *prefix)
{
	uint32_t n = tp_symcache__nr_dsos(cs->c), nr = 0, *ids = malloc(n * sizeof(*ids));
	/* the identity rule holds for unwind tables as for symbols */
	const char *unwound = tp_symcache__unwinds(cs->c) ? ", stacks not unwound through it" : "";

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
				fprintf(f, "no symbols in %s: %s\n",
					in->elf_path ? in->elf_path : "its file", in->embedded_names ?
					"names from the recording (embedded)" : "samples unresolved");
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
				print_verified(f, d, in);
			break;
		case TP_SYMDSO_NOT_FOUND:
			fprintf(f, "%s: samples unresolved%s\n", d->problem ? d->problem :
				"not found", unwound);
			break;
		case TP_SYMDSO_MISMATCH:
			fprintf(f, "%s: samples unresolved%s\n", d->problem ? d->problem :
				"no file with the recorded identity", unwound);
			break;
		case TP_SYMDSO_UNREADABLE:
			fprintf(f, "%s: samples unresolved%s\n", d->problem ? d->problem :
				"its file could not be read", unwound);
			break;
		}
	}
	free(ids);
}

void cmd_sym__print_embedded(const struct cmd_sym *cs, FILE *f, const char *prefix)
{
	uint32_t n = tp_symcache__nr_dsos(cs->c), nr = 0;

	for (uint32_t i = 1; i < n; i++) {
		const struct tp_cdso *d = tp_symcache__dso(cs->c, i);

		if (!d->sd || !tp_symdso__info(d->sd)->embedded)
			continue;
		fprintf(f, "%s%s", nr++ ? ", " : prefix, d->short_name);
	}
	if (nr)
		fprintf(f, " - a sysroot would add inlines, lines, static functions\n");
}
