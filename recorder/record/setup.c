/* SPDX-License-Identifier: MIT */
/* Setting up a recording: the events parsed, the target chosen (a command's process tree,
 * -a/-C, -p/-t), the attrs filled with one sample layout for every event, the events opened
 * and their rings mapped (record.h). */
#include "libc-shim/shim.h"
#include "arch/abi.h"
#include "recorder/record/record.h"
#include "recorder/record/sysinfo.h"

int rec_parse_events(struct record *r)
{
	for (unsigned i = 0; i < r->o.nr_events; i++)
		if (events__parse(&r->spec, r->o.events[i]))
			return 1;
	if (!r->spec.nr)
		events__add_default(&r->spec);
	return 0;
}

/* sample_type and flags: the same sample prefix for every event so that pid and time sit at
 * fixed offsets; IDENTIFIER when there is more than one event; side-band on the first.
 * Returns the largest user stack a sample copies (dwarf call graphs), 0 for none. */
static uint32_t fill_attrs(struct record *r)
{
	bool many = r->spec.nr > 1;
	bool cpu = r->target == REC_SYSTEM || r->target == REC_TREE;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
		      (many ? PERF_SAMPLE_IDENTIFIER : 0) | (cpu ? PERF_SAMPLE_CPU : 0);
	uint32_t stack = 0, ps = (uint32_t)tp_page_size();

	r->off_tid = 8 + (many ? 8 : 0) + 8;
	r->off_time = r->off_tid + 8;
	/* tracepoints carry RAW and CPU: CPU then in the prefix of every event */
	for (unsigned i = 0; i < r->spec.nr; i++)
		if (r->spec.ev[i].attr.type == PERF_TYPE_TRACEPOINT)
			st |= PERF_SAMPLE_CPU;
	r->sample_type = st;
	r->attr_size = PERF_ATTR_SIZE_VER0;
	r->dwarf = false;
	for (unsigned i = 0; i < r->spec.nr; i++) {
		struct evsel *e = &r->spec.ev[i];
		struct perf_event_attr *a = &e->attr;
		int cg = e->callgraph >= 0 ? e->callgraph : !r->o.callgraph ? EVS_CG_NO :
			 r->o.stack_size ? EVS_CG_DWARF : EVS_CG_FP;

		a->size = PERF_ATTR_SIZE_VER0;
		a->sample_type = st | (cg ? PERF_SAMPLE_CALLCHAIN : 0);
		if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) && cg == EVS_CG_DWARF) {
			/* as perf: the kernel's callchain, the user part left to the host */
			a->size = r->attr_size = PERF_ATTR_SIZE_VER3;
			a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a->flags |= PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER;
			a->sample_regs_user = TP_PERF_REGS_USER;
			a->sample_stack_user = e->stack_size ? e->stack_size :
					       r->o.stack_size ? r->o.stack_size : EVS_STACK_DEFAULT;
			stack = TP_MAX(stack, a->sample_stack_user);
			r->dwarf = true;
		}
		if (a->type == PERF_TYPE_TRACEPOINT)
			a->sample_type |= PERF_SAMPLE_RAW;
		if (!e->has_period) {
			a->sample_period = r->o.sample;	/* a union with sample_freq */
			if (!r->o.by_period)
				a->flags |= PERF_ATTR_FLAG_FREQ;
		}
		a->flags |= PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_SAMPLE_ID_ALL |
			    PERF_ATTR_FLAG_WATERMARK;
		if (rec_overwrite(r))
			a->flags |= PERF_ATTR_FLAG_WRITE_BACKWARD;
		if (i == 0)
			a->flags |= PERF_ATTR_FLAG_MMAP | PERF_ATTR_FLAG_MMAP2 | PERF_ATTR_FLAG_COMM |
				    PERF_ATTR_FLAG_COMM_EXEC | PERF_ATTR_FLAG_TASK;
		if (r->target == REC_INHERIT)
			a->flags |= PERF_ATTR_FLAG_ENABLE_ON_EXEC |
				    (r->o.no_inherit ? 0 : PERF_ATTR_FLAG_INHERIT);
		else if (r->target == REC_TASKS && !r->o.nr_tids)
			a->flags |= PERF_ATTR_FLAG_INHERIT;
	}
	/* as perf: the read-only mappings too, where the unwind tables (.eh_frame_hdr) of a
	 * binary linked with separate code are; and the build-ids of every mapped binary,
	 * the unwound frames' among them (the host verifies each binary it unwinds with) */
	if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) && r->dwarf) {
		r->spec.ev[0].attr.flags |= PERF_ATTR_FLAG_MMAP_DATA;
		r->o.buildid_all = true;
	}
	/* -m not given: 128 pages; for dwarf stacks as many as hold 128 samples, up to 2 MiB
	 * (8 KiB stacks: 512 pages of 4 KiB), so a wakeup brings 64 of them, not 30: fewer and
	 * bigger writes, a third less CPU (bench/record.sh 3b). Root only: a user's rings must
	 * fit perf_event_mlock_kb (516 KiB a CPU) */
	if (!r->o.mmap_pages) {
		r->o.mmap_pages = 128;
		if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) && !rec_overwrite(r) && !sys_getuid())
			while (r->o.mmap_pages * ps < TP_MIN(128 * (stack + 512), 2u << 20))
				r->o.mmap_pages <<= 1;
	}
	/* half the ring, in the 32 bits the field holds: the page size is even (a power of two) */
	for (unsigned i = 0; i < r->spec.nr; i++)
		r->spec.ev[i].attr.wakeup_watermark = r->o.mmap_pages * (ps / 2);
	return stack;
}

int rec_tasks_of(const int *pids, unsigned nr_pids, const int *tids, unsigned nr_tids,
		 int *tasks, unsigned *nr)
{
	static uint64_t buf[256];	/* u64 in the frame make i386 realign it (and reach every
					 * local through 4-byte %ebp offsets) */
	char path[48];
	struct tp_dir d;
	const char *name;
	unsigned tid, k;
	int e;

	for (unsigned i = 0; i < nr_pids; i++) {
		/* the format synth.c reads the same directory with: one string */
		tp_snprintf(path, sizeof(path), "/proc/%u/task", (unsigned)pids[i]);
		e = tp_dir__open(&d, path, buf, sizeof(buf));
		if (e)
			return rec_fail("no process %d: %s", pids[i], tp_strerror(e));
		while ((name = tp_dir__next(&d))) {
			if (tp_parse_uint(name, &tid))
				continue;	/* "." and ".." */
			if (*nr >= REC_MAX_TASKS) {
				sys_close(d.fd);
				return rec_fail("too many threads (at most %d): use -t", REC_MAX_TASKS);
			}
			tasks[(*nr)++] = (int)tid;
		}
		sys_close(d.fd);
	}
	k = TP_MIN(nr_tids, REC_MAX_TASKS - *nr);
	memcpy(tasks + *nr, tids, k * sizeof(int));
	*nr += k;
	return 0;
}

int rec_cpus_from_list(const char *list, int *cpus, unsigned max)
{
	static uint64_t mask[REC_MAX_CPUS / 64];	/* cleared by cpulist__parse; static: see
						 * rec_open_output's wa[] */
	int n = 0;

	if (cpulist__parse(list, mask, max, NULL) < 0)
		return -TP_EINVAL;
	for (unsigned c = 0; c < max; c++)
		if (*tp_bit_byte(mask, c) & TP_BIT_MASK(c))	/* no 64-bit shift on 32-bit CPUs */
			cpus[n++] = (int)c;
	return n;
}

int rec_cpus_of(const char *list, int *cpus)
{
	static char online[256];     /* static: see loop()'s pfd[] */
	int n = -TP_EINVAL;

	if (list)
		n = rec_cpus_from_list(list, cpus, REC_MAX_CPUS);
	else if (tp_read_file("/sys/devices/system/cpu/online", online, sizeof(online)) > 0)
		n = rec_cpus_from_list(online, cpus, REC_MAX_CPUS);
	if (n <= 0)
		return rec_fail(list ? "bad CPU list '%s': give e.g. 0-3,6" :
			    "cannot read the online CPUs%s", list ? list : ""), 0;
	return n;
}

static int choose_target(struct record *r)
{
	int n = rec_cpus_of(r->o.cpu_list, r->cpus);

	if (!n)
		return 1;
	r->nr_cpus = (unsigned)n;
	if (!r->o.system_wide && (r->o.nr_pids || r->o.nr_tids)) {
		r->target = REC_TASKS;
		return rec_tasks_of(r->o.pids, r->o.nr_pids, r->o.tids, r->o.nr_tids, r->tasks,
				    &r->nr_tasks);
	}
	/* -a, -C: every task (-1) on the CPUs. A command: its tree (every task, filtered by
	 * pid), or inherited events on it; --overwrite reads records newest first, so a tree
	 * cannot be followed through its FORKs then, inherited events need no following */
	r->target = r->o.system_wide ? REC_SYSTEM :
		    r->o.no_inherit || rec_overwrite(r) ? REC_INHERIT : REC_TREE;
	r->tasks[r->nr_tasks++] = r->target == REC_INHERIT ? r->wl.pid : -1;
	return 0;
}

static int open_events(struct record *r)
{
	uint32_t stack;
	int e;

	for (;;) {
		stack = fill_attrs(r);
		/* a sample is the stack and at most ~600 bytes more: a ring that cannot hold two
		 * would lose nearly all of them */
		if (IS_ENABLED(CONFIG_REC_CALLGRAPH_DWARF) &&
		    (uint64_t)r->o.mmap_pages * tp_page_size() < 2 * (stack + 1024))
			return rec_fail("-m %u: a ring holds less than two samples of %u stack "
					"bytes (--call-graph dwarf): raise -m", r->o.mmap_pages,
					(unsigned)stack);
		e = evlist__open(&r->el, &r->spec, r->tasks, r->nr_tasks, r->cpus, r->nr_cpus,
				 r->target == REC_TREE ? EVL_QUIET_PERM : 0);
		if ((e != -TP_EACCES && e != -TP_EPERM) || r->target != REC_TREE)
			break;
		/* not allowed to watch whole CPUs: inherited per-task events, as perf does
		 * (short-lived children then start a fresh sampling period each) */
		r->target = REC_INHERIT;
		r->tasks[0] = r->wl.pid;
	}
	if (e)
		return 1;
	if (!r->o.quiet) {
		if (r->el.notes & EVL_FELL_BACK_CPU_CLOCK)
			rec_warn("no hardware 'cycles' event here (no PMU): using cpu-clock");
		if (r->el.notes & EVL_EXCLUDED_KERNEL)
			rec_warn("kernel.perf_event_paranoid >= 2: recording user space only");
	}
	r->el.backward = rec_overwrite(r);
	if (evlist__mmap(&r->el, r->o.mmap_pages))
		return 1;
	for (unsigned i = 0; i < r->spec.nr; i++)
		for (unsigned k = 0; k < r->spec.ev[i].nr_ids; k++)
			track__add_id(&r->track, r->spec.ev[i].ids[k], r->spec.ev[i].attr.sample_type);
	if (rec_coalescing(r)) {
		if (coalesce__init(&r->co, &r->arena, r->o.coalesce_ms, rec_write_out, r))
			return rec_fail("out of memory");
		for (unsigned i = 0; i < r->spec.nr; i++)
			for (unsigned k = 0; k < r->spec.ev[i].nr_ids; k++)
				coalesce__add_id(&r->co, r->spec.ev[i].ids[k],
						 r->spec.ev[i].attr.sample_type);
	}
	return 0;
}

int rec_open_events(struct record *r)
{
	return choose_target(r) || open_events(r);
}
