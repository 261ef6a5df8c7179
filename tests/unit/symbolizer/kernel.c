/* SPDX-License-Identifier: MIT */
/* kallsyms relocation and debuginfod. */
/* ---- kernel: a real kallsyms, every address shifted, the original _text as reference ---- */

struct ksym {
	uint64_t addr;
	char type;
	char name[128];
	char mod[64];
};

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void test_kallsyms(void)
{
	const uint64_t shift = 0x200000;
	struct tcase c = case_begin("kallsyms from another boot: shifted by 0x200000, "
				    "relocated by _text");
	char path[PATH_MAX], line[512];
	struct ksym *k = NULL;
	size_t n = 0, cap = 0, i, checked = 0, mchecked = 0;
	uint64_t text = 0;
	struct tp_symbolizer *s = NULL;
	struct tp_symdso *dso = NULL, *mod;
	struct setup su = { .kallsyms = path };
	FILE *in = fopen("/proc/kallsyms", "r"), *out;

	snprintf(path, sizeof(path), "%s/kallsyms.shifted", fx);
	out = fopen(path, "w");
	while (in && out && fgets(line, sizeof(line), in)) {
		struct ksym ks = { 0 };
		unsigned long long a;

		if (sscanf(line, "%llx %c %127s [%63[^]]]", &a, &ks.type, ks.name, ks.mod) < 3)
			continue;
		ks.addr = a;
		fprintf(out, "%016llx %s", a ? a + shift : 0, strchr(line, ' ') + 1);
		if (!strcmp(ks.name, "_text") && !ks.mod[0])
			text = ks.addr;
		if (n == cap) {
			struct ksym *p = realloc(k, (cap = cap ? 2 * cap : 4096) * sizeof(*k));

			if (!p)
				break;
			k = p;
		}
		k[n++] = ks;
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	EXPECT_TRUE(&c, "/proc/kallsyms with addresses (root, kptr_restrict 0)", text != 0);
	if (text)
		s = mk("x86_64", &su);
	if (s)
		EXPECT(&c, "kernel", 0, tp_symbolizer__kernel(s, NULL, NULL, 0, "_text", text, &dso));
	if (dso) {
		EXPECT(&c, "status", TP_SYMDSO_OK, tp_symdso__info(dso)->status);
		expect_str(&c, "source", "kallsyms", tp_symsrc_str(tp_symdso__info(dso)->src));
		qsort(k, n, sizeof(*k), cmp_ksym);
		/* text symbols whose address no other symbol shares, with room after them */
		for (i = 1; i + 1 < n && !c.failed && (checked < 200 || mchecked < 20); i++) {
			const struct tp_symres *r = NULL;
			bool text_sym = k[i].type == 't' || k[i].type == 'T';

			if (!text_sym || k[i].addr == k[i - 1].addr || k[i + 1].addr < k[i].addr + 2 ||
			    (k[i].mod[0] ? mchecked >= 20 : checked >= 200) || i % 7)
				continue;
			if (k[i].mod[0]) {
				tp_symbolizer__kmodule(s, k[i].mod, &mod);
				tp_symbolizer__lookup(s, mod, k[i].addr + 1, &r);
				mchecked++;
			} else {
				tp_symbolizer__lookup(s, dso, k[i].addr + 1, &r);
				checked++;
			}
			expect_str(&c, "symbol at its runtime address + 1", k[i].name, r ? r->name : NULL);
			EXPECT(&c, "offset", 1, r ? r->offset : 0);
		}
		EXPECT_TRUE(&c, "core kernel symbols checked", checked > 0);
	}
	if (getenv("TP_SYMTEST_VERBOSE"))
		printf("    kallsyms: %zu core and %zu module symbols checked\n", checked, mchecked);
	tp_symbolizer__delete(s);
	free(k);
	case_end(&c);
}

/* ---- kallsyms parsing and modules, from a file written here ---- */

static void test_kallsyms_parse(void)
{
	static const char text[] =
		"0000000000001000 T _text\n"
		"0000000000001000 t alias_local\n"
		"0000000000001010 T func_a\n"
		"0000000000001040 t func_b\n"
		"0000000000001080 D some_data\n"
		"this line is not kallsyms\n"
		"0000000000000000 T hidden_by_kptr_restrict\n"
		"ffffffffc0001000 t mod_fn1\t[mymod]\n"
		"ffffffffc0001100 t mod_fn2\t[mymod]\n"
		"ffffffffc0002000 T other_fn\t[other]";
	const int64_t runtime_shift = 0x5000;	/* this boot's kernel sits 0x5000 higher */
	static const struct { uint64_t addr; const char *mod, *name; uint64_t off; } cases[] = {
		/* unsized aliases: perf sizes before it folds, so the last one listed wins */
		{ 0x1005, NULL, "alias_local", 5 },
		{ 0x1011, NULL, "func_a", 1 },
		{ 0x1040, NULL, "func_b", 0 },
		{ 0x1081, NULL, NULL, 0 },		/* data */
		{ 0xffffffffc0001105ULL, "[mymod]", "mod_fn2", 5 },
		{ 0xffffffffc0002004ULL, "[mymod]", NULL, 0 },	/* other's */
		{ 0xffffffffc0002004ULL, "other", "other_fn", 4 },
	};
	struct tcase c = case_begin("kallsyms: aliases, data, bad lines, modules, relocation");
	char path[PATH_MAX], what[96];
	struct setup su = { .kallsyms = path };
	struct tp_symbolizer *s;
	struct tp_symdso *k = NULL, *d, *none = NULL;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms.synthetic", fx);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	s = mk("x86_64", &su);
	EXPECT(&c, "kernel", 0, tp_symbolizer__kernel(s, NULL, NULL, 0, "_text",
						      0x1000 + runtime_shift, &k));
	EXPECT(&c, "kernel_reloc", runtime_shift, k ? tp_symdso__info(k)->kernel_reloc : 0);
	for (i = 0; i < ARRAY_SIZE(cases) && k; i++) {
		const struct tp_symres *r = NULL;

		d = k;
		if (cases[i].mod)
			EXPECT(&c, "kmodule", 0, tp_symbolizer__kmodule(s, cases[i].mod, &d));
		snprintf(what, sizeof(what), "%s %#llx", cases[i].mod ? cases[i].mod : "kernel",
			 (unsigned long long)cases[i].addr);
		tp_symbolizer__lookup(s, d, cases[i].addr + (uint64_t)runtime_shift, &r);
		expect_str(&c, what, cases[i].name, r ? r->name : NULL);
		if (cases[i].name)
			EXPECT(&c, what, cases[i].off, r ? r->offset : 0);
	}
	{	/* garbage in: parsed or refused, never read out of bounds (ASan) */
		static const char alphabet[] = "0123456789abcdef \t\n[]Ttd";
		char junk[256];
		struct tp_kallsyms ks;
		unsigned seed = 1, it;

		for (it = 0; it < 2000; it++) {
			size_t n = (seed = seed * 1103515245 + 12345) % sizeof(junk), j;

			for (j = 0; j < n; j++) {
				seed = seed * 1103515245 + 12345;
				junk[j] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
			}
			if (tp_kallsyms__parse(&ks, junk, n, "_text") == 0)
				tp_kallsyms__exit(&ks);
		}
	}
	EXPECT(&c, "kmodule of an absent module", 0, tp_symbolizer__kmodule(s, "[nomod]", &none));
	EXPECT(&c, "absent module: status", TP_SYMDSO_NOT_FOUND,
	       none ? tp_symdso__info(none)->status : 0);
	tp_symbolizer__delete(s);
	case_end(&c);
}

/* the kernel without --vmlinux/--kallsyms: <sysroot>/boot/vmlinux-<rel>, then perf's cached
 * [kernel.kallsyms]/<id>/kallsyms */
static void test_kernel_search(void)
{
	static const struct setup setups[] = {
		{ .sysroot = "s-kernel" }, { .buildid_dir = "cache-kernel" },
	};
	static const char *const srcs[] = { "debuginfo", "kallsyms" };
	const uint64_t shift = 0x300000;
	struct tcase c = case_begin("x86_64: kernel from <sysroot>/boot/vmlinux-<rel> and from "
				    "the build-id cache's kallsyms");
	char path[PATH_MAX];
	uint8_t id[64];
	size_t id_len, i, j;
	struct nmsym text, ns;

	snprintf(path, sizeof(path), "%s/x86_64/vmlinux", fx);
	id_len = file_build_id(path, id);
	if (!nm_lookup("x86_64", "vmlinux", "_text", &text))
		EXPECT_TRUE(&c, "fixture", 0);
	for (i = 0; i < ARRAY_SIZE(setups) && !c.failed; i++) {
		struct tp_symbolizer *s = mk("x86_64", &setups[i]);
		struct tp_symdso *k = NULL;

		tp_symbolizer__kernel(s, "6.1.0-tp", id, id_len, "_text", text.addr + shift, &k);
		EXPECT(&c, "status", TP_SYMDSO_OK, k ? tp_symdso__info(k)->status : 99);
		EXPECT(&c, "verified by build-id", TP_SYMVERIFY_BUILD_ID,
		       k ? tp_symdso__info(k)->verify : 0);
		expect_str(&c, "source", srcs[i], k ? tp_symsrc_str(tp_symdso__info(k)->src) : NULL);
		for (j = 0; j < ARRAY_SIZE(funcs) && k; j++) {
			const struct tp_symres *r = NULL;

			if (!nm_lookup("x86_64", "vmlinux", funcs[j], &ns))
				continue;
			tp_symbolizer__lookup(s, k, ns.addr + shift + 1, &r);
			expect_str(&c, "runtime address + 1", funcs[j], r ? r->name : NULL);
		}
		tp_symbolizer__delete(s);
	}
	case_end(&c);
}

/* ---- debuginfod: python's http.server serving buildid/<id>/debuginfo ---- */

static pid_t start_server(int port)
{
	char dir[PATH_MAX], portstr[16];
	pid_t pid;
	int i;

	snprintf(dir, sizeof(dir), "%s/srv", fx);
	snprintf(portstr, sizeof(portstr), "%d", port);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("python3", "python3", "-m", "http.server", portstr, "--bind", "127.0.0.1",
		       "--directory", dir, (char *)NULL);
		_exit(127);
	}
	for (i = 0; pid > 0 && i < 100; i++) {	/* up to 10 s for it to listen */
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
		int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
		close(fd);
		if (ok)
			return pid;
		usleep(100000);
	}
	return -1;
}

static void test_debuginfod(const char *arch, int port)
{
	char cname[96], url[64], cache[PATH_MAX];
	struct setup su = { .sysroot = "s-dinfod", .online = true };
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	struct tcase c;

	snprintf(cname, sizeof(cname), "%s: debuginfod serves the debug file of a stripped binary",
		 arch);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/debuginfod-cache", fx);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_TIMEOUT", "10", 1);
	c = case_begin(cname);
	dso = route(&c, arch, &su, "/usr/bin/app", "app", false, &s);
	if (dso && !tp_symdso__info(dso)->debug_path && !strstr(logbuf, "debuginfod")) {
		/* libdw dlopens libdebuginfod.so.1: without it there is nothing to test */
		void *h = dlopen("libdebuginfod.so.1", RTLD_LAZY);

		if (!h) {
			printf("[OK] %s (libdebuginfod not available)\n", cname);
			n_passed++;
			tp_symbolizer__delete(s);
			return;
		}
		dlclose(h);
	}
	if (dso) {
		expect_suffix(&c, "debug_path (in DEBUGINFOD_CACHE_PATH)", "debuginfo",
			      tp_symdso__info(dso)->debug_path);
		expect_funcs(&c, arch, "app", s, dso, true);
	}
	tp_symbolizer__delete(s);
	if (!strcmp(arch, "x86_64")) {
		/* nothing local at all: the executable comes from debuginfod too */
		su.sysroot = "s-empty";
		dso = route(&c, arch, &su, "/usr/bin/app", "app", false, &s);
		if (dso) {
			expect_suffix(&c, "elf_path from debuginfod", "executable",
				      tp_symdso__info(dso)->elf_path);
			expect_funcs(&c, arch, "app", s, dso, true);
		}
		tp_symbolizer__delete(s);
	}
	unsetenv("DEBUGINFOD_URLS");
	case_end(&c);
}

