/* SPDX-License-Identifier: MIT */
/* The library's array growth (common/grow.h): the capacity it picks, an exact fit left alone,
 * a size in bytes that would overflow refused, and nothing changed when it fails. */
#include <stdlib.h>

#include "host-tools/lib/common/grow.h"
#include "tests/unit/check.h"

struct item {
	uint64_t a, b;
	char name[8];
};

static void test_from_zero(void)
{
	struct tcase c = case_begin("growth from 0: first elements, then doubling");
	struct item *v = NULL;
	size_t cap = 0;

	EXPECT(&c, "grow to 1", tp_grow_array((void **)&v, &cap, 1, sizeof(*v), 16), 0);
	EXPECT_TRUE(&c, "an array", v != NULL);
	EXPECT(&c, "cap: first", cap, 16);
	v[15] = (struct item){ .a = 15 };
	EXPECT(&c, "grow to 17", tp_grow_array((void **)&v, &cap, 17, sizeof(*v), 16), 0);
	EXPECT(&c, "cap doubled", cap, 32);
	EXPECT(&c, "contents kept", v[15].a, 15);
	EXPECT(&c, "grow to 100", tp_grow_array((void **)&v, &cap, 100, sizeof(*v), 16), 0);
	EXPECT(&c, "cap doubled until it fits", cap, 128);
	v[99].a = 99;
	free(v);
	v = NULL;
	cap = 0;
	EXPECT(&c, "first 0 is taken as 1", tp_grow_array((void **)&v, &cap, 1, 1, 0), 0);
	EXPECT(&c, "cap", cap, 1);
	free(v);
	case_end(&c);
}

static void test_exact_fit(void)
{
	struct tcase c = case_begin("need == cap: no realloc, nothing changed");
	struct item *v = NULL, *was;
	size_t cap = 0;

	EXPECT(&c, "grow to 8", TP_GROW(v, cap, 8, 8), 0);
	was = v;
	EXPECT(&c, "cap", cap, 8);
	EXPECT(&c, "need 8 again", TP_GROW(v, cap, 8, 8), 0);
	EXPECT_TRUE(&c, "same array", v == was);
	EXPECT(&c, "same cap", cap, 8);
	EXPECT(&c, "need 0", TP_GROW(v, cap, 0, 8), 0);
	EXPECT(&c, "same cap after need 0", cap, 8);
	EXPECT(&c, "need 9", TP_GROW(v, cap, 9, 8), 0);
	EXPECT(&c, "cap doubled", cap, 16);
	free(v);
	case_end(&c);
}

static void test_overflow(void)
{
	struct tcase c = case_begin("count x size past SIZE_MAX refused, array and cap unchanged");
	struct item *v = NULL, *was;
	uint16_t *h = NULL;
	size_t cap = 0, hcap = 4;

	EXPECT(&c, "grow to 4", TP_GROW(v, cap, 4, 4), 0);
	was = v;
	EXPECT(&c, "need SIZE_MAX / size + 1",
	       TP_GROW(v, cap, SIZE_MAX / sizeof(*v) + 1, 4), -TP_ERR_NOMEM);
	EXPECT_TRUE(&c, "same array", v == was);
	EXPECT(&c, "same cap", cap, 4);
	EXPECT(&c, "need SIZE_MAX", TP_GROW(v, cap, SIZE_MAX, 4), -TP_ERR_NOMEM);
	EXPECT(&c, "same cap after SIZE_MAX", cap, 4);
	/* doubling past SIZE_MAX / 2 stops at need, which is still too many bytes */
	h = malloc(4 * sizeof(*h));
	EXPECT_TRUE(&c, "malloc", h != NULL);
	EXPECT(&c, "u16: need SIZE_MAX / 2 + 2",
	       TP_GROW(h, hcap, SIZE_MAX / 2 + 2, 4), -TP_ERR_NOMEM);
	EXPECT(&c, "u16: same cap", hcap, 4);
	free(h);
	free(v);
	case_end(&c);
}

static void test_u32(void)
{
	struct tcase c = case_begin("uint32_t counts: from 64, never past 2^31");
	uint64_t *v = NULL, *was;
	uint32_t cap = 0;

	EXPECT(&c, "grow to 1", tp_grow((void **)&v, &cap, 1, sizeof(*v)), 0);
	EXPECT(&c, "cap", cap, 64);
	EXPECT(&c, "grow to 65", tp_grow((void **)&v, &cap, 65, sizeof(*v)), 0);
	EXPECT(&c, "cap doubled", cap, 128);
	was = v;
	EXPECT(&c, "need 2^31 + 1", tp_grow((void **)&v, &cap, (UINT32_C(1) << 31) + 1, sizeof(*v)),
	       -TP_ERR_NOMEM);
	EXPECT_TRUE(&c, "same array", v == was);
	EXPECT(&c, "same cap", cap, 128);
	free(v);
	case_end(&c);
}

int main(void)
{
	test_from_zero();
	test_exact_fit();
	test_overflow();
	test_u32();
	return check_summary("test-grow");
}
