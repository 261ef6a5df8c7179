/* SPDX-License-Identifier: MIT */
/* Where `tinyperf recv` puts a session: names from devices are untrusted, so they are reduced
 * to a safe alphabet and every path is opened relative to the output directory without
 * following symlinks. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host-tools/lib/recv/recv.h"

void tp_recv_sanitize(char *out, size_t cap, const char *in, const char *fallback)
{
	size_t n = 0;

	if (!cap)
		return;
	for (const char *p = in; *p && n + 1 < cap && n < TP_RECV_NAME_MAX; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_' || (c == '.' && n);

		out[n++] = ok ? c : '_';
	}
	out[n] = 0;
	if (!n || strspn(out, "_") == n)
		snprintf(out, cap, "%s", fallback);
}

int tp_recv_create(int dirfd, const char *device, const char *session, int64_t when,
		   char *rel, size_t relcap)
{
	char stamp[32], sess[TP_RECV_NAME_MAX + 1], name[128];
	time_t t = (time_t)when;
	struct tm tm;
	int dfd, fd = -1;

	/* device must already be sanitised; the session is cut to 8 characters */
	if (!device[0] || strchr(device, '/') || device[0] == '.')
		return -EINVAL;
	tp_recv_sanitize(sess, sizeof(sess), session, "nosession");
	sess[8] = 0;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (mkdirat(dirfd, device, 0755) < 0 && errno != EEXIST)
		return -errno;
	dfd = openat(dirfd, device, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	for (int i = 1; i < 1000 && fd < 0; i++) {
		if (i == 1)
			snprintf(name, sizeof(name), "%s-%s.data", stamp, sess);
		else
			snprintf(name, sizeof(name), "%s-%s-%d.data", stamp, sess, i);
		fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST) {
			fd = -errno;
			break;
		}
	}
	close(dfd);
	if (fd >= 0)
		snprintf(rel, relcap, "%s/%s", device, name);
	return fd >= 0 ? fd : fd == -1 ? -EEXIST : fd;
}
