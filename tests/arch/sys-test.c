/* SPDX-License-Identifier: MIT */
/* sys-test: the sys_* wrappers of the running backend against the real kernel (or qemu-user):
 * pipes, poll, fcntl, ioctl, files, 64-bit offsets, mmap, processes, exec, signals, time,
 * prctl, rusage and sockets. Part of arch-test. */
#include "tests/arch/harness.h"

static const struct test_env *env;

static char *path(const char *name)
{
	static char buf[128];

	tp_snprintf(buf, sizeof(buf), "%s/%s", env->tmpdir, name);
	return buf;
}

/* fork; the child exits with fn(arg); returns the wait status or -errno */
static long run_child(int (*fn)(long), long arg)
{
	int status = 0;
	long pid = sys_fork(), r;

	if (pid == 0)
		sys_exit_group(fn(arg));
	if (pid < 0)
		return pid;
	r = sys_wait4((int)pid, &status, 0, NULL);
	return r == pid ? status : (r < 0 ? r : -TP_ECHILD);
}

/* ---- pipes, poll, fcntl, dup3, ioctl ---- */

static void test_pipe(void)
{
	struct tp_pollfd pfd;
	struct tp_termios tio;
	int p[2], avail = -1;
	char buf[8];

	if (!EQ("pipe2", sys_pipe2(p, TP_O_CLOEXEC), 0))
		return;
	EQ("fcntl F_GETFD has FD_CLOEXEC", sys_fcntl(p[0], TP_F_GETFD, 0), TP_FD_CLOEXEC);
	pfd.fd = p[0];
	pfd.events = TP_POLLIN;
	EQ("poll empty pipe, timeout 0", sys_poll(&pfd, 1, 0), 0);
	EQ("write pipe", sys_write(p[1], "abc", 3), 3);
	EQ("ioctl FIONREAD", sys_ioctl(p[0], TP_FIONREAD, (long)&avail), 0);
	EQ("ioctl FIONREAD count", avail, 3);
	EQ("ioctl TCGETS on a pipe", sys_ioctl(p[0], TP_TCGETS, (long)&tio), -TP_ENOTTY);
	EQ("poll readable", sys_poll(&pfd, 1, 1000), 1);
	EQ("poll revents", pfd.revents, TP_POLLIN);
	EQ("read pipe", sys_read(p[0], buf, sizeof(buf)), 3);
	EQ("read pipe data", memcmp(buf, "abc", 3), 0);
	EQ("fcntl F_SETFL O_NONBLOCK", sys_fcntl(p[0], TP_F_SETFL, TP_O_NONBLOCK), 0);
	EQ("fcntl F_GETFL", sys_fcntl(p[0], TP_F_GETFL, 0) & (TP_O_NONBLOCK | TP_O_ACCMODE),
	   TP_O_NONBLOCK | TP_O_RDONLY);
	EQ("read empty non-blocking pipe", sys_read(p[0], buf, 1), -TP_EAGAIN);
	EQ("dup3 onto itself", sys_dup3(p[0], p[0], 0), -TP_EINVAL);
	EQ("dup3", sys_dup3(p[0], 100, TP_O_CLOEXEC), 100);
	EQ("dup3 sets FD_CLOEXEC", sys_fcntl(100, TP_F_GETFD, 0), TP_FD_CLOEXEC);
	EQ("lseek on a pipe", sys_lseek(p[0], 0, TP_SEEK_CUR), -TP_ESPIPE);
	EQ("close dup", sys_close(100), 0);
	EQ("close closed fd", sys_close(100), -TP_EBADF);
	sys_close(p[0]);
	sys_close(p[1]);
}

/* the kernel's termios on a pty: struct size (TP_NCCS), TCGETS/TCSETS*, TCFLSH, TIOCOUTQ */
static void test_tty(void)
{
	struct {
		struct tp_termios t;
		unsigned char after[8];
	} k;
	long fd = sys_open("/dev/ptmx", TP_O_RDWR | TP_O_NOCTTY | TP_O_CLOEXEC, 0);
	int queued = -1;

	if (fd < 0) {
		check_ok("tty ioctls", "no /dev/ptmx, skipped");
		return;
	}
	memset(&k, 0xa5, sizeof(k));
	EQ("ioctl TCGETS on a pty", sys_ioctl((int)fd, TP_TCGETS, (long)&k.t), 0);
	TRUE("TCGETS fills struct tp_termios exactly",
	     k.t.c_cc[TP_NCCS - 1] != 0xa5 && k.after[0] == 0xa5, k.after[0]);
	k.t.c_lflag &= ~(TP_ICANON | TP_ECHO | TP_ISIG | TP_IEXTEN);
	k.t.c_cc[TP_VMIN] = 1;
	k.t.c_cc[TP_VTIME] = 0;
	EQ("ioctl TCSETS", sys_ioctl((int)fd, TP_TCSETS, (long)&k.t), 0);
	EQ("ioctl TCSETSW", sys_ioctl((int)fd, TP_TCSETSW, (long)&k.t), 0);
	memset(&k.t, 0, sizeof(k.t));
	sys_ioctl((int)fd, TP_TCGETS, (long)&k.t);
	TRUE("TCGETS reads back raw mode",
	     !(k.t.c_lflag & (TP_ICANON | TP_ECHO | TP_ISIG | TP_IEXTEN)) && k.t.c_cc[TP_VMIN] == 1,
	     k.t.c_lflag);
	EQ("ioctl TCFLSH", sys_ioctl((int)fd, TP_TCFLSH, TP_TCIOFLUSH), 0);
	EQ("ioctl TIOCOUTQ", sys_ioctl((int)fd, TP_TIOCOUTQ, (long)&queued), 0);
	EQ("TIOCOUTQ of an idle pty", queued, 0);
	sys_close((int)fd);
}

/* ---- files and directories ---- */

static bool dir_has(int dfd, const char *name)
{
	char buf[1024];
	long n, off;

	sys_lseek(dfd, 0, TP_SEEK_SET);
	while ((n = sys_getdents64(dfd, buf, sizeof(buf))) > 0) {
		/* linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
		for (off = 0; off < n;) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			if (!strcmp(buf + off + 19, name) && buf[off + 18] == TP_DT_REG)
				return true;
			off += reclen;
		}
	}
	return false;
}

static void test_files(void)
{
	char buf[256];
	long dfd, fd, n;

	EQ("mkdirat existing", sys_mkdirat(TP_AT_FDCWD, env->tmpdir, 0700), -TP_EEXIST);
	dfd = sys_open(env->tmpdir, TP_O_RDONLY | TP_O_DIRECTORY | TP_O_CLOEXEC, 0);
	TRUE("open O_DIRECTORY", dfd >= 0, dfd);
	EQ("open O_DIRECTORY on a file", sys_open("/proc/self/exe", TP_O_RDONLY | TP_O_DIRECTORY, 0),
	   -TP_ENOTDIR);
	fd = sys_openat((int)dfd, "a", TP_O_CREAT | TP_O_RDWR | TP_O_TRUNC | TP_O_CLOEXEC, 0600);
	TRUE("openat O_CREAT", fd >= 0, fd);
	EQ("write", sys_write((int)fd, "hello", 5), 5);
	EQ("pwrite", sys_pwrite((int)fd, "XY", 2, 1), 2);
	EQ("pread", sys_pread((int)fd, buf, 5, 0), 5);
	EQ("pread data", memcmp(buf, "hXYlo", 5), 0);
	EQ("lseek SEEK_END", sys_lseek((int)fd, 0, TP_SEEK_END), 5);
	EQ("lseek SEEK_SET", sys_lseek((int)fd, 2, TP_SEEK_SET), 2);
	EQ("read after lseek", sys_read((int)fd, buf, 8), 3);
	EQ("fcntl F_SETFL O_APPEND", sys_fcntl((int)fd, TP_F_SETFL, TP_O_APPEND), 0);
	EQ("fcntl F_GETFL O_APPEND|O_RDWR",
	   sys_fcntl((int)fd, TP_F_GETFL, 0) & (TP_O_APPEND | TP_O_ACCMODE), TP_O_APPEND | TP_O_RDWR);
	EQ("ftruncate", sys_ftruncate((int)fd, 3), 0);
	EQ("size after ftruncate", sys_lseek((int)fd, 0, TP_SEEK_END), 3);
	EQ("fsync", sys_fsync((int)fd), 0);
	sys_close((int)fd);
	TRUE("getdents64 lists the file", dir_has((int)dfd, "a"), 0);
	EQ("openat O_EXCL existing", sys_openat((int)dfd, "a", TP_O_CREAT | TP_O_EXCL | TP_O_RDWR, 0600),
	   -TP_EEXIST);
	EQ("renameat", sys_renameat((int)dfd, "a", (int)dfd, "b"), 0);
	EQ("openat renamed-away name", sys_openat((int)dfd, "a", TP_O_RDONLY, 0), -TP_ENOENT);
	TRUE("getdents64 lists the new name", dir_has((int)dfd, "b"), 0);
	EQ("unlinkat", sys_unlinkat((int)dfd, "b", 0), 0);
	EQ("unlinkat missing", sys_unlinkat((int)dfd, "b", 0), -TP_ENOENT);
	EQ("unlinkat a directory without AT_REMOVEDIR", sys_unlinkat(TP_AT_FDCWD, env->tmpdir, 0),
	   -TP_EISDIR);
	n = sys_readlinkat(TP_AT_FDCWD, "/proc/self/exe", buf, sizeof(buf) - 1);
	TRUE("readlinkat /proc/self/exe", n > 1 && buf[0] == '/', n);
	EQ("mount on a missing directory", sys_mount("none", "/nonexistent/tp", "tmpfs", 0, NULL),
	   sys_getuid() == 0 ? -TP_ENOENT : -TP_EPERM);
	sys_close((int)dfd);
}

/* 64-bit offsets past 4 GiB: the pair split and _llseek on 32-bit arches */
static void test_bigfile(void)
{
	const uint64_t off = 0x140000000ULL + 123, four_g = 0x100000000ULL;
	char buf[8];
	long fd = sys_open(path("big"), TP_O_CREAT | TP_O_RDWR | TP_O_TRUNC, 0600), m;

	if (!TRUE("open sparse file", fd >= 0, fd))
		return;
	EQ("pwrite at 5 GiB", sys_pwrite((int)fd, "tinyperf", 8, off), 8);
	EQ("pread at 5 GiB", sys_pread((int)fd, buf, 8, off), 8);
	EQ("pread at 5 GiB data", memcmp(buf, "tinyperf", 8), 0);
	EQ("pread below it is a hole", sys_pread((int)fd, buf, 8, 123), 8);
	TRUE("hole is zero", !memcmp(buf, "\0\0\0\0\0\0\0\0", 8), buf[0]);
	EQ("lseek SEEK_END past 4 GiB", sys_lseek((int)fd, 0, TP_SEEK_END), (long long)off + 8);
	EQ("lseek SEEK_SET past 4 GiB", sys_lseek((int)fd, (int64_t)off, TP_SEEK_SET), (long long)off);
	EQ("read at 5 GiB", sys_read((int)fd, buf, 8), 8);
	EQ("read at 5 GiB data", memcmp(buf, "tinyperf", 8), 0);
	EQ("ftruncate to 4 GiB + 1", sys_ftruncate((int)fd, four_g + 1), 0);
	EQ("size after ftruncate", sys_lseek((int)fd, 0, TP_SEEK_END), (long long)four_g + 1);
	/* both 64-bit pairs: blocks past the end leave the size alone, mode 0 grows it to
	 * off + len, and a length whose low word is 0 reaches the kernel whole (2^62 + 2^62
	 * overflows: EFBIG; a lost high word would be a length of 0: EINVAL) */
	m = sys_fallocate((int)fd, TP_FALLOC_FL_KEEP_SIZE, four_g + 4096, 4096);
	if (m == -TP_EOPNOTSUPP) {
		check_ok("fallocate", "not on this file system");
	} else {
		EQ("fallocate past the end, size kept", m, 0);
		EQ("size after fallocate KEEP_SIZE", sys_lseek((int)fd, 0, TP_SEEK_END),
		   (long long)four_g + 1);
		EQ("fallocate at 4 GiB + 8", sys_fallocate((int)fd, 0, four_g + 8, 8), 0);
		EQ("size after fallocate", sys_lseek((int)fd, 0, TP_SEEK_END), (long long)four_g + 16);
		EQ("fallocate of 2^62 at 2^62", sys_fallocate((int)fd, 0, 1ULL << 62, 1ULL << 62),
		   -TP_EFBIG);
	}
	EQ("pwrite at 4 GiB", sys_pwrite((int)fd, "Z", 1, four_g), 1);
	EQ("pwrite at 0", sys_pwrite((int)fd, "A", 1, 0), 1);
	m = sys_mmap(NULL, (size_t)env->page_size, TP_PROT_READ, TP_MAP_SHARED, (int)fd, four_g);
	if (TRUE("mmap file at offset 4 GiB", !is_err(m), m)) {
		char c = *(char *)m;

		/* qemu-user before 8.1 computes a 32-bit guest's mmap2 offset in 32 bits */
		if (c == 'A' && env->emulated && sizeof(long) == 4)
			check_ok("mmap at 4 GiB data", "offset truncated to 0 by the emulator");
		else
			EQ("mmap at 4 GiB data", c, 'Z');
		sys_munmap((void *)m, (size_t)env->page_size);
	}
	sys_close((int)fd);
	sys_unlinkat(TP_AT_FDCWD, path("big"), 0);
}

static void test_mmap(void)
{
	size_t len = 3 * (size_t)env->page_size, i;
	long fd, a = sys_mmap(NULL, len, TP_PROT_READ | TP_PROT_WRITE,
			      TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0);
	unsigned char *p;
	char mb[8] = "";
	bool good = true;

	if (!TRUE("mmap anonymous", !is_err(a), a))
		return;
	p = (unsigned char *)a;
	for (i = 0; i < len; i++)
		good &= p[i] == 0;
	memset(p, 0x5a, len);
	TRUE("anonymous map zeroed and writable", good && p[len - 1] == 0x5a, p[0]);
	/* a file of three pages, page k filled with 'A' + k; map pages 1..2 */
	fd = sys_open(path("map"), TP_O_CREAT | TP_O_RDWR | TP_O_TRUNC, 0600);
	for (i = 0; i < 3; i++) {
		memset(p + i * env->page_size, 'A' + (int)i, (size_t)env->page_size);
	}
	EQ("write map file", sys_write((int)fd, p, len), (long long)len);
	EQ("munmap", sys_munmap(p, len), 0);
	a = sys_mmap(NULL, 2 * (size_t)env->page_size, TP_PROT_READ, TP_MAP_PRIVATE, (int)fd,
		     (uint64_t)env->page_size);
	if (TRUE("mmap file at a page offset", !is_err(a), a)) {
		p = (unsigned char *)a;
		TRUE("mmap file data", p[0] == 'B' && p[env->page_size] == 'C', p[0]);
		sys_munmap(p, 2 * (size_t)env->page_size);
	}
	EQ("mmap unaligned offset", sys_mmap(NULL, 4096, TP_PROT_READ, TP_MAP_PRIVATE, (int)fd, 1),
	   -TP_EINVAL);
	EQ("mmap length 0", sys_mmap(NULL, 0, TP_PROT_READ, TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0),
	   -TP_EINVAL);
	sys_close((int)fd);
	sys_unlinkat(TP_AT_FDCWD, path("map"), 0);
	/* a memory file (the packed recorder's unpacking): sized, written through a shared map,
	 * read back by pread, close-on-exec */
	fd = sys_memfd_create("tp-test", TP_MFD_CLOEXEC);
	if (!TRUE("memfd_create", fd >= 0, fd))
		return;
	EQ("memfd: fcntl F_GETFD has FD_CLOEXEC", sys_fcntl((int)fd, TP_F_GETFD, 0), TP_FD_CLOEXEC);
	EQ("memfd: ftruncate", sys_ftruncate((int)fd, (uint64_t)env->page_size), 0);
	a = sys_mmap(NULL, (size_t)env->page_size, TP_PROT_READ | TP_PROT_WRITE, TP_MAP_SHARED,
		     (int)fd, 0);
	if (TRUE("memfd: mmap shared", !is_err(a), a)) {
		memcpy((char *)a + 100, "memfd", 5);
		sys_munmap((void *)a, (size_t)env->page_size);
		EQ("memfd: pread sees the map's write", sys_pread((int)fd, mb, 5, 100), 5);
		EQ("memfd: data", memcmp(mb, "memfd", 5), 0);
	}
	EQ("memfd: size", sys_lseek((int)fd, 0, TP_SEEK_END), (long long)env->page_size);
	sys_close((int)fd);
}

/* ---- processes and signals ---- */

static int child_sleep_exit(long code)
{
	sleep_ms(200);
	return (int)code;
}

static int child_kill_self(long sig)
{
	sys_kill((int)sys_getpid(), (int)sig);
	return 99;
}

/* the exec'd program exits 42 if it got this argv and envp (child_main in arch-test.c) */
static int child_exec(long prog)
{
	char *argv[] = { (char *)prog, "--child-exit", "42", NULL };
	char *envp[] = { "TP_ARCH_TEST_CHILD=1", NULL };
	long r = sys_execve((const char *)prog, argv, envp);

	return r == -TP_ENOEXEC ? 100 : 101;
}

static void test_process(void)
{
	int status = 0;
	long pid, st;

	st = run_child(child_sleep_exit, 7);
	TRUE("fork/wait4 exit status 7", st >= 0 && TP_WIFEXITED(st) && TP_WEXITSTATUS(st) == 7, st);
	st = run_child(child_kill_self, TP_SIGUSR1);
	TRUE("child killed by SIGUSR1", st >= 0 && TP_WIFSIGNALED(st) && TP_WTERMSIG(st) == TP_SIGUSR1,
	     st);
	pid = sys_fork();
	if (pid == 0)
		sys_exit_group(child_sleep_exit(3));
	EQ("wait4 WNOHANG on a running child", sys_wait4((int)pid, &status, TP_WNOHANG, NULL), 0);
	EQ("wait4", sys_wait4((int)pid, &status, 0, NULL), pid);
	EQ("wait4 with no children", sys_wait4(-1, &status, 0, NULL), -TP_ECHILD);
	EQ("execve missing file", sys_execve("/nonexistent/tp", (char *const[]){ NULL }, tp_environ),
	   -TP_ENOENT);
	st = run_child(child_exec, (long)"/proc/self/exe");
	if (env->emulated && st >= 0 && TP_WEXITSTATUS(st) == 100)
		check_ok("execve /proc/self/exe", "ENOEXEC under emulation without binfmt_misc");
	else
		TRUE("execve /proc/self/exe, child sees argv and envp",
		     st >= 0 && TP_WIFEXITED(st) && TP_WEXITSTATUS(st) == 42, st);
}

static volatile int got_sig;

static void on_signal(int sig)
{
	got_sig = sig;
}

static int child_signal_then_write(long wfd)
{
	int i, ppid = (int)sys_getppid();

	for (i = 0; i < 3; i++) {	/* several, so one lands while the parent is in read() */
		sleep_ms(100);
		sys_kill(ppid, TP_SIGUSR2);
	}
	sleep_ms(100);
	return sys_write((int)wfd, "x", 1) == 1 ? 0 : 1;
}

/* a read() blocked on a pipe, interrupted by SIGUSR2 from a child */
static long interrupted_read(int restart)
{
	int p[2], status;
	char c;
	long pid, n;

	sys_signal(TP_SIGUSR2, on_signal, restart);
	sys_pipe2(p, TP_O_CLOEXEC);
	got_sig = 0;
	pid = sys_fork();
	if (pid == 0)
		sys_exit_group(child_signal_then_write(p[1]));
	n = sys_read(p[0], &c, 1);
	while (sys_wait4((int)pid, &status, 0, NULL) == -TP_EINTR)	/* its later signals */
		;
	sys_close(p[0]);
	sys_close(p[1]);
	return n;
}

static void test_signals(void)
{
	long pid = sys_getpid();

	EQ("rt_sigaction SIGUSR2", sys_signal(TP_SIGUSR2, on_signal, 1), 0);
	got_sig = 0;
	EQ("kill self SIGUSR2", sys_kill((int)pid, TP_SIGUSR2), 0);
	EQ("handler ran with SIGUSR2", got_sig, TP_SIGUSR2);
	EQ("sigmask block SIGUSR2", sys_sigmask(TP_SIG_BLOCK, TP_SIGUSR2), 0);
	got_sig = 0;
	sys_kill((int)pid, TP_SIGUSR2);
	EQ("blocked signal stays pending", got_sig, 0);
	EQ("sigmask unblock SIGUSR2", sys_sigmask(TP_SIG_UNBLOCK, TP_SIGUSR2), 0);
	EQ("pending signal delivered on unblock", got_sig, TP_SIGUSR2);
	EQ("sigmask bad signal", sys_sigmask(TP_SIG_BLOCK, 0), -TP_EINVAL);
	EQ("read restarted with SA_RESTART", interrupted_read(1), 1);
	EQ("handler ran during read", got_sig, TP_SIGUSR2);
	EQ("read interrupted without SA_RESTART", interrupted_read(0), -TP_EINTR);
	EQ("SIG_IGN", sys_signal(TP_SIGUSR2, TP_SIG_IGN, 0), 0);
	got_sig = 0;
	sys_kill((int)pid, TP_SIGUSR2);
	EQ("ignored signal", got_sig, 0);
	EQ("SIG_DFL", sys_signal(TP_SIGUSR2, TP_SIG_DFL, 0), 0);
}

static void test_misc(void)
{
	struct tp_timespec a, b, bad = { 0, 1000000000 };
	char name[16] = "";
	int sig = -1;
	int64_t dt;
	long rss = 0;
	int64_t ut = -1, st = -1;

	EQ("clock_gettime MONOTONIC", sys_clock_gettime(TP_CLOCK_MONOTONIC, &a), 0);
	EQ("nanosleep 20 ms", (sleep_ms(20), 0), 0);
	sys_clock_gettime(TP_CLOCK_MONOTONIC, &b);
	dt = (b.sec - a.sec) * 1000000000 + (b.nsec - a.nsec);
	TRUE("monotonic clock advanced >= 20 ms", dt >= 20000000 && dt < 5000000000LL, dt);
	EQ("clock_gettime REALTIME", sys_clock_gettime(TP_CLOCK_REALTIME, &a), 0);
	TRUE("realtime after 2017", a.sec > 1500000000, a.sec);
	EQ("clock_gettime bad clock", sys_clock_gettime(12345, &a), -TP_EINVAL);
	EQ("nanosleep bad nsec", sys_nanosleep(&bad), -TP_EINVAL);
	EQ("prctl PR_SET_NAME", sys_prctl(TP_PR_SET_NAME, (unsigned long)"tp-arch-test", 0, 0, 0), 0);
	EQ("prctl PR_GET_NAME", sys_prctl(TP_PR_GET_NAME, (unsigned long)name, 0, 0, 0), 0);
	check_str("prctl name", name, "tp-arch-test");
	EQ("prctl PR_SET_PDEATHSIG", sys_prctl(TP_PR_SET_PDEATHSIG, TP_SIGTERM, 0, 0, 0), 0);
	EQ("prctl PR_GET_PDEATHSIG", sys_prctl(TP_PR_GET_PDEATHSIG, (unsigned long)&sig, 0, 0, 0), 0);
	EQ("pdeathsig", sig, TP_SIGTERM);
	sys_prctl(TP_PR_SET_PDEATHSIG, 0, 0, 0, 0);
	EQ("getrusage", sys_getrusage_maxrss_kb(&rss, &ut, &st), 0);
	TRUE("getrusage maxrss and times", rss > 0 && ut >= 0 && st >= 0, rss);
}

/* ---- sockets ---- */

struct sin {
	uint16_t family;
	uint8_t port[2], addr[4], zero[8];
};
struct sun {
	uint16_t family;
	char path[108];
};

/* listen on bound socket s, connect to addr, accept, exchange, shut down */
static void stream_test(const char *what, long s, const void *addr, unsigned len)
{
	int domain = *(const uint16_t *)addr, one = 1;
	char name[64], buf[8];
	long c, a;

	tp_snprintf(name, sizeof(name), "%s listen", what);
	EQ(name, sys_listen((int)s, 4), 0);
	c = sys_socket(domain, TP_SOCK_STREAM | TP_SOCK_CLOEXEC, 0);
	tp_snprintf(name, sizeof(name), "%s connect", what);
	EQ(name, sys_connect((int)c, addr, len), 0);
	if (domain == TP_AF_INET)
		EQ("setsockopt TCP_NODELAY",
		   sys_setsockopt((int)c, TP_IPPROTO_TCP, TP_TCP_NODELAY, &one, sizeof(one)), 0);
	tp_snprintf(name, sizeof(name), "%s accept4", what);
	a = sys_accept4((int)s, NULL, NULL, TP_SOCK_CLOEXEC);
	if (TRUE(name, a >= 0, a)) {
		tp_snprintf(name, sizeof(name), "%s send and receive", what);
		TRUE(name, sys_write((int)c, "ping", 4) == 4 && sys_read((int)a, buf, 8) == 4 &&
		     !memcmp(buf, "ping", 4), 0);
		tp_snprintf(name, sizeof(name), "%s shutdown SHUT_WR", what);
		EQ(name, sys_shutdown((int)c, TP_SHUT_WR), 0);
		tp_snprintf(name, sizeof(name), "%s EOF after shutdown", what);
		EQ(name, sys_read((int)a, buf, 8), 0);
		sys_close((int)a);
	}
	sys_close((int)c);
}

static void test_sockets(void)
{
	struct sin sin = { TP_AF_INET, { 0, 0 }, { 127, 0, 0, 1 }, { 0 } };
	struct sun sun = { TP_AF_UNIX, "" };
	int one = 1, i;
	long s, r = -1;

	/* a wrong SOCK_* value would pair the protocol with the wrong type */
	s = sys_socket(TP_AF_INET, TP_SOCK_STREAM, TP_IPPROTO_TCP);
	TRUE("socket SOCK_STREAM with IPPROTO_TCP", s >= 0, s);
	sys_close((int)s);
	s = sys_socket(TP_AF_INET, TP_SOCK_DGRAM, 17 /* UDP */);
	TRUE("socket SOCK_DGRAM with IPPROTO_UDP", s >= 0, s);
	sys_close((int)s);
	EQ("socket bad family", sys_socket(12345, TP_SOCK_STREAM, 0), -TP_EAFNOSUPPORT);

	s = sys_socket(TP_AF_INET, TP_SOCK_STREAM | TP_SOCK_CLOEXEC, 0);
	EQ("setsockopt SO_REUSEADDR",
	   sys_setsockopt((int)s, TP_SOL_SOCKET, TP_SO_REUSEADDR, &one, sizeof(one)), 0);
	for (i = 0; i < 64 && r; i++) {	/* no getsockname: pick ports until one is free */
		int port = 20000 + (int)((sys_getpid() * 7 + i * 131) % 40000);

		sin.port[0] = (uint8_t)(port >> 8);
		sin.port[1] = (uint8_t)port;
		r = sys_bind((int)s, &sin, sizeof(sin));
		if (r && r != -TP_EADDRINUSE)
			break;
	}
	if (EQ("bind 127.0.0.1", r, 0))
		stream_test("tcp 127.0.0.1", s, &sin, sizeof(sin));
	sys_close((int)s);
	if (!r) {
		s = sys_socket(TP_AF_INET, TP_SOCK_STREAM, 0);
		EQ("connect to a closed port", sys_connect((int)s, &sin, sizeof(sin)), -TP_ECONNREFUSED);
		sys_close((int)s);
	}

	tp_strlcpy(sun.path, path("sock"), sizeof(sun.path));
	s = sys_socket(TP_AF_UNIX, TP_SOCK_STREAM | TP_SOCK_CLOEXEC, 0);
	if (TRUE("socket AF_UNIX", s >= 0, s) &&
	    EQ("bind AF_UNIX", sys_bind((int)s, &sun, 2 + (unsigned)strlen(sun.path) + 1), 0))
		stream_test("unix", s, &sun, sizeof(sun));
	sys_close((int)s);
	sys_unlinkat(TP_AT_FDCWD, sun.path, 0);
}

/* the exec'd child: exit with argv[2] if the environment came through */

void test_sys(const struct test_env *e)
{
	env = e;
	test_pipe();
	test_tty();
	if (env->tmpdir[0]) {
		test_files();
		test_bigfile();
		test_mmap();
		test_sockets();
	}
	test_process();
	test_signals();
	test_misc();
}
