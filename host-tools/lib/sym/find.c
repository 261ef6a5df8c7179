/* Where a DSO's files are looked for, in perf's order plus a sysroot, --debug-dir trees and
 * yocto's layout, and how each candidate is proven to be the file that ran (build-id, else
 * tinyperf's text hash, else the main file's debuglink CRC). elfutils 0.188 has no
 * dwfl_set_sysroot, so every path is built here; libdwfl still reads the files, and does
 * debuginfod and dwz alt files when this search ends empty-handed. */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
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
#include "perfdata/texthash.h"

enum role {
	ROLE_MAIN,		/* the file with the code, which maps file offsets */
	ROLE_DEBUG,		/* symbols and DWARF for a main file without them */
	ROLE_DEBUG_AS_MAIN,	/* no main file at all: a debug file found by build-id */
	ROLE_KERNEL,		/* a vmlinux */
};

#define MAX_SEEN 64

struct finder {
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	enum role role;
	bool user_given;
	int fd;			/* the accepted file, or -1 */
	char path[PATH_MAX];
	enum tp_symverify verify;
	bool has_dwarf;
	unsigned n_mismatch;
	struct stat seen[MAX_SEEN];	/* files examined already (dev, ino) */
	unsigned n_seen;
	struct stat main_st;		/* ROLE_DEBUG: the main file, never its own debug file */
	bool have_main_st;
	bool host_vdso;			/* the accepted file is this host's own vdso */
};

#define symlog(s, lvl, ...) tp_log__msg(&(s)->conf.log, (lvl), __VA_ARGS__)

static bool id_match(const uint8_t *rec, size_t rec_len, const uint8_t *file, size_t file_len)
{
	size_t i;

	if (!file_len || file_len > rec_len || memcmp(rec, file, file_len))
		return false;
	for (i = file_len; i < rec_len; i++)	/* perf pads shorter ids to 20 bytes */
		if (rec[i])
			return false;
	return true;
}

static void hex_id(char *out, size_t size, const uint8_t *id, size_t len)
{
	if (!len || 2 * len + 1 > size) {
		snprintf(out, size, "none");
		return;
	}
	tp_hex(out, id, len);
}

static uint32_t file_crc32(int fd, bool *ok)
{
	static const uint32_t poly = 0xedb88320;	/* zlib's, reflected */
	uint32_t table[256], crc = 0xffffffff;
	unsigned char buf[65536];
	off_t pos = 0;
	ssize_t n;
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (k = 0; k < 8; k++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	while ((n = pread(fd, buf, sizeof(buf), pos)) > 0) {
		for (i = 0; i < (unsigned)n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		pos += n;
	}
	*ok = n == 0;
	return crc ^ 0xffffffff;
}

static uint64_t elf_text_hash(Elf *elf)
{
	size_t size = 0;
	char *raw = elf_rawfile(elf, &size);

	return raw ? tp_text_hash(raw, size) : 0;
}

static bool useful(const struct finder *f, Elf *elf, bool *has_dwarf)
{
	bool symtab = tp_elf_has_section(elf, ".symtab", true);

	*has_dwarf = tp_elf_has_section(elf, ".debug_info", true) ||
		     tp_elf_has_section(elf, ".zdebug_info", true);
	switch (f->role) {
	case ROLE_MAIN: return tp_elf_has_code(elf);
	case ROLE_DEBUG: return symtab || *has_dwarf;
	case ROLE_DEBUG_AS_MAIN: return symtab;
	case ROLE_KERNEL: return symtab || tp_elf_has_code(elf);
	}
	return false;
}

/* 1: right file (*verify set), 0: wrong (logged) */
static int check_identity(struct finder *f, Elf *elf, int fd, const char *path,
			  enum tp_symverify *verify)
{
	const struct tp_symident *id = &f->dso->id;
	struct tp_symdso *dso = f->dso;
	struct tp_symbolizer *s = f->s;
	char want[2 * TP_BUILD_ID_MAX + 1], have[2 * TP_BUILD_ID_MAX + 1];
	const void *fid = NULL;
	ssize_t fid_len = dwelf_elf_gnu_build_id(elf, &fid);
	uint64_t h;

	if (fid_len < 0 || fid_len > TP_BUILD_ID_MAX)
		fid_len = 0;
	hex_id(have, sizeof(have), fid, (size_t)fid_len);
	if (id->build_id_len) {
		if (id_match(id->build_id, id->build_id_len, fid, (size_t)fid_len)) {
			*verify = TP_SYMVERIFY_BUILD_ID;
			return 1;
		}
		hex_id(want, sizeof(want), id->build_id, id->build_id_len);
		symlog(s, TP_LOG_WARN, "build-id mismatch for %s: recorded %s, file has %s",
		       path, want, have);
		return 0;
	}
	if (f->role == ROLE_DEBUG) {
		/* no recorded build-id: the main file's identity carries over to its debug file */
		*verify = dso->info.verify;
		if (dso->main_build_id_len) {
			if (id_match(dso->main_build_id, dso->main_build_id_len, fid,
				     (size_t)fid_len))
				return 1;
			hex_id(want, sizeof(want), dso->main_build_id, dso->main_build_id_len);
			symlog(s, TP_LOG_WARN, "build-id mismatch for %s: %s has %s, file has %s",
			       path, dso->info.elf_path, want, have);
			return 0;
		}
		if (dso->has_debuglink) {
			bool ok;
			uint32_t crc = file_crc32(fd, &ok);

			if (ok && crc == dso->debuglink_crc)
				return 1;
		}
		h = elf_text_hash(elf);
		if (h && h == dso->main_text_hash)
			return 1;
		if (dso->has_debuglink || dso->main_text_hash) {
			symlog(s, TP_LOG_WARN, "%s does not belong to %s: neither its debuglink "
			       "CRC nor its code matches", path, dso->info.elf_path);
			return 0;
		}
		return !s->conf.strict;
	}
	if (id->text_hash && f->role != ROLE_DEBUG_AS_MAIN) {
		h = elf_text_hash(elf);
		if (h == id->text_hash) {
			*verify = TP_SYMVERIFY_TEXT_HASH;
			return 1;
		}
		symlog(s, TP_LOG_WARN, "text hash mismatch for %s: recorded %016llx, file has "
		       "%016llx", path, (unsigned long long)id->text_hash, (unsigned long long)h);
		return 0;
	}
	if (f->user_given) {
		*verify = TP_SYMVERIFY_USER;
		return 1;
	}
	if (s->conf.strict) {
		symlog(s, TP_LOG_WARN, "no build-id or text hash recorded for %s: not using %s "
		       "unverified", dso->info.name, path);
		return 0;
	}
	symlog(s, TP_LOG_WARN, "no build-id or text hash recorded for %s: using %s unverified",
	       dso->info.name, path);
	*verify = TP_SYMVERIFY_NONE;
	return 1;
}

/* what the callback and the lookups need to know about the main file, before libdwfl loads */
static void note_main(struct finder *f, Elf *elf)
{
	struct tp_symdso *dso = f->dso;
	const void *id = NULL;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);
	GElf_Word crc = 0;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);

	if (len > 0 && len <= TP_BUILD_ID_MAX) {
		memcpy(dso->main_build_id, id, (size_t)len);
		dso->main_build_id_len = (size_t)len;
	}
	/* only needed to match a debug file when the main file has no build-id */
	dso->main_text_hash = dso->main_build_id_len ? 0 : elf_text_hash(elf);
	dso->debuglink = link ? tp_symarena__strdup(&dso->arena, link) : NULL;
	dso->has_debuglink = dso->debuglink != NULL;
	dso->debuglink_crc = crc;
	dso->main_has_dwarf = f->has_dwarf;
}

/* 1: accepted (stop searching), 0: go on */
static int try_path(struct finder *f, const char *path)
{
	enum tp_symverify verify = TP_SYMVERIFY_NONE;
	GElf_Ehdr eh;
	struct stat st;
	bool has_dwarf;
	Elf *elf;
	unsigned i;
	int fd;

	if (f->fd >= 0)
		return 1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out_skip;
	for (i = 0; i < f->n_seen; i++)
		if (f->seen[i].st_dev == st.st_dev && f->seen[i].st_ino == st.st_ino)
			goto out_skip;
	if (f->have_main_st && st.st_dev == f->main_st.st_dev && st.st_ino == f->main_st.st_ino)
		goto out_skip;
	if (f->n_seen < MAX_SEEN)
		f->seen[f->n_seen++] = st;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		symlog(f->s, TP_LOG_DEBUG, "%s: not an executable or shared ELF file", path);
		goto out_end;
	}
	if (!useful(f, elf, &has_dwarf)) {
		symlog(f->s, TP_LOG_DEBUG, "%s: has no %s", path,
		       f->role == ROLE_MAIN ? "code" : "symbols");
		goto out_end;
	}
	if (!check_identity(f, elf, fd, path, &verify)) {
		f->n_mismatch++;
		goto out_end;
	}
	f->has_dwarf = has_dwarf;
	if (f->role != ROLE_DEBUG)
		note_main(f, elf);
	elf_end(elf);
	f->fd = fd;
	f->verify = verify;
	snprintf(f->path, sizeof(f->path), "%s", path);
	symlog(f->s, TP_LOG_DEBUG, "%s: using %s", f->dso->info.name, path);
	return 1;

out_end:
	elf_end(elf);
out_skip:
	close(fd);
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int tryf(struct finder *f, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	return try_path(f, path);
}

static int dd_cb(void *ctx, const char *path)
{
	return try_path(ctx, path);
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
static void try_by_build_id(struct finder *f, const uint8_t *id, size_t len, bool debuginfo)
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
			try_path(f, fname);
	}
	free(fname);
	dwfl_end(tmp);
}

static void finder_init(struct finder *f, struct tp_symbolizer *s, struct tp_symdso *dso,
			enum role role)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->dso = dso;
	f->role = role;
	f->fd = -1;
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
static void try_host_vdso(struct finder *f)
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
		bool same = n > 0 && id_match(id->build_id, id->build_id_len, fid, (size_t)n);

		elf_end(elf);
		if (!same) {
			close(fd);
			return;
		}
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (try_path(f, proc))
		f->host_vdso = true;
	close(fd);
}

static void search_main(struct finder *f, const char *path, const char *hex)
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
			try_path(f, p);
	}
	if (!strcmp(path, "[vdso]"))
		try_host_vdso(f);
	if (!is_file_path(path))
		return;
	tryf(f, "%s%s", s->sysroot, path);
	for (i = 0; i < s->dd.n_roots; i++)
		tryf(f, "%s%s", s->dd.roots[i], path);
	if (f->fd < 0)
		tp_debugdirs__each(&s->dd, tp_path_basename(path), dd_cb, f);
	if (f->fd < 0 && s->debuginfod && id->build_id_len)
		try_by_build_id(f, id->build_id, id->build_id_len, false);
}

static void search_debug_by_id(struct finder *f, const char *hex)
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

static void search_debug(struct finder *f, const char *path, const char *link,
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
	if (f->fd < 0)
		tp_debugdirs__each(&s->dd, base, dd_cb, f);
	if (f->fd < 0 && link && strcmp(link, base))
		tp_debugdirs__each(&s->dd, link, dd_cb, f);
}

int tp_symfind__user(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path)
{
	const struct tp_symident *id = &dso->id;
	char hex[2 * TP_BUILD_ID_MAX + 1] = "";
	struct finder f;
	int err;

	if (id->build_id_len)
		tp_hex(hex, id->build_id, id->build_id_len);
	finder_init(&f, s, dso, ROLE_MAIN);
	search_main(&f, path, hex);
	if (f.fd < 0 && hex[0]) {
		unsigned mismatches = f.n_mismatch;

		finder_init(&f, s, dso, ROLE_DEBUG_AS_MAIN);
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
	dso->stand_in = f.role == ROLE_DEBUG_AS_MAIN;
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
	struct finder f;
	int err;

	finder_init(&f, s, dso, ROLE_KERNEL);
	f.user_given = given_by_user;
	if (!try_path(&f, path))
		return f.n_mismatch ? 2 : 1;
	dso->info.verify = f.verify;
	err = tp_symelf__open(s, dso, f.path, f.fd);
	return err == -TP_ERR_NOMEM ? err : err ? 1 : 0;
}

/* Check a debug file libdwfl found on its own (debuginfod) against the main file. */
static bool verify_fetched(struct tp_symdso *dso, int fd, const char *path)
{
	struct finder f;

	(void)fd;	/* checked by path: try_path opens it again */
	finder_init(&f, dso->owner, dso, ROLE_DEBUG);
	if (!try_path(&f, path))
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
	struct finder f;
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
	finder_init(&f, s, dso, ROLE_DEBUG);
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
