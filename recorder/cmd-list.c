/* 'tinyperf list': the events this device can open right now. Hardware events are listed
 * only if they open (VMs and many SoCs have no PMU); tracepoints come from tracefs. */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_event.h"
#include "recorder/cmd.h"
#include "recorder/events.h"
#include "recorder/tracefs.h"

static bool opens(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.size = PERF_ATTR_SIZE_VER0;
	a.config = config;
	a.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV;
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	sys_close((int)fd);
	return true;
}

static int print_tp(void *ctx, const char *sys, const char *name)
{
	struct tp_out *o = ctx;

	/* "sys:name" padded to 49 columns, then one space at least */
	tp_out__printf(o, "  %s:%-*s [Tracepoint event]\n", sys, TP_MAX(0, 48 - (int)strlen(sys)),
		       name);
	return 0;
}

struct tp_dirent64 {
	uint64_t ino;
	int64_t off;
	uint16_t reclen;
	uint8_t type;
	char name[];
};

int cmd_list(int argc, char **argv)
{
	static char buf[8192];
	struct tp_out o;
	const char *dir, *n;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		tp_dprintf(1, "usage: tinyperf list\nList the events 'tinyperf record -e' can open "
			      "on this device.\n");
		return 0;
	}
	tp_out__init(&o, 1, buf, sizeof(buf));
	n = tp_event_names;
	for (unsigned i = 0; i < tp_nr_event_names; i++, n += strlen(n) + 1) {
		uint32_t type = tp_event_codes[i] >> 4;
		bool hw = type == PERF_TYPE_HARDWARE;

		if (hw && !opens(type, tp_event_codes[i] & 15))
			continue;
		tp_out__printf(&o, "  %-50s[%s event]\n", n, hw ? "Hardware" : "Software");
	}
	tp_out__printf(&o, "  %-50s[Raw hardware event descriptor]\n", "rNNN");
	dir = IS_ENABLED(CONFIG_REC_TRACEPOINTS) ? tracefs__dir() : NULL;
	if (dir) {
		char path[160];
		uint64_t d[512];
		long fd, nread;

		tp_snprintf(path, sizeof(path), "%s/events", dir);
		fd = sys_open(path, TP_O_RDONLY | TP_O_DIRECTORY | TP_O_CLOEXEC, 0);
		while (fd >= 0 && (nread = sys_getdents64((int)fd, d, sizeof(d))) > 0) {
			for (long off = 0; off < nread;) {
				const struct tp_dirent64 *e = (const void *)((const char *)d + off);

				off += e->reclen;
				if (e->name[0] != '.' && e->type == 4 /* DT_DIR */)
					tracefs__glob(e->name, "*", print_tp, &o);
			}
		}
		if (fd >= 0)
			sys_close((int)fd);
	} else if (IS_ENABLED(CONFIG_REC_TRACEPOINTS)) {
		tp_out__printf(&o, "(no tracefs: tracepoints unavailable; mount it on "
				   "/sys/kernel/tracing, or run as root)\n");
	}
	return tp_out__flush(&o) ? 1 : 0;
}
