/* SPDX-License-Identifier: MIT */
/* kallsyms read the lazy way (tp_kallsyms__open: the address and place of each symbol, its
 * lines read again on a lookup) against the whole parse (tp_kallsyms__parse) of the same
 * file: every lookup gives the same symbol (name, start, size) or none, for each module
 * filter, and the counts, modules and reference symbol agree. On a hand-made file with
 * aliases, data, modules, skipped and malformed lines, CRLF, a line longer than the read
 * buffer and no final newline; on 300 random files, sorted (as the kernel's) or not (as
 * /proc/kallsyms with modules). */
#define _DEFAULT_SOURCE		/* mkstemp */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/kallsyms.h"
#include "tests/unit/check.h"

static char path[] = "/tmp/test-kallsyms-XXXXXX";

static void write_file(const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* one lookup in both: the same symbol or none */
static void same_at(struct tcase *c, const struct tp_kallsyms *whole,
		    const struct tp_kallsyms *lazy, uint64_t addr, long module)
{
	const struct tp_sym *a = tp_kallsyms__find(whole, addr, module);
	const struct tp_sym *b = tp_kallsyms__find(lazy, addr, module);
	char what[96];

	snprintf(what, sizeof(what), "found at %#llx (module %ld)", (unsigned long long)addr,
		 module);
	if (!EXPECT(c, what, !!a, !!b) || !a)
		return;
	snprintf(what, sizeof(what), "start at %#llx", (unsigned long long)addr);
	EXPECT(c, what, a->start, b->start);
	snprintf(what, sizeof(what), "size at %#llx", (unsigned long long)addr);
	EXPECT(c, what, a->size, b->size);
	snprintf(what, sizeof(what), "name at %#llx", (unsigned long long)addr);
	EXPECT(c, what, 0, strcmp(a->name, b->name));
}

/* text parsed both ways */
static void compare(struct tcase *c, const char *text, size_t len)
{
	struct tp_kallsyms whole, lazy;
	int ew, el;

	write_file(text, len);
	ew = tp_kallsyms__parse(&whole, text, len, "_text");
	el = tp_kallsyms__open(&lazy, path, "_text");
	if (!EXPECT(c, "result", ew, el) || ew)
		return;
	EXPECT(c, "symbols", whole.n_syms, lazy.n_syms);
	EXPECT(c, "bad lines", whole.n_bad, lazy.n_bad);
	EXPECT(c, "reference found", whole.has_ref, lazy.has_ref);
	EXPECT(c, "reference", whole.ref_addr, lazy.ref_addr);
	if (EXPECT(c, "modules", whole.n_modules, lazy.n_modules))
		for (size_t i = 1; i < whole.n_modules; i++)
			EXPECT(c, "module name", 0, strcmp(whole.modules[i], lazy.modules[i]));
	for (size_t i = 0; i < whole.tab.n && !c->failed; i++) {
		const struct tp_sym *s = &whole.tab.syms[i];
		const uint64_t at[] = { s->start - 1, s->start, s->start + 1, s->start + s->size - 1,
					s->start + s->size, s->start + 4096 };

		for (size_t j = 0; j < ARRAY_SIZE(at); j++)
			for (long m = -1; m < (long)whole.n_modules + 1; m++)
				same_at(c, &whole, &lazy, at[j], m);
	}
	same_at(c, &whole, &lazy, 0, -1);
	same_at(c, &whole, &lazy, UINT64_MAX, -1);
	tp_kallsyms__exit(&whole);
	tp_kallsyms__exit(&lazy);
}

static void test_made(void)
{
	static const char head[] =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 t __pi_startup\n"
		"ffffffff81000040 T do_one\n"
		"ffffffff81000040 W do_one_weak\n"
		"ffffffff81000080 t helper\r\n"
		"garbage line\n"
		"ffffffff81000100 D some_data\n"
		"ffffffff81000100 T __x64_sys_getppid\n"
		"ffffffff81000100 T __ia32_sys_getppid\n"
		"ffffffff81000180 U undefined_one\n"
		"ffffffff81000200 d local_data\n"
		"\n"
		"ffffffff81000300 T memcpy\n"
		"ffffffff81000300 T __pi_memcpy\n"
		"ffffffffc0200000 t mod_fn\t[mod_a]\n"
		"ffffffffc0200040 t mod_fn2\t[mod_a]\n"
		"ffffffffc0200040 T mod_b_fn\t[mod_b]\n";
	static const char tail[] = "ffffffffc0300000 t last_one\t[mod_b]";
	size_t n = strlen(head) + 70000 + 1 + strlen(tail);
	char *text = malloc(n + 1);
	struct tcase c = case_begin("kallsyms: lazy = whole parse (aliases, data, modules, "
				    "skipped lines, a 70000-byte line, no final newline)");

	if (!text)
		exit(1);
	strcpy(text, head);
	memset(text + strlen(head), 'x', 70000);	/* longer than a read: malformed */
	text[strlen(head) + 70000] = '\n';
	strcpy(text + strlen(head) + 70001, tail);
	compare(&c, text, n);
	free(text);
	case_end(&c);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void test_random(void)
{
	static const char types[] = "TtWwDdBbRrAU";
	static const char *const names[] = { "f", "_f", "__f", "ffff", "g_", "__pi_f", "x" };
	static const char *const mods[] = { "", "\t[m1]", "\t[m2]", " [m3]" };
	struct tcase c = case_begin("kallsyms: lazy = whole parse, 300 random files, a third "
				    "unsorted");
	char *text = malloc(1 << 16);

	if (!text)
		exit(1);
	for (int f = 0; f < 300 && !c.failed; f++) {
		uint64_t addr = 0xffffffff81000000ull;
		size_t len = 0;
		int lines = 1 + (int)rnd(200);

		bool sorted = rnd(3);

		for (int i = 0; i < lines; i++) {
			if (sorted)
				addr += rnd(4) ? rnd(3) * 16 : 0;	/* aliases often */
			else
				addr = 0xffffffff81000000ull + rnd(8) * 16;
			len += (size_t)snprintf(text + len, 256, "%016llx %c %s%u%s%s",
						(unsigned long long)(rnd(40) ? addr : 0),
						types[rnd(sizeof(types) - 1)],
						names[rnd(ARRAY_SIZE(names))], rnd(50),
						mods[rnd(8) ? 0 : rnd(ARRAY_SIZE(mods))],
						i == lines - 1 && rnd(2) ? "" : "\n");
		}
		compare(&c, text, len);
	}
	free(text);
	case_end(&c);
}

static void test_empty(void)
{
	struct tcase c = case_begin("kallsyms: only zero addresses (kptr_restrict), no file");
	struct tp_kallsyms k;

	write_file("0000000000000000 T a\n", 21);
	EXPECT(&c, "only zero addresses", -TP_ERR_EMPTY, tp_kallsyms__open(&k, path, "_text"));
	EXPECT(&c, "no file", -TP_ERR_IO, tp_kallsyms__open(&k, "/nonexistent/kallsyms", NULL));
	case_end(&c);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	test_made();
	test_random();
	test_empty();
	unlink(path);
	return check_summary("test-kallsyms");
}
