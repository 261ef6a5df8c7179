/* SPDX-License-Identifier: MIT */
/* The per-arch cases: every search route, every refusal, lines and inlines, ET_DYN, vmlinux. */
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
	{	/* every truncation, in a buffer of exactly that size: ASan sees any overread */
		size_t len, n;
		char *img = read_all(p[0], &len);

		for (n = 0; img && n <= len && !c.failed; n++) {
			char *cut = malloc(n ? n : 1);

			memcpy(cut, img, n);
			if (tp_text_hash(cut, n) && n < 64)
				EXPECT(&c, "a hash from less than an ELF header", 0, n);
			free(cut);
		}
		free(img);
	}
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

/* a stripped library and its debug file: symbols and lines from the debug file, PLT names
 * from the stripped file (the debug file's .plt has no bytes) */
static void test_debug_and_plt(const char *arch)
{
	char cname[96], path[PATH_MAX], facts[64] = "";
	struct setup su = { .sysroot = "s-plt" };
	const struct tp_symres *r = NULL;
	unsigned long long off = 0, size = 0;
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	struct tcase c;
	struct nmsym ns;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/libplt.plt", fx, arch);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(facts, sizeof(facts), f))
			facts[0] = 0;
		fclose(f);
	}
	if (sscanf(facts, "%llx %llx", &off, &size) != 2 || !size)
		return;		/* no .plt on this arch (MIPS: .MIPS.stubs) */
	snprintf(cname, sizeof(cname), "%s: a stripped library and its debug file combine", arch);
	c = case_begin(cname);
	dso = route(&c, arch, &su, "/usr/lib/libplt.so", "libplt.so", false, &s);
	if (dso && nm_lookup(arch, "libplt.so", "call_ext", &ns)) {
		snprintf(path, sizeof(path), "%s/%s/libplt.so", fx, arch);
		expect_suffix(&c, "elf_path", "s-plt/usr/lib/libplt.so", tp_symdso__info(dso)->elf_path);
		expect_suffix(&c, "debug_path", ".debug", tp_symdso__info(dso)->debug_path);
		EXPECT(&c, "lookup", 0, tp_symbolizer__lookup(s, dso, file_offset(path, ns.addr), &r));
		expect_str(&c, "call_ext, from the debug file", "call_ext", r ? r->name : NULL);
		EXPECT_TRUE(&c, "with its source line", r && r->file && r->line);
		EXPECT(&c, "lookup", 0, tp_symbolizer__lookup(s, dso, off + size - 1, &r));
		expect_str(&c, "the last PLT stub, from the stripped file", "ext_fn@plt",
			   r ? r->name : NULL);
	}
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
		EXPECT_TRUE(&c, "a repeated lookup gives the same answer",
			    r1 && r2 && r1->name == r2->name && r1->offset == r2->offset &&
			    r1->sym_start == r2->sym_start && r1->sym_size == r2->sym_size);
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
	/* the sysroot's stripped copy is found first; the debug dir's unstripped one is richer */
	ROUTE(test_route(arch, "debug dir searched by basename, decoy refused", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "dd/build/app-1.0/app", NULL),
	      .sysroot = "s-dd", .debug_dir = "dd/build");
	ROUTE(test_route(arch, "a stripped copy in the cache does not hide the sysroot's", &su,
			 "app", false, TP_SYMSRC_DEBUGINFO, "s-best/usr/bin/app", NULL),
	      .sysroot = "s-best", .buildid_dir = "cache-stripped");
	ROUTE(test_route(arch, "a .symtab-only copy in the cache gives way to DWARF", &su, "app",
			 false, TP_SYMSRC_DEBUGINFO, "s-best/usr/bin/app", NULL),
	      .sysroot = "s-best", .buildid_dir = "cache-symtab");
	ROUTE(test_route(arch, "a full copy in the cache beats the sysroot's .symtab-only", &su,
			 "app", false, TP_SYMSRC_DEBUGINFO, "/elf", NULL),
	      .sysroot = "s-symtab", .buildid_dir = "cache-elf");
	ROUTE(test_route(arch, "a stripped copy and a debug file combine", &su, "app", false,
			 TP_SYMSRC_DEBUGINFO, "/elf", ".debug"),
	      .sysroot = "s-bid", .buildid_dir = "cache-stripped");
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
			 "app.nobid", true, TP_SYMSRC_DEBUGINFO, "nbdd/build/app-1.0/app", NULL),
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
	test_debug_and_plt(arch);
	test_vmlinux(arch);
	test_unverified(arch);
}

