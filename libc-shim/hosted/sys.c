/* sys_*() for the hosted backend: the C library's functions (glibc, musl, uClibc-ng), so its
 * own fork, signal and thread bookkeeping stays right. The one place -1/errno becomes -errno.
 * TP_ constants are the kernel's values, which every Linux libc passes through, so flags and
 * numbers go to the libc unchanged (tests/arch/abi-check.c holds them equal). */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64	/* 64-bit off_t: pread/lseek/ftruncate beyond 2 GiB */
#define _TIME_BITS 64		/* glibc on 32-bit: y2038-safe time_t (musl always is) */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "libc-shim/sys.h"
#include "libc-shim/str.h"

_Static_assert(sizeof(off_t) == 8, "hosted backend needs a 64-bit off_t");
_Static_assert(sizeof(struct tp_pollfd) == sizeof(struct pollfd), "struct pollfd layout");

char **tp_environ;

/* environ is only known at run time; main() may read tp_environ from its first line */
__attribute__((constructor)) static void init_environ(void)
{
	tp_environ = environ;
}

static long ret(long r)
{
	return r == -1 ? -errno : r;
}

long sys_openat(int dirfd, const char *path, int flags, unsigned mode)
{
	return ret(openat(dirfd, path, flags, mode));
}

long sys_open(const char *path, int flags, unsigned mode)
{
	return ret(open(path, flags, mode));
}

long sys_close(int fd)
{
	return ret(close(fd));
}

long sys_read(int fd, void *buf, size_t len)
{
	return ret(read(fd, buf, len));
}

long sys_write(int fd, const void *buf, size_t len)
{
	return ret(write(fd, buf, len));
}

long sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return ret(pread(fd, buf, len, (off_t)off));
}

long sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return ret(pwrite(fd, buf, len, (off_t)off));
}

int64_t sys_lseek(int fd, int64_t off, int whence)
{
	off_t r = lseek(fd, (off_t)off, whence);

	return r == (off_t)-1 ? -errno : (int64_t)r;
}

long sys_ftruncate(int fd, uint64_t len)
{
	return ret(ftruncate(fd, (off_t)len));
}

long sys_fsync(int fd)
{
	return ret(fsync(fd));
}

long sys_getdents64(int fd, void *buf, size_t len)
{
	/* glibc < 2.30 has no getdents64(); the raw call is the same everywhere */
	return ret(syscall(TP_NR_getdents64, fd, buf, len));
}

long sys_readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return ret(readlinkat(dirfd, path, buf, len));
}

long sys_unlinkat(int dirfd, const char *path, int flags)
{
	return ret(unlinkat(dirfd, path, flags));
}

long sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	return ret(renameat(olddirfd, oldpath, newdirfd, newpath));
}

long sys_mkdirat(int dirfd, const char *path, unsigned mode)
{
	return ret(mkdirat(dirfd, path, mode));
}

long sys_mount(const char *src, const char *target, const char *fstype,
	       unsigned long flags, const void *data)
{
	return ret(mount(src, target, fstype, flags, data));
}

long sys_pipe2(int fds[2], int flags)
{
	return ret(pipe2(fds, flags));
}

long sys_dup3(int oldfd, int newfd, int flags)
{
	return ret(dup3(oldfd, newfd, flags));
}

long sys_fcntl(int fd, int cmd, long arg)
{
	/* the system call: the commands used (F_GETFL/F_SETFL/F_GETFD/F_SETFD) need none of the
	 * translation musl's fcntl() does for F_GETOWN and F_DUPFD_CLOEXEC (0.4 KiB) */
	return ret(syscall(TP_NR_fcntl, fd, cmd, arg));
}

long sys_ioctl(int fd, unsigned long req, long arg)
{
	return ret(ioctl(fd, req, arg));
}

long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
	void *p = mmap(addr, len, prot, flags, fd, (off_t)off);

	return p == MAP_FAILED ? -errno : (long)p;
}

long sys_munmap(void *addr, size_t len)
{
	return ret(munmap(addr, len));
}

long sys_getpid(void)
{
	return getpid();
}

long sys_gettid(void)
{
	return ret(syscall(TP_NR_gettid));	/* gettid() is glibc >= 2.30 only */
}

long sys_getppid(void)
{
	return getppid();
}

long sys_getuid(void)
{
	return (long)getuid();
}

/* The raw call, not fork(): musl's fork() takes its internal locks around the clone and pulls
 * in its thread-lock machinery (about 2.3 KiB of a static binary). The recorder is single-
 * threaded and its only child (recorder/workload.c) makes plain system calls until execve or
 * _exit, so none of the C library's per-process state needs the fork bookkeeping. */
long sys_fork(void)
{
#ifdef TP_NR_fork
	return ret(syscall(TP_NR_fork));
#else
	return ret(syscall(TP_NR_clone, TP_SIGCHLD, 0, 0, 0, 0));
#endif
}

long sys_execve(const char *path, char *const argv[], char *const envp[])
{
	return ret(execve(path, argv, envp));
}

long sys_wait4(int pid, int *status, int options, void *rusage)
{
	return ret(wait4(pid, status, options, rusage));
}

long sys_kill(int pid, int sig)
{
	return ret(kill(pid, sig));
}

long sys_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	return ret(prctl(option, a2, a3, a4, a5));
}

void sys_exit_group(int code)
{
	_exit(code);
}

long sys_uname(struct tp_utsname *u)
{
	struct utsname un;

	if (uname(&un) < 0)
		return -errno;
	tp_strlcpy(u->sysname, un.sysname, sizeof(u->sysname));
	tp_strlcpy(u->nodename, un.nodename, sizeof(u->nodename));
	tp_strlcpy(u->release, un.release, sizeof(u->release));
	tp_strlcpy(u->version, un.version, sizeof(u->version));
	tp_strlcpy(u->machine, un.machine, sizeof(u->machine));
	tp_strlcpy(u->domainname, un.domainname, sizeof(u->domainname));
	return 0;
}

long sys_getrusage_maxrss_kb(long *maxrss_kb, int64_t *utime_us, int64_t *stime_us)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -errno;
	if (maxrss_kb)
		*maxrss_kb = ru.ru_maxrss;
	if (utime_us)
		*utime_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
	if (stime_us)
		*stime_us = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	return 0;
}

/* The system call, not clock_gettime(): the recorder reads the clock a few times a second at
 * most, and musl's vDSO lookup behind clock_gettime() costs about 1 KiB of a static binary.
 * 32-bit: the y2038-safe call first; kernels before 5.1 say ENOSYS. */
long sys_clock_gettime(int clk, struct tp_timespec *ts)
{
	long t[2];

#ifdef TP_NR_clock_gettime64
	int64_t t64[2];

	if (syscall(TP_NR_clock_gettime64, clk, t64) == 0) {
		ts->sec = t64[0];
		ts->nsec = (long)t64[1];
		return 0;
	}
	if (errno != ENOSYS)
		return -errno;
#endif
	if (syscall(TP_NR_clock_gettime, clk, t) < 0)
		return -errno;
	ts->sec = t[0];
	ts->nsec = t[1];
	return 0;
}

long sys_nanosleep(const struct tp_timespec *ts)
{
	struct timespec t = { .tv_sec = (time_t)ts->sec, .tv_nsec = ts->nsec };

	return ret(nanosleep(&t, NULL));
}

long sys_poll(struct tp_pollfd *fds, unsigned nfds, int timeout_ms)
{
	return ret(poll((struct pollfd *)fds, nfds, timeout_ms));
}

long sys_signal(int sig, tp_sighandler_t handler, int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = restart ? SA_RESTART : 0;
	return ret(sigaction(sig, &sa, NULL));
}

long sys_sigmask(int how, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	if (sigaddset(&set, sig) < 0)
		return -errno;
	return ret(sigprocmask(how, &set, NULL));
}

long sys_socket(int domain, int type, int proto)
{
	return ret(socket(domain, type, proto));
}

long sys_connect(int fd, const void *addr, unsigned addrlen)
{
	return ret(connect(fd, addr, addrlen));
}

long sys_bind(int fd, const void *addr, unsigned addrlen)
{
	return ret(bind(fd, addr, addrlen));
}

long sys_listen(int fd, int backlog)
{
	return ret(listen(fd, backlog));
}

long sys_accept4(int fd, void *addr, unsigned *addrlen, int flags)
{
	return ret(accept4(fd, addr, addrlen, flags));
}

long sys_setsockopt(int fd, int level, int name, const void *val, unsigned len)
{
	return ret(setsockopt(fd, level, name, val, len));
}

long sys_shutdown(int fd, int how)
{
	return ret(shutdown(fd, how));
}

long sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			 unsigned long flags)
{
	/* no libc wraps it */
	return ret(syscall(TP_NR_perf_event_open, attr, pid, cpu, group_fd, flags));
}

unsigned long tp_getauxval(unsigned long type)
{
	return getauxval(type);
}
