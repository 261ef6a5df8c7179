/* SPDX-License-Identifier: MIT */
/* Facts about the machine for the perf.data features the record command writes (NRCPUS,
 * CPUDESC, TOTAL_MEM) and the CPU-list syntax of sysfs and of -C. HOSTNAME, OSRELEASE and
 * ARCH come straight from sys_uname() (nodename, release, machine), as perf takes them. */
#ifndef TINYPERF_RECORDER_RECORD_SYSINFO_H
#define TINYPERF_RECORDER_RECORD_SYSINFO_H

#include "libc-shim/types.h"

/* "0-3,8,10-11" (a trailing newline is fine; empty = no CPU). With mask, sets the bits
 * (64 per word, nbits in all, cleared first) and returns how many distinct CPUs are set;
 * -TP_ERANGE for a CPU >= nbits. Without mask, counts the CPUs listed. *top (may be NULL)
 * = highest CPU + 1, set on success only. -TP_EINVAL on bad syntax ("3-1", "1,,2", "x"). */
int cpulist__parse(const char *s, uint64_t *mask, unsigned nbits, unsigned *top);

/* the CPUs of a list ("0-3,8") into cpus[] (setup.c): how many, or -errno */
int rec_cpus_from_list(const char *list, int *cpus, unsigned max);
/* the CPUs of list (-C), or without one the online CPUs, into cpus[] (REC_MAX_CPUS of them;
 * setup.c): how many, or 0 after a one-line error (rec_fail) */
int rec_cpus_of(const char *list, int *cpus);
/* -p and -t: the threads of the processes pids[], then the threads tids[] as many as fit,
 * appended to tasks[*nr], at most REC_MAX_TASKS (setup.c): 0, or 1 after a one-line error
 * (rec_fail) */
int rec_tasks_of(const int *pids, unsigned nr_pids, const int *tids, unsigned nr_tids,
		 int *tasks, unsigned *nr);

/* NRCPUS as perf writes it: avail = highest present CPU + 1 (/sys/devices/system/cpu/present,
 * else possible), online = CPUs online. 0 or -errno. */
int sysinfo__nrcpus(uint32_t *avail, uint32_t *online);

/* CPUDESC from /proc/cpuinfo: the first of "model name" (x86, arm), "cpu model" (mips),
 * "Processor" (old arm), "CPU implementer" (arm64) that exists, runs of blanks squashed
 * as perf does. 0, -TP_ENOENT (none of them) or -errno. */
int sysinfo__cpudesc(char *buf, size_t cap);

/* TOTAL_MEM: MemTotal of /proc/meminfo, in kB. 0 or -errno. */
int sysinfo__mem_total_kb(uint64_t *kb);

#endif
