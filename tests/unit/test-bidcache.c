/* SPDX-License-Identifier: MIT */
/* Unit tests for the build-id cache (host-tools/lib/bidcache*.c, bidcache/file.c, fsutil.c): keys
 * and the layout's paths, add/find/remove with links and copies, listing, LRU eviction to a
 * size and by age, two processes adding at once; the archive's unpacker refusing hostile
 * tars (built here with libarchive) and round-tripping a benign one; the diff's pairing of
 * two profiles by name (symdiff.c). Works in a fresh directory under $TMPDIR. */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/bidcache/bidcache.h"
#include "host-tools/lib/archive/elfslim.h"
#include "host-tools/lib/common/error.h"
#include "host-tools/lib/common/fsutil.h"
#include "host-tools/lib/agg/symdiff.h"
#include "perfdata/texthash.h"

#include <elfutils/libdwelf.h>
#include <gelf.h>

static char root[256];

static void path_of(char *buf, size_t n, const char *rel)
{
	snprintf(buf, n, "%s/%s", root, rel);
}

static void write_file(const char *path, size_t size, char fill)
{
	char *buf = malloc(size ? size : 1);
	int fd;

	memset(buf, fill, size);
	tp_fs__mkdirs(root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		tp_fs__write_all(fd, buf, size);
		close(fd);
	}
	free(buf);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static struct tp_bidkey key_of(uint8_t seed)
{
	struct tp_bidkey k = { .build_id_len = 20 };

	for (int i = 0; i < 20; i++)
		k.build_id[i] = (uint8_t)(seed + i * 7);
	return k;
}

/* ---- keys and layout ---- */

static void test_keys(void)
{
	struct tcase c = case_begin("keys: hex and text-hash strings round-trip, bad ones refused");
	struct tp_bidkey k = key_of(0xa0), back;
	char s[TP_BIDKEY_STR];

	EXPECT(&c, "str", 0, tp_bidkey__str(&k, s, sizeof(s)));
	EXPECT_TRUE(&c, "lowercase hex of 20 bytes", strlen(s) == 40 && !strncmp(s, "a0a7ae", 6));
	EXPECT(&c, "parse", 0, tp_bidkey__parse(&back, s));
	EXPECT(&c, "parsed length", 20, back.build_id_len);
	expect_mem(&c, "parsed bytes", k.build_id, back.build_id, 20);
	EXPECT(&c, "upper case accepted", 0, tp_bidkey__parse(&back, "ABCDEF01"));
	EXPECT(&c, "4 bytes", 4, back.build_id_len);
	EXPECT(&c, "text hash", 0, tp_bidkey__parse(&back, "text-0123456789abcdef"));
	EXPECT(&c, "text hash value", 0x0123456789abcdefULL, back.text_hash);
	EXPECT(&c, "text hash str", 0, tp_bidkey__str(&back, s, sizeof(s)));
	EXPECT_TRUE(&c, "text-<16 hex>", !strcmp(s, "text-0123456789abcdef"));
	EXPECT(&c, "odd digits", -TP_ERR_INVAL, tp_bidkey__parse(&back, "abc"));
	EXPECT(&c, "not hex", -TP_ERR_INVAL, tp_bidkey__parse(&back, "zz"));
	EXPECT(&c, "short text hash", -TP_ERR_INVAL, tp_bidkey__parse(&back, "text-12"));
	EXPECT(&c, "zero text hash", -TP_ERR_INVAL, tp_bidkey__parse(&back, "text-0000000000000000"));
	memset(&k, 0, sizeof(k));
	k.build_id_len = 20;
	memset(k.build_id, 0x11, 8);
	tp_bidkey__trim(&k);
	EXPECT(&c, "perf's zero padding of an 8-byte id dropped", 8, k.build_id_len);
	k = key_of(1);
	tp_bidkey__trim(&k);
	EXPECT(&c, "a SHA1 not ending in zeros is kept whole", 20, k.build_id_len);
	case_end(&c);
}

static void test_layout(void)
{
	struct tcase c = case_begin("layout: perf's .build-id links and entry paths, text-hash tree");
	struct tp_bidkey k = key_of(0x41), t = { .text_hash = 0x6218fbde40762e9cULL };
	char buf[512];

	EXPECT(&c, "link rel", 0, tp_bidcache_link_rel(buf, sizeof(buf), &k));
	EXPECT_TRUE(&c, ".build-id/xx/<38 hex>", !strncmp(buf, ".build-id/41/484f", 17) &&
		    strlen(buf) == strlen(".build-id/41/") + 38);
	EXPECT(&c, "entry rel", 0, tp_bidcache_entry_rel(buf, sizeof(buf), "/usr/bin/x", &k));
	EXPECT_TRUE(&c, "<path>/<id>", !strncmp(buf, "usr/bin/x/41484f", 16));
	EXPECT(&c, "kernel entry", 0, tp_bidcache_entry_rel(buf, sizeof(buf), "[kernel.kallsyms]", &k));
	EXPECT_TRUE(&c, "[kernel.kallsyms]/<id>", !strncmp(buf, "[kernel.kallsyms]/4148", 22));
	EXPECT(&c, "bad name", 0, tp_bidcache_entry_rel(buf, sizeof(buf), "/a/../../etc", &k));
	EXPECT_TRUE(&c, "a name with .. is filed under [unnamed]", !strncmp(buf, "[unnamed]/", 10));
	EXPECT(&c, "text link", 0, tp_bidcache_link_rel(buf, sizeof(buf), &t));
	EXPECT_TRUE(&c, ".text-hash/62/18fbde40762e9c", !strcmp(buf, ".text-hash/62/18fbde40762e9c"));
	EXPECT(&c, "path", 0, tp_bidcache_path(buf, sizeof(buf), "/c", &t, TP_BID_ELF));
	EXPECT_TRUE(&c, "the symbolizer's candidate",
		    !strcmp(buf, "/c/.text-hash/62/18fbde40762e9c/elf"));
	EXPECT_TRUE(&c, "name ok", tp_bidcache_name_ok("/usr/lib/libc.so.6"));
	EXPECT_TRUE(&c, "relative refused", !tp_bidcache_name_ok("usr/lib"));
	EXPECT_TRUE(&c, "// refused", !tp_bidcache_name_ok("//anon"));
	EXPECT_TRUE(&c, "/. refused", !tp_bidcache_name_ok("/a/./b"));
	EXPECT_TRUE(&c, "the cache's own tree refused", !tp_bidcache_name_ok("/.build-id/ab"));
	EXPECT_TRUE(&c, "[vdso] ok", tp_bidcache_name_ok("[vdso]"));
	case_end(&c);
}

/* ---- the cache ---- */

/* a kind to pass by pointer (tp_bidcache__add may turn an elf into the entry's debug file) */
#define kind(k) (&(enum tp_bidkind){ (k) })

/* perf record caches the stripped binary; the unstripped copy then joins as the debug file */
static void test_richer_copy(void)
{
	struct tcase c = case_begin("cache: a richer copy of a cached elf joins as its debug file");
	struct tp_bidkey k = key_of(0x30);
	struct tp_bidcache *bc;
	enum tp_bidres res;
	enum tp_bidkind kd;
	char dir[300], rich[300], poor[300], cmd[1024], path[600];

	path_of(dir, sizeof(dir), "c-rich");
	path_of(rich, sizeof(rich), "bin-rich");
	path_of(poor, sizeof(poor), "bin-poor");
	/* this test, built -g, is the rich copy; strip makes the poor one */
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && strip -o %s %s", (int)getpid(), rich,
		 poor, rich);
	if (system(cmd)) {
		EXPECT_TRUE(&c, "made a stripped copy with cp and strip", false);
		case_end(&c);
		return;
	}
	EXPECT(&c, "open", 0, tp_bidcache__open(&bc, dir, NULL));
	if (c.failed) {
		case_end(&c);
		return;
	}
	kd = TP_BID_ELF;
	EXPECT(&c, "the stripped copy added", 0, tp_bidcache__add(bc, &k, "/bin/r", &kd, poor, false,
								 &res));
	EXPECT(&c, "as the elf", TP_BID_ELF, kd);
	kd = TP_BID_ELF;
	EXPECT(&c, "the unstripped copy added", 0, tp_bidcache__add(bc, &k, "/bin/r", &kd, rich,
								   false, &res));
	EXPECT(&c, "as the debug file", TP_BID_DEBUG, kd);
	EXPECT(&c, "copied", TP_BIDRES_COPIED, res);
	EXPECT(&c, "found as debug", 1, tp_bidcache__find(bc, &k, TP_BID_DEBUG, path, sizeof(path)));
	EXPECT(&c, "the debug file is the rich one", TP_ELF_DWARF, tp_elf_file_richness(path));
	EXPECT(&c, "found as elf", 1, tp_bidcache__find(bc, &k, TP_BID_ELF, path, sizeof(path)));
	EXPECT(&c, "the elf stays the stripped one", TP_ELF_BARE, tp_elf_file_richness(path));
	kd = TP_BID_ELF;
	EXPECT(&c, "the unstripped copy again", 0, tp_bidcache__add(bc, &k, "/bin/r", &kd, rich,
								   false, &res));
	EXPECT(&c, "is the elf again: the debug file is as rich", TP_BID_ELF, kd);
	EXPECT(&c, "present", TP_BIDRES_PRESENT, res);
	tp_bidcache__close(bc);
	case_end(&c);
}

static void test_add_find_remove(void)
{
	struct tcase c = case_begin("cache: add (link and copy), find, add again, remove");
	struct tp_bidkey k = key_of(0x10), k2 = key_of(0x20);
	struct tp_bidcache *bc;
	enum tp_bidres res;
	char dir[300], src[300], path[600], link[600], id[TP_BIDKEY_STR];
	struct stat st;

	path_of(dir, sizeof(dir), "c-add");
	path_of(src, sizeof(src), "bin-a");
	write_file(src, 1000, 'a');
	EXPECT(&c, "open", 0, tp_bidcache__open(&bc, dir, NULL));
	if (c.failed)
		goto out;
	EXPECT(&c, "add linked", 0, tp_bidcache__add(bc, &k, "/usr/bin/a", kind(TP_BID_ELF), src, true, &res));
	EXPECT(&c, "a hard link in the same filesystem", TP_BIDRES_LINKED, res);
	EXPECT(&c, "find", 1, tp_bidcache__find(bc, &k, TP_BID_ELF, path, sizeof(path)));
	EXPECT_TRUE(&c, "found: the entry the index link leads to",
		    strstr(path, "/usr/bin/a/10171e25") != NULL);
	EXPECT_TRUE(&c, "same inode", !stat(path, &st) && st.st_nlink == 2);
	EXPECT(&c, "no debug yet", 0, tp_bidcache__find(bc, &k, TP_BID_DEBUG, path, sizeof(path)));
	EXPECT(&c, "add debug (copy)", 0, tp_bidcache__add(bc, &k, "/other/name", kind(TP_BID_DEBUG), src,
							 false, &res));
	EXPECT(&c, "copied", TP_BIDRES_COPIED, res);
	snprintf(path, sizeof(path), "%s/usr/bin/a/%s/debug", dir,
		 "10171e252c333a41484f565d646b727980878e95");
	EXPECT_TRUE(&c, "the debug file joins the existing entry, whatever name it came with",
		    is_file(path));
	EXPECT(&c, "add again", 0, tp_bidcache__add(bc, &k, "/usr/bin/a", kind(TP_BID_ELF), src, true, &res));
	EXPECT(&c, "present", TP_BIDRES_PRESENT, res);
	EXPECT(&c, "add_buf kallsyms", 0, tp_bidcache__add_buf(bc, &k2, "[kernel.kallsyms]",
							     TP_BID_KALLSYMS, "ffff T _text\n", 14, &res));
	tp_bidkey__str(&k2, id, sizeof(id));
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", dir, id);
	EXPECT_TRUE(&c, "kallsyms at perf's path", is_file(path));
	EXPECT(&c, "remove", 1, tp_bidcache__remove(bc, &k));
	EXPECT(&c, "gone", 0, tp_bidcache__find(bc, &k, TP_BID_ELF, path, sizeof(path)));
	snprintf(link, sizeof(link), "%s/usr", dir);
	EXPECT_TRUE(&c, "empty directories pruned", !exists(link));
	snprintf(link, sizeof(link), "%s/.build-id/10", dir);
	EXPECT_TRUE(&c, "empty .build-id/xx pruned", !exists(link));
	EXPECT_TRUE(&c, "the source file is untouched", is_file(src));
	EXPECT(&c, "remove again", 0, tp_bidcache__remove(bc, &k));
	tp_bidcache__close(bc);
out:
	case_end(&c);
}

static void set_times(const char *dir, const char *rel, time_t t)
{
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	utimensat(AT_FDCWD, path, ts, 0);
}

/* an entry of `size` bytes for key seed, last used at t */
static void entry_at(struct tp_bidcache *bc, uint8_t seed, size_t size, time_t t)
{
	struct tp_bidkey k = key_of(seed);
	char src[300], rel[300], id[TP_BIDKEY_STR], name[64];
	enum tp_bidres res;

	snprintf(src, sizeof(src), "%s/src-%u", root, seed);
	snprintf(name, sizeof(name), "/bin/e%u", seed);
	write_file(src, size, (char)seed);
	tp_bidcache__add(bc, &k, name, kind(TP_BID_ELF), src, false, &res);
	tp_bidkey__str(&k, id, sizeof(id));
	snprintf(rel, sizeof(rel), "bin/e%u/%s/elf", seed, id);
	set_times(tp_bidcache__dir(bc), rel, t);
	snprintf(rel, sizeof(rel), "bin/e%u/%s", seed, id);
	set_times(tp_bidcache__dir(bc), rel, t);
}

static bool has(struct tp_bidcache *bc, uint8_t seed)
{
	struct tp_bidkey k = key_of(seed);
	char path[600];

	return tp_bidcache__find(bc, &k, TP_BID_ELF, path, sizeof(path)) == 1;
}

static void test_list_trim(void)
{
	struct tcase c = case_begin("cache: list newest first, LRU trim to a size, purge by age");
	struct tp_bidcache *bc;
	struct tp_bidentry *e;
	struct tp_bidtrim st;
	time_t now = time(NULL);
	char dir[300];
	size_t n;

	path_of(dir, sizeof(dir), "c-trim");
	if (tp_bidcache__open(&bc, dir, NULL)) {
		EXPECT_TRUE(&c, "open", 0);
		case_end(&c);
		return;
	}
	entry_at(bc, 1, 40000, now - 5000);	/* oldest */
	entry_at(bc, 2, 40000, now - 100);
	entry_at(bc, 3, 40000, now - 3000);
	entry_at(bc, 4, 40000, now - 10);	/* newest */
	EXPECT(&c, "list", 0, tp_bidcache__list(bc, &e, &n));
	EXPECT(&c, "4 entries", 4, n);
	if (n == 4) {
		EXPECT(&c, "newest first", 4 + 0x00, e[0].key.build_id[0]);
		EXPECT(&c, "oldest last", 1, e[3].key.build_id[0]);
		EXPECT_TRUE(&c, "name from the link", !strcmp(e[0].name, "/bin/e4"));
		EXPECT_TRUE(&c, "disk use counted", e[0].bytes >= 40000);
		EXPECT(&c, "kinds", 1u << TP_BID_ELF, e[0].kinds);
	}
	tp_bidentries__free(e, n);
	EXPECT(&c, "set max", 0, tp_bidcache__set_max_size(bc, 100000));
	EXPECT(&c, "max kept", 100000, tp_bidcache__max_size(bc));
	EXPECT(&c, "trim", 0, tp_bidcache__trim(bc, tp_bidcache__max_size(bc), &st));
	EXPECT(&c, "two evicted", 2, st.removed);
	EXPECT_TRUE(&c, "under the limit", st.total <= 100000);
	EXPECT_TRUE(&c, "the least recently used went: 1 and 3", !has(bc, 1) && !has(bc, 3));
	EXPECT_TRUE(&c, "the recent ones stay: 2 and 4", has(bc, 2) && has(bc, 4));
	EXPECT(&c, "purge older than 60 s", 0, tp_bidcache__purge_older(bc, now - 60, &st));
	EXPECT(&c, "one purged", 1, st.removed);
	EXPECT_TRUE(&c, "2 went, 4 stays", !has(bc, 2) && has(bc, 4));
	/* repeated additions under a limit: never above it afterwards */
	for (int i = 0; i < 12; i++) {
		entry_at(bc, (uint8_t)(0x30 + i), 30000, now - 1000 + i);
		tp_bidcache__trim(bc, 100000, &st);
		if (st.total > 100000)
			break;
	}
	EXPECT_TRUE(&c, "repeated additions stay under --max-size", st.total <= 100000);
	EXPECT_TRUE(&c, "the newest addition is kept", has(bc, 0x30 + 11));
	EXPECT(&c, "no limit", 0, tp_bidcache__set_max_size(bc, 0));
	EXPECT(&c, "limit gone", 0, tp_bidcache__max_size(bc));
	tp_bidcache__close(bc);
	case_end(&c);
}

static void test_concurrent(void)
{
	struct tcase c = case_begin("cache: two processes adding the same and different ids at once");
	struct tp_bidcache *bc;
	struct tp_bidentry *e;
	char dir[300], src[300];
	pid_t pids[2];
	size_t n = 0;
	int status, ok = 1;

	path_of(dir, sizeof(dir), "c-conc");
	path_of(src, sizeof(src), "bin-conc");
	write_file(src, 20000, 'c');
	for (int p = 0; p < 2; p++) {
		pids[p] = fork();
		if (pids[p] == 0) {
			enum tp_bidres res;
			int bad = 0;

			if (tp_bidcache__open(&bc, dir, NULL))
				_exit(1);
			for (int i = 0; i < 60; i++) {
				/* ids 0..39 from both, 40..59 from one */
				struct tp_bidkey k = key_of((uint8_t)(i < 40 ? i : i + 20 * p));

				bad |= tp_bidcache__add(bc, &k, "/x", kind(TP_BID_ELF), src, p == 0, &res);
			}
			tp_bidcache__close(bc);
			_exit(bad ? 1 : 0);
		}
	}
	for (int p = 0; p < 2; p++)
		if (waitpid(pids[p], &status, 0) != pids[p] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ok = 0;
	EXPECT_TRUE(&c, "both adders succeeded", ok);
	if (!tp_bidcache__open(&bc, dir, NULL)) {
		EXPECT(&c, "list", 0, tp_bidcache__list(bc, &e, &n));
		EXPECT(&c, "40 shared + 2 x 20 own entries", 80, n);
		for (size_t i = 0; i < n; i++)
			if (!(e[i].kinds & 1u << TP_BID_ELF) || e[i].bytes < 20000)
				ok = 0;
		EXPECT_TRUE(&c, "every entry whole", ok);
		tp_bidentries__free(e, n);
		tp_bidcache__close(bc);
	}
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "find '%s' -name '*.tmp.*' | grep -q .", dir);
		EXPECT_TRUE(&c, "no temporary files left", system(cmd) != 0);
	}
	case_end(&c);
}

static void test_identify(void)
{
	struct tcase c = case_begin("identify: this test's own ELF by build-id, text refused");
	struct tp_bidfile f;
	const char *why;
	char txt[300];

	EXPECT(&c, "own binary", 0, tp_bidfile__identify("/proc/self/exe", &f, &why, NULL));
	EXPECT(&c, "has code", TP_BID_ELF, f.kind);
	EXPECT_TRUE(&c, "a build-id (or a text hash)", f.key.build_id_len || f.key.text_hash);
	path_of(txt, sizeof(txt), "text");
	write_file(txt, 100, 'x');
	EXPECT(&c, "text", 1, tp_bidfile__identify(txt, &f, &why, NULL));
	EXPECT_TRUE(&c, "why", strstr(why, "not an ELF") != NULL);
	EXPECT(&c, "missing file", -ENOENT, tp_bidfile__identify("/nonexistent/x", &f, &why,
								     NULL));
	case_end(&c);
}

/* what a file says about itself: build-id, text hash, symbols, DWARF bytes */
struct elfinfo {
	uint8_t id[64];
	ssize_t id_len;
	uint64_t text_hash;
	size_t n_syms;
	uint64_t dwarf;
};

static bool elf_info(const uint8_t *img, size_t len, struct elfinfo *in)
{
	Elf *elf = elf_memory((char *)img, len);
	Elf_Scn *scn = NULL;
	size_t shstr;
	const void *id;

	memset(in, 0, sizeof(*in));
	if (!elf || elf_getshdrstrndx(elf, &shstr))
		return false;
	in->id_len = dwelf_elf_gnu_build_id(elf, &id);
	if (in->id_len > 0 && in->id_len <= 64)
		memcpy(in->id, id, (size_t)in->id_len);
	in->text_hash = tp_text_hash(img, len);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstr, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize)
			in->n_syms = sh.sh_size / sh.sh_entsize;
		if (name && !strncmp(name, ".debug_", 7) && sh.sh_type != SHT_NOBITS)
			in->dwarf += sh.sh_size;
	}
	elf_end(elf);
	return true;
}

/* fsutil's gate for paths from sysroots, debug dirs, caches and archives: a regular file
 * opens; a FIFO is refused without blocking; a directory (perf's build-id cache has them where
 * older layouts had files) is -EISDIR, not a hostile file */
static void test_open_regular(void)
{
	struct tcase c = case_begin("open_regular: file, FIFO, directory, missing");
	char file[300], fifo[300], dir[300], none[300];
	int fd;

	path_of(file, sizeof(file), "or-file");
	path_of(fifo, sizeof(fifo), "or-fifo");
	path_of(dir, sizeof(dir), "or-dir");
	path_of(none, sizeof(none), "or-none");
	write_file(file, 16, 'x');
	EXPECT(&c, "mkfifo", 0, mkfifo(fifo, 0600));
	EXPECT(&c, "mkdir", 0, mkdir(dir, 0700));
	fd = tp_fs__open_regular(file, NULL);
	EXPECT(&c, "a regular file opens", 1, fd >= 0);
	if (fd >= 0)
		close(fd);
	EXPECT(&c, "a FIFO: not regular", -TP_ERR_NOT_REGULAR, tp_fs__open_regular(fifo, NULL));
	EXPECT(&c, "a directory: EISDIR", -EISDIR, tp_fs__open_regular(dir, NULL));
	EXPECT(&c, "missing: ENOENT", -ENOENT, tp_fs__open_regular(none, NULL));
	case_end(&c);
}

static void test_elfslim(void)
{
	struct tcase c = case_begin("elfslim: this test's binary without DWARF keeps ids and symbols");
	struct elfinfo a, b;
	uint8_t *orig, *slim;
	size_t olen, slen;
	int r;

	elf_version(EV_CURRENT);
	EXPECT(&c, "read", 0, tp_fs__read_all("/proc/self/exe", &orig, &olen));
	if (c.failed) {
		case_end(&c);
		return;
	}
	r = tp_elfslim("/proc/self/exe", &slim, &slen, NULL);
	if (r == 1 && elf_info(orig, olen, &a) && !a.dwarf) {
		printf("# built without -g: nothing to drop, and nothing was\n");
	} else {
		EXPECT(&c, "slim", 0, r);
	}
	if (!c.failed && r == 0) {
		EXPECT_TRUE(&c, "parse both", elf_info(orig, olen, &a) && elf_info(slim, slen, &b));
		EXPECT_TRUE(&c, "the original has DWARF", a.dwarf > 0);
		EXPECT(&c, "no DWARF bytes left", 0, b.dwarf);
		EXPECT_TRUE(&c, "smaller by the DWARF", slen + a.dwarf / 2 < olen);
		EXPECT(&c, "same build-id length", a.id_len, b.id_len);
		expect_mem(&c, "same build-id", a.id, b.id, a.id_len > 0 ? (size_t)a.id_len : 0);
		EXPECT(&c, "same text hash", a.text_hash, b.text_hash);
		EXPECT(&c, "same symbols", a.n_syms, b.n_syms);
		EXPECT_TRUE(&c, "symbols present", b.n_syms > 100);
		free(slim);
	}
	free(orig);
	case_end(&c);
}

/* ---- unpacking ---- */

struct tmember {
	const char *name;
	char type;		/* f file, d dir, l symlink, h hard link, p fifo */
	const char *target;
};

static void make_tar(const char *path, const struct tmember *m, size_t n)
{
	struct archive *a = archive_write_new();

	archive_write_set_format_pax_restricted(a);
	archive_write_open_filename(a, path);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, m[i].name);
		archive_entry_set_perm(e, 0644);
		switch (m[i].type) {
		case 'f':
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_size(e, 5);
			archive_write_header(a, e);
			archive_write_data(a, "hello", 5);
			break;
		case 'd':
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_write_header(a, e);
			break;
		case 'l':
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, m[i].target);
			archive_write_header(a, e);
			break;
		case 'h':
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_hardlink(e, m[i].target);
			archive_write_header(a, e);
			break;
		case 'p':
			archive_entry_set_filetype(e, AE_IFIFO);
			archive_write_header(a, e);
			break;
		}
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
}

static void test_unpack_hostile(void)
{
	static const struct {
		const char *what;
		struct tmember m[3];
	} cases[] = {
		{ "absolute path", { { ".debug", 'd', 0 }, { "/tmp/tp-evil-abs", 'f', 0 } } },
		{ "'..' component", { { ".debug", 'd', 0 }, { ".debug/../../tp-evil", 'f', 0 } } },
		{ "absolute symlink", { { ".debug", 'd', 0 }, { ".debug/.build-id/ab/cd", 'l', "/etc" } } },
		{ "symlink climbing out", { { ".debug", 'd', 0 }, { ".debug/a", 'l', "../../x" } } },
		{ "'..' after a name", { { ".debug", 'd', 0 }, { ".debug/a/b", 'l', "c/../../../x" } } },
		{ "member under a symlink", { { ".debug", 'd', 0 }, { ".debug/s", 'l', "d" },
					      { ".debug/s/f", 'f', 0 } } },
		{ "hard link outside", { { ".debug", 'd', 0 }, { ".debug/h", 'h', "/etc/passwd" } } },
		{ "hard link to nothing", { { ".debug", 'd', 0 }, { ".debug/h", 'h', ".debug/none" } } },
		{ "fifo", { { ".debug", 'd', 0 }, { ".debug/p", 'p', 0 } } },
		{ "recording in a subdirectory", { { ".debug", 'd', 0 }, { "x/perf.data", 'f', 0 } } },
	};
	struct tcase c = case_begin("unpack: hostile archives refused, nothing written");
	char tar[300], cache[300], data[300], cmd[700];

	path_of(tar, sizeof(tar), "hostile.tar");
	path_of(cache, sizeof(cache), "u-cache");
	path_of(data, sizeof(data), "u-data");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct tp_unpack_conf conf = { .cache_dir = cache, .data_dir = data };
		struct tp_unpack_stats st;
		size_t n = 0;

		while (n < 3 && cases[i].m[n].name)
			n++;
		make_tar(tar, cases[i].m, n);
		if (!expect_u64(&c, cases[i].what, (uint64_t)-TP_ERR_INVAL,
				(uint64_t)tp_archive__unpack(tar, &conf, &st)))
			break;
		EXPECT_TRUE(&c, "no cache directory made", !exists(cache));
		EXPECT_TRUE(&c, "no data directory made", !exists(data));
	}
	EXPECT_TRUE(&c, "nothing outside", !exists("/tmp/tp-evil-abs"));
	snprintf(cmd, sizeof(cmd), "rm -f '%s'", tar);
	EXPECT(&c, "cleanup", 0, system(cmd));
	case_end(&c);
}

static void test_archive_roundtrip(void)
{
	struct tcase c = case_begin("archive: write a plan (zstd), unpack: files, links, recording");
	struct tp_arcmember m[4] = {
		{ .path = "rec.data" },
		{ .path = ".debug", .dir = true },
		{ .path = ".debug/.build-id/ab/cdef", .link = "../../usr/bin/x/abcdef" },
		{ .path = ".debug/usr/bin/x/abcdef/elf" },
	};
	struct tp_arcplan p = { .m = m, .n = 4 };
	struct tp_unpack_conf conf = { 0 };
	struct tp_unpack_stats st;
	char src[300], tar[300], cache[300], data[300], path[600];

	path_of(src, sizeof(src), "rt-src");
	path_of(tar, sizeof(tar), "rt.tar.zst");
	path_of(cache, sizeof(cache), "rt-cache");
	path_of(data, sizeof(data), "rt-data");
	write_file(src, 3000, 'r');
	m[0].src = src;
	m[3].src = src;
	EXPECT(&c, "write", 0, tp_archive__write(&p, tar, TP_ARC_ZSTD, 0, NULL, NULL));
	conf.cache_dir = cache;
	conf.data_dir = data;
	EXPECT(&c, "unpack", 0, tp_archive__unpack(tar, &conf, &st));
	EXPECT(&c, "one cache file", 1, st.files);
	EXPECT(&c, "one link", 1, st.links);
	EXPECT(&c, "one recording", 1, st.data_files);
	snprintf(path, sizeof(path), "%s/.build-id/ab/cdef/elf", cache);
	EXPECT_TRUE(&c, "the file through the index link", is_file(path));
	snprintf(path, sizeof(path), "%s/rec.data", data);
	EXPECT_TRUE(&c, "the recording in the data directory", is_file(path));
	EXPECT(&c, "again: the recording exists", -TP_ERR_INVAL, tp_archive__unpack(tar, &conf, &st));
	conf.force = true;
	EXPECT(&c, "again with force", 0, tp_archive__unpack(tar, &conf, &st));
	case_end(&c);
}

/* Every compression this host's libarchive (Debian's: zstd, xz, gzip built in) writes, by
 * the magic of what it wrote, and reads back; what a libarchive without one of them does
 * (Buildroot's, no zstd) tests/cache/run.sh checks through an interposer. */
static void test_archive_comps(void)
{
	struct tcase c = case_begin("archive: zstd, xz, gzip, none written (by their magic), unpacked");
	static const struct { enum tp_arccomp comp; const char *suffix; size_t off, len;
			      const char *magic; } t[] = {
		{ TP_ARC_ZSTD, ".zst", 0, 4, "\x28\xb5\x2f\xfd" },
		{ TP_ARC_XZ, ".xz", 0, 6, "\xfd" "7zXZ\0" },
		{ TP_ARC_GZIP, ".gz", 0, 2, "\x1f\x8b" },
		{ TP_ARC_NONE, "", 257, 5, "ustar" },
	};
	struct tp_arcmember m[2] = { { .path = "rec.data" }, { .path = ".debug", .dir = true } };
	struct tp_arcplan p = { .m = m, .n = 2 };
	char src[300], tar[300], name[16], got[8];

	path_of(src, sizeof(src), "comp-src");
	write_file(src, 5000, 'c');
	m[0].src = src;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct tp_unpack_conf conf = { .force = true };
		struct tp_unpack_stats st;
		char cache[300], data[300];
		int fd;

		snprintf(name, sizeof(name), "comp.tar%s", t[i].suffix);
		EXPECT_TRUE(&c, tp_arccomp__name(t[i].comp), tp_archive__can_write(t[i].comp));
		EXPECT(&c, "usable: itself", t[i].comp, tp_archive__usable_comp(t[i].comp));
		EXPECT_TRUE(&c, "suffix", !strcmp(tp_arccomp__suffix(t[i].comp), t[i].suffix));
		path_of(tar, sizeof(tar), name);
		EXPECT(&c, "write", 0, tp_archive__write(&p, tar, t[i].comp, 0, NULL, NULL));
		fd = open(tar, O_RDONLY);
		memset(got, 0, sizeof(got));
		EXPECT(&c, "magic read", t[i].len, pread(fd, got, t[i].len, (off_t)t[i].off));
		close(fd);
		EXPECT_TRUE(&c, "magic", !memcmp(got, t[i].magic, t[i].len));
		path_of(cache, sizeof(cache), "comp-cache");
		path_of(data, sizeof(data), "comp-data");
		conf.cache_dir = cache;
		conf.data_dir = data;
		EXPECT(&c, "unpack", 0, tp_archive__unpack(tar, &conf, &st));
		EXPECT(&c, "the recording", 1, st.data_files);
	}
	case_end(&c);
}

/* ---- diff pairing ---- */

static void test_symdiff(void)
{
	struct tcase c = case_begin("symdiff: pairs by name, sums duplicates, biggest shift first");
	const struct tp_dentry old[] = {
		{ "prog", "hot_a", 750, 75, '.' }, { "prog", "hot_b", 250, 25, '.' },
		{ "libc.so.6", "memcpy", 0, 0, '.' },
	};
	const struct tp_dentry new[] = {
		{ "prog", "hot_b", 500, 50, '.' }, { "prog", "hot_a", 200, 20, '.' },
		{ "prog", "hot_b", 100, 10, '.' }, { "prog", "new_fn", 200, 20, '.' },
	};
	struct tp_drow *r;
	size_t n;

	EXPECT(&c, "diff", 0, tp_symdiff(old, 3, 1000, new, 4, 1000, &r, &n));
	EXPECT(&c, "rows: hot_a, hot_b, memcpy, new_fn", 4, n);
	if (n == 4) {
		EXPECT_TRUE(&c, "hot_a first (-55 points)", !strcmp(r[0].sym, "hot_a"));
		EXPECT(&c, "hot_a old", 750, r[0].weight[0]);
		EXPECT(&c, "hot_a new", 200, r[0].weight[1]);
		EXPECT_TRUE(&c, "hot_a delta", r[0].delta < -54.9 && r[0].delta > -55.1);
		EXPECT_TRUE(&c, "hot_b second", !strcmp(r[1].sym, "hot_b"));
		EXPECT(&c, "hot_b's two new entries summed", 600, r[1].weight[1]);
		EXPECT_TRUE(&c, "new_fn only in new", !strcmp(r[2].sym, "new_fn") && !r[2].weight[0]);
	}
	free(r);
	case_end(&c);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[300];
	int rc;

	snprintf(root, sizeof(root), "%s/test-bidcache.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		printf("[FAIL] cannot make a temporary directory: %s\n", strerror(errno));
		return 1;
	}
	test_keys();
	test_layout();
	test_add_find_remove();
	test_richer_copy();
	test_list_trim();
	test_concurrent();
	test_identify();
	test_open_regular();
	test_elfslim();
	test_unpack_hostile();
	test_archive_roundtrip();
	test_archive_comps();
	test_symdiff();
	rc = check_summary("test-bidcache");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return rc;
}
