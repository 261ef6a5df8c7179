/* SPDX-License-Identifier: MIT */
/* sys_*() for the hosted backend (glibc, musl, uClibc-ng): mostly the C library's syscall()
 * with arch/'s numbers, as the freestanding backend makes them, since the recorder is single-
 * threaded and needs none of the library's wrapper work (time64 and socketcall conversions,
 * cancellation points, signal and fork bookkeeping: 4-9 KiB of a static musl binary); the
 * library's own functions for the rest (thin wrappers, or state it keeps: environ, auxv).
 * The one place -1/errno becomes -errno. TP_ constants are the kernel's values, which every
 * Linux libc passes through, so flags and numbers go to the libc unchanged
 * (tests/arch/abi-check.c holds them equal). */
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
#include "arch/arch.h"

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
	/* 64-bit kernels force O_LARGEFILE only for 64-bit processes */
	if (sizeof(long) == 4)
		flags |= TP_O_LARGEFILE;
	return ret(syscall(TP_NR_openat, dirfd, path, flags, mode));
}

long sys_open(const char *path, int flags, unsigned mode)
{
	return sys_openat(TP_AT_FDCWD, path, flags, mode);
}

long sys_close(int fd)
{
	return ret(syscall(TP_NR_close, fd));
}

long sys_read(int fd, void *buf, size_t len)
{
	return ret(syscall(TP_NR_read, fd, buf, len));
}

long sys_write(int fd, const void *buf, size_t len)
{
	return ret(syscall(TP_NR_write, fd, buf, len));
}

long sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return ret(syscall(TP_NR_pread64, fd, buf, len, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(off)));
}

long sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return ret(syscall(TP_NR_pwrite64, fd, buf, len, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(off)));
}

int64_t sys_lseek(int fd, int64_t off, int whence)
{
#ifdef TP_NR__llseek
	int64_t pos;
	long r = syscall(TP_NR__llseek, fd, (long)(uint32_t)((uint64_t)off >> 32), (long)(uint32_t)off,
			 &pos, whence);

	return r < 0 ? -errno : pos;
#else
	return ret(syscall(TP_NR_lseek, fd, off, whence));
#endif
}

long sys_ftruncate(int fd, uint64_t len)
{
#ifdef TP_NR_ftruncate64
	return ret(syscall(TP_NR_ftruncate64, fd, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(len)));
#else
	return ret(syscall(TP_NR_ftruncate, fd, len));
#endif
}

long sys_fallocate(int fd, int mode, uint64_t off, uint64_t len)
{
	return ret(syscall(TP_NR_fallocate, fd, mode, ARCH_SYSCALL_ARG64(off), ARCH_SYSCALL_ARG64(len)));
}

long sys_fsync(int fd)
{
	return ret(syscall(TP_NR_fsync, fd));
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

long sys_umount2(const char *target, int flags)
{
	return ret(umount2(target, flags));
}

long sys_pipe2(int fds[2], int flags)
{
	return ret(syscall(TP_NR_pipe2, fds, flags));
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
	return ret(syscall(TP_NR_ioctl, fd, req, arg));
}

long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
#ifdef TP_NR_mmap2
	/* mmap2 counts the offset in 4096-byte units whatever the page size */
	if (off & 4095)
		return -TP_EINVAL;
	return ret(syscall(TP_NR_mmap2, addr, len, prot, flags, fd, (long)(off >> 12)));
#else
	return ret(syscall(TP_NR_mmap, addr, len, prot, flags, fd, (long)off));
#endif
}

long sys_munmap(void *addr, size_t len)
{
	return ret(syscall(TP_NR_munmap, addr, len));
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
 * threaded and its only child (recorder/record/workload.c) makes plain system calls until execve or
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
	return ret(syscall(TP_NR_execve, path, argv, envp));
}

long sys_memfd_create(const char *name, unsigned flags)
{
	return ret(syscall(TP_NR_memfd_create, name, flags));
}

long sys_wait4(int pid, int *status, int options, void *rusage)
{
	/* the kernel's struct rusage: {long sec, long usec} times, as sys_getrusage_maxrss_kb */
	return ret(syscall(TP_NR_wait4, pid, status, options, rusage));
}

long sys_kill(int pid, int sig)
{
	return ret(syscall(TP_NR_kill, pid, sig));
}

long sys_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	return ret(syscall(TP_NR_prctl, option, a2, a3, a4, a5));
}

void sys_exit_group(int code)
{
	_exit(code);
}

long sys_uname(struct tp_utsname *u)
{
	return ret(syscall(TP_NR_uname, u));	/* struct tp_utsname is the kernel's */
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
		goto fail;
#endif
	if (syscall(TP_NR_clock_gettime, clk, t) < 0)
		goto fail;
	ts->sec = t[0];
	ts->nsec = t[1];
	return 0;
fail:
	/* what the compiler cannot see, and -Wmaybe-uninitialized at -O2 with LTO flags: that
	 * -errno is never 0 here; a failed read is the epoch, as sys.h says */
	*ts = (struct tp_timespec){ 0, 0 };
	return -errno;
}

long sys_nanosleep(const struct tp_timespec *ts)
{
	long t[2] = { (long)ts->sec, ts->nsec };	/* a time32 span: fine for sleeps */

	return ret(syscall(TP_NR_nanosleep, t, 0));
}

long sys_poll(struct tp_pollfd *fds, unsigned nfds, int timeout_ms)
{
	long t[2], *tp = 0;	/* time32 ppoll: fine for a timeout */

	if (timeout_ms >= 0) {
		t[0] = timeout_ms / 1000;
		t[1] = timeout_ms % 1000 * 1000000L;
		tp = t;
	}
	return ret(syscall(TP_NR_ppoll, fds, nfds, tp, 0, ARCH_SIGSET_BYTES));
}

/* rt_sigaction itself, with arch/'s restorer as the freestanding backend does: the C
 * library's sigaction() guards its own internal signals, which a single-threaded recorder
 * does not use (0.6-0.9 KiB of musl) */
#ifdef ARCH_SIGRESTORER_ASM
ARCH_SIGRESTORER_ASM
#endif

long sys_signal(int sig, tp_sighandler_t handler, int restart)
{
	struct arch_sigaction sa;

	arch_sigaction_set(&sa, handler, restart ? TP_SA_RESTART : 0);
	return ret(syscall(TP_NR_rt_sigaction, sig, &sa, 0, ARCH_SIGSET_BYTES));
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
	return ret(syscall(TP_NR_socket, domain, type, proto));
}

long sys_connect(int fd, const void *addr, unsigned addrlen)
{
	return ret(syscall(TP_NR_connect, fd, addr, addrlen));
}

long sys_bind(int fd, const void *addr, unsigned addrlen)
{
	return ret(syscall(TP_NR_bind, fd, addr, addrlen));
}

long sys_listen(int fd, int backlog)
{
	return ret(syscall(TP_NR_listen, fd, backlog));
}

long sys_accept4(int fd, void *addr, unsigned *addrlen, int flags)
{
	return ret(syscall(TP_NR_accept4, fd, addr, addrlen, flags));
}

long sys_setsockopt(int fd, int level, int name, const void *val, unsigned len)
{
	return ret(syscall(TP_NR_setsockopt, fd, level, name, val, len));
}

long sys_shutdown(int fd, int how)
{
	return ret(syscall(TP_NR_shutdown, fd, how));
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
