/* SPDX-License-Identifier: MIT */
/* x86_64 kernel ABI: syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl); the rest is
 * asm-generic. */
#ifndef TINYPERF_ARCH_X86_64_ABI_H
#define TINYPERF_ARCH_X86_64_ABI_H

#define TP_NR_read		0
#define TP_NR_write		1
#define TP_NR_close		3
#define TP_NR_lseek		8
#define TP_NR_mmap		9
#define TP_NR_munmap		11
#define TP_NR_rt_sigaction	13
#define TP_NR_rt_sigprocmask	14
#define TP_NR_rt_sigreturn	15
#define TP_NR_ioctl		16
#define TP_NR_pread64		17
#define TP_NR_pwrite64		18
#define TP_NR_nanosleep		35
#define TP_NR_getpid		39
#define TP_NR_socket		41
#define TP_NR_connect		42
#define TP_NR_shutdown		48
#define TP_NR_bind		49
#define TP_NR_listen		50
#define TP_NR_setsockopt	54
#define TP_NR_fork		57
#define TP_NR_execve		59
#define TP_NR_wait4		61
#define TP_NR_kill		62
#define TP_NR_uname		63
#define TP_NR_fcntl		72
#define TP_NR_fsync		74
#define TP_NR_ftruncate		77
#define TP_NR_fallocate		285
#define TP_NR_getrusage		98
#define TP_NR_getuid		102
#define TP_NR_getppid		110
#define TP_NR_prctl		157
#define TP_NR_mount		165
#define TP_NR_umount2		166
#define TP_NR_gettid		186
#define TP_NR_getdents64	217
#define TP_NR_clock_gettime	228
#define TP_NR_exit_group	231
#define TP_NR_openat		257
#define TP_NR_mkdirat		258
#define TP_NR_unlinkat		263
#define TP_NR_renameat		264
#define TP_NR_readlinkat	267
#define TP_NR_ppoll		271
#define TP_NR_accept4		288
#define TP_NR_dup3		292
#define TP_NR_pipe2		293
#define TP_NR_perf_event_open	298
#define TP_NR_memfd_create	319

/* --call-graph dwarf: PERF_SAMPLE_REGS_USER's mask in asm/perf_regs.h's numbering: AX..SS
 * (0-11) and R8..R15 (16-23), as perf; the 64-bit kernel refuses DS, ES, FS, GS (12-15) */
#define TP_PERF_REGS_USER	0xff0fffULL

#endif
