/* SPDX-License-Identifier: MIT */
/* Opening the events. The fallbacks mirror perf's: no PMU (VMs, many SoCs) turns the default
 * 'cycles' into cpu-clock; perf_event_paranoid >= 2 for a non-root user keeps kernel samples
 * out (exclude_kernel) rather than failing. Every other error becomes one line that says what
 * to do. */
#include "libc-shim/shim.h"
#include "recorder/base/msg.h"
#include "recorder/events/evlist.h"

/* a /proc/sys value without its newline; the bytes read, or -errno (buf as it was) */
static long paranoid(void)
{
	char buf[16];
	int64_t v;

	return tp_read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) > 0 &&
	       !tp_parse_s64(buf, 10, &v) ? (long)v : 2;
}

void evlist__explain(const struct evsel *e, long r, int task)
{
	const char *what = tp_strerror(r);
	/* --overwrite asks for write_backward rings, which an older kernel refuses (EINVAL) */
	const char *hint = IS_ENABLED(CONFIG_REC_FLIGHT) && r == -TP_EINVAL &&
			   (e->attr.flags & PERF_ATTR_FLAG_WRITE_BACKWARD) ?
			   "; --overwrite needs write_backward ring buffers: Linux 4.7 or later" : "";
	/* one call for every message of (name, what, hint[, paranoid, sysctl value]) */
	const char *fmt = "cannot open %s: %s%s";
	long par = 0;

	if (r == -TP_EACCES || r == -TP_EPERM) {
		fmt = "cannot open %s: %s%s: kernel.perf_event_paranoid is %ld; "
		      "run as root, or 'sysctl kernel.perf_event_paranoid=%d'";
		par = paranoid();
	} else if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) &&
		   (e->attr.sample_type & PERF_SAMPLE_STACK_USER) &&
		   (r == -TP_ENOSYS || r == -TP_EOPNOTSUPP)) {
		/* perf_copy_attr: no HAVE_PERF_REGS or HAVE_PERF_USER_STACK_DUMP */
		fmt = "cannot open %s: %s: this kernel cannot sample user registers and stacks "
		      "(--call-graph dwarf); use --call-graph fp";
	} else if (r == -TP_ENOENT || r == -TP_EOPNOTSUPP || r == -TP_ENODEV) {
		fmt = "cannot open %s: this kernel or CPU does not support it; see 'tinyperf list'";
	} else if (r == -TP_EMFILE || r == -TP_ENFILE) {
		fmt = "cannot open %s: too many open files: raise 'ulimit -n', "
		      "or record fewer events or CPUs (-C)";
	} else if (r == -TP_EINVAL && (e->attr.flags & PERF_ATTR_FLAG_FREQ)) {
		char buf[24] = "?";

		tp_read_line("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf));
		rec_fail("cannot open %s at %llu Hz: %s; the kernel allows at most "
			 "%s Hz (kernel.perf_event_max_sample_rate): lower -F%s",
			 e->name, (unsigned long long)e->attr.sample_freq, what, buf, hint);
		return;
	}
	rec_fail(fmt, e->name, what, hint, par, task < 0 ? 0 : 1);
}

static long open_one(struct evlist *el, struct evsel *e, int task, int cpu)
{
	long r;

	for (;;) {
		r = sys_perf_event_open(&e->attr, task, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (r >= 0)
			return r;
		if (e->is_default && e->attr.type == PERF_TYPE_HARDWARE &&
		    (r == -TP_ENOENT || r == -TP_EOPNOTSUPP || r == -TP_ENODEV || r == -TP_EINVAL)) {
			events__fallback_cpu_clock(e);
			el->notes |= EVL_FELL_BACK_CPU_CLOCK;
			continue;
		}
		if ((r == -TP_EACCES || r == -TP_EPERM) && task >= 0 &&
		    !(e->attr.flags & PERF_ATTR_FLAG_EXCLUDE_KERNEL) && paranoid() >= 2) {
			e->attr.flags |= PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_HV;
			el->notes |= EVL_EXCLUDED_KERNEL;
			continue;
		}
		return r;
	}
}

/* the fds, then the ids (evsel.ids point into them): one mapping */
static size_t table_bytes(size_t nfds)
{
	return TP_ALIGN(nfds * sizeof(int), 8) + nfds * sizeof(uint64_t);
}

int evlist__open(struct evlist *el, struct evlist_spec *spec, const int *tasks,
		 unsigned nr_tasks, const int *cpus, unsigned nr_cpus, unsigned how)
{
	size_t nfds = (size_t)spec->nr * nr_tasks * nr_cpus;
	uint64_t *ids;
	int *slot;
	long addr;

	memset(el, 0, sizeof(*el));
	el->cpus = cpus;
	el->nr_cpus = nr_cpus;
	el->nr_fds = nfds;
	addr = sys_mmap(NULL, table_bytes(nfds), TP_PROT_READ | TP_PROT_WRITE,
			TP_MAP_PRIVATE | TP_MAP_ANONYMOUS, -1, 0);
	if (addr < 0 && addr > -4096) {
		rec_fail("out of memory for %zu events", nfds);
		return (int)addr;
	}
	el->fds = (int *)addr;
	ids = (uint64_t *)((char *)addr + TP_ALIGN(nfds * sizeof(int), 8));
	memset(el->fds, 0xff, nfds * sizeof(int));	/* every fd -1 */
	slot = el->fds;		/* fds[] by event, then task, then CPU: the loops fill it in order */

	for (unsigned ev = 0; ev < spec->nr; ev++) {
		struct evsel *e = &spec->ev[ev];

		e->ids = ids;
		e->nr_ids = 0;
		for (unsigned t = 0; t < nr_tasks; t++) {
			for (unsigned c = 0; c < nr_cpus; c++, slot++) {
				long fd = open_one(el, e, tasks[t], cpus[c]);

				if (fd == -TP_ESRCH && tasks[t] >= 0)
					continue;   /* the thread exited meanwhile */
				if ((how & EVL_MAY_LACK) && !t && !c &&
				    (fd == -TP_ENOENT || fd == -TP_EOPNOTSUPP || fd == -TP_ENODEV ||
				     fd == -TP_EINVAL || fd == -TP_ENOSYS || fd == -TP_ENXIO)) {
					e->unsupported = true;
					slot += (size_t)nr_tasks * nr_cpus;
					goto next;
				}
				if (fd < 0) {
					if (!(how & EVL_QUIET_PERM) || (fd != -TP_EACCES && fd != -TP_EPERM))
						evlist__explain(e, fd, tasks[t]);
					/* nothing kept: a caller trying again (record's
					 * inherited events after EACCES) maps a new table */
					evlist__close(el);
					evlist__free(el);
					return (int)fd;
				}
				*slot = (int)fd;
				if (sys_ioctl((int)fd, PERF_EVENT_IOC_ID, (long)&ids[e->nr_ids]) == 0)
					e->nr_ids++;
			}
		}
next:
		ids += e->nr_ids;
	}
	return 0;
}

size_t tp_page_size(void)
{
	unsigned long ps = tp_getauxval(TP_AT_PAGESZ);

	return ps ? ps : 4096;
}

int evlist__mmap(struct evlist *el, unsigned pages)
{
	const char *how = "map";
	size_t ps = tp_page_size();
	unsigned c;
	long e;

	for (c = 0; c < el->nr_cpus; c++) {
		struct ring *r = NULL;

		/* the fds of CPU c, every event and task: one in nr_cpus (evlist__open's layout) */
		for (size_t i = c; i < el->nr_fds; i += el->nr_cpus) {
			int fd = el->fds[i];

			if (fd < 0)
				continue;
			if (r) {
				e = sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd);
				if (e < 0) {
					how = "share";
					goto fail;
				}
				continue;
			}
			r = &el->rings[el->nr_rings];
			e = ring__map(r, fd, pages, ps, !el->backward);
			if (e == -TP_EPERM || e == -TP_ENOMEM) {
				rec_fail("cannot map a %u-page ring: %s: lower -m, or raise "
					 "kernel.perf_event_mlock_kb", pages, tp_strerror(e));
				return (int)e;
			}
			if (e < 0)
				goto fail;
			el->nr_rings++;
		}
	}
	return 0;
fail:
	rec_fail("cannot %s the ring of CPU %d: %s", how, el->cpus[c], tp_strerror(e));
	return (int)e;
}

/* every open fd: the ioctl req, or closed for 0 */
static void each_fd(const struct evlist *el, unsigned long req)
{
	for (size_t i = 0; el->fds && i < el->nr_fds; i++)
		if (el->fds[i] >= 0) {
			if (req)
				sys_ioctl(el->fds[i], req, 0);
			else
				sys_close(el->fds[i]);
		}
}

void evlist__enable(struct evlist *el, bool on)
{
	each_fd(el, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE);
}

void evlist__close(struct evlist *el)
{
	for (unsigned i = 0; i < el->nr_rings; i++)
		ring__unmap(&el->rings[i]);
	el->nr_rings = 0;
	each_fd(el, 0);
}

void evlist__free(struct evlist *el)
{
	sys_munmap(el->fds, table_bytes(el->nr_fds));
	el->fds = NULL;
}
