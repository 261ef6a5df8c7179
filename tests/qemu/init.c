/* SPDX-License-Identifier: MIT */
/* PID 1 of the qemu test initramfs: mounts the pseudo filesystems, loads the virtio modules
 * listed in /modules/order, runs the steps of /steps, sends /out to the host as a cpio
 * archive over the virtio-serial port, and powers off.
 *
 * /steps, one per line ('#' starts a comment, words split on blanks, no quoting):
 *   run NAME ARGV...     run a command; its stdout and stderr go to /out/NAME.log, which is
 *                        echoed to the console afterwards
 *   noise NAME ARGV...   the same while a helper writes a kernel message to /dev/kmsg every
 *                        20 ms, so that the console interleaves them with what the step sends
 *   copy SRC NAME        copy SRC (a /proc file, say) to /out/NAME
 *   send                 /out as a newc cpio archive to the first /dev/vport*p* device
 * Each step prints "TP-STEP NAME rc=N ms=T" on the console and adds "NAME N T" to
 * /out/steps.txt; the last line on the console is "TP-INIT: done". Written for the static
 * glibc of the cross compilers: the guest has nothing else. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STEP_TIMEOUT_MS 90000
#define MAX_ARGS 48

static char *const child_env[] = { "PATH=/bin", "HOME=/", "TERM=dumb", NULL };

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(1, buf, (size_t)n) < 0)
		return;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		say("TP-INIT: writing %s: %s\n", path, strerror(errno));
	close(fd);
}

static void setup(void)
{
	static const struct { const char *src, *dst, *type; } m[] = {
		{ "proc", "/proc", "proc" },
		{ "sysfs", "/sys", "sysfs" },
		{ "devtmpfs", "/dev", "devtmpfs" },
		{ "tracefs", "/sys/kernel/tracing", "tracefs" },
		{ "debugfs", "/sys/kernel/debug", "debugfs" },
	};
	int fd;

	/* the initramfs has no /dev/console node (making one needs root on the host): devtmpfs
	 * has it, so stdio is opened here rather than by the kernel */
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		mkdir(m[i].dst, 0755);
		if (mount(m[i].src, m[i].dst, m[i].type, 0, NULL) && errno != EBUSY)
			say("TP-INIT: mount %s: %s\n", m[i].dst, strerror(errno));
	}
	mkdir("/out", 0755);
	mkdir("/tmp", 01777);
	/* the board's name, which the recorder sends as its device name */
	fd = open("/etc/hostname", O_RDONLY);
	if (fd >= 0) {
		char name[64];
		ssize_t n = read(fd, name, sizeof(name) - 1);

		while (n > 0 && (name[n - 1] == '\n' || name[n - 1] == ' '))
			n--;
		if (n > 0)
			sethostname(name, (size_t)n);
		close(fd);
	}
	/* the recorder runs as root here; kallsyms shows addresses to root only with this */
	write_file("/proc/sys/kernel/kptr_restrict", "0\n");
}

static void load_modules(void)
{
	FILE *f = fopen("/modules/order", "r");
	char name[128], path[192];

	if (!f)
		return;
	while (fscanf(f, "%127s", name) == 1) {
		long long t0 = now_ms();
		int fd;

		snprintf(path, sizeof(path), "/modules/%s", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST))
			say("TP-INIT: module %s: %s\n", name, strerror(errno));
		else
			say("TP-INIT: module %s loaded (%lld ms)\n", name, now_ms() - t0);
		if (fd >= 0)
			close(fd);
	}
	fclose(f);
}

static void echo_file(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) < 0)
			break;
	close(fd);
}

/* a kernel message every 20 ms until killed: console traffic that is not ours */
static pid_t start_noise(void)
{
	pid_t p = fork();

	if (p == 0) {
		int fd = open("/dev/kmsg", O_WRONLY);
		char line[80];

		for (unsigned i = 0; fd >= 0; i++) {
			int n = snprintf(line, sizeof(line), "tinyperf-qemu: console noise %u\n", i);

			if (write(fd, line, (size_t)n) < 0)
				break;
			sleep_ms(20);
		}
		_exit(0);
	}
	return p;
}

/* runs argv with stdout and stderr in /out/NAME.log; the exit status, 128+signal, or -1 */
static int run(const char *name, char **argv, int noise)
{
	char log[160];
	pid_t p, np = noise ? start_noise() : -1;
	long long t0 = now_ms();
	int st = 0, rc = -1;

	snprintf(log, sizeof(log), "/out/%s.log", name);
	p = fork();
	if (p == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execve(argv[0], argv, child_env);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = p > 0 ? waitpid(p, &st, WNOHANG) : -1;

		if (w == p) {
			rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			break;
		}
		if (w < 0 && errno != EINTR)
			break;
		if (now_ms() - t0 > STEP_TIMEOUT_MS) {
			say("TP-INIT: %s still running after %d ms: killed\n", name, STEP_TIMEOUT_MS);
			kill(p, SIGKILL);
		}
		sleep_ms(5);
	}
	if (np > 0) {
		kill(np, SIGKILL);
		waitpid(np, NULL, 0);
	}
	echo_file(log);
	return rc;
}

static int copy(const char *src, const char *name)
{
	char dst[160], buf[8192];
	ssize_t n;
	int in, out, rc = 0;

	snprintf(dst, sizeof(dst), "/out/%s", name);
	in = open(src, O_RDONLY);
	if (in < 0)
		return 1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return 1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = 1;
			break;
		}
	if (n < 0)
		rc = 1;
	close(in);
	close(out);
	return rc;
}

/* ---- the archive: newc cpio, which the host unpacks with cpio -i ---- */

static int put(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int put_entry(int fd, unsigned ino, const char *name, unsigned mode, const char *path,
		     unsigned long size)
{
	static const char zeros[4];
	size_t nlen = strlen(name) + 1;
	/* ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize
	 * check, each 8 hex digits */
	unsigned long f[13] = { ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, nlen, 0 };
	char hdr[6 + 13 * 8 + 1] = "070701";
	int in = -1, rc = 0;

	for (int i = 0; i < 13; i++)
		snprintf(hdr + 6 + 8 * i, 9, "%08lX", f[i] & 0xffffffffUL);
	if (put(fd, hdr, 110) || put(fd, name, nlen) || put(fd, zeros, (4 - (110 + nlen) % 4) % 4))
		return -1;
	if (path && (in = open(path, O_RDONLY)) < 0)
		return -1;
	for (unsigned long left = size; path && left;) {
		char buf[16384];
		ssize_t n = read(in, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n <= 0 || put(fd, buf, (size_t)n)) {
			rc = -1;
			break;
		}
		left -= (unsigned long)n;
	}
	if (in >= 0)
		close(in);
	return rc ? rc : put(fd, zeros, (4 - size % 4) % 4);
}

static int find_vport(char *dev, size_t cap)
{
	for (int tries = 0; tries < 300; tries++) {	/* the port node can come late: 3 s */
		DIR *d = opendir("/dev");
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "vport", 5) && strchr(e->d_name + 5, 'p')) {
				snprintf(dev, cap, "/dev/%s", e->d_name);
				closedir(d);
				return 0;
			}
		if (d)
			closedir(d);
		sleep_ms(10);
	}
	return -1;
}

static int send_out(void)
{
	char dev[300], path[300];
	DIR *d;
	struct dirent *e;
	unsigned ino = 1;
	int fd, rc = 0;

	if (find_vport(dev, sizeof(dev))) {
		say("TP-INIT: no /dev/vport*p*: is virtio_console loaded?\n");
		return 1;
	}
	fd = open(dev, O_WRONLY);
	d = opendir("/out");
	if (fd < 0 || !d) {
		say("TP-INIT: cannot open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	while (!rc && (e = readdir(d))) {
		struct stat st;

		snprintf(path, sizeof(path), "/out/%s", e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		rc = put_entry(fd, ino++, e->d_name, 0100644, path, (unsigned long)st.st_size);
	}
	closedir(d);
	if (!rc)
		rc = put_entry(fd, 0, "TRAILER!!!", 0, NULL, 0);
	fsync(fd);
	close(fd);
	say("TP-INIT: sent /out over %s%s\n", dev, rc ? ": write failed" : "");
	return rc ? 1 : 0;
}

static void steps(void)
{
	FILE *f = fopen("/steps", "r"), *res;
	char line[1024];

	if (!f) {
		say("TP-INIT: no /steps\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *argv[MAX_ARGS + 1], *s = line, *w;
		int argc = 0, rc;
		long long t0 = now_ms();

		if ((w = strchr(line, '#')))
			*w = 0;
		while (argc < MAX_ARGS && (w = strtok(argc ? NULL : s, " \t\r\n")))
			argv[argc++] = w;
		argv[argc] = NULL;
		if (!argc)
			continue;
		if (!strcmp(argv[0], "send")) {
			/* the results file goes in the archive too: write it first */
			rc = send_out();
			say("TP-STEP send rc=%d ms=%lld\n", rc, now_ms() - t0);
			continue;
		}
		if (argc < 3) {
			say("TP-INIT: bad step: %s\n", argv[0]);
			continue;
		}
		if (!strcmp(argv[0], "run") || !strcmp(argv[0], "noise"))
			rc = run(argv[1], argv + 2, argv[0][0] == 'n');
		else if (!strcmp(argv[0], "copy"))
			rc = copy(argv[1], argv[2]);
		else {
			say("TP-INIT: unknown step %s\n", argv[0]);
			continue;
		}
		say("TP-STEP %s rc=%d ms=%lld\n", argv[argv[0][0] == 'c' ? 2 : 1], rc, now_ms() - t0);
		res = fopen("/out/steps.txt", "a");
		if (res) {
			fprintf(res, "%s %d %lld\n", argv[argv[0][0] == 'c' ? 2 : 1], rc, now_ms() - t0);
			fclose(res);
		}
	}
	fclose(f);
}

int main(void)
{
	setup();
	say("TP-INIT: up after %lld ms of kernel time\n", now_ms());
	load_modules();
	steps();
	say("TP-INIT: done\n");
	sync();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);	/* with -no-reboot, QEMU exits on a reboot too */
	for (;;)
		pause();
}
