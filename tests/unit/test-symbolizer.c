/* Unit tests for the symbolizer (host-tools/lib/sym*.c, kallsyms.c, debugpath.c) and
 * perfdata/texthash.c. symbolizer-fixtures.sh builds a small program for x86_64, ARM (Thumb),
 * big-endian MIPS and AArch64 and lays it out in every place the symbolizer searches; each
 * route must resolve the functions at the addresses nm gives for the unstripped file, and
 * every wrong file (rebuilt, other text hash, bad debuglink CRC) must be refused with a message
 * naming it and both identities, leaving addresses unresolved.
 * Set TP_SYMTEST_VERBOSE=1 to see the symbolizer's messages; TP_SYMTEST_KEEP=1 keeps the
 * fixtures. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/lib/symbolizer.h"
#include "perfdata/texthash.h"
#include "tests/unit/check.h"

CHECK_COUNTERS;

static char fx[PATH_MAX];	/* the fixture root */
static int facts[4];		/* L_INNER_FIRST, L_INNER_LAST, L_CALL_INNER, L_CALL_OUTER */
static char logbuf[32768];
static size_t loglen;

static void log_cb(void *ctx, enum tp_log_level level, const char *msg)
{
	size_t n = strlen(msg);

	(void)ctx;
	if (getenv("TP_SYMTEST_VERBOSE"))
		printf("    log[%d] %s\n", (int)level, msg);
	if (loglen + n + 2 < sizeof(logbuf)) {
		memcpy(logbuf + loglen, msg, n);
		loglen += n;
		logbuf[loglen++] = '\n';
		logbuf[loglen] = '\0';
	}
}

static bool expect_str(struct tcase *c, const char *what, const char *exp, const char *got)
{
	if (c->failed)
		return false;
	if (exp && got && !strcmp(exp, got))
		return true;
	if (!exp && !got)
		return true;
	c->failed = true;
	printf("[FAIL] %s: %s: expected %s%s%s, got %s%s%s\n", c->name, what, exp ? "\"" : "",
	       exp ? exp : "unresolved", exp ? "\"" : "", got ? "\"" : "", got ? got : "unresolved",
	       got ? "\"" : "");
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);

	return s && a >= b && !strcmp(s + a - b, suffix);
}

static bool expect_suffix(struct tcase *c, const char *what, const char *suffix, const char *got)
{
	if (c->failed || ends_with(got, suffix))
		return !c->failed;
	c->failed = true;
	printf("[FAIL] %s: %s: expected a path ending in \"%s\", got \"%s\"\n", c->name, what,
	       suffix, got ? got : "(null)");
	return false;
}

static bool expect_log(struct tcase *c, const char *want)
{
	if (c->failed || strstr(logbuf, want))
		return !c->failed;
	c->failed = true;
	printf("[FAIL] %s: expected the message \"%s\", got:\n%s", c->name, want,
	       loglen ? logbuf : "(no messages)\n");
	return false;
}

/* ---- facts about the fixture files, taken independently of the code under test ---- */

struct nmsym {
	char name[64];
	uint64_t addr, size;
};

static bool nm_lookup(const char *arch, const char *file, const char *name, struct nmsym *out)
{
	char path[PATH_MAX], line[256], type;
	unsigned long long a, sz;
	char n[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s.nm", fx, arch, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llx %c %63s", &a, &sz, &type, n) == 4 && !strcmp(n, name)) {
			snprintf(out->name, sizeof(out->name), "%s", n);
			out->addr = a;
			out->size = sz;
			found = true;
		}
	}
	fclose(f);
	return found;
}

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY);
	return *fd < 0 ? NULL : elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

/* the file offset the session would compute (ip - map.start + map.pgoff) for vaddr */
static uint64_t file_offset(const char *path, uint64_t vaddr)
{
	uint64_t off = UINT64_MAX;
	size_t i, n;
	int fd;
	Elf *e = open_elf(path, &fd);

	if (e && !elf_getphdrnum(e, &n)) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz)
				off = vaddr - ph.p_vaddr + ph.p_offset;
		}
	}
	elf_end(e);
	if (fd >= 0)
		close(fd);
	return off;
}

static size_t file_build_id(const char *path, uint8_t *id)
{
	const void *p;
	ssize_t n = -1;
	int fd;
	Elf *e = open_elf(path, &fd);

	if (e)
		n = dwelf_elf_gnu_build_id(e, &p);
	if (n > 0)
		memcpy(id, p, (size_t)n);
	elf_end(e);
	if (fd >= 0)
		close(fd);
	return n > 0 ? (size_t)n : 0;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap);

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *p = realloc(buf, cap *= 2);

			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static uint64_t file_text_hash(const char *path)
{
	size_t len;
	char *buf = read_all(path, &len);
	uint64_t h = buf ? tp_text_hash(buf, len) : 0;

	free(buf);
	return h;
}

static void hexstr(char *out, const uint8_t *id, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = '\0';
}

/* ---- the symbolizer under test ---- */

struct setup {
	const char *sysroot;	/* relative to the arch dir */
	const char *buildid_dir;	/* relative to the arch dir, NULL = none */
	const char *debug_dir;	/* relative to the arch dir, NULL = none */
	const char *vmlinux;
	const char *kallsyms;	/* absolute */
	bool online, strict;
};

static struct tp_symbolizer *mk(const char *arch, const struct setup *su)
{
	char sysroot[PATH_MAX], bd[PATH_MAX] = "", dd[PATH_MAX], vm[PATH_MAX];
	const char *dds[1] = { dd };
	struct tp_symconf conf = {
		.want_lines = true, .want_inlines = true, .offline = !su->online,
		.strict = su->strict, .buildid_dir = bd, .kallsyms = su->kallsyms,
		.log = { .fn = log_cb },
	};

	loglen = 0;
	logbuf[0] = '\0';
	snprintf(sysroot, sizeof(sysroot), "%s/%s/%s", fx, arch, su->sysroot ? su->sysroot : "s-empty");
	conf.sysroot = sysroot;
	if (su->buildid_dir)
		snprintf(bd, sizeof(bd), "%s/%s/%s", fx, arch, su->buildid_dir);
	if (su->debug_dir) {
		snprintf(dd, sizeof(dd), "%s/%s/%s", fx, arch, su->debug_dir);
		conf.debug_dirs = dds;
		conf.n_debug_dirs = 1;
	}
	if (su->vmlinux) {
		snprintf(vm, sizeof(vm), "%s/%s/%s", fx, arch, su->vmlinux);
		conf.vmlinux = vm;
	}
	return tp_symbolizer__new(&conf);
}

static const char *const funcs[] = { "alpha", "beta", "gamma_fn", "_start" };

/* every function of `file` resolves at its start and 2 bytes in, given as file offsets */
static void expect_funcs(struct tcase *c, const char *arch, const char *file,
			 struct tp_symbolizer *s, struct tp_symdso *dso, bool resolved)
{
	char path[PATH_MAX], what[128];
	size_t i;
	int d;

	snprintf(path, sizeof(path), "%s/%s/%s", fx, arch, file);
	for (i = 0; i < ARRAY_SIZE(funcs); i++) {
		struct nmsym ns;

		if (!nm_lookup(arch, file, funcs[i], &ns)) {
			expect_str(c, "nm of the fixture", funcs[i], NULL);
			return;
		}
		for (d = 0; d <= 2; d += 2) {
			const struct tp_symres *r = NULL;
			uint64_t off = file_offset(path, ns.addr + (uint64_t)d);

			snprintf(what, sizeof(what), "%s+%d (vaddr %#llx, file offset %#llx)",
				 funcs[i], d, (unsigned long long)ns.addr + (unsigned)d,
				 (unsigned long long)off);
			EXPECT(c, "lookup returns 0", 0, tp_symbolizer__lookup(s, dso, off, &r));
			if (!r)
				return;
			expect_str(c, what, resolved ? funcs[i] : NULL, r->name);
			if (resolved)
				EXPECT(c, what, (uint64_t)d, r->offset);
		}
	}
}

/* a route: `dev_path` recorded with the build-id (or text hash) of `idfile`, in `su` */
static struct tp_symdso *route(struct tcase *c, const char *arch, const struct setup *su,
			       const char *dev_path, const char *idfile, bool use_hash,
			       struct tp_symbolizer **sp)
{
	char path[PATH_MAX];
	uint8_t id[64];
	size_t id_len = 0;
	uint64_t hash = 0;
	struct tp_symdso *dso = NULL;

	*sp = mk(arch, su);
	if (!*sp) {
		EXPECT_TRUE(c, "tp_symbolizer__new", 0);
		return NULL;
	}
	if (idfile) {
		snprintf(path, sizeof(path), "%s/%s/%s", fx, arch, idfile);
		if (use_hash)
			hash = file_text_hash(path);
		else
			id_len = file_build_id(path, id);
	}
	EXPECT(c, "tp_symbolizer__dso", 0, tp_symbolizer__dso(*sp, dev_path, id, id_len, hash, &dso));
	return dso;
}

static void test_route(const char *arch, const char *name, const struct setup *su,
		       const char *idfile, bool use_hash, enum tp_symsrc src,
		       const char *want_elf, const char *want_debug)
{
	char cname[160];
	struct tcase c;
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	const struct tp_symdso_info *in;

	snprintf(cname, sizeof(cname), "%s: %s", arch, name);
	c = case_begin(cname);
	dso = route(&c, arch, su, "/usr/bin/app", idfile, use_hash, &s);
	if (dso) {
		in = tp_symdso__info(dso);
		EXPECT(&c, "status", TP_SYMDSO_OK, in->status);
		EXPECT(&c, "verified by", use_hash ? TP_SYMVERIFY_TEXT_HASH : TP_SYMVERIFY_BUILD_ID,
		       in->verify);
		expect_str(&c, "symbol source", tp_symsrc_str(src), tp_symsrc_str(in->src));
		if (want_elf)
			expect_suffix(&c, "elf_path", want_elf, in->elf_path);
		if (want_debug)
			expect_suffix(&c, "debug_path", want_debug, in->debug_path);
		expect_funcs(&c, arch, use_hash ? "app.nobid" : "app", s, dso, true);
	}
	tp_symbolizer__delete(s);
	case_end(&c);
}

/* a wrong file is refused, named with both identities, and nothing resolves */
static void test_refused(const char *arch, const char *name, const struct setup *su,
			 const char *idfile, const char *wrongfile, bool use_hash,
			 enum tp_symstatus status)
{
	char cname[160], want[512], a[130], b[130];
	uint8_t ida[64], idb[64];
	struct tcase c;
	struct tp_symbolizer *s;
	struct tp_symdso *dso;

	snprintf(cname, sizeof(cname), "%s: %s", arch, name);
	c = case_begin(cname);
	dso = route(&c, arch, su, "/usr/bin/app", idfile, use_hash, &s);
	if (dso) {
		EXPECT(&c, "status", status, tp_symdso__info(dso)->status);
		if (wrongfile && use_hash) {
			snprintf(a, sizeof(a), "%s/%s/%s", fx, arch, idfile);
			snprintf(b, sizeof(b), "%s/%s/%s", fx, arch, wrongfile);
			snprintf(want, sizeof(want), "text hash mismatch for %s/%s/%s/usr/bin/app: "
				 "recorded %016llx, file has %016llx", fx, arch, su->sysroot,
				 (unsigned long long)file_text_hash(a),
				 (unsigned long long)file_text_hash(b));
			expect_log(&c, want);
		} else if (wrongfile) {
			snprintf(want, sizeof(want), "%s/%s/%s", fx, arch, idfile);
			hexstr(a, ida, file_build_id(want, ida));
			snprintf(want, sizeof(want), "%s/%s/%s", fx, arch, wrongfile);
			hexstr(b, idb, file_build_id(want, idb));
			snprintf(want, sizeof(want), "build-id mismatch for %s/%s/%s/usr/bin/app: "
				 "recorded %s, file has %s", fx, arch, su->sysroot, a, b);
			expect_log(&c, want);
		}
		expect_funcs(&c, arch, use_hash ? "app.nobid" : "app", s, dso, false);
	}
	tp_symbolizer__delete(s);
	case_end(&c);
}

static void test_text_hash(const char *arch)
{
	char cname[96], p[4][PATH_MAX];
	static const char *const files[] = { "app.nobid", "app.nobid.stripped", "app.nobid.dl",
					     "app.nobid.rebuilt" };
	uint64_t h[4];
	struct tcase c;
	size_t i;

	snprintf(cname, sizeof(cname), "%s: text hash survives strip and debuglink, not a rebuild",
		 arch);
	c = case_begin(cname);
	for (i = 0; i < 4; i++) {
		snprintf(p[i], sizeof(p[i]), "%s/%s/%s", fx, arch, files[i]);
		h[i] = file_text_hash(p[i]);
	}
	EXPECT_TRUE(&c, "hash of the unstripped file is not 0", h[0] != 0);
	EXPECT(&c, "stripped == unstripped", h[0], h[1]);
	EXPECT(&c, "with .gnu_debuglink == unstripped", h[0], h[2]);
	EXPECT_TRUE(&c, "rebuilt != original", h[3] != h[0]);
	EXPECT(&c, "not an ELF: 0", 0, tp_text_hash("hello, world, this is no ELF file at all"
						     "...................", 60));
	case_end(&c);
}

/* gamma_fn inlines outer_helper which inlines inner_helper: some address in gamma_fn must
 * show both, innermost first, with the call lines of prog.c */
static void test_inlines(const char *arch)
{
	char cname[96], path[PATH_MAX];
	struct setup su = { .sysroot = "s-path" };
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	struct nmsym ns;
	struct tcase c;
	uint64_t a;
	bool seen = false;

	snprintf(cname, sizeof(cname), "%s: source lines and the inline chain", arch);
	c = case_begin(cname);
	dso = route(&c, arch, &su, "/usr/bin/app", "app", false, &s);
	snprintf(path, sizeof(path), "%s/%s/app", fx, arch);
	if (dso && nm_lookup(arch, "app", "gamma_fn", &ns)) {
		for (a = ns.addr; a < ns.addr + ns.size && !seen && !c.failed; a += 2) {
			const struct tp_symres *r;

			if (tp_symbolizer__lookup(s, dso, file_offset(path, a), &r) || !r)
				break;
			expect_str(&c, "symbol", "gamma_fn", r->name);
			if (r->n_inline != 2)
				continue;
			seen = true;
			expect_str(&c, "inl[0].func", "inner_helper", r->inl[0].func);
			expect_str(&c, "inl[1].func", "outer_helper", r->inl[1].func);
			EXPECT(&c, "inl[0].call_line (outer_helper calls inner_helper)", facts[2],
			       r->inl[0].call_line);
			EXPECT(&c, "inl[1].call_line (gamma_fn calls outer_helper)", facts[3],
			       r->inl[1].call_line);
			expect_suffix(&c, "inl[0].call_file", "prog.c", r->inl[0].call_file);
			expect_suffix(&c, "file", "prog.c", r->file);
			EXPECT_TRUE(&c, "line inside inner_helper",
				    r->line >= (unsigned)facts[0] && r->line <= (unsigned)facts[1]);
		}
	}
	EXPECT_TRUE(&c, "an address with inner_helper inlined in outer_helper in gamma_fn", seen);
	tp_symbolizer__delete(s);
	case_end(&c);
}

static void test_shared_lib(const char *arch)
{
	char cname[96];
	struct setup su = { .sysroot = "s-so" };
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	struct tcase c;

	snprintf(cname, sizeof(cname), "%s: ET_DYN shared library, file offsets", arch);
	c = case_begin(cname);
	dso = route(&c, arch, &su, "/usr/lib/libdemo.so", "libdemo.so", false, &s);
	if (dso)
		expect_funcs(&c, arch, "libdemo.so", s, dso, true);
	tp_symbolizer__delete(s);
	case_end(&c);
}

static void test_vmlinux(const char *arch)
{
	const uint64_t shift = 0x1000000;
	char cname[96], path[PATH_MAX];
	struct setup su = { .vmlinux = "vmlinux" };
	struct tp_symbolizer *s;
	struct tp_symdso *dso = NULL;
	uint8_t id[64], bad[20] = { 1, 2, 3 };
	size_t id_len, i;
	struct nmsym text, ns;
	struct tcase c;

	snprintf(cname, sizeof(cname), "%s: --vmlinux relocated by the _text reference", arch);
	c = case_begin(cname);
	snprintf(path, sizeof(path), "%s/%s/vmlinux", fx, arch);
	id_len = file_build_id(path, id);
	s = mk(arch, &su);
	if (!nm_lookup(arch, "vmlinux", "alpha", &text) || !s) {
		EXPECT_TRUE(&c, "fixture", 0);
	} else {
		EXPECT(&c, "kernel", 0, tp_symbolizer__kernel(s, "6.1.0", id, id_len, "_text",
							      text.addr + shift, &dso));
		EXPECT(&c, "status", TP_SYMDSO_OK, tp_symdso__info(dso)->status);
		EXPECT(&c, "kernel_reloc", shift, tp_symdso__info(dso)->kernel_reloc);
		for (i = 0; i < ARRAY_SIZE(funcs) && nm_lookup(arch, "vmlinux", funcs[i], &ns); i++) {
			const struct tp_symres *r = NULL;

			tp_symbolizer__lookup(s, dso, ns.addr + shift + 2, &r);
			expect_str(&c, "runtime address + 2", funcs[i], r ? r->name : NULL);
			EXPECT(&c, "offset", 2, r ? r->offset : 0);
		}
	}
	tp_symbolizer__delete(s);
	s = mk(arch, &su);
	if (s) {
		tp_symbolizer__kernel(s, "6.1.0", bad, sizeof(bad), "_text", text.addr, &dso);
		EXPECT(&c, "a vmlinux with another build-id: status", TP_SYMDSO_MISMATCH,
		       tp_symdso__info(dso)->status);
		expect_log(&c, "build-id mismatch for ");
	}
	tp_symbolizer__delete(s);
	case_end(&c);
}

static void test_unverified(const char *arch)
{
	char cname[96];
	struct setup su = { .sysroot = "s-path" };
	struct tp_symbolizer *s;
	struct tp_symdso *dso, *again;
	const struct tp_symres *r1, *r2;
	struct tcase c;

	snprintf(cname, sizeof(cname), "%s: nothing recorded: used with a warning, not if strict",
		 arch);
	c = case_begin(cname);
	dso = route(&c, arch, &su, "/usr/bin/app", NULL, false, &s);
	if (dso) {
		EXPECT(&c, "verified by", TP_SYMVERIFY_NONE, tp_symdso__info(dso)->verify);
		expect_log(&c, "using ");
		expect_funcs(&c, arch, "app", s, dso, true);
		tp_symbolizer__dso(s, "/usr/bin/app", NULL, 0, 0, &again);
		EXPECT_TRUE(&c, "same identity, same handle", again == dso);
		tp_symbolizer__lookup(s, dso, 0x40, &r1);
		tp_symbolizer__lookup(s, dso, 0x40, &r2);
		EXPECT_TRUE(&c, "a repeated lookup comes from the cache", r1 == r2);
	}
	tp_symbolizer__delete(s);
	su.strict = true;
	dso = route(&c, arch, &su, "/usr/bin/app", NULL, false, &s);
	if (dso)
		expect_funcs(&c, arch, "app", s, dso, false);
	tp_symbolizer__delete(s);
	case_end(&c);
}

static void test_arch(const char *arch)
{
	struct setup su;

	test_text_hash(arch);
#define ROUTE(name, ...) do { su = (struct setup){ __VA_ARGS__ }; name; } while (0)
	ROUTE(test_route(arch, "sysroot path, unstripped", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "s-path/usr/bin/app", NULL), .sysroot = "s-path");
	ROUTE(test_route(arch, "debuglink <dir>/<name>", &su, "app", false, TP_SYMSRC_DEBUGINFO,
			 NULL, "s-dl-dir/usr/bin/app.debug"), .sysroot = "s-dl-dir");
	ROUTE(test_route(arch, "debuglink <dir>/.debug/<name>", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, NULL, "s-dl-dotdebug/usr/bin/.debug/app.debug"),
	      .sysroot = "s-dl-dotdebug");
	ROUTE(test_route(arch, "debuglink /usr/lib/debug<dir>/<name>", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, NULL, "s-dl-global/usr/lib/debug/usr/bin/app.debug"),
	      .sysroot = "s-dl-global");
	ROUTE(test_route(arch, "sysroot /usr/lib/debug/.build-id", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "s-bid/usr/bin/app", ".debug"), .sysroot = "s-bid");
	ROUTE(test_route(arch, "yocto <dir>/.debug/<basename>", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, NULL, "s-yocto/usr/bin/.debug/app"),
	      .sysroot = "s-yocto");
	ROUTE(test_route(arch, "build-id cache .build-id/xx/yyyy/elf", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "/elf", NULL), .buildid_dir = "cache-elf");
	ROUTE(test_route(arch, "build-id cache .build-id/xx/yyyy/debug", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "/elf", "/debug"), .buildid_dir = "cache-debug");
	ROUTE(test_route(arch, "debug dir searched by basename, decoy refused", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "s-dd/usr/bin/app", "dd/build/app-1.0/app"),
	      .sysroot = "s-dd", .debug_dir = "dd/build");
	ROUTE(test_route(arch, "only a debug file, by build-id, stands in", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, ".debug", NULL), .sysroot = "s-debugonly");
	ROUTE(test_route(arch, "MiniDebugInfo (.gnu_debugdata)", &su, "app", false,
			 TP_SYMSRC_MINIDEBUGINFO, "s-mini/usr/bin/app", NULL), .sysroot = "s-mini");
	ROUTE(test_route(arch, "no build-id: unstripped file matched by text hash", &su,
			 "app.nobid", true, TP_SYMSRC_DEBUGINFO, "s-nb-path/usr/bin/app", NULL),
	      .sysroot = "s-nb-path");
	ROUTE(test_route(arch, "no build-id: debuglink checked by CRC", &su, "app.nobid", true,
			 TP_SYMSRC_DEBUGINFO, NULL, ".debug/app.nobid.debug"), .sysroot = "s-nb-dl");
	ROUTE(test_route(arch, "no build-id: debug dir copy matched by text hash", &su,
			 "app.nobid", true, TP_SYMSRC_DEBUGINFO, NULL, "nbdd/build/app-1.0/app"),
	      .sysroot = "s-nb-dd", .debug_dir = "nbdd/build");
	ROUTE(test_refused(arch, "rebuilt binary refused by build-id", &su, "app", "app.rebuilt",
			   false, TP_SYMDSO_MISMATCH), .sysroot = "s-rebuilt");
	ROUTE(test_refused(arch, "rebuilt binary refused by text hash", &su, "app.nobid",
			   "app.nobid.rebuilt", true, TP_SYMDSO_MISMATCH), .sysroot = "s-nb-rebuilt");
	ROUTE(test_refused(arch, "debuglink with a bad CRC refused", &su, "app.nobid", NULL, true,
			   TP_SYMDSO_OK), .sysroot = "s-nb-dl-bad");
	ROUTE(test_refused(arch, "nothing there", &su, "app", NULL, false, TP_SYMDSO_NOT_FOUND),
	      .sysroot = "s-empty");
#undef ROUTE
	test_inlines(arch);
	test_shared_lib(arch);
	test_vmlinux(arch);
	test_unverified(arch);
}
