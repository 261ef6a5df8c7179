/* SPDX-License-Identifier: MIT */
/* asm-generic syscall numbers (include/uapi/asm-generic/unistd.h), used by aarch64.
 * Only the modern calls exist here: no open, fork, poll, pipe, dup2, mkdir, rename, unlink,
 * readlink; the *at forms, ppoll, pipe2, dup3 and clone replace them. */
#ifndef TINYPERF_ARCH_GENERIC_UNISTD_H
#define TINYPERF_ARCH_GENERIC_UNISTD_H

#define TP_NR_dup3		24
#define TP_NR_fcntl		25
#define TP_NR_ioctl		29
#define TP_NR_mkdirat		34
#define TP_NR_unlinkat		35
#define TP_NR_renameat		38
#define TP_NR_mount		40
#define TP_NR_umount2		39
#define TP_NR_ftruncate		46
#define TP_NR_fallocate		47
#define TP_NR_openat		56
#define TP_NR_close		57
#define TP_NR_pipe2		59
#define TP_NR_getdents64	61
#define TP_NR_lseek		62
#define TP_NR_read		63
#define TP_NR_write		64
#define TP_NR_pread64		67
#define TP_NR_pwrite64		68
#define TP_NR_ppoll		73
#define TP_NR_readlinkat	78
#define TP_NR_fsync		82
#define TP_NR_exit_group	94
#define TP_NR_nanosleep		101
#define TP_NR_clock_gettime	113
#define TP_NR_kill		129
#define TP_NR_rt_sigaction	134
#define TP_NR_rt_sigprocmask	135
#define TP_NR_rt_sigreturn	139
#define TP_NR_uname		160
#define TP_NR_getrusage		165
#define TP_NR_prctl		167
#define TP_NR_getpid		172
#define TP_NR_getppid		173
#define TP_NR_getuid		174
#define TP_NR_gettid		178
#define TP_NR_socket		198
#define TP_NR_bind		200
#define TP_NR_listen		201
#define TP_NR_connect		203
#define TP_NR_setsockopt	208
#define TP_NR_shutdown		210
#define TP_NR_munmap		215
#define TP_NR_clone		220
#define TP_NR_execve		221
#define TP_NR_mmap		222
#define TP_NR_perf_event_open	241
#define TP_NR_memfd_create	279
#define TP_NR_accept4		242
#define TP_NR_wait4		260

#endif
