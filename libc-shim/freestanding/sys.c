/* SPDX-License-Identifier: MIT */
/* sys_*() for the freestanding backend: one raw syscall each, through arch/. Where arches
 * differ in which call exists (mmap2, _llseek, ftruncate64, getuid32, clock_gettime64, no
 * fork), the choice follows which TP_NR_ number arch/abi.h defines. */
#include "libc-shim/sys.h"
#include "arch/arch.h"

/* my_syscall(nr, args...) picks my_syscallN by counting its arguments after expansion, so an
 * ARCH_SYSCALL_ARG64() that stands for two registers counts as two. */
#define SC_NARGS(...) SC_NARGS_(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define SC_NARGS_(nr, a, b, c, d, e, f, n, ...) n
#define SC_CAT(a, b) SC_CAT_(a, b)
#define SC_CAT_(a, b) a##b
#define my_syscall(...) SC_CAT(my_syscall, SC_NARGS(__VA_ARGS__))(__VA_ARGS__)

#ifdef ARCH_SIGRESTORER_ASM
ARCH_SIGRESTORER_ASM
#endif

ARCH_SYSCALL_WRAPPER long sys_openat(int dirfd, const char *path, int flags, unsigned mode)
{
	/* 64-bit kernels force O_LARGEFILE only for 64-bit processes */
	if (sizeof(long) == 4)
		flags |= TP_O_LARGEFILE;
	return my_syscall(TP_NR_openat, dirfd, path, flags, mode);
}

ARCH_SYSCALL_WRAPPER long sys_open(const char *path, int flags, unsigned mode)
{
	return sys_openat(TP_AT_FDCWD, path, flags, mode);
}

ARCH_SYSCALL_WRAPPER long sys_close(int fd)
{
	return my_syscall(TP_NR_close, fd);
}

ARCH_SYSCALL_WRAPPER long sys_read(int fd, void *buf, size_t len)
{
	return my_syscall(TP_NR_read, fd, buf, len);
}

ARCH_SYSCALL_WRAPPER long sys_write(int fd, const void *buf, size_t len)
{
	return my_syscall(TP_NR_write, fd, buf, len);
}

ARCH_SYSCALL_WRAPPER long sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return my_syscall(TP_NR_pread64, fd, buf, len, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(off));
}

ARCH_SYSCALL_WRAPPER long sys_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return my_syscall(TP_NR_pwrite64, fd, buf, len, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(off));
}

ARCH_SYSCALL_WRAPPER int64_t sys_lseek(int fd, int64_t off, int whence)
{
#ifdef TP_NR__llseek
	int64_t pos;
	long ret = my_syscall(TP_NR__llseek, fd, (long)(uint32_t)((uint64_t)off >> 32),
			      (long)(uint32_t)off, &pos, whence);

	return ret < 0 ? ret : pos;
#else
	return my_syscall(TP_NR_lseek, fd, off, whence);
#endif
}

ARCH_SYSCALL_WRAPPER long sys_ftruncate(int fd, uint64_t len)
{
#ifdef TP_NR_ftruncate64
	return my_syscall(TP_NR_ftruncate64, fd, ARCH_SYSCALL_PAD64 ARCH_SYSCALL_ARG64(len));
#else
	return my_syscall(TP_NR_ftruncate, fd, len);
#endif
}

/* both pairs start at an even slot (2 and 4): no padding on arm or mips */
ARCH_SYSCALL_WRAPPER long sys_fallocate(int fd, int mode, uint64_t off, uint64_t len)
{
	return my_syscall(TP_NR_fallocate, fd, mode, ARCH_SYSCALL_ARG64(off), ARCH_SYSCALL_ARG64(len));
}

ARCH_SYSCALL_WRAPPER long sys_fsync(int fd)
{
	return my_syscall(TP_NR_fsync, fd);
}

/* kept a call where LTO would inline it at each /proc walk (measured: aarch64 -112 bytes) */
TP_NOINLINE ARCH_SYSCALL_WRAPPER long sys_getdents64(int fd, void *buf, size_t len)
{
	return my_syscall(TP_NR_getdents64, fd, buf, len);
}

ARCH_SYSCALL_WRAPPER long sys_readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return my_syscall(TP_NR_readlinkat, dirfd, path, buf, len);
}

ARCH_SYSCALL_WRAPPER long sys_unlinkat(int dirfd, const char *path, int flags)
{
	return my_syscall(TP_NR_unlinkat, dirfd, path, flags);
}

ARCH_SYSCALL_WRAPPER long sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	return my_syscall(TP_NR_renameat, olddirfd, oldpath, newdirfd, newpath);
}

ARCH_SYSCALL_WRAPPER long sys_mkdirat(int dirfd, const char *path, unsigned mode)
{
	return my_syscall(TP_NR_mkdirat, dirfd, path, mode);
}

ARCH_SYSCALL_WRAPPER long sys_mount(const char *src, const char *target, const char *fstype,
	       unsigned long flags, const void *data)
{
	return my_syscall(TP_NR_mount, src, target, fstype, flags, data);
}

ARCH_SYSCALL_WRAPPER long sys_umount2(const char *target, int flags)
{
	return my_syscall(TP_NR_umount2, target, flags);
}

ARCH_SYSCALL_WRAPPER long sys_pipe2(int fds[2], int flags)
{
	return my_syscall(TP_NR_pipe2, fds, flags);
}

ARCH_SYSCALL_WRAPPER long sys_dup3(int oldfd, int newfd, int flags)
{
	return my_syscall(TP_NR_dup3, oldfd, newfd, flags);
}

ARCH_SYSCALL_WRAPPER long sys_fcntl(int fd, int cmd, long arg)
{
	return my_syscall(TP_NR_fcntl, fd, cmd, arg);
}

ARCH_SYSCALL_WRAPPER long sys_ioctl(int fd, unsigned long req, long arg)
{
	return my_syscall(TP_NR_ioctl, fd, req, arg);
}

/* a call: six arguments and the mmap2 offset check, inlined at each site (armv7 -72 bytes) */
TP_NOINLINE ARCH_SYSCALL_WRAPPER long sys_mmap(void *addr, size_t len, int prot, int flags, int fd,
					      uint64_t off)
{
#ifdef TP_NR_mmap2
	/* mmap2 counts the offset in 4096-byte units whatever the page size */
	if (off & 4095)
		return -TP_EINVAL;
	return my_syscall(TP_NR_mmap2, addr, len, prot, flags, fd, (long)(off >> 12));
#else
	return my_syscall(TP_NR_mmap, addr, len, prot, flags, fd, off);
#endif
}

ARCH_SYSCALL_WRAPPER long sys_munmap(void *addr, size_t len)
{
	return my_syscall(TP_NR_munmap, addr, len);
}

ARCH_SYSCALL_WRAPPER long sys_getpid(void)
{
	return my_syscall(TP_NR_getpid);
}

ARCH_SYSCALL_WRAPPER long sys_gettid(void)
{
	return my_syscall(TP_NR_gettid);
}

ARCH_SYSCALL_WRAPPER long sys_getppid(void)
{
	return my_syscall(TP_NR_getppid);
}

ARCH_SYSCALL_WRAPPER long sys_getuid(void)
{
#ifdef TP_NR_getuid32
	return my_syscall(TP_NR_getuid32);
#else
	return my_syscall(TP_NR_getuid);
#endif
}

ARCH_SYSCALL_WRAPPER long sys_fork(void)
{
#ifdef TP_NR_fork
	return my_syscall(TP_NR_fork);
#else
	/* clone(SIGCHLD) with no new stack: the other arguments are 0 in every arch's order */
	return my_syscall(TP_NR_clone, TP_SIGCHLD, 0, 0, 0, 0);
#endif
}

ARCH_SYSCALL_WRAPPER long sys_execve(const char *path, char *const argv[], char *const envp[])
{
	return my_syscall(TP_NR_execve, path, argv, envp);
}

ARCH_SYSCALL_WRAPPER long sys_memfd_create(const char *name, unsigned flags)
{
	return my_syscall(TP_NR_memfd_create, name, flags);
}

ARCH_SYSCALL_WRAPPER long sys_wait4(int pid, int *status, int options, void *rusage)
{
	return my_syscall(TP_NR_wait4, pid, status, options, rusage);
}

ARCH_SYSCALL_WRAPPER long sys_kill(int pid, int sig)
{
	return my_syscall(TP_NR_kill, pid, sig);
}

ARCH_SYSCALL_WRAPPER long sys_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	return my_syscall(TP_NR_prctl, option, a2, a3, a4, a5);
}

ARCH_SYSCALL_WRAPPER void sys_exit_group(int code)
{
	for (;;)
		my_syscall(TP_NR_exit_group, code);
}

ARCH_SYSCALL_WRAPPER long sys_uname(struct tp_utsname *u)
{
	return my_syscall(TP_NR_uname, u);
}

ARCH_SYSCALL_WRAPPER long sys_getrusage_maxrss_kb(long *maxrss_kb, int64_t *utime_us, int64_t *stime_us)
{
	/* struct rusage: utime and stime as {long sec, long usec}, then 14 longs, maxrss first */
	long ru[18];
	long ret = my_syscall(TP_NR_getrusage, 0 /* RUSAGE_SELF */, ru);

	if (ret < 0)
		return ret;
	if (maxrss_kb)
		*maxrss_kb = ru[4];
	if (utime_us)
		*utime_us = (int64_t)ru[0] * 1000000 + ru[1];
	if (stime_us)
		*stime_us = (int64_t)ru[2] * 1000000 + ru[3];
	return 0;
}

ARCH_SYSCALL_WRAPPER long sys_clock_gettime(int clk, struct tp_timespec *ts)
{
	long ret, t[2];

#ifdef TP_NR_clock_gettime64
	/* 32-bit: the y2038-safe call first; kernels before 5.1 say ENOSYS */
	int64_t t64[2];

	ret = my_syscall(TP_NR_clock_gettime64, clk, t64);
	if (ret != -TP_ENOSYS) {
		*ts = ret ? (struct tp_timespec){ 0, 0 } : (struct tp_timespec){ t64[0], (long)t64[1] };
		return ret;
	}
#endif
	ret = my_syscall(TP_NR_clock_gettime, clk, t);
	/* a failed read is the epoch (sys.h): *ts is defined on every path */
	*ts = ret ? (struct tp_timespec){ 0, 0 } : (struct tp_timespec){ t[0], t[1] };
	return ret;
}

ARCH_SYSCALL_WRAPPER long sys_nanosleep(const struct tp_timespec *ts)
{
	long t[2] = { (long)ts->sec, ts->nsec };

	return my_syscall(TP_NR_nanosleep, t, 0);
}

ARCH_SYSCALL_WRAPPER long sys_poll(struct tp_pollfd *fds, unsigned nfds, int timeout_ms)
{
	long t[2], *tp = 0;

	if (timeout_ms >= 0) {
		t[0] = timeout_ms / 1000;
#ifdef ARCH_SOFT_DIV32
		/* no divide instruction: % would be a call of the signed division helper, which
		 * nothing else in the core recorder needs (armv7 -36 bytes) */
		t[1] = (timeout_ms - t[0] * 1000) * 1000000L;
#else
		t[1] = timeout_ms % 1000 * 1000000L;	/* as small or smaller here */
#endif
		tp = t;
	}
	return my_syscall(TP_NR_ppoll, fds, nfds, tp, 0, ARCH_SIGSET_BYTES);
}

ARCH_SYSCALL_WRAPPER long sys_signal(int sig, tp_sighandler_t handler, int restart)
{
	struct arch_sigaction sa;

	arch_sigaction_set(&sa, handler, restart ? TP_SA_RESTART : 0);
	return my_syscall(TP_NR_rt_sigaction, sig, &sa, 0, ARCH_SIGSET_BYTES);
}

ARCH_SYSCALL_WRAPPER long sys_sigmask(int how, int sig)
{
	enum { BITS = 8 * sizeof(unsigned long) };
	unsigned long set[ARCH_SIGSET_BYTES / sizeof(unsigned long)] = { 0 };
	unsigned bit = (unsigned)sig - 1;

	if (bit >= ARCH_SIGSET_BYTES * 8)
		return -TP_EINVAL;
	set[bit / BITS] = 1UL << (bit % BITS);
	return my_syscall(TP_NR_rt_sigprocmask, how, set, 0, ARCH_SIGSET_BYTES);
}

ARCH_SYSCALL_WRAPPER long sys_socket(int domain, int type, int proto)
{
	return my_syscall(TP_NR_socket, domain, type, proto);
}

ARCH_SYSCALL_WRAPPER long sys_connect(int fd, const void *addr, unsigned addrlen)
{
	return my_syscall(TP_NR_connect, fd, addr, addrlen);
}

ARCH_SYSCALL_WRAPPER long sys_bind(int fd, const void *addr, unsigned addrlen)
{
	return my_syscall(TP_NR_bind, fd, addr, addrlen);
}

ARCH_SYSCALL_WRAPPER long sys_listen(int fd, int backlog)
{
	return my_syscall(TP_NR_listen, fd, backlog);
}

ARCH_SYSCALL_WRAPPER long sys_accept4(int fd, void *addr, unsigned *addrlen, int flags)
{
	return my_syscall(TP_NR_accept4, fd, addr, addrlen, flags);
}

ARCH_SYSCALL_WRAPPER long sys_setsockopt(int fd, int level, int name, const void *val, unsigned len)
{
	return my_syscall(TP_NR_setsockopt, fd, level, name, val, len);
}

ARCH_SYSCALL_WRAPPER long sys_shutdown(int fd, int how)
{
	return my_syscall(TP_NR_shutdown, fd, how);
}

ARCH_SYSCALL_WRAPPER long sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			 unsigned long flags)
{
	return my_syscall(TP_NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}
