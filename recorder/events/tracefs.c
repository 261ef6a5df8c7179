/* SPDX-License-Identifier: MIT */
/* tracefs: where tracepoint ids and formats come from. Mounted at /sys/kernel/tracing on
 * modern kernels, under debugfs (/sys/kernel/debug/tracing) on older ones; a minimal board may
 * have neither mounted, so mount it ourselves (we run as root to record tracepoints anyway),
 * and unmount it when the command returns (tracefs__release): the board is left as found. */
#include "libc-shim/shim.h"
#include "recorder/events/tracefs.h"

static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
static const char *found;
static const char *mounted;	/* what we mounted, to unmount at exit; NULL if nothing */

static bool has_events(const char *dir)
{
	char p[64];
	long fd;

	tp_snprintf(p, sizeof(p), "%s/events", dir);
	fd = sys_open(p, TP_O_RDONLY | TP_O_DIRECTORY, 0);
	if (fd < 0)
		return false;
	sys_close((int)fd);
	return true;
}

const char *tracefs__dir(void)
{
	/* each directory as it is, then after mounting tracefs on the first, debugfs above the
	 * second; a mount that brings no events is undone at once */
	for (unsigned i = 0; !found && i < 4; i++) {
		const char *at = i == 2 ? dirs[0] : "/sys/kernel/debug";

		if (i >= 2 && sys_mount("nodev", at, i == 2 ? "tracefs" : "debugfs", 0, NULL))
			continue;
		if (has_events(dirs[i & 1]))
			found = dirs[i & 1];
		if (i >= 2 && found)
			mounted = at;
		else if (i >= 2)
			sys_umount2(at, TP_MNT_DETACH);
	}
	return found;
}

void tracefs__release(void)
{
	if (mounted)
		sys_umount2(mounted, TP_MNT_DETACH);
	mounted = found = NULL;
}

long tracefs__event_id(const char *sys, const char *name)
{
	const char *dir = tracefs__dir();
	char path[256], buf[32];
	unsigned id;
	long n;

	if (!dir)
		return -TP_ENOENT;
	if (tp_snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name) >= (int)sizeof(path))
		return -TP_ENAMETOOLONG;
	n = tp_read_line(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (tp_parse_uint(buf, &id) || id > 0x7fffffff)
		return -TP_EINVAL;
	return (long)id;
}

bool tp_glob_match(const char *g, const char *s)
{
	const char *star = NULL, *ss = NULL;

	while (*s) {
		if (*g == '*') {
			star = g++;
			ss = s;
		} else if (*g == '?' || *g == *s) {
			g++;
			s++;
		} else if (star) {
			g = star + 1;
			s = ++ss;
		} else {
			return false;
		}
	}
	while (*g == '*')
		g++;
	return !*g;
}

long tracefs__glob(const char *sys, const char *glob,
		   int (*cb)(void *ctx, const char *sys, const char *name), void *ctx)
{
	const char *dir = tracefs__dir(), *name;
	char path[256];
	uint64_t buf[512];
	struct tp_dir d;
	long err, matches = 0;

	if (!dir)
		return -TP_ENOENT;
	tp_snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	err = tp_dir__open(&d, path, buf, sizeof(buf));
	if (err)
		return err;
	while ((name = tp_dir__next(&d))) {
		if (name[0] == '.' || !tp_glob_match(glob, name))
			continue;
		/* "enable" and "filter" are files beside the event directories */
		if (tracefs__event_id(sys, name) < 0)
			continue;
		matches++;
		/* the callback's own error: a bad term is not a tracefs failure */
		if ((err = cb(ctx, sys, name)) < 0)
			break;
	}
	sys_close(d.fd);
	return err < 0 ? err : d.len < 0 ? d.len : matches;
}
