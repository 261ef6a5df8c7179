/* SPDX-License-Identifier: MIT */
/* 'tinyperf list': the events this device can open right now. Hardware events are listed
 * only if they open (VMs and many SoCs have no PMU); tracepoints come from tracefs. */
#include "libc-shim/shim.h"
#include "include/tinyperf/perf_event.h"
#include "recorder/events/events.h"
#include "recorder/events/tracefs.h"

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
		static uint64_t d[512];	/* as buf: u64 in the frame make i386 realign it */
		char path[160];
		struct tp_dir dd;
		const char *sys;

		/* every system: the directories of events/ (its files, such as enable and
		 * header_page, are no directories and glob to nothing) */
		tp_snprintf(path, sizeof(path), "%s/events", dir);
		if (!tp_dir__open(&dd, path, d, sizeof(d))) {
			while ((sys = tp_dir__next(&dd)))
				if (sys[0] != '.')
					tracefs__glob(sys, "*", print_tp, &o);
			sys_close(dd.fd);
		}
	} else if (IS_ENABLED(CONFIG_REC_TRACEPOINTS)) {
		tp_out__printf(&o, "(no tracefs: tracepoints unavailable; mount it on "
				   "/sys/kernel/tracing, or run as root)\n");
	}
	return tp_out__flush(&o) ? 1 : 0;
}
