/* SPDX-License-Identifier: MIT */
/* Fork the command first and exec it only when every event is open and every ring mapped, so
 * nothing it does before tinyperf is ready goes unrecorded. A close-on-exec pipe reports a
 * failed execve back to the parent (EOF means the exec succeeded). */
#include "libc-shim/shim.h"
#include "recorder/record/workload.h"

/* execvp: returns only on failure, with the most telling error (a found but unrunnable
 * file beats "not found" elsewhere on PATH) */
static long exec_path(char **argv, char **envp)
{
	const char *path;
	char buf[512];
	size_t len = strlen(argv[0]) + 1;	/* with its NUL */
	long err = -TP_ENOENT;

	if (strchr(argv[0], '/'))
		return sys_execve(argv[0], argv, envp);
	path = tp_getenv(envp, "PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		if (n + len + 1 <= sizeof(buf)) {
			long r;

			memcpy(buf, path, n);
			buf[n] = '/';
			memcpy(buf + n + 1, argv[0], len);
			r = sys_execve(buf, argv, envp);
			if (r != -TP_ENOENT && r != -TP_ENOTDIR)
				err = r;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return err;
}

int workload__prepare(struct workload *w, char **argv, char **envp)
{
	int go[2], er[2];
	long pid, r;

	r = sys_pipe2(go, TP_O_CLOEXEC);
	if (r < 0)
		return (int)r;
	r = sys_pipe2(er, TP_O_CLOEXEC);
	if (r < 0)
		goto out_go;
	pid = sys_fork();
	if (pid < 0) {
		r = pid;
		goto out_er;
	}
	if (pid == 0) {
		char c;
		int32_t e;

		sys_close(go[1]);
		sys_close(er[0]);
		/* die with tinyperf rather than run unprofiled */
		sys_prctl(TP_PR_SET_PDEATHSIG, TP_SIGKILL, 0, 0, 0);
		if (sys_read(go[0], &c, 1) != 1)
			sys_exit_group(127);
		e = (int32_t)exec_path(argv, envp);
		sys_write(er[1], &e, sizeof(e));
		sys_exit_group(127);
	}
	sys_close(go[0]);
	sys_close(er[1]);
	w->pid = (int)pid;
	w->go_fd = go[1];
	w->err_fd = er[0];
	return 0;
out_er:
	sys_close(er[0]);
	sys_close(er[1]);
out_go:
	sys_close(go[0]);
	sys_close(go[1]);
	return (int)r;
}

int workload__start(struct workload *w)
{
	char c = 1;
	int32_t e = 0;
	long n;

	if (sys_write(w->go_fd, &c, 1) != 1)
		return -TP_EPIPE;
	sys_close(w->go_fd);
	do
		n = sys_read(w->err_fd, &e, sizeof(e));
	while (n == -TP_EINTR);
	sys_close(w->err_fd);
	if (n == sizeof(e))
		return e ? e : -TP_ENOEXEC;
	w->started = true;
	return 0;
}
