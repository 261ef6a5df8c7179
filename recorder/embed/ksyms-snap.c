/* SPDX-License-Identifier: MIT */
/* A copy of /proc/kallsyms taken while recording, so that embedded symbols (symembed.h) do
 * not make the end of a recording wait for the kernel: it formats its symbol table at about
 * half a microsecond a line, 60-90 ms for the 120,000 lines of a distribution kernel on a
 * PC, which read at the end would be most of what embedding costs there.
 *
 * As soon as the first kernel or module address gets a sample, a helper process (forked:
 * another CPU does the work while the recording goes on) copies the function symbols into
 * two unlinked files beside the output ($TMPDIR or /tmp for streams): 16-byte entries
 * (address, type, where the name is) and the names, up to about 2 MB and 3 MB for that
 * kernel; it dies with tinyperf. It copies only as far as the samples need: tinyperf sends
 * it the highest kernel address sampled so far (all of the file once a module got one; the
 * kernel's own lines are sorted) and it stops at the first line past it until a higher one
 * comes, so a recording that samples little of the kernel costs little more than the old
 * read at the end did. At the end and at each flight-recorder snapshot tinyperf sends the
 * last ranges' end, waits for the helper to say it got there (most often it has), and
 * ksyms.c walks the entries from the page cache, reading only the names it keeps. The copy
 * is taken once: a module loaded after its lines went by is not in it. When anything fails
 * (no room, no /proc, kptr_restrict), ksyms.c reads /proc/kallsyms itself as before. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/embed/ksyms-snap.h"
#include "recorder/track/track.h"

enum { SNAP_IDLE, SNAP_RUNNING, SNAP_NONE };

static void close2(const int fd[2])
{
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			sys_close(fd[i]);
}

static __attribute__((noreturn)) void helper(const struct ksyms_snap *k, int ctl, int ack)
{
	sys_prctl(TP_PR_SET_PDEATHSIG, TP_SIGKILL, 0, 0, 0);
	/* ^C reaches the whole process group: tinyperf decides when this one stops */
	sys_signal(TP_SIGINT, TP_SIG_IGN, 0);
	sys_signal(TP_SIGTERM, TP_SIG_IGN, 0);
	sys_signal(TP_SIGHUP, TP_SIG_IGN, 0);
	sys_signal(TP_SIGUSR2, TP_SIG_IGN, 0);
	sys_exit_group(ksyms__copy(k->fd[0], k->fd[1], ctl, ack));
}

/* an unlinked file in the output file's directory, else $TMPDIR or /tmp: an fd or <0 */
static int scratch(const char *output, char **envp, char which)
{
	char path[4096];
	const char *dir = NULL, *slash;
	size_t len = 1;
	long fd;

	if (output) {
		dir = output;
		slash = strrchr(dir, '/');
		len = slash ? (size_t)(slash - dir) + !(slash - dir) : 1;
		if (!slash)
			dir = ".";
	} else {
		dir = tp_getenv(envp, "TMPDIR");
		dir = dir && dir[0] == '/' ? dir : "/tmp";
		len = strlen(dir);
	}
	if (len > sizeof(path) - 64)
		return -TP_ENAMETOOLONG;
	tp_snprintf(path, sizeof(path), "%.*s/.tinyperf-kallsyms.%ld.%c", (int)len, dir,
		    sys_getpid(), which);
	fd = sys_open(path, TP_O_RDWR | TP_O_CREAT | TP_O_EXCL | TP_O_CLOEXEC, 0600);
	if (fd >= 0)
		sys_unlinkat(TP_AT_FDCWD, path, 0);
	return (int)fd;
}

/* how far the copy must go for what was sampled so far */
static uint64_t want(const struct track *t)
{
	return t->kmods ? ~0ULL : t->kmax + 1;
}

static void send(struct ksyms_snap *k, uint64_t t)
{
	if (t > k->sent && sys_write(k->ctl, &t, sizeof(t)) == sizeof(t))
		k->sent = t;
}

static void stop(struct ksyms_snap *k)
{
	sys_kill(k->pid, TP_SIGKILL);
	sys_wait4(k->pid, NULL, 0, NULL);
	sys_close(k->ctl);
	sys_close(k->ack);
	close2(k->fd);
	k->state = SNAP_NONE;
}

void ksyms_snap__poll(struct ksyms_snap *k, const struct track *t, const char *output,
		      char **envp)
{
	int ctl[2], ack[2];
	long pid = -1;

	if (k->state == SNAP_RUNNING)
		send(k, want(t));
	/* not before a kernel or module address got a sample (track.c keeps the highest) */
	if (k->state != SNAP_IDLE || !t->as || !(t->kmax || t->kmods))
		return;
	k->state = SNAP_NONE;
	k->fd[0] = scratch(output, envp, 'i');
	k->fd[1] = k->fd[0] < 0 ? -1 : scratch(output, envp, 'n');
	if (k->fd[1] < 0 || sys_pipe2(ctl, TP_O_CLOEXEC)) {
		close2(k->fd);
		return;
	}
	if (sys_pipe2(ack, TP_O_CLOEXEC) == 0)
		pid = sys_fork();
	if (pid == 0)
		helper(k, ctl[0], ack[1]);
	sys_close(ctl[0]);
	if (pid < 0) {
		sys_close(ctl[1]);
		close2(k->fd);
		return;
	}
	sys_close(ack[1]);
	k->ctl = ctl[1];
	k->ack = ack[0];
	sys_fcntl(k->ctl, TP_F_SETFL, TP_O_NONBLOCK);	/* never blocks the recording */
	k->pid = (int)pid;
	k->sent = k->reached = 0;
	k->state = SNAP_RUNNING;
	send(k, want(t));
}

void ksyms_snap__get(struct ksyms_snap *k, const struct track *t, uint64_t upto, int fd[2],
		     bool note)
{
	uint64_t v[8];

	fd[0] = fd[1] = -1;
	if (k->state == SNAP_RUNNING) {
		sys_fcntl(k->ctl, TP_F_SETFL, 0);
		send(k, TP_MAX(upto, want(t)));
		sys_fcntl(k->ctl, TP_F_SETFL, TP_O_NONBLOCK);
		/* what it reached, until it is this far (it writes nothing else) */
		while (k->reached < upto) {
			struct tp_pollfd p = { k->ack, TP_POLLIN, 0 };
			long n = sys_poll(&p, 1, 30000);

			n = n > 0 ? sys_read(k->ack, v, sizeof(v)) : n == 0 ? -TP_ETIMEDOUT : n;
			if (n == -TP_EINTR)
				continue;
			if (n < (long)sizeof(*v)) {	/* it failed, or died */
				stop(k);
				break;
			}
			for (long i = 0; i < n / (long)sizeof(*v); i++)
				k->reached = TP_MAX(k->reached, v[i]);
		}
	}
	if (k->state == SNAP_RUNNING && sys_lseek(k->fd[0], 0, 0) == 0) {
		fd[0] = k->fd[0];
		fd[1] = k->fd[1];
	}
	if (note)
		rec_msg(false, "embedded symbols: kernel symbols from %s", fd[0] >= 0 ?
			"the copy of /proc/kallsyms taken while recording" : "/proc/kallsyms, now");
}

void ksyms_snap__close(struct ksyms_snap *k)
{
	if (k->state == SNAP_RUNNING)
		stop(k);
	k->state = SNAP_NONE;
}
