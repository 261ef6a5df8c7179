/* SPDX-License-Identifier: MIT */
/* Typed system calls. Each returns >= 0 on success or -errno (never -1 + errno).
 * The hosted backend goes through the C library (so its fork/signal/thread bookkeeping
 * stays consistent); the freestanding backend issues the raw syscalls from arch/.
 * Structures whose layout differs per arch (sigaction, termios, timespec on 32-bit)
 * are hidden behind these portable types. */
#ifndef TINYPERF_LIBC_SHIM_SYS_H
#define TINYPERF_LIBC_SHIM_SYS_H

#include "libc-shim/types.h"

/* open flags and friends: kernel ABI values, from arch/ */
#include "arch/abi.h"

struct perf_event_attr;

struct tp_timespec { int64_t sec; long nsec; };

struct tp_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

struct tp_pollfd { int fd; short events; short revents; };

/* signal handling: handler receives the (arch-numbered) signal */
typedef void (*tp_sighandler_t)(int sig);
#define TP_SIG_DFL ((tp_sighandler_t)0)
#define TP_SIG_IGN ((tp_sighandler_t)1)

/* files */
long sys_openat(int dirfd, const char *path, int flags, unsigned mode);
long sys_open(const char *path, int flags, unsigned mode);   /* openat(AT_FDCWD, ...) */
long sys_close(int fd);
long sys_read(int fd, void *buf, size_t len);
long sys_write(int fd, const void *buf, size_t len);
long sys_pread(int fd, void *buf, size_t len, uint64_t off);
long sys_pwrite(int fd, const void *buf, size_t len, uint64_t off);
int64_t sys_lseek(int fd, int64_t off, int whence);          /* _llseek on 32-bit */
long sys_ftruncate(int fd, uint64_t len);
/* mode 0 or TP_FALLOC_FL_KEEP_SIZE: the blocks reserved, the size left as it is */
#define TP_FALLOC_FL_KEEP_SIZE	1
long sys_fallocate(int fd, int mode, uint64_t off, uint64_t len);
long sys_fsync(int fd);
long sys_getdents64(int fd, void *buf, size_t len);
long sys_readlinkat(int dirfd, const char *path, char *buf, size_t len);
long sys_unlinkat(int dirfd, const char *path, int flags);
long sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);
long sys_mkdirat(int dirfd, const char *path, unsigned mode);
long sys_mount(const char *src, const char *target, const char *fstype,
	       unsigned long flags, const void *data);
#define TP_MNT_DETACH	2	/* umount2: lazily, even when busy */
long sys_umount2(const char *target, int flags);
long sys_pipe2(int fds[2], int flags);
long sys_dup3(int oldfd, int newfd, int flags);
long sys_fcntl(int fd, int cmd, long arg);
long sys_ioctl(int fd, unsigned long req, long arg);

/* memory: returns the address, or a value in [-4095, -1] */
long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off);
long sys_munmap(void *addr, size_t len);

/* processes */
long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
long sys_getuid(void);
long sys_fork(void);            /* clone(SIGCHLD) where there is no fork */
long sys_execve(const char *path, char *const argv[], char *const envp[]);
long sys_memfd_create(const char *name, unsigned flags);     /* Linux 3.17 */
long sys_wait4(int pid, int *status, int options, void *rusage);
long sys_kill(int pid, int sig);
long sys_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5);
__attribute__((noreturn)) void sys_exit_group(int code);
long sys_uname(struct tp_utsname *u);
long sys_getrusage_maxrss_kb(long *maxrss_kb, int64_t *utime_us, int64_t *stime_us);

/* time */
/* clock_gettime64 with fallback. On failure (a bad clock id, a seccomp filter) *ts is 0, the
 * epoch, and the result -errno: callers for whom time 0 is a safe answer (timers that then do
 * not fire, names and ids that count on without it) may use *ts unchecked. */
long sys_clock_gettime(int clk, struct tp_timespec *ts);
long sys_nanosleep(const struct tp_timespec *ts);

/* polling and signals */
long sys_poll(struct tp_pollfd *fds, unsigned nfds, int timeout_ms);  /* ppoll */
long sys_signal(int sig, tp_sighandler_t handler, int restart);  /* rt_sigaction */
long sys_sigmask(int how, int sig);   /* block/unblock one signal: rt_sigprocmask */

/* sockets (direct syscalls; i386 has them since 4.3) */
long sys_socket(int domain, int type, int proto);
long sys_connect(int fd, const void *addr, unsigned addrlen);
long sys_bind(int fd, const void *addr, unsigned addrlen);
long sys_listen(int fd, int backlog);
long sys_accept4(int fd, void *addr, unsigned *addrlen, int flags);
long sys_setsockopt(int fd, int level, int name, const void *val, unsigned len);
long sys_shutdown(int fd, int how);

/* perf */
long sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			 unsigned long flags);

/* process start-up data: the environment main() got, and the ELF auxiliary vector
 * (TP_AT_PAGESZ, TP_AT_HWCAP, ...; 0 when the type is absent) */
extern char **tp_environ;
unsigned long tp_getauxval(unsigned long type);

#endif
