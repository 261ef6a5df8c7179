/* SPDX-License-Identifier: MIT */
/* abi-check: every TP_ constant of arch/abi.h against the C library's own value. Linked into
 * the hosted arch-test only (it includes libc headers); arch-test calls tp_abi_check() when
 * it is present. A constant the libc does not define is skipped, not failed. TP_NCCS and
 * struct tp_termios (the kernel's, not the libc's) are checked on a pty by sys-test.c. */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "arch/abi.h"
#include "libc-shim/errno.h"
#include "libc-shim/sys.h"

typedef void report_fn(const char *name, long long ours, long long libc);

#define C(x) report(#x, (long long)TP_##x, (long long)(x))
#define NR(x) report("NR_" #x, TP_NR_##x, SYS_##x)
#define ERR(x, msg) report(#x, TP_##x, x);

static void check_syscalls(report_fn *report)
{
	NR(openat); NR(close); NR(read); NR(write); NR(pread64); NR(pwrite64); NR(fsync);
	NR(fallocate);
	NR(getdents64); NR(readlinkat); NR(unlinkat); NR(renameat); NR(mkdirat); NR(mount);
	NR(pipe2); NR(dup3); NR(fcntl); NR(ioctl); NR(munmap); NR(getpid); NR(gettid);
	NR(getppid); NR(execve); NR(wait4); NR(kill); NR(prctl); NR(exit_group); NR(uname);
	NR(getrusage); NR(nanosleep); NR(ppoll); NR(rt_sigaction);
	NR(rt_sigprocmask); NR(rt_sigreturn); NR(socket); NR(connect); NR(bind); NR(listen);
	NR(accept4); NR(setsockopt); NR(shutdown); NR(perf_event_open); NR(memfd_create);
#if defined(SYS_clock_gettime)
	NR(clock_gettime);
#elif defined(SYS_clock_gettime32)	/* musl's name on 32-bit arches */
	report("NR_clock_gettime", TP_NR_clock_gettime, SYS_clock_gettime32);
#endif
#ifdef TP_NR_lseek
	NR(lseek);
#endif
#ifdef TP_NR__llseek
	NR(_llseek);
#endif
#ifdef TP_NR_ftruncate
	NR(ftruncate);
#endif
#ifdef TP_NR_ftruncate64
	NR(ftruncate64);
#endif
#ifdef TP_NR_mmap
	NR(mmap);
#endif
#ifdef TP_NR_mmap2
	NR(mmap2);
#endif
#ifdef TP_NR_getuid
	NR(getuid);
#endif
#ifdef TP_NR_getuid32
	NR(getuid32);
#endif
#ifdef TP_NR_fork
	NR(fork);
#endif
#ifdef TP_NR_clone
	NR(clone);
#endif
#ifdef TP_NR_clock_gettime64
	NR(clock_gettime64);
#endif
}

static void check_process(report_fn *report)
{
	TP_ERRNO_LIST_BASE(ERR)
	TP_ERRNO_LIST_NET(ERR)
	C(EWOULDBLOCK); C(ENOTSUP);
	C(SIGHUP); C(SIGINT); C(SIGQUIT); C(SIGILL); C(SIGTRAP); C(SIGABRT); C(SIGBUS);
	C(SIGFPE); C(SIGKILL); C(SIGUSR1); C(SIGSEGV); C(SIGUSR2); C(SIGPIPE); C(SIGALRM);
	C(SIGTERM); C(SIGCHLD); C(SIGCONT); C(SIGSTOP); C(SIGTSTP); C(SIGTTIN); C(SIGTTOU);
	C(SIGURG); C(SIGXCPU); C(SIGXFSZ); C(SIGVTALRM); C(SIGPROF); C(SIGWINCH); C(SIGIO);
	C(SIGPWR); C(SIGSYS);
	C(SA_NOCLDSTOP); C(SA_NOCLDWAIT); C(SA_SIGINFO); C(SA_ONSTACK); C(SA_RESTART);
	C(SA_NODEFER); C(SA_RESETHAND);
#if defined(SA_RESTORER) && defined(TP_SA_RESTORER)
	C(SA_RESTORER);
#endif
	C(SIG_BLOCK); C(SIG_UNBLOCK); C(SIG_SETMASK);
	report("SIG_DFL", (long long)(uintptr_t)TP_SIG_DFL, (long long)(uintptr_t)SIG_DFL);
	report("SIG_IGN", (long long)(uintptr_t)TP_SIG_IGN, (long long)(uintptr_t)SIG_IGN);
	C(WNOHANG); C(WUNTRACED);
	report("WEXITSTATUS", TP_WEXITSTATUS(0x2a00), WEXITSTATUS(0x2a00));
	report("WIFEXITED", TP_WIFEXITED(0x2a00), WIFEXITED(0x2a00));
	report("WIFSIGNALED", TP_WIFSIGNALED(0x0009), WIFSIGNALED(0x0009));
	report("WIFSIGNALED stopped", TP_WIFSIGNALED(0x137f), WIFSIGNALED(0x137f));
	report("WTERMSIG", TP_WTERMSIG(0x0089), WTERMSIG(0x0089));
	C(PR_SET_PDEATHSIG); C(PR_GET_PDEATHSIG); C(PR_SET_NAME); C(PR_GET_NAME);
	C(AT_NULL); C(AT_PAGESZ); C(AT_PLATFORM); C(AT_HWCAP); C(AT_HWCAP2); C(AT_EXECFN);
	C(CLOCK_REALTIME); C(CLOCK_MONOTONIC); C(CLOCK_PROCESS_CPUTIME_ID);
	C(CLOCK_THREAD_CPUTIME_ID); C(CLOCK_MONOTONIC_RAW); C(CLOCK_REALTIME_COARSE);
	C(CLOCK_MONOTONIC_COARSE); C(CLOCK_BOOTTIME);
	report("sizeof utsname.machine", sizeof(((struct tp_utsname *)0)->machine),
	       sizeof(((struct utsname *)0)->machine));
	report("sizeof pollfd", sizeof(struct tp_pollfd), sizeof(struct pollfd));
}

static void check_files(report_fn *report)
{
	C(O_RDONLY); C(O_WRONLY); C(O_RDWR); C(O_CREAT);
	/* musl folds O_PATH (its O_SEARCH) into O_ACCMODE */
	report("O_ACCMODE", TP_O_ACCMODE, O_ACCMODE & ~O_PATH);
	C(O_EXCL); C(O_NOCTTY); C(O_TRUNC); C(O_APPEND); C(O_NONBLOCK); C(O_DSYNC); C(O_DIRECT);
	C(O_DIRECTORY); C(O_NOFOLLOW); C(O_SYNC); C(O_NOATIME); C(O_CLOEXEC); C(O_PATH);
	if (O_LARGEFILE)	/* 0 in 64-bit libcs, where the kernel implies it */
		C(O_LARGEFILE);
	C(AT_FDCWD); C(AT_SYMLINK_NOFOLLOW); C(AT_REMOVEDIR); C(AT_EMPTY_PATH);
	C(F_DUPFD); C(F_GETFD); C(F_SETFD); C(F_GETFL); C(F_SETFL); C(FD_CLOEXEC);
	C(F_DUPFD_CLOEXEC); C(F_SETPIPE_SZ); C(F_GETPIPE_SZ);
	C(SEEK_SET); C(SEEK_CUR); C(SEEK_END); C(SEEK_DATA); C(SEEK_HOLE);
	C(DT_UNKNOWN); C(DT_DIR); C(DT_REG); C(DT_LNK);
	C(MS_RDONLY); C(MS_NOSUID); C(MS_NODEV); C(MS_NOEXEC); C(MS_REMOUNT); C(MS_BIND);
	C(PROT_NONE); C(PROT_READ); C(PROT_WRITE); C(PROT_EXEC);
	C(MAP_SHARED); C(MAP_PRIVATE); C(MAP_FIXED); C(MAP_ANONYMOUS); C(MAP_NORESERVE);
	C(MAP_POPULATE);
	C(POLLIN); C(POLLPRI); C(POLLOUT); C(POLLERR); C(POLLHUP); C(POLLNVAL);
}

static void check_io(report_fn *report)
{
	C(AF_UNIX); C(AF_INET); C(AF_INET6); C(SOCK_STREAM); C(SOCK_DGRAM); C(SOCK_CLOEXEC);
	C(SOCK_NONBLOCK); C(SOL_SOCKET); C(SO_REUSEADDR); C(SO_TYPE); C(SO_ERROR); C(SO_SNDBUF);
	C(SO_RCVBUF); C(SO_KEEPALIVE); C(IPPROTO_TCP); C(TCP_NODELAY);
	C(SHUT_RD); C(SHUT_WR); C(SHUT_RDWR);
	C(TCGETS); C(TCSETS); C(TCSETSW); C(TCSETSF); C(TCFLSH); C(TIOCOUTQ); C(FIONREAD);
	C(FIONBIO);
	C(VINTR); C(VMIN); C(VTIME); C(IGNBRK); C(BRKINT); C(PARMRK); C(INPCK); C(ISTRIP);
	C(INLCR); C(IGNCR); C(ICRNL); C(IXON); C(IXOFF); C(OPOST); C(CBAUD); C(B9600);
	C(B19200); C(B38400); C(B57600); C(B115200); C(B230400); C(B460800); C(B921600);
	C(B1500000); C(B3000000); C(CSIZE); C(CS8); C(CSTOPB); C(CREAD); C(PARENB); C(CLOCAL);
	C(CRTSCTS); C(ISIG); C(ICANON); C(ECHO); C(ECHOE); C(ECHONL); C(IEXTEN);
	C(TCIFLUSH); C(TCOFLUSH); C(TCIOFLUSH);
#ifdef _IOC_NONE	/* glibc has the kernel's asm/ioctl.h; musl only the _IO* macros */
	report("_IOC_NONE", TP_IOC_NONE, _IOC_NONE);
	report("_IOC_READ", TP_IOC_READ, _IOC_READ);
	report("_IOC_WRITE", TP_IOC_WRITE, _IOC_WRITE);
#endif
#ifdef _IOC_SIZEBITS
	report("_IOC_SIZEBITS", TP_IOC_SIZEBITS, _IOC_SIZEBITS);
	report("_IOC_NRSHIFT", TP_IOC_NRSHIFT, _IOC_NRSHIFT);
	report("_IOC_TYPESHIFT", TP_IOC_TYPESHIFT, _IOC_TYPESHIFT);
	report("_IOC_SIZESHIFT", TP_IOC_SIZESHIFT, _IOC_SIZESHIFT);
	report("_IOC_DIRSHIFT", TP_IOC_DIRSHIFT, _IOC_DIRSHIFT);
#endif
	report("_IO('$', 0)", TP_IO('$', 0), _IO('$', 0));
	report("_IOR('$', 7, u64)", TP_IOR('$', 7, uint64_t), _IOR('$', 7, uint64_t));
	report("_IOW('$', 6, char *)", TP_IOW('$', 6, char *), _IOW('$', 6, char *));
	report("_IOWR('$', 9, int)", TP_IOWR('$', 9, int), _IOWR('$', 9, int));
}

int tp_abi_check(report_fn *report);
int tp_abi_check(report_fn *report)
{
	check_syscalls(report);
	check_process(report);
	check_files(report);
	check_io(report);
	return 0;
}
