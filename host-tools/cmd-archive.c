/* SPDX-License-Identifier: MIT */
/* tinyperf archive: pack a recording with only the files its hit DSOs need, keyed by build-id
 * (host-tools/lib/archive/archive.h), or unpack such an archive (or perf archive's) into a build-id
 * cache so the recording reports the same on another host. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host-tools/cli/input.h"
#include "host-tools/cli/sym.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/common/common.h"

struct arc {
	const char *what;		/* the file messages are about */
	char err[512];
	unsigned long nr_warnings;
	bool verbose;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: tinyperf archive [-i] [FILE] [-o OUT] [--zstd|--xz|--gzip|--no-compress] [--level N]\n"
"                        [--debuginfo]\n"
"                        [--sysroot DIR] [--debug-dir DIR] [--buildid-dir DIR] ...\n"
"       tinyperf archive --unpack ARCHIVE [--to DIR] [--data-dir DIR] [--force]\n\n"
"Pack a recording (default perf.data) into one tar with only the binaries, debug\n"
"files, vmlinux and kallsyms its samples hit, keyed by build-id; unpacked on another\n"
"host, 'tinyperf report' (and perf report) find them with no sysroot.\n\n"
"  -o, --output OUT    the archive (default FILE.tar.zst, .tar.xz, .tar.gz, .tar)\n"
"      --zstd, --xz, --gzip, --no-compress  the compression; by default the\n"
"                      first of those this host's libarchive can write\n"
"      --level N       compression level (zstd 1-19, xz 0-9, gzip 1-9)\n"
"      --debuginfo     keep the DWARF of binaries and debug files (for report\n"
"                      --lines and script --inline); by default only symbols\n"
"  where the files are looked for, as for report:\n"
"      --sysroot, --symfs DIR, --debug-dir DIR, --buildid-dir DIR,\n"
"      -k, --vmlinux FILE, --kallsyms FILE, --offline, --strict\n"
"  -u, --unpack ARCHIVE  fill a build-id cache from ARCHIVE (tinyperf's or perf\n"
"                      archive's) and put the recording in --data-dir\n"
"      --to DIR        the cache to fill (default --buildid-dir, else ~/.debug)\n"
"      --data-dir DIR  where the recording goes (default: the current directory)\n"
"  -f, --force         replace a recording of the same name there\n"
"  -v, --verbose       say where each file came from\n");
}

static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	struct arc *a = ctx;

	if (level == TP_LOG_ERROR) {
		snprintf(a->err, sizeof(a->err), "%s", msg);
	} else if (level == TP_LOG_WARN) {
		a->nr_warnings++;
		fprintf(stderr, "tinyperf: archive: %s: warning: %s\n", a->what, msg);
	} else if (level == TP_LOG_INFO && a->verbose) {
		fprintf(stderr, "tinyperf: archive: %s\n", msg);
	}
}

static const char *human(uint64_t n, char *buf, size_t size)
{
	if (n >= 1024 * 1024)
		snprintf(buf, size, "%.1f MiB", (double)n / (1024.0 * 1024));
	else if (n >= 1024)
		snprintf(buf, size, "%.1f KiB", (double)n / 1024);
	else
		snprintf(buf, size, "%llu bytes", (unsigned long long)n);
	return buf;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int unpack(struct arc *a, const char *file, const char *to, const char *data_dir,
		  bool force)
{
	struct tp_unpack_conf conf = { .cache_dir = to, .data_dir = data_dir, .force = force };
	struct tp_unpack_stats st;
	char sz[32];

	a->what = file;
	conf.log.fn = log_fn;
	conf.log.ctx = a;
	if (tp_archive__unpack(file, &conf, &st)) {
		fprintf(stderr, "tinyperf: archive: %s: %s\n", file, a->err);
		return 1;
	}
	printf("unpacked %s: %zu file%s and %zu link%s into %s (%s)", file, st.files,
	       st.files == 1 ? "" : "s", st.links, st.links == 1 ? "" : "s", to,
	       human(st.bytes, sz, sizeof(sz)));
	if (st.data_files)
		printf(", %zu recording%s into %s", st.data_files, st.data_files == 1 ? "" : "s",
		       data_dir ? data_dir : "the current directory");
	printf("%s\n", st.perf_layout ? " (a perf archive)" : "");
	return 0;
}

/* The compression asked for, or by default the strongest this libarchive writes itself
 * (Buildroot's host-libarchive has no zstd): which, said in one line. -1: it cannot. */
static int choose_comp(enum tp_arccomp *comp, bool asked, int *level)
{
	enum tp_arccomp got = tp_archive__usable_comp(*comp);

	if (got == *comp)
		return 0;
	if (asked) {
		fprintf(stderr, "tinyperf: archive: this libarchive cannot write %s: choose %s\n",
			tp_arccomp__name(*comp), got == TP_ARC_NONE ? "--no-compress" :
			got == TP_ARC_XZ ? "--xz, --gzip or --no-compress" :
			"--gzip or --no-compress");
		return -1;
	}
	/* a zstd level beyond the others' 9: theirs by default */
	fprintf(stderr, "tinyperf: archive: this libarchive cannot write %s: %s instead%s\n",
		tp_arccomp__name(*comp), got == TP_ARC_NONE ? "no compression" :
		tp_arccomp__name(got), *level > 9 && got != TP_ARC_NONE ? ", at its default level" : "");
	if (*level > 9)
		*level = 0;
	*comp = got;
	return 0;
}

static int pack(struct arc *a, struct cmd_sym *cs, const char *path, const char *out,
		enum tp_arccomp comp, bool asked, int level, bool keep_dwarf)
{
	struct tp_arcstats as;
	struct tp_session *s = NULL;
	struct tp_arcplan plan;
	struct cmd_input ci;
	struct stat st;
	const char *base = strrchr(path, '/');
	char outbuf[PATH_MAX], sz[32], total[32];
	double t0 = now();
	int err;

	if (!strcmp(path, "-")) {
		fprintf(stderr, "tinyperf: archive: a recording on stdin cannot be archived: save it "
			"to a file first\n");
		return 2;
	}
	if (choose_comp(&comp, asked, &level))
		return 1;
	if (!out) {
		snprintf(outbuf, sizeof(outbuf), "%s.tar%s", path, tp_arccomp__suffix(comp));
		out = outbuf;
	}
	if (cmd_input__open(&ci, "archive", path))
		return 1;
	a->what = path;
	cs->conf.sym.log.fn = log_fn;
	cs->conf.sym.log.ctx = a;
	err = tp_session__new(&s, ci.r);
	if (!err)
		err = tp_arcplan__build(&plan, s, tp_reader__features(ci.r), &cs->conf.sym, path,
					base ? base + 1 : path, keep_dwarf);
	if (err) {
		if (a->err[0])
			snprintf(ci.last_error, sizeof(ci.last_error), "%s", a->err);
		tp_session__delete(s);
		cmd_input__fail(&ci, err);
		cmd_input__close(&ci);
		return 1;
	}
	if (a->verbose)
		for (size_t i = 0; i < plan.n; i++)
			fprintf(stderr, "tinyperf: archive: %s%s%s\n", plan.m[i].path,
				plan.m[i].src ? " <- " : plan.m[i].link ? " -> " : "",
				plan.m[i].src ? plan.m[i].src : plan.m[i].link ? plan.m[i].link : "");
	a->what = out;
	err = tp_archive__write(&plan, out, comp, level, &as, &cs->conf.sym.log);
	if (err) {
		fprintf(stderr, "tinyperf: archive: %s: %s\n", out, a->err);
	} else {
		printf("wrote %s: %s and the files of %zu of %zu hit DSOs, %s in %s", out,
		       base ? base + 1 : path, plan.nr_packed, plan.nr_hit,
		       human(as.bytes, total, sizeof(total)),
		       human(stat(out, &st) ? 0 : (uint64_t)st.st_size, sz, sizeof(sz)));
		if (as.dwarf_dropped)
			printf(" (%s of DWARF left out)", human(as.dwarf_dropped, sz, sizeof(sz)));
		printf(", %.2f s\n", now() - t0);
	}
	tp_arcplan__release(&plan);
	tp_session__delete(s);
	if (!err && cmd_input__finish(&ci))
		err = 1;
	cmd_input__close(&ci);
	return err ? 1 : 0;
}

int cmd_archive(int argc, char **argv)
{
	enum { O_GZIP = 0x100, O_NONE, O_ZSTD, O_XZ, O_LEVEL, O_TO, O_DATA_DIR, O_DEBUGINFO };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "gzip", no_argument, NULL, O_GZIP },
		{ "zstd", no_argument, NULL, O_ZSTD },
		{ "xz", no_argument, NULL, O_XZ },
		{ "no-compress", no_argument, NULL, O_NONE },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "unpack", required_argument, NULL, 'u' },
		{ "to", required_argument, NULL, O_TO },
		{ "data-dir", required_argument, NULL, O_DATA_DIR },
		{ "debuginfo", no_argument, NULL, O_DEBUGINFO },
		{ "force", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "sysroot", required_argument, NULL, CMD_SYM_SYSROOT },
		{ "symfs", required_argument, NULL, CMD_SYM_SYSROOT },
		{ "debug-dir", required_argument, NULL, CMD_SYM_DEBUG_DIR },
		{ "buildid-dir", required_argument, NULL, CMD_SYM_BUILDID_DIR },
		{ "vmlinux", required_argument, NULL, CMD_SYM_VMLINUX },
		{ "kallsyms", required_argument, NULL, CMD_SYM_KALLSYMS },
		{ "offline", no_argument, NULL, CMD_SYM_OFFLINE },
		{ "strict", no_argument, NULL, CMD_SYM_STRICT },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL, *out = NULL, *unpack_file = NULL, *to = NULL, *data_dir = NULL;
	enum tp_arccomp comp = TP_ARC_ZSTD;
	struct arc a = { 0 };
	struct cmd_sym cs;
	char home[PATH_MAX];
	bool force = false, keep_dwarf = false, comp_asked = false;
	int c, level = 0, rc = -1;

	cmd_sym__init(&cs);
	optind = 1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, ":i:o:u:fvhk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); rc = 0; break;
		case 'i': path = optarg; break;
		case 'o': out = optarg; break;
		case 'u': unpack_file = optarg; break;
		case 'f': force = true; break;
		case 'v': a.verbose = true; break;
		case O_GZIP: comp = TP_ARC_GZIP; comp_asked = true; break;
		case O_ZSTD: comp = TP_ARC_ZSTD; comp_asked = true; break;
		case O_XZ: comp = TP_ARC_XZ; comp_asked = true; break;
		case O_NONE: comp = TP_ARC_NONE; comp_asked = true; break;
		case O_TO: to = optarg; break;
		case O_DATA_DIR: data_dir = optarg; break;
		case O_DEBUGINFO: keep_dwarf = true; break;
		case O_LEVEL:
			level = atoi(optarg);
			if (level < 1 || level > 22) {
				fprintf(stderr, "tinyperf: archive: --level '%s': expected 1 to 19 (zstd) "
					"or 9 (xz, gzip)\n", optarg);
				rc = 2;
			}
			break;
		default:
			switch (cmd_sym__option(&cs, "archive", c, optarg)) {
			case 0: rc = cmd_usage_error("archive", c, argv, usage); break;
			case 2: rc = 2; break;
			default: break;
			}
			break;
		}
	}
	if (rc < 0 && optind < argc && !path && !unpack_file)
		path = argv[optind++];
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "tinyperf: archive: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		rc = 2;
	}
	if (rc >= 0)
		goto out;
	if (unpack_file) {
		const char *home_env = getenv("HOME");

		if (!to)
			to = cs.conf.sym.buildid_dir;
		if ((!to || !to[0]) && home_env &&
		    snprintf(home, sizeof(home), "%s/.debug", home_env) < (int)sizeof(home))
			to = home;
		if (!to || !to[0]) {
			fprintf(stderr, "tinyperf: archive: no HOME: give --to DIR\n");
			rc = 2;
			goto out;
		}
		rc = unpack(&a, unpack_file, to, data_dir, force);
	} else {
		rc = pack(&a, &cs, path ? path : "perf.data", out, comp, comp_asked, level, keep_dwarf);
	}
out:
	cmd_sym__close(&cs);
	return rc;
}
