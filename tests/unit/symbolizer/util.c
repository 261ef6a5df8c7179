/* SPDX-License-Identifier: MIT */
/* Facts about the fixture files, taken independently of the code under test, and the
 * symbolizer setups the cases use. */
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
		if (sscanf(line, "%llx %llx %c %63s", &a, &sz, &type, n) != 4) {
			sz = 0;	/* no size: "addr type name" */
			if (sscanf(line, "%llx %c %63s", &a, &type, n) != 3)
				continue;
		}
		if (!strcmp(n, name)) {
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
	char cname[160], want[PATH_MAX + 512], pa[PATH_MAX], pb[PATH_MAX], a[130], b[130];
	uint8_t ida[64], idb[64];
	struct tcase c;
	struct tp_symbolizer *s;
	struct tp_symdso *dso;

	snprintf(cname, sizeof(cname), "%s: %s", arch, name);
	c = case_begin(cname);
	dso = route(&c, arch, su, "/usr/bin/app", idfile, use_hash, &s);
	snprintf(pa, sizeof(pa), "%s/%s/%s", fx, arch, idfile);
	snprintf(pb, sizeof(pb), "%s/%s/%s", fx, arch, wrongfile ? wrongfile : "none");
	if (dso) {
		EXPECT(&c, "status", status, tp_symdso__info(dso)->status);
		if (wrongfile && use_hash) {
			snprintf(want, sizeof(want), "text hash mismatch for %s/%s/%s/usr/bin/app: "
				 "recorded %016llx, file has %016llx", fx, arch, su->sysroot,
				 (unsigned long long)file_text_hash(pa),
				 (unsigned long long)file_text_hash(pb));
			expect_log(&c, want);
		} else if (wrongfile) {
			hexstr(a, ida, file_build_id(pa, ida));
			hexstr(b, idb, file_build_id(pb, idb));
			snprintf(want, sizeof(want), "build-id mismatch for %s/%s/%s/usr/bin/app: "
				 "recorded %s, file has %s", fx, arch, su->sysroot, a, b);
			expect_log(&c, want);
		} else if (use_hash) {
			snprintf(want, sizeof(want), "%s/%s/%s/usr/bin/.debug/app.nobid.debug does not "
				 "belong to", fx, arch, su->sysroot);
			expect_log(&c, want);
		}
		expect_funcs(&c, arch, use_hash ? "app.nobid" : "app", s, dso, false);
	}
	tp_symbolizer__delete(s);
	case_end(&c);
}
