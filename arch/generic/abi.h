/* SPDX-License-Identifier: MIT */
/* asm-generic kernel ABI values (include/uapi/asm-generic/), used unless the arch file
 * already defined the constant or, for whole groups that an arch numbers its own way, set
 * TP_ARCH_<GROUP>. Constants no arch overrides are defined unconditionally, so a wrong
 * override is a redefinition error rather than a silent second value. */
#ifndef TINYPERF_ARCH_GENERIC_ABI_H
#define TINYPERF_ARCH_GENERIC_ABI_H

/* ---- errno: 1..34 are the same everywhere (asm-generic/errno-base.h) ---- */
#define TP_EPERM	1
#define TP_ENOENT	2
#define TP_ESRCH	3
#define TP_EINTR	4
#define TP_EIO		5
#define TP_ENXIO	6
#define TP_E2BIG	7
#define TP_ENOEXEC	8
#define TP_EBADF	9
#define TP_ECHILD	10
#define TP_EAGAIN	11
#define TP_ENOMEM	12
#define TP_EACCES	13
#define TP_EFAULT	14
#define TP_EBUSY	16
#define TP_EEXIST	17
#define TP_EXDEV	18
#define TP_ENODEV	19
#define TP_ENOTDIR	20
#define TP_EISDIR	21
#define TP_EINVAL	22
#define TP_ENFILE	23
#define TP_EMFILE	24
#define TP_ENOTTY	25
#define TP_ETXTBSY	26
#define TP_EFBIG	27
#define TP_ENOSPC	28
#define TP_ESPIPE	29
#define TP_EROFS	30
#define TP_EMLINK	31
#define TP_EPIPE	32
#define TP_ERANGE	34

/* ---- errno 35 and up (asm-generic/errno.h) ---- */
#ifndef TP_ARCH_ERRNO
#define TP_ENAMETOOLONG		36
#define TP_ENOSYS		38
#define TP_ELOOP		40
#define TP_ENODATA		61
#define TP_EBADMSG		74
#define TP_EOVERFLOW		75
#define TP_ENOTSOCK		88
#define TP_EDESTADDRREQ		89
#define TP_EMSGSIZE		90
#define TP_EPROTOTYPE		91
#define TP_ENOPROTOOPT		92
#define TP_EPROTONOSUPPORT	93
#define TP_EOPNOTSUPP		95
#define TP_EAFNOSUPPORT		97
#define TP_EADDRINUSE		98
#define TP_EADDRNOTAVAIL	99
#define TP_ENETDOWN		100
#define TP_ENETUNREACH		101
#define TP_ECONNABORTED		103
#define TP_ECONNRESET		104
#define TP_ENOBUFS		105
#define TP_EISCONN		106
#define TP_ENOTCONN		107
#define TP_ETIMEDOUT		110
#define TP_ECONNREFUSED		111
#define TP_EHOSTUNREACH		113
#define TP_EALREADY		114
#define TP_EINPROGRESS		115
#define TP_ESTALE		116
#define TP_EDQUOT		122
#endif
#define TP_EWOULDBLOCK	TP_EAGAIN
#define TP_ENOTSUP	TP_EOPNOTSUPP

/* ---- signals (asm-generic/signal.h) ---- */
#define TP_SIGHUP	1
#define TP_SIGINT	2
#define TP_SIGQUIT	3
#define TP_SIGILL	4
#define TP_SIGTRAP	5
#define TP_SIGABRT	6
#define TP_SIGFPE	8
#define TP_SIGKILL	9
#define TP_SIGSEGV	11
#define TP_SIGPIPE	13
#define TP_SIGALRM	14
#define TP_SIGTERM	15
#ifndef TP_ARCH_SIGNALS
#define TP_SIGBUS	7
#define TP_SIGUSR1	10
#define TP_SIGUSR2	12
#define TP_SIGCHLD	17
#define TP_SIGCONT	18
#define TP_SIGSTOP	19
#define TP_SIGTSTP	20
#define TP_SIGTTIN	21
#define TP_SIGTTOU	22
#define TP_SIGURG	23
#define TP_SIGXCPU	24
#define TP_SIGXFSZ	25
#define TP_SIGVTALRM	26
#define TP_SIGPROF	27
#define TP_SIGWINCH	28
#define TP_SIGIO	29
#define TP_SIGPWR	30
#define TP_SIGSYS	31
#define TP_SA_NOCLDWAIT	0x00000002
#define TP_SA_SIGINFO	0x00000004
#define TP_SA_RESTORER	0x04000000
#define TP_SIG_BLOCK	0
#define TP_SIG_UNBLOCK	1
#define TP_SIG_SETMASK	2
#endif
#define TP_SA_NOCLDSTOP	0x00000001
#define TP_SA_ONSTACK	0x08000000
#define TP_SA_RESTART	0x10000000
#define TP_SA_NODEFER	0x40000000
#define TP_SA_RESETHAND	0x80000000U

/* ---- open flags (asm-generic/fcntl.h, octal as there) ---- */
#define TP_O_RDONLY	00
#define TP_O_WRONLY	01
#define TP_O_RDWR	02
#define TP_O_ACCMODE	03
#ifndef TP_O_CREAT
#define TP_O_CREAT	00000100
#endif
#ifndef TP_O_EXCL
#define TP_O_EXCL	00000200
#endif
#ifndef TP_O_NOCTTY
#define TP_O_NOCTTY	00000400
#endif
#ifndef TP_O_TRUNC
#define TP_O_TRUNC	00001000
#endif
#ifndef TP_O_APPEND
#define TP_O_APPEND	00002000
#endif
#ifndef TP_O_NONBLOCK
#define TP_O_NONBLOCK	00004000
#endif
#ifndef TP_O_DSYNC
#define TP_O_DSYNC	00010000
#endif
#ifndef TP_O_DIRECT
#define TP_O_DIRECT	00040000
#endif
#ifndef TP_O_LARGEFILE
#define TP_O_LARGEFILE	00100000
#endif
#ifndef TP_O_DIRECTORY
#define TP_O_DIRECTORY	00200000
#endif
#ifndef TP_O_NOFOLLOW
#define TP_O_NOFOLLOW	00400000
#endif
#ifndef TP_O_SYNC
#define TP_O_SYNC	(04000000 | TP_O_DSYNC)
#endif
#define TP_O_NOATIME	01000000
#define TP_O_CLOEXEC	02000000
#define TP_O_PATH	010000000

#define TP_AT_FDCWD		(-100)
#define TP_AT_SYMLINK_NOFOLLOW	0x100
#define TP_AT_REMOVEDIR		0x200
#define TP_AT_EMPTY_PATH	0x1000

/* fcntl */
#define TP_F_DUPFD		0
#define TP_F_GETFD		1
#define TP_F_SETFD		2
#define TP_F_GETFL		3
#define TP_F_SETFL		4
#define TP_FD_CLOEXEC		1
#define TP_F_DUPFD_CLOEXEC	1030
#define TP_F_SETPIPE_SZ		1031
#define TP_F_GETPIPE_SZ		1032

#define TP_SEEK_SET	0
#define TP_SEEK_CUR	1
#define TP_SEEK_END	2
#define TP_SEEK_DATA	3
#define TP_SEEK_HOLE	4

/* getdents64 d_type */
#define TP_DT_UNKNOWN	0
#define TP_DT_DIR	4
#define TP_DT_REG	8
#define TP_DT_LNK	10

/* mount flags */
#define TP_MS_RDONLY	1
#define TP_MS_NOSUID	2
#define TP_MS_NODEV	4
#define TP_MS_NOEXEC	8
#define TP_MS_REMOUNT	32
#define TP_MS_BIND	4096

/* ---- memory (asm-generic/mman-common.h) ---- */
#define TP_MFD_CLOEXEC	0x01	/* memfd_create (uapi/linux/memfd.h) */
#define TP_MFD_EXEC	0x10	/* Linux 6.3: executable, said so (else a warning) */
#define TP_PROT_NONE	0
#define TP_PROT_READ	1
#define TP_PROT_WRITE	2
#define TP_PROT_EXEC	4
#define TP_MAP_SHARED	0x01
#define TP_MAP_PRIVATE	0x02
#define TP_MAP_FIXED	0x10
#ifndef TP_ARCH_MMAN
#define TP_MAP_ANONYMOUS	0x20
#define TP_MAP_NORESERVE	0x4000
#define TP_MAP_POPULATE		0x8000
#endif

/* ---- processes ---- */
#define TP_WNOHANG	1
#define TP_WUNTRACED	2
#define TP_WEXITSTATUS(s)	(((s) >> 8) & 0xff)
#define TP_WTERMSIG(s)		((s) & 0x7f)
#define TP_WIFEXITED(s)		(TP_WTERMSIG(s) == 0)
#define TP_WIFSIGNALED(s)	(TP_WTERMSIG(s) != 0 && TP_WTERMSIG(s) != 0x7f)

#define TP_PR_SET_PDEATHSIG	1
#define TP_PR_GET_PDEATHSIG	2
#define TP_PR_SET_NAME		15
#define TP_PR_GET_NAME		16

/* auxiliary vector types (tp_getauxval) */
#define TP_AT_NULL	0
#define TP_AT_PAGESZ	6
#define TP_AT_PLATFORM	15
#define TP_AT_HWCAP	16
#define TP_AT_HWCAP2	26
#define TP_AT_SECURE	23
#define TP_AT_EXECFN	31

/* ---- time and polling ---- */
#define TP_CLOCK_REALTIME		0
#define TP_CLOCK_MONOTONIC		1
#define TP_CLOCK_PROCESS_CPUTIME_ID	2
#define TP_CLOCK_THREAD_CPUTIME_ID	3
#define TP_CLOCK_MONOTONIC_RAW		4
#define TP_CLOCK_REALTIME_COARSE	5
#define TP_CLOCK_MONOTONIC_COARSE	6
#define TP_CLOCK_BOOTTIME		7

#define TP_POLLIN	0x0001
#define TP_POLLPRI	0x0002
#define TP_POLLOUT	0x0004
#define TP_POLLERR	0x0008
#define TP_POLLHUP	0x0010
#define TP_POLLNVAL	0x0020

/* ---- sockets ---- */
#define TP_AF_UNIX	1
#define TP_AF_INET	2
#define TP_AF_INET6	10
#ifndef TP_ARCH_SOCKET
#define TP_SOCK_STREAM	1
#define TP_SOCK_DGRAM	2
#define TP_SOL_SOCKET	1
#define TP_SO_REUSEADDR	2
#define TP_SO_TYPE	3
#define TP_SO_ERROR	4
#define TP_SO_SNDBUF	7
#define TP_SO_RCVBUF	8
#define TP_SO_KEEPALIVE	9
#endif
#define TP_SOCK_CLOEXEC		TP_O_CLOEXEC
#define TP_SOCK_NONBLOCK	TP_O_NONBLOCK
#define TP_IPPROTO_TCP	6
#define TP_TCP_NODELAY	1
#define TP_SHUT_RD	0
#define TP_SHUT_WR	1
#define TP_SHUT_RDWR	2

/* ---- terminals (asm-generic/ioctls.h, termbits.h) ---- */
#ifndef TP_ARCH_TERMIOS
#define TP_TCGETS	0x5401
#define TP_TCSETS	0x5402
#define TP_TCSETSW	0x5403
#define TP_TCSETSF	0x5404
#define TP_TCFLSH	0x540b
#define TP_TIOCOUTQ	0x5411
#define TP_FIONREAD	0x541b
#define TP_FIONBIO	0x5421
#define TP_NCCS		19
#define TP_VMIN		6
#define TP_IEXTEN	0100000
#endif
/* the kernel's struct termios, what TCGETS/TCSETS* take (not the libc's larger one) */
struct tp_termios {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[TP_NCCS];
};
#define TP_VINTR	0
#define TP_VTIME	5
#define TP_IGNBRK	0000001
#define TP_BRKINT	0000002
#define TP_PARMRK	0000010
#define TP_INPCK	0000020
#define TP_ISTRIP	0000040
#define TP_INLCR	0000100
#define TP_IGNCR	0000200
#define TP_ICRNL	0000400
#define TP_IXON		0002000
#define TP_IXOFF	0010000
#define TP_OPOST	0000001
#define TP_CBAUD	0010017
#define TP_B9600	0000015
#define TP_B19200	0000016
#define TP_B38400	0000017
#define TP_B57600	0010001
#define TP_B115200	0010002
#define TP_B230400	0010003
#define TP_B460800	0010004
#define TP_B921600	0010007
#define TP_B1500000	0010012
#define TP_B3000000	0010015
#define TP_CSIZE	0000060
#define TP_CS8		0000060
#define TP_CSTOPB	0000100
#define TP_CREAD	0000200
#define TP_PARENB	0000400
#define TP_CLOCAL	0004000
#define TP_CRTSCTS	020000000000U
#define TP_ISIG		0000001
#define TP_ICANON	0000002
#define TP_ECHO		0000010
#define TP_ECHOE	0000020
#define TP_ECHONL	0000100
#define TP_TCIFLUSH	0
#define TP_TCOFLUSH	1
#define TP_TCIOFLUSH	2

/* ---- ioctl number encoding (asm-generic/ioctl.h: 2 direction bits, 14 size bits) ---- */
#ifndef TP_ARCH_IOC
#define TP_IOC_NONE	0U
#define TP_IOC_WRITE	1U
#define TP_IOC_READ	2U
#define TP_IOC_SIZEBITS	14
#define TP_IOC_DIRSHIFT	30
#endif
#define TP_IOC_NRSHIFT		0
#define TP_IOC_TYPESHIFT	8
#define TP_IOC_SIZESHIFT	16
#define TP_IOC(dir, type, nr, size)					\
	(((dir) << TP_IOC_DIRSHIFT) | ((unsigned)(type) << TP_IOC_TYPESHIFT) |	\
	 ((unsigned)(nr) << TP_IOC_NRSHIFT) | ((unsigned)(size) << TP_IOC_SIZESHIFT))
#define TP_IO(type, nr)			TP_IOC(TP_IOC_NONE, (type), (nr), 0)
#define TP_IOR(type, nr, argtype)	TP_IOC(TP_IOC_READ, (type), (nr), sizeof(argtype))
#define TP_IOW(type, nr, argtype)	TP_IOC(TP_IOC_WRITE, (type), (nr), sizeof(argtype))
#define TP_IOWR(type, nr, argtype) \
	TP_IOC(TP_IOC_READ | TP_IOC_WRITE, (type), (nr), sizeof(argtype))

#endif
