/* SPDX-License-Identifier: MIT */
/* shim-test: libc-shim's own code in the running backend: string functions, the formatter,
 * number parsing, buffered output, file and line reading, tp_strerror. Part of arch-test. */
#include "tests/arch/harness.h"

static const struct test_env *env;

/* memchr against a byte loop: every start alignment, length and place of the byte, in
 * buffers of the bytes a word-at-a-time test may confuse with it (its neighbours, 0x80,
 * 0xff, 0) and the byte itself 0, 0x80 and 0xff */
static void test_memchr(void)
{
	static const unsigned char cs[] = { '\n', 0, 0x80, 0xff };
	unsigned char buf[48];
	int bad = 0, runs = 0;

	for (unsigned ci = 0; ci < sizeof(cs); ci++) {
		unsigned char c = cs[ci];
		const unsigned char fill[] = { (unsigned char)(c ^ 1), (unsigned char)(c + 1),
					       (unsigned char)(c - 1), 0x80, 0xff, 0, 0x7f, 0x01 };

		for (unsigned at = 0; at < 8; at++)
			for (unsigned len = 0; at + len <= 40; len++)
				for (unsigned pos = 0; pos <= len; pos++) {	/* pos == len: absent */
					const unsigned char *got, *want = NULL;

					for (unsigned i = 0; i < sizeof(buf); i++)
						buf[i] = fill[(i + at + len) % sizeof(fill)] == c ?
							 (unsigned char)(c ^ 2) : fill[(i + at + len) % sizeof(fill)];
					if (pos < len)
						buf[at + pos] = c;
					buf[at + len] = c;	/* just past the end: must not be found */
					for (unsigned i = 0; i < len && !want; i++)
						want = buf[at + i] == c ? buf + at + i : NULL;
					got = memchr(buf + at, c, len);
					bad += got != want;
					runs++;
				}
	}
	EQ("memchr = a byte loop, every alignment, length and place (bytes 0a 00 80 ff)", bad, 0);
	TRUE("memchr cases run", runs > 10000, runs);
}

static void test_string(void)
{
	char a[32], b[32];
	static const char s[] = "hello world";

	memset(a, 'x', sizeof(a));
	EQ("memset", a[0] == 'x' && a[31] == 'x', 1);
	memcpy(b, "0123456789abcdefghijklmnopqrstu", 32);
	memcpy(a + 1, b + 3, 20);
	EQ("memcpy unaligned", memcmp(a + 1, "3456789abcdefghijklm", 20), 0);
	memcpy(a, b, 32);
	memmove(a + 2, a, 20);
	EQ("memmove forward overlap", memcmp(a, "010123456789abcdefghij", 22), 0);
	memcpy(a, b, 32);
	memmove(a, a + 2, 20);
	EQ("memmove backward overlap", memcmp(a, "23456789abcdefghijkl", 20), 0);
	TRUE("memcmp is unsigned", memcmp("a\x80", "a\x01", 2) > 0, memcmp("a\x80", "a\x01", 2));
	EQ("memcmp equal", memcmp("abc", "abc", 3), 0);
	EQ("memchr", (const char *)memchr(s, 'w', sizeof(s)) - s, 6);
	TRUE("memchr missing", memchr(s, 'z', sizeof(s)) == NULL, 0);
	test_memchr();
	EQ("strlen", strlen(s), 11);
	EQ("strlen empty", strlen(""), 0);
	EQ("strnlen", strnlen(s, 5), 5);
	EQ("strnlen short", strnlen("ab", 5), 2);
	TRUE("strcmp less", strcmp("abc", "abd") < 0, strcmp("abc", "abd"));
	TRUE("strcmp prefix", strcmp("ab", "abc") < 0, strcmp("ab", "abc"));
	TRUE("strcmp unsigned", strcmp("\xff", "a") > 0, strcmp("\xff", "a"));
	EQ("strcmp equal", strcmp(s, "hello world"), 0);
	EQ("strncmp", strncmp("abcX", "abcY", 3), 0);
	TRUE("strncmp differs", strncmp("abcX", "abcY", 4) < 0, strncmp("abcX", "abcY", 4));
	EQ("strchr", strchr(s, 'o') - s, 4);
	EQ("strchr NUL", strchr(s, '\0') - s, 11);
	TRUE("strchr missing", strchr(s, 'z') == NULL, 0);
	EQ("strrchr", strrchr(s, 'o') - s, 7);
	TRUE("strrchr missing", strrchr(s, 'z') == NULL, 0);
	EQ("strstr", strstr(s, "o w") - s, 4);
	EQ("strstr empty needle", strstr(s, "") - s, 0);
	TRUE("strstr missing", strstr(s, "worlds") == NULL, 0);
	EQ("tp_strlcpy returns strlen(src)", tp_strlcpy(a, s, 6), 11);
	check_str("tp_strlcpy truncates", a, "hello");
	EQ("tp_strlcpy size 0", tp_strlcpy(NULL, "ab", 0), 2);
	TRUE("tp_startswith", tp_startswith(s, "hello") && tp_startswith(s, "") &&
	     !tp_startswith("he", "hello"), 0);
}

static TP_PRINTF(2, 3) void fmt_case(const char *exp, const char *fmt, ...)
{
	char buf[64], name[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tp_snprintf(name, sizeof(name), "snprintf \"%s\"", fmt);
	if (check_str(name, buf, exp) && n != (int)strlen(exp))
		check_fail(name, "expected length %d, got %d", (int)strlen(exp), n);
}

static void test_fmt(void)
{
	char buf[8];
	const char *volatile null = NULL;	/* hidden from -Wformat-overflow */

	fmt_case("42", "%d", 42);
	fmt_case("-2147483648", "%d", -2147483647 - 1);
	fmt_case("4294967295", "%u", 4294967295u);
	fmt_case("ff 7fffffff", "%x %x", 255, 0x7fffffff);
	fmt_case("x|hi|hel", "%c|%s|%.3s", 'x', "hi", "hello");
	fmt_case("(null)", "%s", null);
	fmt_case("42   |00042|-0042", "%-5d|%05d|%05d", 42, 42, -42);
	fmt_case("   42|42   |", "%*d|%*d|", 5, 42, -5, 42);
	fmt_case("he", "%.*s", 2, "hello");
	fmt_case("-9223372036854775808", "%lld", (long long)(-9223372036854775807LL - 1));
	fmt_case("18446744073709551615", "%llu", 18446744073709551615ULL);
	fmt_case("100000000 ffffffffffffffff", "%llx %llx", 1ULL << 32, ~0ULL);
	fmt_case("123 -1 4294967295", "%zu %ld %lu", (size_t)123, -1L, 4294967295ul);
	fmt_case("000000000000002a|07|0042", "%016llx|%02u|%04u", 42ULL, 7u, 42u);
	fmt_case("100%", "%d%%", 100);
	fmt_case("||0|000", "|%.0d|%x|%.3d", 0, 0, 0);
	fmt_case("   042|ab   |  ab", "%6.3d|%-5s|%4s", 42, "ab", "ab");
	fmt_case("      -1|-1      |", "%8d|%-8d|", -1, -1);
	/* what tinyperf's formats never use prints as text, not as a wrong number */
	fmt_case("%i %o %X %p %+d % d %#x %hd %jd", "%i %o %X %p %+d % d %#x %hd %jd", 1, 1u, 1u,
		 (void *)1, 1, 1, 1u, (short)1, (intmax_t)1);
	EQ("snprintf truncates, returns full length", tp_snprintf(buf, 4, "%d", 123456), 6);
	check_str("snprintf truncated text", buf, "123");
	EQ("snprintf size 0", tp_snprintf(NULL, 0, "%s", "abc"), 3);
	EQ("snprintf size 1", tp_snprintf(buf, 1, "abc"), 3);
	EQ("snprintf size 1 text", buf[0], 0);
}

static void test_parse(void)
{
	const char *s = "123abc";
	uint64_t u = 0;
	int64_t i = 0;
	unsigned v = 0;
	int hex_n = 0, hex_sum = 0;

	EQ("parse_u64 decimal", tp_parse_u64("12345", 10, &u) ? -1 : (long long)u, 12345);
	EQ("parse_u64 base 0 hex", tp_parse_u64("0x1F", 0, &u) ? -1 : (long long)u, 31);
	EQ("parse_u64 base 0 octal", tp_parse_u64("017", 0, &u) ? -1 : (long long)u, 15);
	EQ("parse_u64 base 0 zero", tp_parse_u64("0", 0, &u) ? -1 : (long long)u, 0);
	TRUE("parse_u64 max", !tp_parse_u64("18446744073709551615", 10, &u) && u == ~0ULL, u);
	EQ("parse_u64 overflow", tp_parse_u64("18446744073709551616", 10, &u), -TP_ERANGE);
	EQ("parse_u64 empty", tp_parse_u64("", 10, &u), -TP_EINVAL);
	EQ("parse_u64 trailing junk", tp_parse_u64("12a", 10, &u), -TP_EINVAL);
	EQ("parse_u64 sign", tp_parse_u64("-1", 10, &u), -TP_EINVAL);
	TRUE("parse_s64 min", !tp_parse_s64("-9223372036854775808", 10, &i) &&
	     i == -9223372036854775807LL - 1, i);
	EQ("parse_s64 below min", tp_parse_s64("-9223372036854775809", 10, &i), -TP_ERANGE);
	EQ("parse_s64 above max", tp_parse_s64("9223372036854775808", 10, &i), -TP_ERANGE);
	EQ("parse_s64 -0x10", tp_parse_s64("-0x10", 0, &i) ? 0 : i, -16);
	EQ("parse_uint", tp_parse_uint("4294967295", &v) ? -1 : (long long)v, 4294967295LL);
	EQ("parse_uint overflow", tp_parse_uint("4294967296", &v), -TP_ERANGE);
	EQ("parse_u64_prefix", tp_parse_u64_prefix(&s, 10, &u) ? -1 : (long long)u, 123);
	check_str("parse_u64_prefix rest", s, "abc");
	EQ("parse_u64_prefix no digits", tp_parse_u64_prefix(&s, 10, &u), -TP_EINVAL);
	EQ("parse_size 512", tp_parse_size("512", &u) ? -1 : (long long)u, 512);
	EQ("parse_size 64K", tp_parse_size("64K", &u) ? -1 : (long long)u, 65536);
	EQ("parse_size 16m", tp_parse_size("16m", &u) ? -1 : (long long)u, 16 << 20);
	EQ("parse_size 2G", tp_parse_size("2G", &u) ? -1 : (long long)u, 2LL << 30);
	EQ("parse_size bad suffix", tp_parse_size("1X", &u), -TP_EINVAL);
	EQ("parse_size overflow", tp_parse_size("17179869184G", &u), -TP_ERANGE);
	EQ("parse_seconds_ms 1.5", tp_parse_seconds_ms("1.5", &u) ? -1 : (long long)u, 1500);
	EQ("parse_seconds_ms 0.25", tp_parse_seconds_ms("0.25", &u) ? -1 : (long long)u, 250);
	EQ("parse_seconds_ms 2", tp_parse_seconds_ms("2", &u) ? -1 : (long long)u, 2000);
	EQ("parse_seconds_ms .0019", tp_parse_seconds_ms(".0019", &u) ? -1 : (long long)u, 1);
	EQ("parse_seconds_ms abc", tp_parse_seconds_ms("abc", &u), -TP_EINVAL);
	EQ("parse_seconds_ms .", tp_parse_seconds_ms(".", &u), -TP_EINVAL);
	EQ("hexval 0", tp_hexval('0'), 0);
	EQ("hexval 9", tp_hexval('9'), 9);
	EQ("hexval a", tp_hexval('a'), 10);
	EQ("hexval F", tp_hexval('F'), 15);
	EQ("hexval g", tp_hexval('g'), -1);
	EQ("hexval :", tp_hexval(':'), -1);
	EQ("hexval @", tp_hexval('@'), -1);
	EQ("hexval NUL", tp_hexval('\0'), -1);
	EQ("hexval 0xc1", tp_hexval((char)0xc1), -1);
	for (int c = 0; c < 256; c++) {
		int d = tp_hexval((char)c);

		if (d >= 0) {
			hex_n++;
			hex_sum += d;
		}
	}
	/* over every byte: 22 digits, 0-9 once and 10-15 in both cases (45 + 2 * 75) */
	EQ("hexval: digits among all bytes", hex_n, 22);
	EQ("hexval: their values", hex_sum, 195);
}

static void test_out(void)
{
	char buf[16], back[512], expect[512];
	struct tp_out o;
	int p[2];
	long n;
	size_t len;

	if (!EQ("out: pipe2", sys_pipe2(p, TP_O_CLOEXEC | TP_O_NONBLOCK), 0))
		return;
	tp_out__init(&o, p[1], buf, sizeof(buf));
	tp_out__write(&o, "0123456789", 10);
	tp_out__puts(&o, "abcdefghij");
	tp_out__printf(&o, "[%s|%05d]", "longer than the sixteen byte buffer", 42);
	tp_out__write(&o, "0123456789012345678901234567890123456789", 40);
	EQ("tp_out__flush", tp_out__flush(&o), 0);
	len = (size_t)tp_snprintf(expect, sizeof(expect), "%s%s[%s|%05d]%s", "0123456789",
				  "abcdefghij", "longer than the sixteen byte buffer", 42,
				  "0123456789012345678901234567890123456789");
	EQ("tp_out written", o.written, len);
	n = sys_read(p[0], back, sizeof(back) - 1);
	back[n > 0 ? n : 0] = '\0';
	check_str("tp_out data", back, expect);
	EQ("tp_write_all", tp_write_all(p[1], "xyz", 3), 0);
	EQ("tp_dprintf longer than its buffer", tp_dprintf(p[1], "%300s|", "r"), 0);
	EQ("tp_write_all and tp_dprintf data", sys_read(p[0], back, sizeof(back)), 3 + 301);
	TRUE("tp_dprintf data", !memcmp(back, "xyz ", 4) && back[302] == 'r' && back[303] == '|',
	     back[302]);
	sys_close(p[0]);
	sys_close(p[1]);

	tp_out__init(&o, p[1], buf, sizeof(buf));	/* closed now */
	tp_out__write(&o, "0123456789abcdefXYZ", 19);
	EQ("tp_out error is sticky", o.err, -TP_EBADF);
	tp_out__puts(&o, "more");
	EQ("tp_out__flush returns the first error", tp_out__flush(&o), -TP_EBADF);
	EQ("tp_out nothing written after an error", o.written, 0);
}

static void test_file(void)
{
	static const char text[] = "line1\nline2\n0123456789012345678901234567890123456789\nlast";
	char name[128], buf[32];
	struct tp_lines l;
	const char *want[] = { "line1", "line2", "0123456789012345678901234567890", "last" };
	long fd;
	int p[2];
	size_t i;
	char *line;
	bool good = true;

	tp_snprintf(name, sizeof(name), "%s/lines", env->tmpdir);
	fd = sys_open(name, TP_O_CREAT | TP_O_WRONLY | TP_O_TRUNC, 0600);
	EQ("file: write", sys_write((int)fd, text, sizeof(text) - 1), (long long)sizeof(text) - 1);
	sys_close((int)fd);
	EQ("tp_read_file", tp_read_file(name, buf, 6), 5);
	check_str("tp_read_file cut to size - 1", buf, "line1");
	EQ("tp_read_file missing", tp_read_file("/nonexistent/tp", buf, sizeof(buf)), -TP_ENOENT);
	EQ("tp_read_file /proc/self/stat", tp_read_file("/proc/self/stat", buf, sizeof(buf)), 31);

	if (EQ("tp_lines__open", tp_lines__open(&l, name, buf, sizeof(buf)), 0)) {
		for (i = 0; i < TP_ARRAY_SIZE(want); i++) {
			line = tp_lines__next(&l);
			if (!line || strcmp(line, want[i])) {
				check_fail("tp_lines__next", "expected \"%s\", got \"%s\"", want[i],
					   line ? line : "(null)");
				good = false;
			}
		}
		TRUE("tp_lines__next: lines, a cut long line, a last line without newline",
		     good && tp_lines__next(&l) == NULL && !l.err, l.err);
		tp_lines__close(&l);
	}
	EQ("tp_lines__open missing", tp_lines__open(&l, "/nonexistent/tp", buf, sizeof(buf)),
	   -TP_ENOENT);
	sys_pipe2(p, 0);
	sys_write(p[1], "a\n\nb", 4);
	sys_close(p[1]);
	tp_lines__init_fd(&l, p[0], buf, sizeof(buf));
	line = tp_lines__next(&l);
	good = line && !strcmp(line, "a");
	line = tp_lines__next(&l);
	good &= line && !strcmp(line, "");
	line = tp_lines__next(&l);
	good &= line && !strcmp(line, "b");
	TRUE("tp_lines__init_fd on a pipe", good && !tp_lines__next(&l), 0);
	tp_lines__close(&l);
	sys_unlinkat(TP_AT_FDCWD, name, 0);
}

static void test_strerror(void)
{
#define CODE(name, msg) TP_##name,
#define MSG(name, msg) msg,
	static const long codes[] = { TP_ERRNO_LIST(CODE) };
	static const char *const msgs[] = { TP_ERRNO_LIST(MSG) };
	size_t i, j, bad = 0;

	for (i = 0; i < TP_ARRAY_SIZE(codes); i++) {
		if (strcmp(tp_strerror(-codes[i]), msgs[i]) || strcmp(tp_strerror(codes[i]), msgs[i]))
			bad++, check_fail("tp_strerror", "expected \"%s\" for %ld, got \"%s\"",
					  msgs[i], codes[i], tp_strerror(-codes[i]));
		for (j = 0; j < i; j++)
			if (codes[i] == codes[j])
				bad++, check_fail("errno values distinct", "expected %s != %s, both %ld",
						  msgs[i], msgs[j], codes[i]);
	}
	TRUE("tp_strerror for every TP_E*, all values distinct", bad == 0, bad);
	check_str("tp_strerror(0)", tp_strerror(0), "Success");
	check_str("tp_strerror unknown", tp_strerror(-4000), "errno 4000");
	{	/* the socket errors only a connection meets: messages when something connects */
		char want[24];

		tp_snprintf(want, sizeof(want), "errno %ld", (long)TP_ECONNREFUSED);
		check_str("tp_strerror of a socket error", tp_strerror(-TP_ECONNREFUSED),
			  IS_ENABLED(CONFIG_SHIM_NET_ERRNOS) ? "Connection refused" : want);
	}
}

/* 64-bit / and % (libc-shim/common/div64.c on 32-bit targets): known quotients, the edge
 * cases of the shift-subtract loop (divisor above 2^63, 32-bit fast path); signs and
 * generated pairs below. */
static void test_div64(void)
{
	volatile uint64_t n = UINT64_MAX, d = 10;

	EQ("u64 / 10", n / d == 1844674407370955161ull, 1);
	EQ("u64 % 10", n % d, 5);
	d = 0x8000000000000001ull;
	EQ("u64 / (2^63 + 1)", n / d, 1);
	EQ("u64 % (2^63 + 1)", n % d == 0x7ffffffffffffffeull, 1);
	n = 0xffffffffull;
	d = 0x100000000ull;
	EQ("u64 / larger", n / d, 0);
	n = 4000000000u;
	d = 7;
	EQ("32-bit path /", n / d, 571428571);
	EQ("32-bit path %", n % d, 3);
}

/* 64-bit >> by a variable count (on MIPS, gcc calls __lshrdi3 for it at -Os: div64.c's);
 * each half and the boundary counts, through the operator and, where the shim has it, the
 * helper itself */
#ifdef ARCH_SOFT_SHIFT64
uint64_t __lshrdi3(uint64_t v, int n);
uint64_t __ashldi3(uint64_t v, int n);
int64_t __ashrdi3(int64_t v, int n);
#endif
static void test_shift64(void)
{
	/* expected values: Python's x >> n, (x << n) & (2**64 - 1), and >> of x - 2**64 */
	static const struct { int n; uint64_t shr, shl, sar; } v[] = {
		{ 0, 0xfedcba9876543210ull, 0xfedcba9876543210ull, 0xfedcba9876543210ull },
		{ 1, 0x7f6e5d4c3b2a1908ull, 0xfdb97530eca86420ull, 0xff6e5d4c3b2a1908ull },
		{ 4, 0x0fedcba987654321ull, 0xedcba98765432100ull, 0xffedcba987654321ull },
		{ 31, 0x1fdb97530ull, 0x3b2a190800000000ull, 0xfffffffffdb97530ull },
		{ 32, 0xfedcba98ull, 0x7654321000000000ull, 0xfffffffffedcba98ull },
		{ 33, 0x7f6e5d4cull, 0xeca8642000000000ull, 0xffffffffff6e5d4cull },
		{ 63, 1, 0, 0xffffffffffffffffull },
	};
	volatile uint64_t x = 0xfedcba9876543210ull;

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		volatile int n = v[i].n;

		EQ("u64 >> n", x >> n == v[i].shr, 1);
		EQ("u64 << n", x << n == v[i].shl, 1);
		EQ("i64 >> n", (uint64_t)((int64_t)x >> n) == v[i].sar, 1);
#ifdef ARCH_SOFT_SHIFT64
		EQ("__lshrdi3", __lshrdi3(x, n) == v[i].shr, 1);
		EQ("__ashldi3", __ashldi3(x, n) == v[i].shl, 1);
		EQ("__ashrdi3", (uint64_t)__ashrdi3((int64_t)x, n) == v[i].sar, 1);
#endif
	}
}

/* 32-bit / and %: the CPU's divide, or on ARMv7-A without one the EABI helpers of
 * libc-shim/common/div64.c: edges (0, 1, equal, the top bit); signs and generated pairs
 * below. */
static void test_div32(void)
{
	volatile uint32_t n = UINT32_MAX, d = 10;

	EQ("u32 / 10", n / d, 429496729);
	EQ("u32 % 10", n % d, 5);
	d = 0x80000000u;
	EQ("u32 / 2^31", n / d, 1);
	EQ("u32 % 2^31", n % d, 0x7fffffff);
	n = 5;
	d = 7;
	EQ("u32 smaller / larger", n / d, 0);
	EQ("u32 smaller % larger", n % d, 5);
	n = 0;
	EQ("u32 0 / 7", n / d, 0);
	n = d = 123456789;
	EQ("u32 n / n", n / d, 1);
	EQ("u32 n % n", n % d, 0);
	d = 1;
	EQ("u32 n / 1", n / d, 123456789);
}

/* C's signs: the quotient truncates toward zero, the remainder takes the dividend's sign;
 * each case in 64 bits, and in 32 bits where it fits */
static void test_div_signs(void)
{
	static const struct { int64_t n, d, q, r; } v[] = {
		{ -7, 2, -3, -1 }, { 7, -2, -3, 1 }, { -7, -2, 3, -1 },
		{ INT32_MIN, 10, -214748364, -8 }, { INT32_MIN, -1000003, 2147, -477207 },
		{ INT64_MIN, 1000000007, -9223371972LL, -291172004 },
	};
	char name[64];

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		volatile int64_t n = v[i].n, d = v[i].d;

		tp_snprintf(name, sizeof(name), "s64 %lld / %lld and %%", (long long)v[i].n,
			    (long long)v[i].d);
		TRUE(name, n / d == v[i].q && n % d == v[i].r, n / d);
		if (v[i].n >= INT32_MIN && v[i].n <= INT32_MAX) {
			volatile int32_t n32 = (int32_t)v[i].n, d32 = (int32_t)v[i].d;

			name[1] = '3', name[2] = '2';
			TRUE(name, n32 / d32 == v[i].q && n32 % d32 == v[i].r, n32 / d32);
		}
	}
}

/* q * d + r == n with r < d over generated pairs, divisors of every width: u64, u32, s32 */
static void test_div_pairs(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, bad64 = 0, bad32 = 0, bads = 0;

	for (int i = 0; i < 2000; i++) {
		volatile uint64_t n, d;
		volatile uint32_t n32, d32;
		volatile int32_t sn, sd;
		uint64_t a, b, q, r;
		uint32_t a32, b32, q32, r32;
		int32_t sa, sb, sq, sr;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a = x;
		b = x >> (i % 64) | 1;
		n = a;
		d = b;
		q = n / d;
		r = n % d;
		bad64 += q * b + r != a || r >= b;
		a32 = (uint32_t)x;
		b32 = (uint32_t)x >> (i % 32) | 1;
		n32 = a32;
		d32 = b32;
		q32 = n32 / d32;
		r32 = n32 % d32;
		bad32 += q32 * b32 + r32 != a32 || r32 >= b32;
		sa = (int32_t)(a32 ^ 0x80000000u);
		sb = (int32_t)(b32 >> 1 | 1) * ((i & 1) ? -1 : 1);
		sn = sa;
		sd = sb;
		sq = sn / sd;
		sr = sn % sd;
		bads += (int64_t)sq * sb + sr != sa || (sr && (sr < 0) != (sa < 0)) ||
			(sr < 0 ? -(int64_t)sr : sr) >= (sb < 0 ? -(int64_t)sb : sb);
	}
	EQ("u64 q * d + r == n, r < d (2000 pairs)", bad64, 0);
	EQ("u32 q * d + r == n, r < d (2000 pairs)", bad32, 0);
	EQ("s32 q * d + r == n, |r| < |d|, r has n's sign (2000 pairs)", bads, 0);
}

void test_shim(const struct test_env *e)
{
	env = e;
	test_string();
	test_fmt();
	test_parse();
	test_out();
	if (env->tmpdir[0])
		test_file();
	test_strerror();
	test_div64();
	test_shift64();
	test_div32();
	test_div_signs();
	test_div_pairs();
}
