/* SPDX-License-Identifier: MIT */
/* What an archive holds: the recording, then for each DSO its samples hit (hits.h) the files
 * the symbolizer proves to be the ones that ran, named in the build-id cache's layout. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host-tools/lib/archive/archive.h"
#include "host-tools/lib/bidcache/bidcache.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/archive/hits.h"

#define KERNEL "[kernel.kallsyms]"

struct plan {
	struct tp_arcplan *p;
	struct tp_symbolizer *sym;
	const struct tp_symconf *conf;
	const struct tp_log *log;
	char **keys;			/* entries packed (a DSO twice is packed once) */
	size_t n_keys;
	bool keep_dwarf;
};

static int push(struct tp_arcplan *p, const char *path, const char *src, uint8_t *buf,
		size_t len, const char *link)
{
	struct tp_arcmember *m;
	struct stat st;

	if (TP_GROW(p->m, p->cap, p->n + 1, 32))
		return -TP_ERR_NOMEM;
	m = &p->m[p->n];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	m->src = src ? strdup(src) : NULL;
	m->link = link ? strdup(link) : NULL;
	if (!m->path || (src && !m->src) || (link && !m->link)) {
		free(m->path);
		free(m->src);
		free(m->link);
		return -TP_ERR_NOMEM;
	}
	m->buf = buf;
	m->len = len;
	if (src && !stat(src, &st))
		p->bytes += (uint64_t)st.st_size;
	p->bytes += len;
	p->n++;
	return 0;
}

/* 1 if this identity was packed already, else remembers it */
static int seen(struct plan *pl, const char *key)
{
	char **v;

	for (size_t i = 0; i < pl->n_keys; i++)
		if (!strcmp(pl->keys[i], key))
			return 1;
	v = realloc(pl->keys, (pl->n_keys + 1) * sizeof(*v));
	if (!v)
		return -TP_ERR_NOMEM;
	pl->keys = v;
	v[pl->n_keys] = strdup(key);
	return v[pl->n_keys++] ? 0 : -TP_ERR_NOMEM;
}

/* the index link and the files of one entry: files[k] is the source of kind k, or NULL;
 * a kallsyms may come as bytes instead (ks_buf, owned by the plan afterwards) */
static int pack(struct plan *pl, const char *name, const struct tp_bidkey *k,
		const char *files[TP_BID_NR], uint8_t *ks_buf, size_t ks_len)
{
	char id[TP_BIDKEY_STR], rel[4096], link[TP_BIDKEY_STR + 32], path[4200], target[4200];
	int err;

	if (tp_bidkey__str(k, id, sizeof(id)) || tp_bidcache_entry_rel(rel, sizeof(rel), name, k) ||
	    tp_bidcache_link_rel(link, sizeof(link), k)) {
		free(ks_buf);
		return 0;
	}
	err = seen(pl, id);
	if (err) {
		free(ks_buf);
		return err < 0 ? err : 0;
	}
	snprintf(path, sizeof(path), ".debug/%s", link);
	snprintf(target, sizeof(target), "../../%s", rel);
	err = push(pl->p, path, NULL, NULL, 0, target);
	for (unsigned kind = 0; !err && kind < TP_BID_NR; kind++) {
		snprintf(path, sizeof(path), ".debug/%s/%s", rel, tp_bidkind_name(kind));
		if (kind == TP_BID_KALLSYMS && ks_buf) {
			err = push(pl->p, path, NULL, ks_buf, ks_len, NULL);
			ks_buf = err ? ks_buf : NULL;
		} else if (files[kind]) {
			err = push(pl->p, path, files[kind], NULL, 0, NULL);
			if (!err)
				pl->p->m[pl->p->n - 1].slim = !pl->keep_dwarf &&
					(kind == TP_BID_ELF || kind == TP_BID_DEBUG);
		}
	}
	free(ks_buf);
	if (!err)
		pl->p->nr_packed++;
	return err;
}

static int user_dso(struct plan *pl, const struct tp_dso *d)
{
	const char *files[TP_BID_NR] = { NULL };
	const struct tp_symdso_info *in;
	struct tp_symdso *sd;
	struct tp_bidfile bf;
	struct tp_bidkey k;
	const char *why;
	char id[TP_BIDKEY_STR];
	int err;

	if (d->name[0] != '/' && strcmp(d->name, "[vdso]"))
		return 0;		/* anonymous memory, [heap], ... */
	if (d->name[1] == '/' || !strncmp(d->name, "/dev/", 5) || !strncmp(d->name, "/memfd:", 7) ||
	    !strncmp(d->name, "/tmp/perf-", 10))
		return 0;		/* //anon, devices, memfd, JIT maps */
	pl->p->nr_hit++;
	if (!d->build_id_size && !d->text_hash) {
		tp_log__warn(pl->log, "%s: recorded without a build-id or text hash: not archived",
			     d->name);
		return 0;
	}
	tp_bidkey__of(&k, d->build_id, d->build_id_size, d->text_hash);
	tp_bidkey__str(&k, id, sizeof(id));
	err = tp_symbolizer__dso(pl->sym, d->name, d->build_id, d->build_id_size, d->text_hash,
				 &sd);
	if (err)
		return err;
	in = tp_symdso__info(sd);
	if (in->status != TP_SYMDSO_OK || !in->elf_path) {
		tp_log__warn(pl->log, "%s (%s): no file with its identity was found: not archived "
			     "(give --sysroot, --debug-dir or --buildid-dir)", d->name, id);
		return 0;
	}
	if (!strcmp(d->name, "[vdso]")) {
		files[TP_BID_VDSO] = in->elf_path;
	} else {
		/* a debug file may stand in for a binary that was not found */
		bool debug = tp_bidfile__identify(in->elf_path, &bf, &why, NULL) == 0 &&
			     bf.kind == TP_BID_DEBUG;

		files[debug ? TP_BID_DEBUG : TP_BID_ELF] = in->elf_path;
	}
	if (in->debug_path && strcmp(in->debug_path, in->elf_path))
		files[TP_BID_DEBUG] = in->debug_path;
	return pack(pl, d->name, &k, files, NULL, 0);
}

/* a kallsyms from /proc is a snapshot in memory; it is useless if kptr_restrict zeroed it */
static int proc_kallsyms(struct plan *pl, uint8_t **buf, size_t *len)
{
	int err = tp_fs__read_all("/proc/kallsyms", buf, len);

	if (err) {
		tp_log__warn(pl->log, "cannot read /proc/kallsyms: %s", tp_strerror(err));
		return 1;
	}
	for (size_t i = 0; i < *len && i < 4096; i++) {
		if ((*buf)[i] == ' ')
			break;
		if ((*buf)[i] != '0') {
			return 0;
		}
	}
	tp_log__warn(pl->log, "/proc/kallsyms shows no addresses (kptr_restrict): the kernel's "
		     "symbols are not archived (run as root, or set kernel.kptr_restrict=0)");
	free(*buf);
	*buf = NULL;
	return 1;
}

/* a kallsyms for this kernel besides a vmlinux (modules need one): the user's, the cache's,
 * the running kernel's */
static const char *kallsyms_for(struct plan *pl, const struct tp_bidkey *k, char *path,
				size_t size, bool *proc)
{
	const char *dir = pl->conf->buildid_dir;
	struct tp_bidkey run;
	struct stat st;

	*proc = false;
	if (pl->conf->kallsyms)
		return pl->conf->kallsyms;
	if (dir && *dir && !tp_bidcache_path(path, size, dir, k, TP_BID_KALLSYMS) &&
	    !stat(path, &st))
		return path;
	if ((!pl->conf->sysroot || !pl->conf->sysroot[0] || !strcmp(pl->conf->sysroot, "/")) &&
	    !tp_bidfile__running_kernel(&run) && run.build_id_len == k->build_id_len &&
	    !memcmp(run.build_id, k->build_id, k->build_id_len)) {
		*proc = true;
		return "/proc/kallsyms";
	}
	return NULL;
}

static int kernel(struct plan *pl, struct tp_session *s, const struct tp_features *f,
		  bool modules_hit)
{
	const char *files[TP_BID_NR] = { NULL }, *ref_name = NULL, *ks;
	const struct tp_dso *d = NULL;
	const struct tp_symdso_info *in;
	struct tp_symdso *sd;
	struct tp_bidkey k;
	uint64_t ref_addr = 0;
	uint8_t *buf = NULL;
	size_t len = 0;
	char path[4096], id[TP_BIDKEY_STR];
	bool proc;
	int err;

	pl->p->nr_hit++;
	for (size_t i = 0; i < tp_session__nr_dsos(s) && !d; i++)
		if (!strcmp(tp_session__dso(s, i)->name, KERNEL))
			d = tp_session__dso(s, i);
	if (!d || !d->build_id_size) {
		tp_log__warn(pl->log, "the recording does not identify its kernel (no build-id): "
			     "kernel symbols are not archived");
		return 0;
	}
	tp_bidkey__of(&k, d->build_id, d->build_id_size, d->text_hash);
	tp_bidkey__str(&k, id, sizeof(id));
	tp_session__kernel_ref(s, &ref_name, &ref_addr);
	err = tp_symbolizer__kernel(pl->sym, f ? f->osrelease : NULL, d->build_id,
				    d->build_id_size, ref_name, ref_addr, &sd);
	if (err)
		return err;
	in = tp_symdso__info(sd);
	if (in->status != TP_SYMDSO_OK) {
		tp_log__warn(pl->log, "%s (%s): no vmlinux or kallsyms with its build-id: not "
			     "archived (give --vmlinux, --kallsyms or --buildid-dir)", KERNEL, id);
		return 0;
	}
	if (in->src == TP_SYMSRC_KALLSYMS) {
		ks = in->sym_path;
		proc = ks && !strcmp(ks, "/proc/kallsyms");
	} else {
		files[TP_BID_ELF] = in->elf_path;
		ks = modules_hit ? kallsyms_for(pl, &k, path, sizeof(path), &proc) : NULL;
	}
	if (ks && proc) {
		if (proc_kallsyms(pl, &buf, &len) && !files[TP_BID_ELF])
			return 0;
	} else if (ks) {
		files[TP_BID_KALLSYMS] = ks;
	}
	return pack(pl, KERNEL, &k, files, buf, len);
}

int tp_arcplan__build(struct tp_arcplan *p, struct tp_session *s, const struct tp_features *f,
		      const struct tp_symconf *conf, const char *data_path, const char *data_name,
		      bool keep_dwarf)
{
	struct tp_symconf sc = *conf;
	struct plan pl = { .p = p, .conf = conf, .log = &conf->log, .keep_dwarf = keep_dwarf };
	struct tp_dso **hit = NULL;
	struct tp_unwinder *uw = NULL;
	bool kernel_hit = false, modules_hit = false;
	size_t n = 0;
	int err;

	memset(p, 0, sizeof(*p));
	err = push(p, data_name, data_path, NULL, 0, NULL);
	if (!err)
		err = push(p, ".debug", NULL, NULL, 0, NULL);
	if (err)
		goto out;
	p->m[p->n - 1].dir = true;
	sc.want_lines = true;	/* so that the symbolizer looks for separate debug files */
	pl.sym = tp_symbolizer__new(&sc);
	/* DSOs reached only through an unwound user stack are hits too */
	if (!pl.sym || tp_unwinder__new(&uw, s, pl.sym, &conf->log, f ? f->arch : NULL)) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	err = tp_hits__collect(s, uw, &hit, &n);
	if (err)
		goto out;
	for (size_t i = 0; !err && i < n; i++) {
		if (hit[i]->kernel) {
			kernel_hit = true;
			modules_hit |= strcmp(hit[i]->name, KERNEL) != 0;
			continue;
		}
		err = user_dso(&pl, hit[i]);
	}
	if (!err && kernel_hit)
		err = kernel(&pl, s, f, modules_hit);
out:
	tp_unwinder__delete(uw);
	tp_symbolizer__delete(pl.sym);
	for (size_t i = 0; i < pl.n_keys; i++)
		free(pl.keys[i]);
	free(pl.keys);
	free(hit);
	if (err)
		tp_arcplan__release(p);
	return err;
}

void tp_arcplan__release(struct tp_arcplan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->m[i].path);
		free(p->m[i].src);
		free(p->m[i].buf);
		free(p->m[i].link);
	}
	free(p->m);
	memset(p, 0, sizeof(*p));
}
