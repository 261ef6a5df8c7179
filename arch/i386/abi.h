/* SPDX-License-Identifier: MIT */
/* i386 kernel ABI: syscall numbers (arch/x86/entry/syscalls/syscall_32.tbl); the rest is
 * asm-generic. 32-bit calls: mmap2 (offset in 4096-byte units), _llseek, ftruncate64,
 * getuid32 (getuid is 16-bit), clock_gettime64 (falls back to clock_gettime), and the
 * direct socket calls that Linux 4.3 added next to socketcall. */
#ifndef TINYPERF_ARCH_I386_ABI_H
#define TINYPERF_ARCH_I386_ABI_H

#define TP_NR_fork		2
#define TP_NR_read		3
#define TP_NR_write		4
#define TP_NR_close		6
#define TP_NR_execve		11
#define TP_NR_getpid		20
#define TP_NR_mount		21
#define TP_NR_umount2		52
#define TP_NR_kill		37
#define TP_NR_ioctl		54
#define TP_NR_fcntl		55
#define TP_NR_getppid		64
#define TP_NR_getrusage		77
#define TP_NR_munmap		91
#define TP_NR_wait4		114
#define TP_NR_fsync		118
#define TP_NR_uname		122
#define TP_NR__llseek		140
#define TP_NR_nanosleep		162
#define TP_NR_prctl		172
#define TP_NR_rt_sigreturn	173
#define TP_NR_rt_sigaction	174
#define TP_NR_rt_sigprocmask	175
#define TP_NR_pread64		180
#define TP_NR_pwrite64		181
#define TP_NR_mmap2		192
#define TP_NR_ftruncate64	194
#define TP_NR_fallocate		324
#define TP_NR_getuid32		199
#define TP_NR_getdents64	220
#define TP_NR_gettid		224
#define TP_NR_exit_group	252
#define TP_NR_clock_gettime	265
#define TP_NR_openat		295
#define TP_NR_mkdirat		296
#define TP_NR_unlinkat		301
#define TP_NR_renameat		302
#define TP_NR_readlinkat	305
#define TP_NR_ppoll		309
#define TP_NR_dup3		330
#define TP_NR_pipe2		331
#define TP_NR_perf_event_open	336
#define TP_NR_memfd_create	356
#define TP_NR_socket		359
#define TP_NR_bind		361
#define TP_NR_connect		362
#define TP_NR_listen		363
#define TP_NR_accept4		364
#define TP_NR_setsockopt	366
#define TP_NR_shutdown		373
#define TP_NR_clock_gettime64	403

/* --call-graph dwarf: PERF_SAMPLE_REGS_USER's mask in asm/perf_regs.h's numbering: AX..SS
 * (0-11); not DS..GS (12-15), which a 64-bit kernel refuses for its 32-bit tasks too */
#define TP_PERF_REGS_USER	0xfffULL

#endif
