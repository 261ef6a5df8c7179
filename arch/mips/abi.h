/* SPDX-License-Identifier: MIT */
/* MIPS o32 kernel ABI: syscall numbers (4000 + arch/mips/kernel/syscalls/syscall_o32.tbl) and
 * the many constants MIPS numbers its own way (IRIX heritage): errno from 35 up, signals,
 * sigaction flags, open flags, mmap flags, socket types and options, termios ioctls, and the
 * ioctl direction encoding. Checked against the kernel's arch/mips/include/uapi/asm/. */
#ifndef TINYPERF_ARCH_MIPS_ABI_H
#define TINYPERF_ARCH_MIPS_ABI_H

#define TP_NR_fork		4002
#define TP_NR_read		4003
#define TP_NR_write		4004
#define TP_NR_close		4006
#define TP_NR_execve		4011
#define TP_NR_getpid		4020
#define TP_NR_mount		4021
#define TP_NR_umount2		4052
#define TP_NR_getuid		4024
#define TP_NR_kill		4037
#define TP_NR_ioctl		4054
#define TP_NR_fcntl		4055
#define TP_NR_getppid		4064
#define TP_NR_getrusage		4077
#define TP_NR_munmap		4091
#define TP_NR_wait4		4114
#define TP_NR_fsync		4118
#define TP_NR_uname		4122
#define TP_NR__llseek		4140
#define TP_NR_nanosleep		4166
#define TP_NR_bind		4169
#define TP_NR_connect		4170
#define TP_NR_listen		4174
#define TP_NR_setsockopt	4181
#define TP_NR_shutdown		4182
#define TP_NR_socket		4183
#define TP_NR_prctl		4192
#define TP_NR_rt_sigreturn	4193
#define TP_NR_rt_sigaction	4194
#define TP_NR_rt_sigprocmask	4195
#define TP_NR_pread64		4200
#define TP_NR_pwrite64		4201
#define TP_NR_mmap2		4210
#define TP_NR_ftruncate64	4212
#define TP_NR_fallocate		4320
#define TP_NR_getdents64	4219
#define TP_NR_gettid		4222
#define TP_NR_exit_group	4246
#define TP_NR_clock_gettime	4263
#define TP_NR_openat		4288
#define TP_NR_mkdirat		4289
#define TP_NR_unlinkat		4294
#define TP_NR_renameat		4295
#define TP_NR_readlinkat	4298
#define TP_NR_ppoll		4302
#define TP_NR_dup3		4327
#define TP_NR_pipe2		4328
#define TP_NR_perf_event_open	4333
#define TP_NR_memfd_create	4354
#define TP_NR_accept4		4334
#define TP_NR_clock_gettime64	4403

/* errno 35 and up (arch/mips/include/uapi/asm/errno.h) */
#define TP_ARCH_ERRNO 1
#define TP_ENODATA		61
#define TP_EBADMSG		77
#define TP_ENAMETOOLONG		78
#define TP_EOVERFLOW		79
#define TP_ENOSYS		89
#define TP_ELOOP		90
#define TP_ENOTSOCK		95
#define TP_EDESTADDRREQ		96
#define TP_EMSGSIZE		97
#define TP_EPROTOTYPE		98
#define TP_ENOPROTOOPT		99
#define TP_EPROTONOSUPPORT	120
#define TP_EOPNOTSUPP		122
#define TP_EAFNOSUPPORT		124
#define TP_EADDRINUSE		125
#define TP_EADDRNOTAVAIL	126
#define TP_ENETDOWN		127
#define TP_ENETUNREACH		128
#define TP_ECONNABORTED		130
#define TP_ECONNRESET		131
#define TP_ENOBUFS		132
#define TP_EISCONN		133
#define TP_ENOTCONN		134
#define TP_ETIMEDOUT		145
#define TP_ECONNREFUSED		146
#define TP_EHOSTUNREACH		148
#define TP_EALREADY		149
#define TP_EINPROGRESS		150
#define TP_ESTALE		151
#define TP_EDQUOT		1133

/* signals and sigaction (arch/mips/include/uapi/asm/signal.h) */
#define TP_ARCH_SIGNALS 1
#define TP_SIGBUS	10
#define TP_SIGSYS	12
#define TP_SIGUSR1	16
#define TP_SIGUSR2	17
#define TP_SIGCHLD	18
#define TP_SIGPWR	19
#define TP_SIGWINCH	20
#define TP_SIGURG	21
#define TP_SIGIO	22
#define TP_SIGSTOP	23
#define TP_SIGTSTP	24
#define TP_SIGCONT	25
#define TP_SIGTTIN	26
#define TP_SIGTTOU	27
#define TP_SIGVTALRM	28
#define TP_SIGPROF	29
#define TP_SIGXCPU	30
#define TP_SIGXFSZ	31
#define TP_SA_SIGINFO	0x00000008
#define TP_SA_NOCLDWAIT	0x00010000
#define TP_SIG_BLOCK	1
#define TP_SIG_UNBLOCK	2
#define TP_SIG_SETMASK	3
/* no TP_SA_RESTORER: MIPS has none */

/* open flags (arch/mips/include/uapi/asm/fcntl.h) */
#define TP_O_APPEND	0x0008
#define TP_O_DSYNC	0x0010
#define TP_O_NONBLOCK	0x0080
#define TP_O_CREAT	0x0100
#define TP_O_TRUNC	0x0200
#define TP_O_EXCL	0x0400
#define TP_O_NOCTTY	0x0800
#define TP_O_LARGEFILE	0x2000
#define TP_O_SYNC	0x4010
#define TP_O_DIRECT	0x8000

/* mmap flags (arch/mips/include/uapi/asm/mman.h) */
#define TP_ARCH_MMAN 1
#define TP_MAP_NORESERVE	0x0400
#define TP_MAP_ANONYMOUS	0x0800
#define TP_MAP_POPULATE		0x10000

/* sockets (arch/mips/include/asm/socket.h, uapi/asm/socket.h) */
#define TP_ARCH_SOCKET 1
#define TP_SOCK_DGRAM	1
#define TP_SOCK_STREAM	2
#define TP_SOL_SOCKET	0xffff
#define TP_SO_REUSEADDR	0x0004
#define TP_SO_KEEPALIVE	0x0008
#define TP_SO_SNDBUF	0x1001
#define TP_SO_RCVBUF	0x1002
#define TP_SO_ERROR	0x1007
#define TP_SO_TYPE	0x1008

/* terminals (arch/mips/include/uapi/asm/ioctls.h, termbits.h) */
#define TP_ARCH_TERMIOS 1
#define TP_TCGETS	0x540d
#define TP_TCSETS	0x540e
#define TP_TCSETSW	0x540f
#define TP_TCSETSF	0x5410
#define TP_TCFLSH	0x5407
#define TP_FIONREAD	0x467f
#define TP_FIONBIO	0x667e
#define TP_TIOCOUTQ	0x7472
#define TP_NCCS		23
#define TP_VMIN		4
#define TP_IEXTEN	0000400

/* ioctl numbers: 3 direction bits, 13 size bits (arch/mips/include/uapi/asm/ioctl.h) */
#define TP_ARCH_IOC 1
#define TP_IOC_NONE	1U
#define TP_IOC_READ	2U
#define TP_IOC_WRITE	4U
#define TP_IOC_SIZEBITS	13
#define TP_IOC_DIRSHIFT	29

/* --call-graph dwarf: PERF_SAMPLE_REGS_USER's mask in asm/perf_regs.h's numbering: PC (0)
 * and R1..R31 (1-31); R0 is zero and has no number */
#define TP_PERF_REGS_USER	0xffffffffULL

#endif
