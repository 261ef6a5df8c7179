/* SPDX-License-Identifier: MIT */
/* The packed recorder's first stage (CONFIG_REC_PACK, README "Size budgets"): the stripped
 * recorder follows this program as a raw LZMA2 stream (payload.S). It is decoded into a memory
 * file (memfd_create), which is then executed with the same arguments and environment: the
 * kernel loads the recorder as it loads any file, so nothing here depends on its layout, and
 * the process keeps its pid, its open files and its parent. Where there is no usable memory
 * file (before Linux 3.17, a kernel without tmpfs, vm.memfd_noexec = 2, no /proc), it goes
 * into $TMPDIR, /tmp or /dev/shm as .tinyperf-unpacked-PID, which the recorder removes as it
 * starts (main.c). The recorder also names itself after argv[0]: exec names a process after
 * the file's basename, here a descriptor number or that file. Setuid or with file
 * capabilities, it refuses to run: they would not carry over to the file it executes.
 * Only raw writes here: the formatter and the error texts would double this program's size. */
#include "libc-shim/shim.h"
#include "recorder/pack/unpack.h"
#include "recorder/embed/xz.h"

extern const uint8_t tp_payload[], tp_payload_end[];
extern const uint32_t tp_payload_size;

#define PATH_CAP	4096

static struct xz_work work;	/* 31 KiB of decoder state: bss, no file bytes */

/* n in decimal, ending at end (written backwards, no NUL): its first digit */
static char *decimal(char *end, unsigned long n)
{
	do
		*--end = (char)('0' + n % 10);
	while (n /= 10);
	return end;
}

/* dir + name + the decimal n into buf (PATH_CAP): buf, or NULL when it does not fit */
static char *join(char *buf, const char *dir, const char *name, unsigned long n)
{
	char num[24], *d = decimal(num + sizeof(num), n);
	size_t ld = strlen(dir), ln = strlen(name), lnum = (size_t)(num + sizeof(num) - d);

	if (ld + ln + lnum >= PATH_CAP)
		return NULL;
	memcpy(buf, dir, ld);
	memcpy(buf + ld, name, ln);
	memcpy(buf + ld + ln, d, lnum);
	buf[ld + ln + lnum] = 0;
	return buf;
}

/* the recorder into the file fd: 0, or <0 (-TP_EBADMSG: the payload is corrupt) */
static long unpack(long fd)
{
	size_t size = tp_payload_size;
	long m = sys_ftruncate((int)fd, size), r;

	if (m >= 0)
		m = sys_mmap(NULL, size, TP_PROT_READ | TP_PROT_WRITE, TP_MAP_SHARED, (int)fd, 0);
	if (m < 0 && m > -4096)
		return m;
	r = xz__lzma2(&work, tp_payload, (size_t)(tp_payload_end - tp_payload), (uint8_t *)m, size);
	sys_munmap((void *)m, size);
	return r == (long)size ? 0 : -TP_EBADMSG;
}

static void say(const char *s)
{
	sys_write(2, s, strlen(s));
}

int main(int argc, char **argv, char **envp)
{
	const char *dirs[] = { NULL, "/tmp", "/dev/shm" };
	char path[PATH_CAP], num[24];
	long fd, r, mem_err;

	(void)argc;
	/* setuid, or file capabilities: exec would not give them to the unpacked recorder, and
	 * a privileged program must not execute a file from a $TMPDIR its caller chose */
	if (tp_getauxval(TP_AT_SECURE)) {
		say("tinyperf: a packed recorder cannot run setuid or with file capabilities (the "
		    "unpacked recorder would not get them): install the unpacked tinyperf\n");
		return 127;
	}
	/* MFD_EXEC says what the file is for (Linux 6.3 warns without it); older kernels
	 * refuse the flag they do not know */
	fd = sys_memfd_create("tinyperf", TP_MFD_CLOEXEC | TP_MFD_EXEC);
	if (fd == -TP_EINVAL)
		fd = sys_memfd_create("tinyperf", TP_MFD_CLOEXEC);
	mem_err = fd;
	if (fd >= 0) {
		mem_err = unpack(fd);
		if (!mem_err)
			mem_err = sys_execve(join(path, "/proc/self/fd/", "", (unsigned long)fd), argv,
					     envp);
		sys_close((int)fd);
	}
	r = mem_err;
	for (char **e = envp; *e; e++)
		if (!strncmp(*e, "TMPDIR=", 7) && (*e)[7])
			dirs[0] = *e + 7;
	for (size_t i = 0; i < TP_ARRAY_SIZE(dirs) && r != -TP_EBADMSG; i++) {
		if (!dirs[i] || !join(path, dirs[i], TP_UNPACKED_NAME, (unsigned long)sys_getpid()))
			continue;
		sys_unlinkat(TP_AT_FDCWD, path, 0);	/* a crashed run's, of a process gone */
		fd = sys_open(path, TP_O_RDWR | TP_O_CREAT | TP_O_EXCL | TP_O_CLOEXEC, 0700);
		if (fd < 0) {
			r = fd;
			continue;
		}
		r = unpack(fd);
		sys_close((int)fd);	/* a file open for writing cannot be executed */
		if (!r)
			r = sys_execve(path, argv, envp);
		sys_unlinkat(TP_AT_FDCWD, path, 0);
	}
	num[sizeof(num) - 1] = 0;
	if (r == -TP_EBADMSG) {
		say("tinyperf: cannot unpack the recorder: its payload is corrupt: install it again\n");
	} else {
		say("tinyperf: cannot unpack the recorder: no memory file (error ");
		say(decimal(num + sizeof(num) - 1, (unsigned long)-mem_err));
		say(") and no writable, executable $TMPDIR, /tmp or /dev/shm (error ");
		say(decimal(num + sizeof(num) - 1, (unsigned long)-r));
		say("): mount /proc or make /tmp executable, or install the unpacked tinyperf\n");
	}
	return 127;
}
