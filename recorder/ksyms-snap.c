/* A copy of /proc/kallsyms taken while recording, so that embedded symbols (symembed.h) do
 * not make the end of a recording wait for the kernel: it formats its symbol table at about
 * half a microsecond a line, 60-90 ms for the 120,000 lines of a distribution kernel on a
 * PC, which read at the end would be most of what embedding costs there.
 *
 * As soon as the first kernel or module address gets a sample, a helper process (forked:
 * another CPU does the work while the recording goes on) copies the function symbols into
 * two unlinked files beside the output ($TMPDIR or /tmp for streams): 16-byte entries
 * (address, type, where the name is) and the names, about 2.5 MB and 3 MB for that kernel;
 * it dies with tinyperf. At the end and at each flight-recorder snapshot ksyms.c walks the
 * entries from the page cache and reads only the names it keeps. The copy is taken once: a module loaded after it is not in
 * it. When anything fails (no room, no /proc, kptr_restrict), ksyms.c reads /proc/kallsyms
 * itself as before. */
#include "libc-shim/shim.h"
#include "recorder/ksyms-snap.h"
#include "recorder/rec-cmd.h"
#include "recorder/record.h"

enum { SNAP_IDLE, SNAP_RUNNING, SNAP_READY, SNAP_NONE };

static void close2(const int fd[2])
{
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			sys_close(fd[i]);
}

static __attribute__((noreturn)) void helper(const int fd[2])
{
	sys_prctl(TP_PR_SET_PDEATHSIG, TP_SIGKILL, 0, 0, 0);
	/* ^C reaches the whole process group: tinyperf decides when this one stops */
	sys_signal(TP_SIGINT, TP_SIG_IGN, 0);
	sys_signal(TP_SIGTERM, TP_SIG_IGN, 0);
	sys_signal(TP_SIGHUP, TP_SIG_IGN, 0);
	sys_signal(TP_SIGUSR2, TP_SIG_IGN, 0);
	sys_exit_group(ksyms__copy(fd[0], fd[1]));
}

/* an unlinked file in the output's directory, else $TMPDIR or /tmp: an fd or <0 */
static int scratch(const struct record *r, char which)
{
	char path[4096];
	const char *dir = NULL, *slash;
	size_t len = 1;
	long fd;

	if (r->out_kind == REC_OUT_FILE) {
		dir = r->o.output ? r->o.output : "perf.data";
		slash = strrchr(dir, '/');
		len = slash ? (size_t)(slash - dir) + !(slash - dir) : 1;
		if (!slash)
			dir = ".";
	} else {
		for (char **e = r->envp; e && *e; e++)
			if (!strncmp(*e, "TMPDIR=", 7) && (*e)[7] == '/')
				dir = *e + 7;
		dir = dir ? dir : "/tmp";
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

/* a kernel or module address got a sample (last_kernel: the last one's map, until the maps
 * change) */
static bool kernel_hit(const struct record *r)
{
	const struct dsos *d = &r->track.dsos;

	if (r->track.last_kernel)
		return true;
	for (uint32_t i = 0; i < d->nr; i++)
		if (d->v[i].name && d->v[i].kind != TRACK_USER && d->v[i].hit)
			return true;
	return false;
}

void ksyms_snap__poll(struct record *r)
{
	struct ksyms_snap *k = &r->ksnap;
	long pid = -1;

	if (k->state != SNAP_IDLE || !r->track.as || !kernel_hit(r))
		return;
	k->state = SNAP_NONE;
	k->fd[0] = scratch(r, 'i');
	k->fd[1] = k->fd[0] < 0 ? -1 : scratch(r, 'n');
	if (k->fd[1] >= 0)
		pid = sys_fork();
	if (pid == 0)
		helper(k->fd);
	if (pid < 0) {
		close2(k->fd);
		return;
	}
	k->pid = (int)pid;
	k->state = SNAP_RUNNING;
}

void ksyms_snap__get(struct record *r, int fd[2])
{
	struct ksyms_snap *k = &r->ksnap;
	int status = -1;

	if (k->state == SNAP_RUNNING) {
		long p;

		do
			p = sys_wait4(k->pid, &status, 0, NULL);
		while (p == -TP_EINTR);
		k->pid = 0;
		k->state = SNAP_READY;
		if (p < 0 || status != 0) {
			close2(k->fd);
			k->state = SNAP_NONE;
		}
	}
	fd[0] = fd[1] = -1;
	if (k->state == SNAP_READY && sys_lseek(k->fd[0], 0, 0) == 0) {
		fd[0] = k->fd[0];
		fd[1] = k->fd[1];
	}
	if (r->o.verbose)
		rec_msg(r, "embedded symbols: kernel symbols from %s", fd[0] >= 0 ?
			"the copy of /proc/kallsyms taken while recording" : "/proc/kallsyms, now");
}

void ksyms_snap__close(struct record *r)
{
	struct ksyms_snap *k = &r->ksnap;

	if (k->state == SNAP_RUNNING) {
		sys_kill(k->pid, TP_SIGKILL);
		sys_wait4(k->pid, NULL, 0, NULL);
	}
	if (k->state == SNAP_RUNNING || k->state == SNAP_READY)
		close2(k->fd);
	k->state = SNAP_NONE;
}
