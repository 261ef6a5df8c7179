/* SPDX-License-Identifier: MIT */
/* arm EABI kernel ABI: syscall numbers (arch/arm/tools/syscall.tbl, EABI: no 0x900000 base),
 * open flags that differ from asm-generic; the rest is asm-generic.
 * 32-bit calls: mmap2 (offset in 4096-byte units), _llseek, ftruncate64, getuid32,
 * clock_gettime64 (falls back to clock_gettime). There is no plain mmap in EABI. */
#ifndef TINYPERF_ARCH_ARM_ABI_H
#define TINYPERF_ARCH_ARM_ABI_H

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
#define TP_NR_fallocate		352
#define TP_NR_getuid32		199
#define TP_NR_getdents64	217
#define TP_NR_gettid		224
#define TP_NR_exit_group	248
#define TP_NR_clock_gettime	263
#define TP_NR_socket		281
#define TP_NR_bind		282
#define TP_NR_connect		283
#define TP_NR_listen		284
#define TP_NR_shutdown		293
#define TP_NR_setsockopt	294
#define TP_NR_openat		322
#define TP_NR_mkdirat		323
#define TP_NR_unlinkat		328
#define TP_NR_renameat		329
#define TP_NR_readlinkat	332
#define TP_NR_ppoll		336
#define TP_NR_dup3		358
#define TP_NR_pipe2		359
#define TP_NR_perf_event_open	364
#define TP_NR_memfd_create	385
#define TP_NR_accept4		366
#define TP_NR_clock_gettime64	403

#define TP_O_DIRECTORY	0040000
#define TP_O_NOFOLLOW	0100000
#define TP_O_DIRECT	0200000
#define TP_O_LARGEFILE	0400000

/* --call-graph dwarf: PERF_SAMPLE_REGS_USER's mask in asm/perf_regs.h's numbering: R0..R10,
 * FP, IP, SP, LR, PC (0-15), also what an arm64 kernel gives its 32-bit tasks */
#define TP_PERF_REGS_USER	0xffffULL

#endif
