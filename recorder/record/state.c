/* SPDX-License-Identifier: MIT */
/* The state records of a recording (recorder/record/synth.c does the encoding): the kernel and the
 * processes of the target, at the start and again at the head of every --switch-output file. */
#include "libc-shim/shim.h"
#include "recorder/record/record.h"
#include "recorder/record/synth.h"

/* --overwrite with a command: the tree's records of the last snapshot, written again ahead
 * of the new ones, so that a snapshot taken after processes exited (the last one, when the
 * command ends) still has their COMM and MMAPs. Bounded: what does not fit is not kept. */
static struct {
	size_t len;
	char buf[32768];
} keep;
static char scratch[SYNTH_SCRATCH_MIN];	/* synth's, one synthesis at a time */

/* a command's tree: what is synthesized joins the tree that track follows (a child forked
 * before the events were enabled has no FORK record), and is kept under --overwrite */
static int emit_tree(void *ctx, const void *rec, size_t len)
{
	struct record *r = ctx;

	if (((const struct perf_event_header *)rec)->type == PERF_RECORD_COMM)
		track__set_root(&r->track, tp_get32((const char *)rec + 8));
	if (rec_overwrite(r) && len <= sizeof(keep.buf) - keep.len) {
		memcpy(keep.buf + keep.len, rec, len);
		keep.len += len;
	}
	return r->fl.emit(ctx, rec, len);
}

static void replay_kept(struct record *r)
{
	struct perf_event_header h;

	for (size_t off = 0; off + sizeof(h) <= keep.len && !r->write_err; off += h.size) {
		memcpy(&h, keep.buf + off, sizeof(h));
		r->fl.emit(r, keep.buf + off, h.size);
	}
	keep.len = 0;
}

static int keep_only(void *ctx, const void *rec, size_t len)
{
	(void)ctx;
	if (len <= sizeof(keep.buf) - keep.len) {
		memcpy(keep.buf + keep.len, rec, len);
		keep.len += len;
	}
	return 0;
}

/* The rings are read only at snapshots: a command that ends before the first one, once its
 * ring wrapped (soon with --call-graph dwarf's samples), would have lost the COMM and MMAPs
 * of its exec. The loop takes them again every second from /proc for the last snapshot. */
void rec_keep_tree(struct record *r)
{
	const struct tp_rec_fmt fmt = { .id_hdr_size = tp_id_hdr_size(r->sample_type) };
	struct synth sc = {
		.emit = keep_only, .ctx = r, .fmt = &fmt, .scratch = scratch,
		.scratch_size = sizeof(scratch), .data = r->dwarf,
	};

	keep.len = 0;
	synth__tree(&sc, r->root);
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
