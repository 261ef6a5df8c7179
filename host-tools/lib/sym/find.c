/* SPDX-License-Identifier: MIT */
/* Where a DSO's files are looked for, in perf's order plus a sysroot, --debug-dir trees and
 * yocto's layout; sym/candidate.c proves each candidate right. elfutils 0.188 has no
 * dwfl_set_sysroot, so every path is built here; libdwfl still reads the files, and does
 * debuginfod and dwz alt files when this search ends empty-handed. */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/bidcache/bidcache.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"

__attribute__((format(printf, 2, 3)))
static int tryf(struct tp_symfinder *f, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	return tp_symfinder__try(f, path);
}

static int dd_cb(void *ctx, const char *path)
{
	return tp_symfinder__try(ctx, path);
}

/* libdwfl's debuginfod calls return an fd without a name: the name of what it opened */
static char *fd_path(int fd)
{
	char proc[64], link[PATH_MAX];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	return strdup(link);
}

/* a file fetched through libdwfl's standard callbacks by build-id: debuginfod, or the
 * .build-id tree under <sysroot>/usr/lib/debug */
static void try_by_build_id(struct tp_symfinder *f, const uint8_t *id, size_t len,
			    bool debuginfo)
{
	Dwfl_Callbacks cb = f->s->cb;
	char *fname = NULL;
	Dwfl_Module *m;
	Elf *elf = NULL;
	void *ud = NULL;
	Dwfl *tmp;
	int fd;

	cb.find_elf = dwfl_build_id_find_elf;
	cb.find_debuginfo = dwfl_standard_find_debuginfo;
	tmp = dwfl_begin(&cb);
	if (!tmp)
		return;
	dwfl_report_begin(tmp);
	m = dwfl_report_module(tmp, f->dso->info.name, 0, 1);
	if (m && dwfl_module_report_build_id(m, id, len, 0) == 0 &&
	    dwfl_report_end(tmp, NULL, NULL) == 0) {
		fd = debuginfo ? dwfl_standard_find_debuginfo(m, &ud, f->dso->info.name, 0, NULL,
							      NULL, 0, &fname)
			       : dwfl_build_id_find_elf(m, &ud, f->dso->info.name, 0, &fname, &elf);
		if (elf)
			elf_end(elf);
		if (fd >= 0 && !fname)
			fname = fd_path(fd);
		if (fd >= 0)
			close(fd);
		if (fname)
			tp_symfinder__try(f, fname);
	}
	free(fname);
	dwfl_end(tmp);
}


static bool is_file_path(const char *path)
{
	return path[0] == '/';
}

/* this host's vdso image, copied into a memory file: -1 if there is none */
static int host_vdso_fd(void)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	unsigned long lo = 0, hi = 0;
	char line[512];
	int fd = -1;

	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps)) {
		size_t n = strlen(line);

		if (n > 7 && !strcmp(line + n - 7, "[vdso]\n") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
		lo = hi = 0;
	}
	fclose(maps);
	if (hi <= lo)
		return -1;
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, (const void *)lo, hi - lo) != (ssize_t)(hi - lo)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* "[vdso]" not in the cache: perf's answer, this host's own vdso, when its build-id is the
 * recorded one, or with none recorded when the caller says the recording is of this host */
static void try_host_vdso(struct tp_symfinder *f)
{
	const struct tp_symident *id = &f->dso->id;
	char proc[64];
	int fd;

	if (f->fd >= 0 || (!id->build_id_len && !f->s->conf.host_vdso))
		return;
	fd = host_vdso_fd();
	if (fd < 0)
		return;
	if (id->build_id_len) {		/* another vdso: not a mismatch worth a warning */
		Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
		const void *fid = NULL;
		ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &fid) : -1;
		bool same = n > 0 &&
			    tp_build_id_match(id->build_id, id->build_id_len, fid, (size_t)n);

		elf_end(elf);
		if (!same) {
			close(fd);
			return;
		}
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	tp_symfinder__try(f, proc);
	f->host_vdso = f->fd >= 0;	/* nothing was held before: this is it */
	close(fd);
}

static void search_main(struct tp_symfinder *f, const char *path, const char *hex)
{
	struct tp_symbolizer *s = f->s;
	const struct tp_symident *id = &f->dso->id;
	size_t i;

	if (s->buildid_dir && hex[0]) {
		if (!strcmp(path, "[vdso]") || !strcmp(path, "[vdso32]") ||
		    !strcmp(path, "[vdsox32]")) {
			/* perf caches a vdso as <dir>/[vdso]/<id>/vdso ([vdso32], [vdsox32]) */
			tryf(f, "%s/.build-id/%.2s/%s/vdso", s->buildid_dir, hex, hex + 2);
			tryf(f, "%s/%s/%s/vdso", s->buildid_dir, path, hex);
		}
		tryf(f, "%s/.build-id/%.2s/%s/elf", s->buildid_dir, hex, hex + 2);
		tryf(f, "%s/.build-id/%.2s/%s", s->buildid_dir, hex, hex + 2);
		if (is_file_path(path))
			tryf(f, "%s%s/%s/elf", s->buildid_dir, path, hex);
	}
	if (s->buildid_dir && !hex[0] && id->text_hash) {	/* bidcache.h's text-hash tree */
		struct tp_bidkey k = { .text_hash = id->text_hash };
		char p[PATH_MAX];

		if (!tp_bidcache_path(p, sizeof(p), s->buildid_dir, &k, TP_BID_ELF))
			tp_symfinder__try(f, p);
	}
	if (!strcmp(path, "[vdso]"))
		try_host_vdso(f);
	if (!is_file_path(path))
		return;
	tryf(f, "%s%s", s->sysroot, path);
	for (i = 0; i < s->dd.n_roots; i++)
		tryf(f, "%s%s", s->dd.roots[i], path);
	if (!tp_symfinder__done(f))
		tp_debugdirs__each(&s->dd, tp_path_basename(path), dd_cb, f);
	if (f->fd < 0 && s->debuginfod && id->build_id_len)
		try_by_build_id(f, id->build_id, id->build_id_len, false);
}

static void search_debug_by_id(struct tp_symfinder *f, const char *hex)
{
	struct tp_symbolizer *s = f->s;
	size_t i;

	if (!hex[0])
		return;
	if (s->buildid_dir)
		tryf(f, "%s/.build-id/%.2s/%s/debug", s->buildid_dir, hex, hex + 2);
	tryf(f, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", s->sysroot, hex, hex + 2);
	for (i = 0; i < s->dd.n_roots; i++) {
		tryf(f, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", s->dd.roots[i], hex, hex + 2);
		tryf(f, "%s/.build-id/%.2s/%s.debug", s->dd.roots[i], hex, hex + 2);
	}
}

static void search_debug(struct tp_symfinder *f, const char *path, const char *link,
			 const char *main_path, const char *hex)
{
	struct tp_symbolizer *s = f->s;
	const char *sr = s->sysroot, *base;
	char dir[PATH_MAX], mdir[PATH_MAX];
	size_t i;

	search_debug_by_id(f, hex);
	if (!is_file_path(path))
		return;
	tp_path_dirname(dir, sizeof(dir), path);
	base = tp_path_basename(path);
	if (link) {
		tryf(f, "%s%s/%s", sr, dir, link);
		tryf(f, "%s%s/.debug/%s", sr, dir, link);
		tryf(f, "%s/usr/lib/debug%s/%s", sr, dir, link);
		if (main_path) {
			tp_path_dirname(mdir, sizeof(mdir), main_path);
			tryf(f, "%s/%s", mdir, link);
			tryf(f, "%s/.debug/%s", mdir, link);
		}
	}
	tryf(f, "%s%s/.debug/%s", sr, dir, base);	/* yocto's -dbg packages */
	tryf(f, "%s/usr/lib/debug%s.debug", sr, path);
	tryf(f, "%s/usr/lib/debug%s", sr, path);
	for (i = 0; i < s->dd.n_roots; i++) {
		const char *r = s->dd.roots[i];

		if (link)
			tryf(f, "%s%s/.debug/%s", r, dir, link);
		tryf(f, "%s%s/.debug/%s", r, dir, base);
		tryf(f, "%s/usr/lib/debug%s.debug", r, path);
		tryf(f, "%s%s", r, path);
	}
	if (!tp_symfinder__done(f))
		tp_debugdirs__each(&s->dd, base, dd_cb, f);
	if (!tp_symfinder__done(f) && link && strcmp(link, base))
		tp_debugdirs__each(&s->dd, link, dd_cb, f);
}

int tp_symfind__user(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path)
{
	const struct tp_symident *id = &dso->id;
	char hex[2 * TP_BUILD_ID_MAX + 1] = "";
	struct tp_symfinder f;
	int err;

	if (id->build_id_len)
		tp_hex(hex, id->build_id, id->build_id_len);
	tp_symfinder__init(&f, s, dso, TP_SYMROLE_MAIN);
	search_main(&f, path, hex);
	if (f.fd < 0 && hex[0]) {
		unsigned mismatches = f.n_mismatch;

		tp_symfinder__init(&f, s, dso, TP_SYMROLE_DEBUG_AS_MAIN);
		f.n_mismatch = mismatches;
		search_debug_by_id(&f, hex);
		if (f.fd < 0 && s->debuginfod)
			try_by_build_id(&f, id->build_id, id->build_id_len, true);
	}
	if (f.fd < 0) {
		dso->info.status = f.n_mismatch ? TP_SYMDSO_MISMATCH : TP_SYMDSO_NOT_FOUND;
		symlog(s, TP_LOG_INFO, "%s: %s", path, f.n_mismatch ?
		       "no file with the recorded identity: addresses stay unresolved" :
		       "not found: addresses stay unresolved");
		return 0;
	}
	dso->info.verify = f.verify;
	dso->addr_is_offset = true;
	dso->stand_in = f.role == TP_SYMROLE_DEBUG_AS_MAIN;
	err = tp_symelf__open(s, dso, f.path, f.fd);
	if (err == -TP_ERR_NOMEM)
		return err;
	if (err)
		dso->info.status = TP_SYMDSO_UNREADABLE;
	if (f.host_vdso) {	/* /proc/self/fd/N means nothing to a reader */
		dso->info.elf_path = "this host's vdso";
		if (dso->info.sym_path)
			dso->info.sym_path = dso->info.elf_path;
	}
	return 0;
}

int tp_symfind__try_vmlinux(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path,
			    bool given_by_user)
{
	struct tp_symfinder f;
	int err;

	tp_symfinder__init(&f, s, dso, TP_SYMROLE_KERNEL);
	f.user_given = given_by_user;
	tp_symfinder__try(&f, path);
	if (f.fd < 0)
		return f.n_mismatch ? 2 : 1;
	dso->info.verify = f.verify;
	err = tp_symelf__open(s, dso, f.path, f.fd);
	return err == -TP_ERR_NOMEM ? err : err ? 1 : 0;
}

/* Check a debug file libdwfl found on its own (debuginfod) against the main file. */
static bool verify_fetched(struct tp_symdso *dso, int fd, const char *path)
{
	struct tp_symfinder f;

	(void)fd;	/* checked by path: try_path opens it again */
	tp_symfinder__init(&f, dso->owner, dso, TP_SYMROLE_DEBUG);
	tp_symfinder__try(&f, path);
	if (f.fd < 0)
		return false;
	dso->debug_has_dwarf = f.has_dwarf;
	close(f.fd);
	return true;
}

int tp_symfind__debuginfo_cb(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct tp_symdso *dso = userdata ? *userdata : NULL;
	char hex[2 * TP_BUILD_ID_MAX + 1] = "";
	const unsigned char *bits;
	struct tp_symbolizer *s;
	GElf_Addr bits_vaddr;
	struct tp_symfinder f;
	int fd;

	if (!dso)
		return -1;
	s = dso->owner;
	/* a second call, or one while the main file has DWARF, is for a dwz alt file: libdwfl
	 * validates those by build-id itself */
	if (dso->info.debug_path || dso->main_has_dwarf ||
	    (debuglink_file && (!dso->debuglink || strcmp(debuglink_file, dso->debuglink)))) {
		if (!s->debuginfod)
			return dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
							    debuglink_file, debuglink_crc,
							    debuginfo_file_name);
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	}
	if (dso->debug_searched)
		return -1;	/* libdwfl asks again for DWARF after a failed symtab search */
	dso->debug_searched = true;
	tp_symfinder__init(&f, s, dso, TP_SYMROLE_DEBUG);
	if (file_name && stat(file_name, &f.main_st) == 0)
		f.have_main_st = true;
	if (dso->id.build_id_len)
		tp_hex(hex, dso->id.build_id, dso->id.build_id_len);
	else if (dso->main_build_id_len)
		tp_hex(hex, dso->main_build_id, dso->main_build_id_len);
	search_debug(&f, dso->info.name, dso->debuglink, file_name, hex);
	if (f.fd >= 0) {
		*debuginfo_file_name = strdup(f.path);
		if (!*debuginfo_file_name) {
			close(f.fd);
			return -1;
		}
		dso->debug_has_dwarf = f.has_dwarf;
		tp_symdso__set_path(dso, &dso->info.debug_path, f.path);
		return f.fd;
	}
	/* debuginfod, through libdwfl, when the main file has a build-id to ask for */
	if (!s->debuginfod || dwfl_module_build_id(mod, &bits, &bits_vaddr) <= 0)
		return -1;
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd < 0)
		return -1;
	if (!*debuginfo_file_name)
		*debuginfo_file_name = fd_path(fd);
	if (!*debuginfo_file_name || !verify_fetched(dso, fd, *debuginfo_file_name)) {
		close(fd);
		free(*debuginfo_file_name);
		*debuginfo_file_name = NULL;
		return -1;
	}
	tp_symdso__set_path(dso, &dso->info.debug_path, *debuginfo_file_name);
	return fd;
}
