/* SPDX-License-Identifier: MIT */
/* The kernel and its modules: which vmlinux or kallsyms to use (perf's order, under a sysroot)
 * and the relocation that makes a KASLR-shifted or other-boot kernel resolve: the recorded
 * runtime address of the reference symbol (_text) against its address in the source. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"
#include "host-tools/lib/data/data.h"

#define NT_GNU_BUILD_ID_TYPE 3

/* the whole of a file (also /proc files, whose size is 0) into a malloc'd buffer */
static int read_file(const char *path, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	ssize_t r;
	int fd = tp_fs__open_regular(path, NULL);

	if (fd < 0 || !p) {
		free(p);
		if (fd >= 0)
			close(fd);
		return fd == -TP_ERR_NOT_REGULAR ? fd : fd < 0 ? -TP_ERR_IO : -TP_ERR_NOMEM;
	}
	while ((r = read(fd, p + n, cap - n)) > 0) {
		n += (size_t)r;
		if (TP_GROW(p, cap, n + 1, 0)) {	/* room for the next read */
			free(p);
			close(fd);
			return -TP_ERR_NOMEM;
		}
	}
	close(fd);
	if (r < 0) {
		free(p);
		return -TP_ERR_IO;
	}
	*buf = p;
	*len = n;
	return 0;
}

/* the running kernel's build-id, from /sys/kernel/notes (native byte order) */
static size_t running_build_id(uint8_t *id, size_t max)
{
	size_t len, off = 0, got = 0;
	char *buf;

	if (read_file("/sys/kernel/notes", &buf, &len))
		return 0;
	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off, next;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len)
			break;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz <= max) {
			memcpy(id, buf + desc_off, descsz);
			got = descsz;
			break;
		}
		off = next;
	}
	free(buf);
	return got;
}

static bool build_id_equal(const uint8_t *rec, size_t rec_len, const uint8_t *id, size_t len)
{
	size_t i;

	if (!len || len > rec_len || memcmp(rec, id, len))
		return false;
	for (i = len; i < rec_len; i++)
		if (rec[i])
			return false;
	return true;
}

/* 0: loaded into s->ks, <0: not */
static int load_kallsyms(struct tp_symbolizer *s, const char *path, const char *ref_name,
			 uint64_t ref_addr)
{
	struct tp_kallsyms *k;
	int err;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -TP_ERR_NOMEM;
	/* a report needs a few of its 100k symbols: read as they are needed */
	err = tp_kallsyms__open(k, path, ref_name);
	if (err == -TP_ERR_NOT_REGULAR)
		symlog(s, TP_LOG_WARN, "%s: skipped: %s", path, tp_strerror(err));
	if (err == -TP_ERR_NOT_REGULAR || err == -TP_ERR_IO) {
		free(k);
		return err;
	}
	if (err) {
		if (err != -TP_ERR_NOMEM)
			symlog(s, TP_LOG_WARN, "%s: no symbols with addresses (was it read with "
			       "kptr_restrict set?)", path);
		free(k);
		return err;
	}
	if (ref_addr && !k->has_ref)
		symlog(s, TP_LOG_WARN, "%s has no %s: kernel addresses are used unrelocated",
		       path, ref_name);
	s->ks = k;
	s->ks_delta = ref_addr && k->has_ref ? (int64_t)(k->ref_addr - ref_addr) : 0;
	return 0;
}

static void use_kallsyms(struct tp_symdso *dso, struct tp_symbolizer *s, const char *path,
			 long module, enum tp_symverify verify)
{
	dso->type = TP_SYMDSO_TYPE_KALLSYMS;
	dso->ks = s->ks;
	dso->module = module;
	dso->reloc = -s->ks_delta;
	dso->info.src = TP_SYMSRC_KALLSYMS;
	dso->info.verify = verify;
	dso->info.kernel_reloc = dso->reloc;
	dso->info.n_syms = s->ks->n_syms;
	tp_symdso__set_path(dso, &dso->info.sym_path, path);
	symlog(s, TP_LOG_INFO, "%s: symbols from %s (kallsyms, relocation %+lld)", dso->info.name,
	       path, (long long)dso->reloc);
}

/* the kallsyms files that belong to this kernel, best first; calls fn until it returns 0 */
static int each_kallsyms(struct tp_symbolizer *s, const struct tp_symdso *dso, const char *hex,
			 int (*fn)(struct tp_symbolizer *, const char *, void *), void *arg)
{
	char path[PATH_MAX];
	uint8_t id[TP_BUILD_ID_MAX];
	size_t len;

	if (s->buildid_dir && hex[0]) {
		if (!tp_path_fmt(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms",
				 s->buildid_dir, hex) && tp_path_is_file(path) && !fn(s, path, arg))
			return 0;
		if (!tp_path_fmt(path, sizeof(path), "%s/.build-id/%.2s/%s/kallsyms",
				 s->buildid_dir, hex, hex + 2) && tp_path_is_file(path) &&
		    !fn(s, path, arg))
			return 0;
	}
	/* the host's own kernel, only when it is the recorded one */
	if (!s->sysroot[0] && dso->id.build_id_len) {
		len = running_build_id(id, sizeof(id));
		if (build_id_equal(dso->id.build_id, dso->id.build_id_len, id, len) &&
		    !fn(s, "/proc/kallsyms", arg))
			return 0;
	}
	return -1;
}

struct ks_arg {
	const char *ref_name;
	uint64_t ref_addr;
	const char *used;
};

static int ks_try(struct tp_symbolizer *s, const char *path, void *arg)
{
	struct ks_arg *a = arg;

	if (load_kallsyms(s, path, a->ref_name, a->ref_addr))
		return -1;
	a->used = s->ks_path = tp_symarena__strdup(&s->arena, path);
	return 0;
}

static int try_vmlinux_paths(struct tp_symbolizer *s, struct tp_symdso *dso, const char *hex,
			     const char *rel, unsigned *n_bad)
{
	static const char *const fmts[] = {
		"%s/boot/vmlinux-%s", "%s/usr/lib/debug/boot/vmlinux-%s",
		"%s/lib/modules/%s/build/vmlinux", "%s/usr/lib/debug/lib/modules/%s/vmlinux",
	};
	char path[PATH_MAX];
	size_t i;
	int r;

	if (s->buildid_dir && hex[0] &&
	    !tp_path_fmt(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", s->buildid_dir, hex,
			 hex + 2) && tp_path_is_file(path)) {
		r = tp_symfind__try_vmlinux(s, dso, path, false);
		if (r <= 0)
			return r;
		*n_bad += r == 2;
	}
	if (!s->sysroot[0] || !rel || !rel[0])
		return 1;	/* host paths only under a sysroot: the host's kernel is not the device's */
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (tp_path_fmt(path, sizeof(path), fmts[i], s->sysroot, rel) ||
		    !tp_path_is_file(path))
			continue;
		r = tp_symfind__try_vmlinux(s, dso, path, false);
		if (r <= 0)
			return r;
		*n_bad += r == 2;
	}
	return 1;
}

static void set_reloc(struct tp_symbolizer *s, struct tp_symdso *dso, const char *ref_name,
		      uint64_t ref_addr)
{
	uint64_t v;

	if (!ref_addr)
		return;
	if (!tp_symelf__value(dso, ref_name, &v)) {
		symlog(s, TP_LOG_WARN, "%s has no %s: kernel addresses are used unrelocated",
		       dso->info.elf_path, ref_name);
		return;
	}
	dso->reloc = (int64_t)(ref_addr - v);
	dso->info.kernel_reloc = dso->reloc;
}

int tp_symbolizer__kernel(struct tp_symbolizer *s, const char *osrelease,
			  const uint8_t *build_id, size_t build_id_len,
			  const char *ref_name, uint64_t ref_addr, struct tp_symdso **out)
{
	char hex[2 * TP_BUILD_ID_MAX + 1] = "";
	struct ks_arg ka;
	struct tp_symdso *dso;
	unsigned n_bad = 0;
	int r;

	*out = s->kernel;
	if (s->kernel)
		return 0;
	if (build_id_len && !build_id)
		return -TP_ERR_INVAL;
	if (build_id_len > TP_BUILD_ID_MAX)
		build_id_len = TP_BUILD_ID_MAX;
	dso = tp_symdso__alloc(s, "[kernel.kallsyms]");
	if (!dso)
		return -TP_ERR_NOMEM;
	dso->kernel = true;
	if (build_id_len)
		memcpy(dso->id.build_id, build_id, build_id_len);
	dso->id.build_id_len = build_id_len;
	if (build_id_len)
		tp_hex(hex, build_id, build_id_len);
	s->kernel = *out = dso;
	ka = (struct ks_arg){ .ref_name = ref_name ? ref_name : "_text", .ref_addr = ref_addr };

	if (s->conf.kallsyms) {
		r = ks_try(s, s->conf.kallsyms, &ka);
		if (r == 0)
			use_kallsyms(dso, s, s->conf.kallsyms, -1, TP_SYMVERIFY_USER);
		else
			dso->info.status = TP_SYMDSO_UNREADABLE;
		return r == -TP_ERR_NOMEM ? r : tp_symembed__attach(s, dso, TP_SYMTAB_KERNEL);
	}
	if (s->conf.vmlinux) {
		r = tp_symfind__try_vmlinux(s, dso, s->conf.vmlinux, true);
		if (r < 0)
			return r;
		if (r > 0)
			dso->info.status = r == 2 ? TP_SYMDSO_MISMATCH :
					   tp_path_is_file(s->conf.vmlinux) ? TP_SYMDSO_UNREADABLE
									   : TP_SYMDSO_NOT_FOUND;
	} else {
		r = try_vmlinux_paths(s, dso, hex, osrelease, &n_bad);
		if (r < 0)
			return r;
	}
	if (r == 0) {
		set_reloc(s, dso, ka.ref_name, ref_addr);
		/* modules still come from a kallsyms, when there is one for this kernel */
		each_kallsyms(s, dso, hex, ks_try, &ka);
		return 0;
	}
	if (s->conf.vmlinux)
		return tp_symembed__attach(s, dso, TP_SYMTAB_KERNEL);
	if (each_kallsyms(s, dso, hex, ks_try, &ka) == 0) {
		use_kallsyms(dso, s, ka.used, -1, build_id_len ? TP_SYMVERIFY_BUILD_ID
							       : TP_SYMVERIFY_NONE);
		return 0;
	}
	dso->info.status = n_bad ? TP_SYMDSO_MISMATCH : TP_SYMDSO_NOT_FOUND;
	symlog(s, TP_LOG_INFO, "no kallsyms or vmlinux with build-id %s was found%s",
	       hex[0] ? hex : "(none recorded)", s->conf.embedded ? "" :
	       ": kernel addresses stay unresolved");
	return tp_symembed__attach(s, dso, TP_SYMTAB_KERNEL);
}

int tp_symbolizer__kmodule(struct tp_symbolizer *s, const char *name, struct tp_symdso **out)
{
	char mod[256], label[260];
	struct tp_symdso *dso;
	size_t len, i;
	long idx;

	*out = NULL;
	if (!name)
		return -TP_ERR_INVAL;
	if (name[0] == '[')
		name++;
	len = strcspn(name, "]");
	if (len >= sizeof(mod))
		return -TP_ERR_INVAL;
	memcpy(mod, name, len);
	mod[len] = '\0';
	snprintf(label, sizeof(label), "[%s]", mod);
	for (i = 0; i < s->n_dsos; i++) {
		if (s->dsos[i]->kernel && !strcmp(s->dsos[i]->info.name, label)) {
			*out = s->dsos[i];
			return 0;
		}
	}
	dso = tp_symdso__alloc(s, label);
	if (!dso)
		return -TP_ERR_NOMEM;
	dso->kernel = true;
	*out = dso;
	idx = s->ks ? tp_kallsyms__module(s->ks, mod) : -1;
	if (idx < 0) {
		dso->info.status = TP_SYMDSO_NOT_FOUND;
		return tp_symembed__attach(s, dso, TP_SYMTAB_MODULE);
	}
	use_kallsyms(dso, s, s->ks_path ? s->ks_path : "kallsyms", idx,
		     s->kernel ? s->kernel->info.verify : TP_SYMVERIFY_NONE);
	return 0;
}
