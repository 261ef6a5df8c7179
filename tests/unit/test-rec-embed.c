/* SPDX-License-Identifier: MIT */
/* tests for embedded symbols: the TP_FEAT_SYMTAB codec (perfdata/symtab.c) round trip in both
 * byte orders through the host's decoder (host-tools/lib/data/symembed.c), its checks on broken
 * sections, the encoder's size cap, and the recorder's bounded address set
 * (recorder/track/addrset.c) degrading without ever missing an address, and the cache of kernel
 * functions named in this boot (recorder/track/ksyms-cache.c): what it keeps, merges and finds, and
 * every file it must refuse.
 * Prints [OK]/[FAIL] per case and "test-rec-embed: N passed, N failed". */
#define _GNU_SOURCE
#include "tests/unit/rec-test.h"
#include "host-tools/lib/common/error.h"
#include "host-tools/lib/data/symembed.h"
#include "perfdata/symtab.h"
#include "recorder/track/addrset.h"
#include "recorder/track/ksyms-cache.h"
#include "recorder/embed/symembed.h"

#include <sys/stat.h>
#include <unistd.h>

static uint8_t out_mem[1 << 16];
static char str_mem[1 << 14];
static uint32_t hash_mem[1024];

static const struct tp_symtab_sym lib_syms[] = {
	{ 0x1100, 0x40, "hot_function" }, { 0x1140, 0, "asm_entry" },
	{ 0x123456789, 0x1000000, "far_away" },
};
static const struct tp_symtab_sym k_syms[] = {
	{ 0xffffffff81000000ULL, 0x100, "do_syscall_64" },
	{ 0xffffffff81377d40ULL, 0x30, "__x64_sys_getppid" },
	{ 0xffffffff81377d70ULL, 0, "hot_function" },	/* a name shared with the library */
};
static const struct tp_symtab_sym m_syms[] = { { 0xffffffffc0001000ULL, 0x80, "ext4_read" } };

static int add_block(struct tp_symtab_enc *e, uint8_t kind, uint8_t src, uint8_t id_type,
		     const char *name, const struct tp_symtab_sym *s, uint32_t n)
{
	struct tp_symtab_block b = { .kind = kind, .src = src, .id_type = id_type, .name = name };
	int err;

	if (id_type == TP_SYMTAB_ID_BUILD_ID) {
		b.id_len = 20;
		for (int i = 0; i < 20; i++)
			b.id[i] = (uint8_t)(0xa0 + i);
	}
	b.text_hash = 0x0123456789abcdefULL;
	err = tp_symtab_enc__block(e, &b, n);
	for (uint32_t i = 0; !err && i < n; i++)
		err = tp_symtab_enc__sym(e, s[i].addr, s[i].size, tp_symtab_enc__str(e, s[i].name));
	if (err)
		tp_symtab_enc__drop(e);
	return err;
}

/* a section of 4 blocks in the given byte order: its size */
static size_t encode(bool swap, size_t cap, uint8_t shift)
{
	struct tp_fbuf f;
	struct tp_symtab_enc e;

	tp_fbuf__init(&f, out_mem, cap, swap);
	tp_symtab_enc__init(&e, &f, shift, str_mem, sizeof(str_mem), hash_mem,
			    TP_ARRAY_SIZE(hash_mem));
	add_block(&e, TP_SYMTAB_USER, TP_SYMTAB_SRC_DYNSYM, TP_SYMTAB_ID_BUILD_ID,
		  "/usr/lib/libhot.so", lib_syms, TP_ARRAY_SIZE(lib_syms));
	add_block(&e, TP_SYMTAB_USER, TP_SYMTAB_SRC_SYMTAB, TP_SYMTAB_ID_TEXT_HASH,
		  "/bin/app", lib_syms, 1);
	add_block(&e, TP_SYMTAB_KERNEL, TP_SYMTAB_SRC_KALLSYMS, TP_SYMTAB_ID_BUILD_ID,
		  "[kernel.kallsyms]", k_syms, TP_ARRAY_SIZE(k_syms));
	add_block(&e, TP_SYMTAB_MODULE, TP_SYMTAB_SRC_KALLSYMS, TP_SYMTAB_ID_NONE, "[ext4]",
		  m_syms, TP_ARRAY_SIZE(m_syms));
	return tp_symtab_enc__finish(&e) ? 0 : f.len;
}

static bool same_syms(const struct tp_embdso *d, const struct tp_symtab_sym *s, uint32_t n)
{
	if (d->b.nr_syms != n)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (d->syms[i].addr != s[i].addr || d->syms[i].size != s[i].size ||
		    strcmp(d->syms[i].name, s[i].name))
			return false;
	return true;
}

static void test_round_trip(bool swap)
{
	size_t n = encode(swap, sizeof(out_mem), 0);
	struct tp_embsyms *e = NULL;
	const char *why = NULL;
	const struct tp_embdso *d;
	uint8_t id[20];
	char name[64];
	int err;

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	snprintf(name, sizeof(name), "codec %s: 4 blocks decode as encoded",
		 swap ? "byte-swapped" : "native");
	err = n ? tp_embsyms__parse(out_mem, n, swap, &e, &why) : -1;
	check(name, !err && e->nr_dsos == 4 && e->nr_syms == 8 && e->shift == 0 && !e->flags &&
	      same_syms(&e->dsos[0], lib_syms, 3) && same_syms(&e->dsos[1], lib_syms, 1) &&
	      same_syms(&e->dsos[2], k_syms, 3) && same_syms(&e->dsos[3], m_syms, 1) &&
	      e->dsos[1].b.text_hash == 0x0123456789abcdefULL && !memcmp(e->dsos[0].b.id, id, 20),
	      "size %zu, err %d (%s), %u blocks, %llu symbols", n, err, why ? why : "",
	      e ? e->nr_dsos : 0, e ? (unsigned long long)e->nr_syms : 0ULL);
	if (err)
		return;
	/* identity: a build-id (also zero-padded), a text hash, nothing; never another one */
	d = tp_embsyms__find(e, TP_SYMTAB_USER, "/usr/lib/libhot.so", id, 20, 0);
	check(swap ? "codec swapped: found by build-id" : "codec: found by build-id",
	      d == &e->dsos[0], "got %p", (const void *)d);
	id[3] ^= 1;
	check("codec: another build-id does not match",
	      !tp_embsyms__find(e, TP_SYMTAB_USER, "/usr/lib/libhot.so", id, 20, 0), "matched");
	check("codec: text hash identity", tp_embsyms__find(e, TP_SYMTAB_USER, "/bin/app", NULL, 0,
	      0x0123456789abcdefULL) == &e->dsos[1] && !tp_embsyms__find(e, TP_SYMTAB_USER,
	      "/bin/app", NULL, 0, 0x0123456789abcdeeULL), "wrong match");
	check("codec: another path does not match",
	      !tp_embsyms__find(e, TP_SYMTAB_USER, "/bin/other", NULL, 0, 0x0123456789abcdefULL),
	      "matched");
	/* one shared string: the kernel's hot_function is the library's */
	check("codec: names are shared in one string table",
	      e->dsos[2].syms[2].name == e->dsos[0].syms[0].name, "two copies");
	tp_embsyms__free(e);
}

static void test_broken(void)
{
	size_t n = encode(false, sizeof(out_mem), 0), bad = 0, i;
	struct tp_embsyms *e;
	const char *why;
	uint8_t copy[4096];

	/* every cut of the section is refused (the string table must end in a NUL, the counts
	 * must be there), and none is read past */
	for (i = 0; i < n - 8; i++) {
		uint8_t *p = malloc(i ? i : 1);

		memcpy(p, out_mem, i);
		why = NULL;
		if (tp_embsyms__parse(p, i, false, &e, &why) != -TP_ERR_BAD_FEATURE || !why)
			bad++;
		free(p);
	}
	check("decoder: every truncation refused with a reason", bad == 0,
	      "%zu of %zu prefixes accepted", bad, n - 8);
	check("decoder: the wrong byte order is refused",
	      tp_embsyms__parse(out_mem, n, true, &e, &why) == -TP_ERR_BAD_FEATURE &&
	      strstr(why, "magic"), "accepted or %s", why);
	{
		/* a tiny section: strings "", "/a", "f"; then its symbol's name made 0x7f */
		struct tp_fbuf f;
		struct tp_symtab_enc t;
		struct tp_symtab_block b = { .name = "/a" };
		size_t len;

		tp_fbuf__init(&f, copy, sizeof(copy), false);
		tp_symtab_enc__init(&t, &f, 0, str_mem, sizeof(str_mem), hash_mem,
				    TP_ARRAY_SIZE(hash_mem));
		tp_symtab_enc__block(&t, &b, 1);
		tp_symtab_enc__sym(&t, 0x10, 4, tp_symtab_enc__str(&t, "f"));
		len = tp_symtab_enc__finish(&t) ? 0 : f.len;
		check("decoder: a tiny section decodes", len &&
		      tp_embsyms__parse(copy, len, false, &e, &why) == 0, "len %zu", len);
		if (len)
			tp_embsyms__free(e);
		copy[16 + 4 + 1 + 1 + 1 + 1] = 0x7f;	/* block: 4, name, nr; sym: addr, size, name */
		check("decoder: a name offset past the string table is refused", len &&
		      tp_embsyms__parse(copy, len, false, &e, &why) == -TP_ERR_BAD_FEATURE &&
		      strstr(why, "string table"), "accepted or %s", why);
	}
	memcpy(copy, out_mem, n);
	copy[8] = 9;			/* nr_blocks 4 -> 9 */
	check("decoder: a block count the bytes do not hold is refused",
	      tp_embsyms__parse(copy, n, false, &e, &why) == -TP_ERR_BAD_FEATURE, "accepted");
	memcpy(copy, out_mem, n);
	copy[8] = 3;			/* one block left over */
	check("decoder: bytes after the last block are refused",
	      tp_embsyms__parse(copy, n, false, &e, &why) == -TP_ERR_BAD_FEATURE, "accepted");
}

static void test_cap(void)
{
	/* room for the header, the first block and a little: the rest are dropped, whole */
	size_t n = encode(false, 16 + 100, 12);
	struct tp_embsyms *e = NULL;
	const char *why = "";
	int err = n ? tp_embsyms__parse(out_mem, n, false, &e, &why) : -1;
	uint32_t whole = 0;

	for (uint32_t i = 0; !err && i < e->nr_dsos; i++) {
		const char *nm = e->dsos[i].b.name;

		whole += !strcmp(nm, "/usr/lib/libhot.so") ? same_syms(&e->dsos[i], lib_syms, 3) :
			 !strcmp(nm, "/bin/app") ? same_syms(&e->dsos[i], lib_syms, 1) :
			 !strcmp(nm, "[ext4]") ? same_syms(&e->dsos[i], m_syms, 1) :
			 same_syms(&e->dsos[i], k_syms, 3);
	}
	check("encoder: past its cap whole blocks are dropped and the section says so",
	      !err && e->nr_dsos >= 1 && e->nr_dsos < 4 && (e->flags & TP_SYMTAB_F_INCOMPLETE) &&
	      e->shift == 12 && whole == e->nr_dsos && n <= 116,
	      "size %zu err %d (%s) blocks %u flags %u", n, err, why, e ? e->nr_dsos : 0,
	      e ? e->flags : 0);
	tp_embsyms__free(e);
}

/* is addr covered by a pair of the set? */
static bool covered(struct addrset *s, uint32_t n, uint32_t dso, uint64_t addr)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t lo = addrset_start(s, s->tmp[i]);

		uint8_t sh = addrset_shift(s, dso);

		if (addrset_dso(s->tmp[i]) == dso && addr >= lo &&
		    (sh >= 48 || addr - lo < 1ULL << sh))
			return true;
	}
	return false;
}

static void test_addrset(void)
{
	struct arena a;
	struct addrset s;
	uint32_t n, missed = 0, unsorted = 0;
	uint64_t x = 12345;

	arena__init(&a, 0);
	addrset__init(&s, &a, 64, 8);
	for (int i = 0; i < 50; i++)
		addrset__add(&s, (uint32_t)(i & 1), 0x1000 + (uint64_t)i * 8);
	addrset__add(&s, 0, 0x1000);	/* again */
	n = addrset__sort(&s);
	check("addrset: below its bound, exact and deduplicated", s.shift == 0 && n == 50 &&
	      addrset_dso(s.tmp[0]) == 0 && addrset_start(&s, s.tmp[0]) == 0x1000 &&
	      addrset_dso(s.tmp[49]) == 1,
	      "shift %u, %u pairs", s.shift, n);
	/* 5000 scattered addresses in 3 DSOs through a set of 64: coarser, never missing */
	addrset__reset(&s);
	for (int i = 0; i < 5000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		addrset__add(&s, (uint32_t)(i % 3), (x >> 20) & 0xffffff);
	}
	n = addrset__sort(&s);
	x = 12345;
	for (int i = 0; i < 5000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		missed += !covered(&s, n, (uint32_t)(i % 3), (x >> 20) & 0xffffff);
	}
	for (uint32_t i = 1; i < n; i++)
		unsorted += s.tmp[i] <= s.tmp[i - 1];
	check("addrset: past its bound it degrades to ranges that miss no address",
	      s.shift >= 12 && n <= 64 && missed == 0 && unsorted == 0,
	      "shift %u, %u pairs, %u missed, %u out of order", s.shift, n, missed, unsorted);
	/* the busy DSO gets coarse, a quiet one stays exact */
	addrset__reset(&s);
	for (int i = 0; i < 1000; i++)
		addrset__add(&s, 1, (uint64_t)i * 64);
	for (int i = 0; i < 10; i++)
		addrset__add(&s, 2, 0x5000 + (uint64_t)i * 4);
	n = addrset__sort(&s);
	missed = 0;
	for (int i = 0; i < 1000; i++)
		missed += !covered(&s, n, 1, (uint64_t)i * 64);
	for (int i = 0; i < 10; i++)
		missed += !covered(&s, n, 2, 0x5000 + (uint64_t)i * 4);
	check("addrset: the DSO with the most addresses degrades, the others stay exact",
	      addrset_shift(&s, 1) > 0 && addrset_shift(&s, 2) == 0 && missed == 0 && n <= 64,
	      "shifts %u/%u, %u missed, %u pairs", addrset_shift(&s, 1), addrset_shift(&s, 2),
	      missed, n);
	addrset__reset(&s);
	addrset__add(&s, 0, 0x4242);
	n = addrset__sort(&s);
	check("addrset: reset makes it exact again", s.shift == 0 && n == 1 &&
	      addrset_start(&s, s.tmp[0]) == 0x4242, "shift %u, %u pairs", s.shift, n);
	/* the filter of recent keys forgets them with the set (reset, and drop) */
	addrset__reset(&s);
	addrset__add(&s, 0, 0x4242);
	addrset__drop(&s);
	addrset__add(&s, 0, 0x4242);
	addrset__add(&s, 0, 0x4242);
	n = addrset__sort(&s);
	check("addrset: a key added again after drop is there once",
	      n == 1 && addrset_start(&s, s.tmp[0]) == 0x4242, "%u pairs", n);
	/* kernel addresses keep their upper bits, exact and degraded */
	addrset__reset(&s);
	addrset__add(&s, 5, 0xffffffff81377d45ULL);
	n = addrset__sort(&s);
	check("addrset: a kernel address comes back whole",
	      n == 1 && addrset_start(&s, s.tmp[0]) == 0xffffffff81377d45ULL,
	      "got %#llx", n ? (unsigned long long)addrset_start(&s, s.tmp[0]) : 0ULL);
	for (int i = 0; i < 200; i++)
		addrset__add(&s, 5, 0xffffffff81000000ULL + (uint64_t)i * 0x1000);
	n = addrset__sort(&s);
	missed = !covered(&s, n, 5, 0xffffffff81377d45ULL);
	for (int i = 0; i < 200; i++)
		missed += !covered(&s, n, 5, 0xffffffff81000000ULL + (uint64_t)i * 0x1000);
	check("addrset: degraded kernel ranges still cover every address", s.shift > 0 &&
	      missed == 0, "shift %u, %u missed", s.shift, missed);
	arena__release(&a);
}


/* ---- the kernel-function cache ---- */

static char kc_strs[1 << 18];
static uint32_t kc_len;

static struct symembed_sel ksel(uint64_t addr, uint64_t size, const char *name, uint32_t mod)
{
	struct symembed_sel s = { addr, size, kc_len, mod, 0 };

	memcpy(kc_strs + kc_len, name, strlen(name) + 1);
	kc_len += (uint32_t)strlen(name) + 1;
	return s;
}

static const char *kc_name(const struct ksyms_cache *c, uint64_t addr)
{
	const struct ksyms_cache_ent *x = ksyms_cache__find(c, addr);

	return x ? c->names + x->name : "-";
}

/* the file at path, its byte at off changed to v (off < 0: cut to -off bytes) */
static void kc_poke(const char *path, long off, uint8_t v)
{
	FILE *f = fopen(path, "r+b");

	if (!f)
		return;
	if (off < 0) {
		if (ftruncate(fileno(f), -off)) { /* checked by the load that follows */ }
	} else {
		fseek(f, off, SEEK_SET);
		fputc(v, f);
	}
	fclose(f);
}

static void test_ksyms_cache(void)
{
	char dir[] = "/tmp/tp-kc-XXXXXX", path[64], env[96], saved[64];
	char *envp[] = { env, NULL };
	struct ksyms_cache c;
	struct symembed_sel v[8];
	struct stat st;
	uint64_t K = 0xffffffff81000000ULL;
	uint32_t n = 0;
	bool ok;

	if (!mkdtemp(dir)) {
		check("ksyms cache: a scratch directory", false, "mkdtemp failed");
		return;
	}
	snprintf(path, sizeof(path), "%s/kc", dir);
	snprintf(saved, sizeof(saved), "%s/kc.saved", dir);
	/* set and empty: no cache, nothing written */
	snprintf(env, sizeof(env), "TINYPERF_KSYMS_CACHE=");
	ksyms_cache__open(&c, envp);
	v[0] = ksel(K, 0x100, "do_one", 0);
	check("ksyms cache: TINYPERF_KSYMS_CACHE= turns it off",
	      !c.path[0] && !ksyms_cache__save(&c, v, 1, kc_strs) && !ksyms_cache__find(&c, K),
	      "path '%s'", c.path);
	/* a new one: the kernel's sized functions are kept, not modules', not unsized ones */
	snprintf(env, sizeof(env), "TINYPERF_KSYMS_CACHE=%s", path);
	ksyms_cache__open(&c, envp);
	n = 1;	/* do_one, and: */
	v[n++] = ksel(K + 0x200, 0x40, "do_two", 0);
	v[n++] = ksel(K + 0x300, 0, "unsized_last", 0);
	v[n++] = ksel(0xffffffffc0001000ULL, 0x80, "ext4_read", 7);
	ok = c.path[0] && c.nr == 0 && !ksyms_cache__save(&c, v, n, kc_strs) &&
	     !stat(path, &st) && (st.st_mode & 0777) == 0600;
	ksyms_cache__load(&c);
	check("ksyms cache: a new file, 0600, the kernel's sized functions only",
	      ok && c.nr == 2 && !strcmp(kc_name(&c, K), "do_one") &&
	      !strcmp(kc_name(&c, K + 0xff), "do_one") && !strcmp(kc_name(&c, K + 0x100), "-") &&
	      !strcmp(kc_name(&c, K + 0x23f), "do_two") && !strcmp(kc_name(&c, K + 0x240), "-") &&
	      !strcmp(kc_name(&c, 0xffffffffc0001010ULL), "-") && !strcmp(kc_name(&c, K - 1), "-"),
	      "nr %u, K: %s", c.nr, kc_name(&c, K));
	/* more: merged by address with what is there; one overlapping a cached one (from a
	 * coarser read, say) or the previous new one is not taken */
	n = 0;
	v[n++] = ksel(K - 0x1000, 0x20, "before", 0);
	v[n++] = ksel(K + 0x80, 0x10, "inside_do_one", 0);
	v[n++] = ksel(K + 0x100, 0x101, "over_do_two", 0);
	v[n++] = ksel(K + 0x240, 0x60, "do_three", 0);
	v[n++] = ksel(K + 0x250, 0x10, "inside_do_three", 0);
	ok = !ksyms_cache__save(&c, v, n, kc_strs);
	ksyms_cache__load(&c);
	check("ksyms cache: new functions merged in order, overlapping ones not",
	      ok && c.nr == 4 && !strcmp(kc_name(&c, K - 0xff1), "before") &&
	      !strcmp(kc_name(&c, K + 0x80), "do_one") && !strcmp(kc_name(&c, K + 0x150), "-") &&
	      !strcmp(kc_name(&c, K + 0x29f), "do_three") && c.v[0].addr < c.v[1].addr &&
	      c.v[1].addr < c.v[2].addr && c.v[2].addr < c.v[3].addr,
	      "nr %u", c.nr);
	ksyms_cache__close(&c);
	/* every file that does not check out is ignored */
	{
		static const struct { const char *what; long off; uint8_t v; } bad[] = {
			{ "another boot's", 8, 'x' },
			{ "a bad magic", 0, 'X' },
			{ "a cut one", -100, 0 },
			{ "an unsorted one (a start moved up)", 64 + 16 + 3, 0xff },
			{ "a name outside the names", 64 + 12 + 3, 0x40 },
			{ "an unended last name", -1, 0 },
			{ "an entry count too high", 44, 9 },
		};
		char cmd[320];

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(cmd, sizeof(cmd), "cp -p %s %s", path, saved);
			if (system(cmd))
				break;
			if (bad[i].off == -1) {
				stat(path, &st);
				kc_poke(path, (long)st.st_size - 1, 'z');
			} else {
				kc_poke(path, bad[i].off, bad[i].v);
			}
			ksyms_cache__open(&c, envp);
			snprintf(cmd, sizeof(cmd), "ksyms cache: refused: %s", bad[i].what);
			check(cmd, c.nr == 0 && !ksyms_cache__find(&c, K), "nr %u", c.nr);
			ksyms_cache__close(&c);
			rename(saved, path);
		}
		ksyms_cache__open(&c, envp);
		check("ksyms cache: the intact file loads again", c.nr == 4, "nr %u", c.nr);
		ksyms_cache__close(&c);
		/* a symlink is not followed (O_NOFOLLOW) */
		snprintf(cmd, sizeof(cmd), "mv %s %s && ln -s %s %s", path, saved, saved, path);
		ok = !system(cmd);
		ksyms_cache__open(&c, envp);
		check("ksyms cache: a symlink in its place is not followed", ok && c.nr == 0,
		      "nr %u", c.nr);
		ksyms_cache__close(&c);
		unlink(path);
		rename(saved, path);
	}
	/* bounded: KSYMS_CACHE_MAX functions at most */
	{
		static struct symembed_sel many[KSYMS_CACHE_MAX + 100];
		uint32_t nm = KSYMS_CACHE_MAX + 100;

		ksyms_cache__open(&c, envp);
		kc_len = 0;
		for (uint32_t i = 0; i < nm; i++) {
			char name[32];

			snprintf(name, sizeof(name), "f%u", i);
			many[i] = ksel(K + 0x100000 + (uint64_t)i * 0x40, 0x40, name, 0);
		}
		ok = !ksyms_cache__save(&c, many, nm, kc_strs);
		ksyms_cache__load(&c);
		check("ksyms cache: at most KSYMS_CACHE_MAX functions, the file still valid",
		      ok && c.nr == KSYMS_CACHE_MAX && !strcmp(kc_name(&c, K + 0x100000), "f0") &&
		      !strcmp(kc_name(&c, K), "do_one"), "nr %u, %s, %s", c.nr,
		      kc_name(&c, K + 0x100000), kc_name(&c, K));
		ksyms_cache__close(&c);
	}
	snprintf(env, sizeof(env), "rm -rf %s", dir);
	if (system(env)) { /* scratch left behind: harmless */ }
}

int main(void)
{
	test_round_trip(false);
	test_round_trip(true);
	test_broken();
	test_cap();
	test_addrset();
	test_ksyms_cache();
	printf("test-rec-embed: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
