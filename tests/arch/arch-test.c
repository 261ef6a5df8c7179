/* SPDX-License-Identifier: MIT */
/* arch-test: every sys_* wrapper, every barrier helper and the shim's string, fmt, parse, out
 * and file code, one [OK]/[FAIL] line per case, for the freestanding and hosted backends, run
 * natively or under qemu-user. Exit status 1 if any case failed. This file holds the harness,
 * main(), perf, identity and barriers; sys-test.c and shim-test.c the rest.
 * Under qemu-user perf_event_open is ENOSYS and exec of a foreign binary needs binfmt_misc;
 * both are accepted there, and "emulated" is inferred from the first. */
#include "tests/arch/harness.h"
#include "arch/arch.h"

/* tests/arch/abi-check.c, linked into hosted builds only */
int tp_abi_check(void (*report)(const char *name, long long ours, long long libc))
	__attribute__((weak));

static struct tp_out out;
static char outbuf[512];
static int passed, failed;
static struct test_env env;

void check_ok(const char *name, const char *note)
{
	tp_out__printf(&out, note ? "[OK] %s (%s)\n" : "[OK] %s\n", name, note);
	tp_out__flush(&out);	/* nothing buffered at fork; ordered with children */
	passed++;
}

void check_fail(const char *name, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	tp_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tp_out__printf(&out, "[FAIL] %s: %s\n", name, msg);
	tp_out__flush(&out);
	failed++;
}

bool check_eq(const char *name, long long got, long long exp)
{
	if (got == exp) {
		check_ok(name, NULL);
		return true;
	}
	if (got < 0 && got > -4096)
		check_fail(name, "expected %lld, got %lld (%s)", exp, got, tp_strerror((long)got));
	else
		check_fail(name, "expected %lld, got %lld", exp, got);
	return false;
}

bool check_true(const char *name, bool cond, const char *what, long long got)
{
	if (cond)
		check_ok(name, NULL);
	else
		check_fail(name, "expected %s, got %lld", what, got);
	return cond;
}

bool check_str(const char *name, const char *got, const char *exp)
{
	if (got && !strcmp(got, exp)) {
		check_ok(name, NULL);
		return true;
	}
	check_fail(name, "expected \"%s\", got \"%s\"", exp, got ? got : "(null)");
	return false;
}

void sleep_ms(long ms)
{
	struct tp_timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	sys_nanosleep(&ts);
}

int64_t now_ns(void)
{
	struct tp_timespec ts;

	sys_clock_gettime(TP_CLOCK_MONOTONIC, &ts);
	return ts.sec * 1000000000 + ts.nsec;
}

/* ---- perf: first, it tells us whether we are emulated ---- */

struct perf_event_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t disabled : 1, inherit : 1, pinned : 1, exclusive : 1, exclude_user : 1,
		 exclude_kernel : 1, exclude_hv : 1, rest : 57;
	uint32_t wakeup_events, bp_type;
	uint64_t config1, config2;
};

static void test_perf(void)
{
	struct perf_event_attr attr = { .type = 1 /* SOFTWARE */, .size = sizeof(attr),
					.config = 0 /* CPU_CLOCK */, .exclude_kernel = 1,
					.exclude_hv = 1 };
	uint64_t count = 0;
	int64_t t0;
	long fd = sys_perf_event_open(&attr, 0, -1, -1, 8 /* FD_CLOEXEC */);

	if (fd == -TP_ENOSYS) {
		env.emulated = true;
		check_ok("perf_event_open", "ENOSYS under emulation");
		return;
	}
	if (!TRUE("perf_event_open cpu-clock", fd >= 0, fd))
		return;
	for (t0 = now_ns(); now_ns() - t0 < 20000000;)
		;
	EQ("perf read", sys_read((int)fd, &count, sizeof(count)), 8);
	TRUE("perf cpu-clock counted", count > 1000000, count);
	sys_close((int)fd);
}

/* ---- barriers ---- */

enum { MP_N = 4096 };
struct mp {
	volatile uint64_t head;
	uint64_t data[MP_N];
};

static uint64_t mp_value(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15ULL ^ 0xa5a5a5a5deadbeefULL;
}

static int mp_producer(long arg)
{
	struct mp *m = (struct mp *)arg;
	uint64_t i;

	for (i = 0; i < MP_N; i++) {
		m->data[i] = mp_value(i);
		arch_store_release_u64(&m->head, i + 1);
	}
	return 0;
}

static void test_barriers(void)
{
	static const uint64_t vals[] = { 0, 1, 0xffffffffULL, 0x100000000ULL,
					 0x123456789abcdef0ULL, ~0ULL };
	volatile uint64_t cell;
	uint64_t i, seen = 0, bad = MP_N;
	int64_t deadline;
	bool all = true;
	long m_addr, pid;
	int status;
	struct mp *m;

	arch_mb();
	arch_rmb();
	arch_wmb();
	arch_barrier();
	check_ok("arch_mb/arch_rmb/arch_wmb", NULL);
	for (i = 0; i < TP_ARRAY_SIZE(vals); i++) {
		arch_store_release_u64(&cell, vals[i]);
		all &= arch_load_acquire_u64(&cell) == vals[i] && cell == vals[i];
		tp_write_once_u64(&cell, ~vals[i]);
		all &= tp_read_once_u64(&cell) == ~vals[i] && cell == ~vals[i];
	}
	TRUE("load_acquire/store_release/read_once/write_once round trip", all, 0);

	/* message passing across processes: data, release head / acquire head, data */
	m_addr = sys_mmap(NULL, sizeof(*m), TP_PROT_READ | TP_PROT_WRITE,
			  TP_MAP_SHARED | TP_MAP_ANONYMOUS, -1, 0);
	if (!TRUE("mmap shared anonymous", !is_err(m_addr), m_addr))
		return;
	m = (struct mp *)m_addr;
	pid = sys_fork();
	if (pid == 0)
		sys_exit_group(mp_producer(m_addr));
	deadline = now_ns() + 20000000000LL;
	while (seen < MP_N && bad == MP_N && now_ns() < deadline) {
		uint64_t head = arch_load_acquire_u64(&m->head);

		for (; seen < head; seen++)
			if (m->data[seen] != mp_value(seen))
				bad = seen;
	}
	sys_wait4((int)pid, &status, 0, NULL);
	TRUE("acquire/release message passing (fork, shared map)", seen == MP_N && bad == MP_N,
	     bad != MP_N ? (long long)bad : (long long)seen);
	sys_munmap(m, sizeof(*m));
}

/* ---- identity, uname, auxv ---- */

static void test_ids(void)
{
	struct tp_utsname u;
	const char *w;
	bool match = false;

	TRUE("getpid", sys_getpid() > 0, sys_getpid());
	EQ("gettid == getpid", sys_gettid(), sys_getpid());
	TRUE("getppid", sys_getppid() > 0, sys_getppid());
	TRUE("getuid", sys_getuid() >= 0, sys_getuid());
	if (!EQ("uname", sys_uname(&u), 0))
		return;
	check_str("uname sysname", u.sysname, "Linux");
	for (w = ARCH_UNAME_MACHINES; *w;) {	/* space-separated prefixes */
		const char *sp = strchr(w, ' ');
		size_t n = sp ? (size_t)(sp - w) : strlen(w);

		match |= !strncmp(u.machine, w, n);
		w += n + (sp != NULL);
	}
	if (match)
		check_ok("uname machine matches " ARCH_NAME, u.machine);
	else
		check_fail("uname machine matches " ARCH_NAME, "expected one of \"%s\", got \"%s\"",
			   ARCH_UNAME_MACHINES, u.machine);
	env.page_size = (long)tp_getauxval(TP_AT_PAGESZ);
	TRUE("getauxval(AT_PAGESZ) is a power of two >= 4096",
	     env.page_size >= 4096 && !(env.page_size & (env.page_size - 1)), env.page_size);
	if (env.page_size < 4096)
		env.page_size = 4096;
	TRUE("tp_environ", tp_environ != NULL, 0);
}

static int child_main(char **argv)
{
	char **e;
	unsigned code = 1;

	for (e = tp_environ; e && *e; e++)
		if (!strcmp(*e, "TP_ARCH_TEST_CHILD=1"))
			return tp_parse_uint(argv[2], &code) ? 2 : (int)code;
	return 3;
}

static void abi_report(const char *name, long long ours, long long libc)
{
	char what[64];

	tp_snprintf(what, sizeof(what), "abi %s", name);
	check_eq(what, ours, libc);
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc == 3 && !strcmp(argv[1], "--child-exit"))
		return child_main(argv);
	tp_out__init(&out, 1, outbuf, sizeof(outbuf));
	tp_out__printf(&out, "arch-test: %s, %d-bit, %s-endian\n", ARCH_NAME,
		       (int)sizeof(long) * 8,
		       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little");
	test_perf();
	test_ids();
	test_barriers();
	tp_snprintf(env.tmpdir, sizeof(env.tmpdir), "/tmp/tp-arch-test.%ld", sys_getpid());
	if (!EQ("mkdirat scratch directory", sys_mkdirat(TP_AT_FDCWD, env.tmpdir, 0700), 0))
		env.tmpdir[0] = '\0';
	test_sys(&env);
	test_shim(&env);
	if (tp_abi_check)	/* hosted builds link tests/arch/abi-check.c */
		tp_abi_check(abi_report);
	if (env.tmpdir[0])
		EQ("remove scratch directory", sys_unlinkat(TP_AT_FDCWD, env.tmpdir, TP_AT_REMOVEDIR),
		   0);
	tp_out__printf(&out, "arch-test: %d passed, %d failed\n", passed, failed);
	tp_out__flush(&out);
	return failed ? 1 : 0;
}
