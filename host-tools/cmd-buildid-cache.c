/* SPDX-License-Identifier: MIT */
/* tinyperf buildid-cache: fill, inspect and trim the build-id cache (perf's ~/.debug layout,
 * host-tools/lib/bidcache/bidcache.h) — add binaries, debug files, vmlinux and kallsyms, list them with
 * their sizes, evict by age or to a size limit, and tell what a perf.data needs that the
 * cache lacks. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host-tools/cli/input.h"
#include "host-tools/cmd.h"
#include "host-tools/lib/bidcache/bidcache.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/session/session.h"
#include "libc-shim/parse.h"

#define MAX_ARGS 256

struct bc {
	struct tp_bidcache *c;
	struct tp_log log;
	char err[512];			/* the library's last error detail */
	const char *sysroot;		/* resolved */
	char sysroot_buf[PATH_MAX];
	const char *build_id;		/* --build-id, for a kallsyms */
	bool copy, verbose, quiet;
	unsigned added, linked, present, skipped, failed;
};

static struct bc *walk_bc;		/* nftw() has no context argument */

static void usage(FILE *f)
{
	fprintf(f,
"usage: tinyperf buildid-cache [--buildid-dir DIR] [-a FILE|DIR]... [-r ID|FILE]...\n"
"                              [-l] [-M FILE] [--purge-older-than AGE] [--max-size SIZE] [-P]\n\n"
"Keep the binaries that ran, by build-id, in perf's cache layout (perf report finds\n"
"them too): a report stays right after the device's files change.\n\n"
"  -a, --add FILE|DIR   binaries, debug files, vmlinux, a kallsyms (every ELF file under\n"
"                       a directory); files without a build-id by their text hash\n"
"      --sysroot DIR    name files under DIR by their path on the device\n"
"      --build-id HEX   the kernel's build-id, for a kallsyms file other than\n"
"                       /proc/kallsyms (tinyperf buildid-list -i perf.data shows it)\n"
"      --copy           always copy (default: hard-link where the filesystem allows;\n"
"                       a file later rewritten in place would change the cached copy)\n"
"  -r, --remove ID|FILE the entry of a build-id (or text-<hash>), or of FILE's identity\n"
"  -l, --list           the entries: identity, size, last use, files, name\n"
"  -M, --missing FILE   what a perf.data's hit DSOs need that the cache lacks\n"
"      --purge-older-than AGE  remove entries unused for AGE (90s, 30m, 12h, 30d, 2w)\n"
"      --max-size SIZE  evict the least recently used entries above SIZE (bytes, or K,\n"
"                       M, G: powers of 1024); kept for later additions; 0: no limit\n"
"  -P, --purge-all      remove every entry\n"
"      --buildid-dir DIR  the cache (default ~/.debug)\n"
"  -v, --verbose        a line per file added or skipped\n"
"  -q, --quiet          no summary lines\n");
}

static void log_fn(void *ctx, enum tp_log_level level, const char *msg)
{
	struct bc *b = ctx;

	if (level == TP_LOG_ERROR)
		snprintf(b->err, sizeof(b->err), "%s", msg);
	else if (level == TP_LOG_WARN)
		fprintf(stderr, "tinyperf: buildid-cache: warning: %s\n", msg);
}

static int fail(struct bc *b, const char *what, int err)
{
	char buf[sizeof(b->err) + 128];

	fflush(stdout);
	fprintf(stderr, "tinyperf: buildid-cache: %s%s%s\n", what ? what : "", what ? ": " : "",
		cmd_error_text(buf, sizeof(buf), b->err, err));
	b->err[0] = '\0';
	return 1;
}

static bool parse_age(const char *s, int64_t *secs)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return false;
	switch (*end) {
	case '\0': case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	case 'w': v *= 7 * 86400; break;
	default: return false;
	}
	if (*end && end[1])
		return false;
	*secs = (int64_t)v;
	return true;
}

static const char *human(uint64_t n, char *buf, size_t size)
{
	static const char units[] = "KMGT";
	double v = (double)n;
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, size, "%llu", (unsigned long long)n);
	else
		snprintf(buf, size, "%.1f%c", v, units[u]);
	return buf;
}

/* the name a file is cached under: its device path when under --sysroot, else its real path */
static const char *name_of(struct bc *b, const char *real)
{
	size_t n = b->sysroot ? strlen(b->sysroot) : 0;

	if (n && !strncmp(real, b->sysroot, n) && real[n] == '/')
		return real + n;
	return real;
}

/* 0 added or present, 1 skipped (not kept), -1 failed */
static int add_one(struct bc *b, const char *path, bool explicit)
{
	char real[PATH_MAX], id[TP_BIDKEY_STR], eb[256];
	struct tp_bidfile f;
	enum tp_bidres res;
	const char *why, *name;
	int r;

	if (!realpath(path, real)) {
		fprintf(stderr, "tinyperf: buildid-cache: %s: %s\n", path,
			cmd_error_text(eb, sizeof(eb), NULL, -errno));
		b->failed++;
		return -1;
	}
	r = tp_bidfile__identify(real, &f, &why, &b->log);
	if (r < 0) {
		b->failed++;
		fail(b, NULL, r);
		return -1;
	}
	if (r > 0) {
		if (explicit)
			fprintf(stderr, "tinyperf: buildid-cache: %s: not cached: %s\n", path, why);
		else if (b->verbose)
			printf("skipped %s: %s\n", path, why);
		b->skipped++;
		if (explicit)
			b->failed++;
		return explicit ? -1 : 1;
	}
	name = name_of(b, real);
	if (f.kind == TP_BID_KALLSYMS) {
		name = "[kernel.kallsyms]";
		if (b->build_id ? tp_bidkey__parse(&f.key, b->build_id) :
		    strcmp(real, "/proc/kallsyms") ? -1 : tp_bidfile__running_kernel(&f.key)) {
			fprintf(stderr, "tinyperf: buildid-cache: %s looks like a kallsyms: %s\n", path,
				b->build_id ? "--build-id wants the kernel's build-id in hex" :
				"give the kernel's build-id with --build-id (tinyperf buildid-list -i "
				"perf.data shows it)");
			b->failed++;
			return -1;
		}
	}
	if (f.kind == TP_BID_KALLSYMS && !strcmp(real, "/proc/kallsyms")) {
		uint8_t *buf;
		size_t len;

		/* /proc files stat as empty and change: take one snapshot */
		r = tp_fs__read_all(real, &buf, &len);
		if (r) {
			fprintf(stderr, "tinyperf: buildid-cache: %s: %s\n", path,
				cmd_error_text(eb, sizeof(eb), NULL, r));
			b->failed++;
			return -1;
		}
		r = tp_bidcache__add_buf(b->c, &f.key, name, f.kind, buf, len, &res);
		free(buf);
	} else {
		r = tp_bidcache__add(b->c, &f.key, name, &f.kind, real, !b->copy, &res);
	}
	if (r) {
		b->failed++;
		fail(b, NULL, r);
		return -1;
	}
	tp_bidkey__str(&f.key, id, sizeof(id));
	if (res == TP_BIDRES_PRESENT) {
		b->present++;
	} else {
		b->added++;
		b->linked += res == TP_BIDRES_LINKED;
	}
	if (b->verbose)
		printf("%s %s %s as %s (%s)\n", res == TP_BIDRES_PRESENT ? "had" : "added", id,
		       name, tp_bidkind_name(f.kind), res == TP_BIDRES_LINKED ? "hard link" :
		       res == TP_BIDRES_COPIED ? "copy" : "already cached");
	return 0;
}

static int walk_fn(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *dir = tp_bidcache__dir(walk_bc->c);
	size_t n = strlen(dir);

	(void)st;
	(void)ftw;
	if (flag != FTW_F)
		return 0;
	if (!strncmp(path, dir, n) && path[n] == '/')
		return 0;	/* the cache itself */
	add_one(walk_bc, path, false);
	return 0;
}

static void add_arg(struct bc *b, const char *path)
{
	struct stat st;
	char real[PATH_MAX], eb[256];

	if (stat(path, &st) || !S_ISDIR(st.st_mode) || !realpath(path, real)) {
		add_one(b, path, true);
		return;
	}
	walk_bc = b;
	if (nftw(real, walk_fn, 32, FTW_PHYS) < 0) {
		fprintf(stderr, "tinyperf: buildid-cache: %s: %s\n", path,
			cmd_error_text(eb, sizeof(eb), NULL, -errno));
		b->failed++;
	}
}

static int remove_arg(struct bc *b, const char *arg)
{
	struct tp_bidfile f;
	const char *why;
	int r;

	if (tp_bidkey__parse(&f.key, arg)) {
		r = tp_bidfile__identify(arg, &f, &why, &b->log);
		if (r) {
			if (r > 0)
				fprintf(stderr, "tinyperf: buildid-cache: --remove %s: neither a build-id "
					"nor a file with an identity (%s)\n", arg, why);
			return r < 0 ? fail(b, "--remove", r) : 1;
		}
		if (f.kind == TP_BID_KALLSYMS) {
			fprintf(stderr, "tinyperf: buildid-cache: --remove %s: give the kernel's "
				"build-id\n", arg);
			return 1;
		}
	}
	r = tp_bidcache__remove(b->c, &f.key);
	if (r < 0)
		return fail(b, "--remove", r);
	if (!r)
		fprintf(stderr, "tinyperf: buildid-cache: --remove %s: not in the cache\n", arg);
	else if (!b->quiet)
		printf("removed %s\n", arg);
	return 0;
}

static int list(struct bc *b)
{
	struct tp_bidentry *e;
	uint64_t total = 0, limit = tp_bidcache__max_size(b->c);
	char sz[32], when[32], id[TP_BIDKEY_STR], kinds[64];
	size_t n;
	int err = tp_bidcache__list(b->c, &e, &n);

	if (err)
		return fail(b, "--list", err);
	printf("# %-40s %8s  %-16s  %-14s %s\n", "build-id (or text hash)", "size", "last use",
	       "files", "name");
	for (size_t i = 0; i < n; i++) {
		time_t t = (time_t)e[i].last_used;
		struct tm tm;

		kinds[0] = '\0';
		for (unsigned k = 0; k < TP_BID_NR; k++) {
			if (!(e[i].kinds & 1u << k))
				continue;
			if (kinds[0])
				strcat(kinds, ",");
			strcat(kinds, tp_bidkind_name(k));
		}
		if (e[i].shared)
			strcat(kinds, " (linked)");
		localtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		tp_bidkey__str(&e[i].key, id, sizeof(id));
		printf("  %-40s %8s  %-16s  %-14s %s\n", id, human(e[i].bytes, sz, sizeof(sz)), when,
		       kinds, e[i].name[0] ? e[i].name : e[i].dir);
		total += e[i].bytes;
	}
	printf("# %zu entr%s, %llu bytes (%s)", n, n == 1 ? "y" : "ies", (unsigned long long)total,
	       human(total, sz, sizeof(sz)));
	if (limit)
		printf(", limit %llu bytes (%s)", (unsigned long long)limit, human(limit, sz, sizeof(sz)));
	printf(" in %s\n", tp_bidcache__dir(b->c));
	tp_bidentries__free(e, n);
	return 0;
}

/* is what d needs in the cache: its binary or debug file, or the kernel's kallsyms/vmlinux */
static bool cached(struct bc *b, const struct tp_dso *d, struct tp_bidkey *k)
{
	char path[PATH_MAX];

	tp_bidkey__of(k, d->build_id, d->build_id_size, d->text_hash);
	if (!strcmp(d->name, "[kernel.kallsyms]"))
		return tp_bidcache__find(b->c, k, TP_BID_KALLSYMS, path, sizeof(path)) ||
		       tp_bidcache__find(b->c, k, TP_BID_ELF, path, sizeof(path));
	if (!strcmp(d->name, "[vdso]"))
		return tp_bidcache__find(b->c, k, TP_BID_VDSO, path, sizeof(path));
	return tp_bidcache__find(b->c, k, TP_BID_ELF, path, sizeof(path)) ||
	       tp_bidcache__find(b->c, k, TP_BID_DEBUG, path, sizeof(path));
}

static int missing(struct bc *b, const char *file)
{
	struct tp_session *s = NULL;
	struct tp_dso **hit = NULL;
	struct cmd_input ci;
	size_t n = 0, nr_missing = 0, nr_noid = 0;
	int rc;

	if (cmd_input__open(&ci, "buildid-cache", file))
		return 1;
	rc = tp_session__new(&s, ci.r);
	if (!rc)
		rc = tp_hits__collect(s, NULL, &hit, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		const struct tp_dso *d = hit[i];
		char id[TP_BIDKEY_STR];
		struct tp_bidkey k;

		if (d->kernel && strcmp(d->name, "[kernel.kallsyms]"))
			continue;	/* modules: their symbols come with the kernel's kallsyms */
		if (!d->build_id_size && !d->text_hash) {
			nr_noid++;
			continue;
		}
		if (cached(b, d, &k))
			continue;
		tp_bidkey__str(&k, id, sizeof(id));
		printf("%-40s %s\n", id, d->name);
		nr_missing++;
	}
	if (!rc && !b->quiet && nr_noid)
		fprintf(stderr, "tinyperf: buildid-cache: %zu hit DSO%s recorded without a build-id "
			"or text hash: the cache cannot hold %s\n", nr_noid, nr_noid == 1 ? "" : "s",
			nr_noid == 1 ? "it" : "them");
	free(hit);
	tp_session__delete(s);
	rc = rc < 0 ? cmd_input__fail(&ci, rc) : cmd_input__finish(&ci);
	cmd_input__close(&ci);
	return rc;
}

static void print_trim(struct bc *b, const char *why, const struct tp_bidtrim *st)
{
	char a[32], t[32];

	if (!b->quiet)
		printf("%s: removed %zu entr%s (%s), %s left\n", why, st->removed,
		       st->removed == 1 ? "y" : "ies", human(st->freed, a, sizeof(a)),
		       human(st->total, t, sizeof(t)));
}

int cmd_buildid_cache(int argc, char **argv)
{
	enum { O_SYSROOT = 0x200, O_BUILD_ID, O_COPY, O_PURGE_OLDER, O_MAX_SIZE, O_BIDDIR };
	static const struct option opts[] = {
		{ "add", required_argument, NULL, 'a' },
		{ "remove", required_argument, NULL, 'r' },
		{ "list", no_argument, NULL, 'l' },
		{ "missing", required_argument, NULL, 'M' },
		{ "purge-all", no_argument, NULL, 'P' },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "symfs", required_argument, NULL, O_SYSROOT },
		{ "build-id", required_argument, NULL, O_BUILD_ID },
		{ "copy", no_argument, NULL, O_COPY },
		{ "purge-older-than", required_argument, NULL, O_PURGE_OLDER },
		{ "max-size", required_argument, NULL, O_MAX_SIZE },
		{ "buildid-dir", required_argument, NULL, O_BIDDIR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *adds[MAX_ARGS], *removes[MAX_ARGS], *missing_file = NULL, *dir = NULL;
	unsigned n_add = 0, n_rm = 0;
	bool do_list = false, purge_all = false, have_age = false, have_max = false;
	int64_t age = 0;
	uint64_t max = 0;
	char home[PATH_MAX], eb[256];
	struct bc b = { 0 };
	struct tp_bidtrim st;
	int c, err, rc = 0;

	b.log.fn = log_fn;
	b.log.ctx = &b;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:r:lM:Pvqh", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'a':
		case 'r':
			if ((c == 'a' ? n_add : n_rm) == MAX_ARGS) {
				fprintf(stderr, "tinyperf: buildid-cache: at most %d -%c\n", MAX_ARGS, c);
				return 2;
			}
			if (c == 'a')
				adds[n_add++] = optarg;
			else
				removes[n_rm++] = optarg;
			break;
		case 'l': do_list = true; break;
		case 'M': missing_file = optarg; break;
		case 'P': purge_all = true; break;
		case 'v': b.verbose = true; break;
		case 'q': b.quiet = true; break;
		case O_SYSROOT:
			if (!realpath(optarg, b.sysroot_buf)) {
				fprintf(stderr, "tinyperf: buildid-cache: --sysroot %s: %s\n", optarg,
					cmd_error_text(eb, sizeof(eb), NULL, -errno));
				return 2;
			}
			b.sysroot = strcmp(b.sysroot_buf, "/") ? b.sysroot_buf : NULL;
			break;
		case O_BUILD_ID: b.build_id = optarg; break;
		case O_COPY: b.copy = true; break;
		case O_BIDDIR: dir = optarg; break;
		case O_PURGE_OLDER:
			if (!parse_age(optarg, &age)) {
				fprintf(stderr, "tinyperf: buildid-cache: --purge-older-than '%s': expected "
					"a number and s, m, h, d or w (e.g. 30d)\n", optarg);
				return 2;
			}
			have_age = true;
			break;
		case O_MAX_SIZE:
			if (tp_parse_size(optarg, &max)) {
				fprintf(stderr, "tinyperf: buildid-cache: --max-size '%s': expected bytes "
					"or a number with K, M, G (e.g. 500M)\n", optarg);
				return 2;
			}
			have_max = true;
			break;
		default:
			return cmd_usage_error("buildid-cache", c, argv, usage);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tinyperf: buildid-cache: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!n_add && !n_rm && !do_list && !missing_file && !purge_all && !have_age && !have_max) {
		fprintf(stderr, "tinyperf: buildid-cache: nothing to do\n");
		usage(stderr);
		return 2;
	}
	if (!dir) {
		const char *h = getenv("HOME");

		if (!h || snprintf(home, sizeof(home), "%s/.debug", h) >= (int)sizeof(home)) {
			fprintf(stderr, "tinyperf: buildid-cache: no HOME: give --buildid-dir\n");
			return 2;
		}
		dir = home;
	}
	err = tp_bidcache__open(&b.c, dir, &b.log);
	if (err)
		return fail(&b, NULL, err);
	for (unsigned i = 0; i < n_rm; i++)
		rc |= remove_arg(&b, removes[i]);
	err = purge_all ? tp_bidcache__trim(b.c, 0, &st) : 0;
	if (purge_all && !err)
		print_trim(&b, "purge-all", &st);
	else if (purge_all)
		rc |= fail(&b, "--purge-all", err);
	for (unsigned i = 0; i < n_add; i++)
		add_arg(&b, adds[i]);
	if (n_add && !b.quiet)
		printf("added %u file%s (%u hard link%s, %u cop%s), %u already cached, %u skipped%s\n",
		       b.added, b.added == 1 ? "" : "s", b.linked, b.linked == 1 ? "" : "s",
		       b.added - b.linked, b.added - b.linked == 1 ? "y" : "ies", b.present,
		       b.skipped, b.skipped && !b.verbose ? " (-v says why)" : "");
	if (b.failed)
		rc = 1;
	if (have_age) {
		err = tp_bidcache__purge_older(b.c, (int64_t)time(NULL) - age, &st);
		if (err)
			rc |= fail(&b, "--purge-older-than", err);
		else
			print_trim(&b, "purge-older-than", &st);
	}
	err = have_max ? tp_bidcache__set_max_size(b.c, max) : 0;
	if (err)
		rc |= fail(&b, "--max-size", err);
	if (!have_max)
		max = tp_bidcache__max_size(b.c);
	if (max && (have_max || n_add)) {
		err = tp_bidcache__trim(b.c, max, &st);
		if (err)
			rc |= fail(&b, "--max-size", err);
		else if (st.removed || have_max)
			print_trim(&b, "max-size", &st);
	}
	if (missing_file)
		rc |= missing(&b, missing_file);
	if (do_list)
		rc |= list(&b);
	tp_bidcache__close(b.c);
	return rc;
}
