/* SPDX-License-Identifier: MIT */
/* The state records of a recording (recorder/record/synth.c does the encoding): the kernel and the
 * processes of the target, at the start and again at the head of every --switch-output file. */
#include "libc-shim/shim.h"
#include "recorder/record/record.h"
#include "recorder/record/synth.h"

/* --overwrite with a command: the tree's records of the last snapshot, written again ahead
 * of the new ones, so that a snapshot taken after processes exited (the last one, when the
 * command ends) still has their COMM and MMAPs. Two buffers: the loop's reading of /proc goes
 * to the other one and is merged with what was kept (rec_keep_tree). Bounded: what does not
 * fit is not kept. */
struct kept {
	size_t len;
	char buf[32768];
};
static struct kept bufs[2], *keep = &bufs[0];
static char scratch[SYNTH_SCRATCH_MIN];	/* synth's, one synthesis at a time */

static void keep_add(struct kept *k, const void *rec, size_t len)
{
	if (len <= sizeof(k->buf) - k->len) {
		memcpy(k->buf + k->len, rec, len);
		k->len += len;
	}
}

/* a command's tree: what is synthesized joins the tree that track follows (a child forked
 * before the events were enabled has no FORK record), and is kept under --overwrite */
static int emit_tree(void *ctx, const void *rec, size_t len)
{
	struct record *r = ctx;

	if (((const struct perf_event_header *)rec)->type == PERF_RECORD_COMM)
		track__set_root(&r->track, tp_get32((const char *)rec + 8));
	if (rec_overwrite(r))
		keep_add(keep, rec, len);
	return r->fl.emit(ctx, rec, len);
}

static void replay_kept(struct record *r)
{
	struct perf_event_header h;

	for (size_t off = 0; off + sizeof(h) <= keep->len && !r->write_err; off += h.size) {
		memcpy(&h, keep->buf + off, sizeof(h));
		r->fl.emit(r, keep->buf + off, h.size);
	}
	keep->len = 0;
}

static int keep_only(void *ctx, const void *rec, size_t len)
{
	keep_add(ctx, rec, len);
	return 0;
}

/* does k hold an MMAP2 of pid (COMM and MMAP2 both have the pid at 8) */
static bool has_maps(const struct kept *k, uint32_t pid)
{
	struct perf_event_header h;

	for (size_t off = 0; off + sizeof(h) <= k->len; off += h.size) {
		memcpy(&h, k->buf + off, sizeof(h));
		if (h.type == PERF_RECORD_MMAP2 && tp_get32(k->buf + off + 8) == pid)
			return true;
	}
	return false;
}

/* The rings are read only at snapshots: a command that ends before the first one, once its
 * ring wrapped (soon with --call-graph dwarf's samples), would have lost the COMM and MMAPs
 * of its exec. The loop takes them again every second from /proc for the next snapshot. A
 * process that has no mappings there now keeps those it had: it exited since (its samples
 * are in the next snapshot's window), or it is exiting, its memory already gone and its
 * reaping to come (a reading at that moment once left the last snapshot without the
 * command's maps). What was read now comes first: what does not fit is the oldest. */
void rec_keep_tree(struct record *r)
{
	const struct tp_rec_fmt fmt = { .id_hdr_size = tp_id_hdr_size(r->sample_type) };
	struct kept *now = keep == &bufs[0] ? &bufs[1] : &bufs[0];
	struct synth sc = {
		.emit = keep_only, .ctx = now, .fmt = &fmt, .scratch = scratch,
		.scratch_size = sizeof(scratch), .data = r->dwarf,
	};
	struct perf_event_header h;
	uint32_t pid, last = 0;
	bool take = false;

	now->len = 0;
	synth__tree(&sc, r->root);
	/* a process's records are together (its COMMs, then its MMAP2s): one look each */
	for (size_t off = 0; off + sizeof(h) <= keep->len; off += h.size) {
		memcpy(&h, keep->buf + off, sizeof(h));
		pid = tp_get32(keep->buf + off + 8);
		if (!off || pid != last)
			take = !has_maps(now, pid);
		last = pid;
		if (take)
			keep_add(now, keep->buf + off, h.size);
	}
	keep = now;
}

/* Which setting hides /proc/kallsyms's addresses (the kernel's kallsyms_show_value()):
 * kptr_restrict=2 from everyone; 1 from those without CAP_SYSLOG; 0 from those too while
 * perf_event_paranoid > 1. Name that one, and what lifts it. */
static void warn_hidden(const struct synth_kernel *k)
{
	static const char pre[] = "kernel addresses are hidden";
	static const char post[] = "kernel samples will not resolve";
	const int kr = k->kptr_restrict;

	if (kr >= 2)
		rec_warn("%s by kptr_restrict=%d, from root too: %s; 'sysctl kernel.kptr_restrict=1' "
			 "and run as root", pre, kr, post);
	else if (kr == 1)
		rec_warn("%s by kptr_restrict=1 (without CAP_SYSLOG): %s; run as root, or "
			 "'sysctl kernel.kptr_restrict=0'%s", pre, post, k->paranoid > 1 ?
			 " and 'sysctl kernel.perf_event_paranoid=1'" : "");
	else if (kr == 0 && k->paranoid > 1)
		rec_warn("%s by perf_event_paranoid=%d (kptr_restrict=0 shows them without "
			 "CAP_SYSLOG only at <= 1): %s; run as root or "
			 "'sysctl kernel.perf_event_paranoid=1'", pre, k->paranoid, post);
	else
		rec_warn("%s: %s; run as root", pre, post);
}

int rec_synth(struct record *r, unsigned what)
{
	const struct tp_rec_fmt fmt = { .id_hdr_size = tp_id_hdr_size(r->sample_type) };
	struct synth sc = {
		.emit = r->fl.emit, .ctx = r, .fmt = &fmt, .scratch = scratch,
		.scratch_size = sizeof(scratch), .data = r->dwarf,
	};
	struct synth_kernel k;

	if (what & REC_SYNTH_KERNEL) {
		synth__kernel(&sc, &k);
		if (k.hidden && (what & REC_SYNTH_WARN) && !r->o.quiet)
			warn_hidden(&k);
	}
	if (!(what & REC_SYNTH_TASKS) || r->write_err)
		return r->write_err;
	if (r->target == REC_SYSTEM) {
		synth__all_tasks(&sc);
	} else if (r->target == REC_TASKS) {
		for (unsigned i = 0; i < r->o.nr_pids; i++)
			synth__task(&sc, (uint32_t)r->o.pids[i]);
	} else if (r->root) {	/* a command: it and every child alive */
		if (rec_overwrite(r))
			replay_kept(r);
		sc.emit = emit_tree;
		synth__tree(&sc, r->root);
	}
	return r->write_err;
}
