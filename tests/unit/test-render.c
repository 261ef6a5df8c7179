/* SPDX-License-Identifier: MIT */
/* The flame graph writer (lib/render): stacks merged by name with their weights, the SVG's
 * frames and titles, names escaped for XML (markup, control and non-UTF-8 bytes), an empty
 * tree, --minwidth pruning, --diff colours and an icicle's root on top. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/render/render.h"
#include "tests/unit/check.h"

static const uint8_t user[8];

/* a tree from "a;b=3 a;c=2 -a;c=1" (a leading '-': the baseline's); NULL on failure */
static struct tp_flame *tree(struct tcase *c, const char *spec)
{
	char buf[512], *save, *stack;
	struct tp_flame *fl;

	EXPECT(c, "a new tree", tp_flame__new(&fl), 0);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (stack = strtok_r(buf, " ", &save); stack; stack = strtok_r(NULL, " ", &save)) {
		const char *names[8];
		char *eq = strchr(stack, '='), *in, *tok;
		bool old = *stack == '-';
		uint32_t n = 0;

		*eq = '\0';
		for (tok = strtok_r(stack + old, ";", &in); tok && n < 8; tok = strtok_r(NULL, ";", &in))
			names[n++] = tok;
		EXPECT(c, "a stack added", tp_flame__add(fl, names, user, n, strtoull(eq + 1, NULL, 10),
							  old), 0);
	}
	return fl;
}

/* the SVG of fl, in a malloc'd string; a failure to write fails case c */
static char *svg(struct tcase *c, const struct tp_flame *fl, const struct tp_svgconf *conf)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	EXPECT(c, "the SVG is written", tp_flame__write_svg(fl, conf, f), 0);
	fclose(f);
	return s;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* each of the texts is in s, in this order */
static void expect_in_order(struct tcase *c, const char *s, const char *const *texts, size_t n)
{
	const char *at = s;

	for (size_t i = 0; i < n && !c->failed; i++) {
		const char *p = strstr(at, texts[i]);

		if (!p)
			printf("[FAIL] %s: expected \"%s\" in the SVG%s\n", c->name, texts[i],
			       i ? " after the previous text" : "");
		c->failed = !p;
		at = p;
	}
}

static void finish(struct tcase *c, struct tp_flame *fl, char *s)
{
	free(s);
	tp_flame__delete(fl);
	case_end(c);
}

static void test_tree(void)
{
	struct tcase c = case_begin("stacks merge by name: widths and titles");
	struct tp_flame *fl = tree(&c, "a;b=3 a;c=2 a=1");
	char *s = svg(&c, fl, &(struct tp_svgconf){ .minwidth = 0 });
	static const char *const want[] = {
		"<script><![CDATA[",
		"<title>a (6 samples, 100.00%)</title>",
		"data-s=\"0\" data-n=\"3\" data-d=\"2\"><title>b (3 samples, 50.00%)",
		"width=\"590.0\"",		/* half of 1200 less the padding */
		"data-s=\"3\" data-n=\"2\" data-d=\"2\"><title>c",
	};

	EXPECT(&c, "no frames", tp_flame__add(fl, NULL, NULL, 0, 1, false), -TP_ERR_INVAL);
	EXPECT(&c, "total", tp_flame__total(fl, false), 6);
	EXPECT(&c, "4 frames: all, a, b, c", count(s, "<g data-s="), 4);
	EXPECT(&c, "nothing fetched", count(s, "src=") + count(s, "href="), 0);
	expect_in_order(&c, s, want, ARRAY_SIZE(want));
	finish(&c, fl, s);
}

static void test_escape(void)
{
	struct tcase c = case_begin("names: <&\"' as entities, control and non-UTF-8 bytes as \\xNN");
	struct tp_flame *fl = tree(&c, "");
	const char *names[] = { "x<&\"'\x01\xff\xc3(\xe2\x82\xac" };
	static const char *const want[] = {
		"<title>x&lt;&amp;&quot;&#39;\\x01\\xff\\xc3(\xe2\x82\xac (5 samples",
	};
	char *s;

	EXPECT(&c, "add", tp_flame__add(fl, names, user, 1, 5, false), 0);
	s = svg(&c, fl, &(struct tp_svgconf){ .minwidth = 0 });
	expect_in_order(&c, s, want, ARRAY_SIZE(want));
	EXPECT(&c, "no raw 0xff", count(s, "\xff"), 0);
	finish(&c, fl, s);
}

static void test_empty(void)
{
	struct tcase c = case_begin("an empty tree: a valid picture that says so");
	struct tp_flame *fl = tree(&c, "");
	char *s = svg(&c, fl, &(struct tp_svgconf){ .minwidth = 0.1 });
	static const char *const want[] = { "<g id=\"frames\">\n</g>", "No samples to draw",
					    "</svg>\n" };

	EXPECT(&c, "no frames", count(s, "<g data-s="), 0);
	expect_in_order(&c, s, want, ARRAY_SIZE(want));
	finish(&c, fl, s);
}

static void test_minwidth_inverted(void)
{
	struct tcase c = case_begin("--minwidth leaves out narrow frames; --inverted: root on top");
	struct tp_flame *fl = tree(&c, "a;big=999 a;small=1");	/* small: 1.18 px */
	struct tp_svgconf conf = { .minwidth = 10 };
	char *s = svg(&c, fl, &conf), *inv;
	static const char *const bottom[] = {
		"<title>all (1000 samples, 100.00%)</title><rect x=\"10.0\" y=\"98\"" };
	static const char *const top[] = {
		"<title>all (1000 samples, 100.00%)</title><rect x=\"10.0\" y=\"66\"" };

	EXPECT(&c, "all, a, big", count(s, "<g data-s="), 3);
	EXPECT(&c, "small is out", count(s, "small"), 0);
	expect_in_order(&c, s, bottom, 1);
	conf.inverted = true;
	inv = svg(&c, fl, &conf);
	expect_in_order(&c, inv, top, 1);
	free(inv);
	finish(&c, fl, s);
}

static void test_diff(void)
{
	struct tcase c = case_begin("--diff: a bigger share is red, a smaller one blue");
	struct tp_flame *fl = tree(&c, "-m;slower=10 -m;faster=30 m;slower=30 m;faster=10");
	char *s = svg(&c, fl, &(struct tp_svgconf){ .diff = true });
	/* children sorted by name: faster before slower; m did not change: white */
	static const char *const want[] = {
		"<title>m (40 samples, 100.00%; before 40, +0.00 points)</title><rect x=\"10.0\" "
		"y=\"82\" width=\"1180.0\" height=\"15\" fill=\"rgb(250,250,250)\"",
		"<title>faster (10 samples, 25.00%; before 30, -50.00 points)",
		"fill=\"rgb(55,55,255)\"",
		"<title>slower (30 samples, 75.00%; before 10, +50.00 points)",
		"fill=\"rgb(255,55,55)\"",
	};

	EXPECT(&c, "the baseline's total", tp_flame__total(fl, true), 40);
	expect_in_order(&c, s, want, ARRAY_SIZE(want));
	finish(&c, fl, s);
}

int main(void)
{
	test_tree();
	test_escape();
	test_empty();
	test_minwidth_inverted();
	test_diff();
	return check_summary("test-render");
}
