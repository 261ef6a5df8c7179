/* SPDX-License-Identifier: MIT */
/* Whether a candidate file is the one a DSO needs: an ELF with what its role asks for, proven
 * to be the file that ran (build-id, else tinyperf's text hash, else the main file's
 * debuglink CRC). Where candidates are looked for is sym/find.c. */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/internal.h"
#include "perfdata/texthash.h"

bool tp_build_id_match(const uint8_t *rec, size_t rec_len, const uint8_t *file, size_t file_len)
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

static bool useful(const struct tp_symfinder *f, Elf *elf, enum tp_elf_richness rich)
{
	bool symtab = rich == TP_ELF_SYMTAB ||
		      (rich == TP_ELF_DWARF && tp_elf_has_section(elf, ".symtab", true));

	switch (f->role) {
	case TP_SYMROLE_MAIN: return tp_elf_has_code(elf);
	case TP_SYMROLE_DEBUG: return rich != TP_ELF_BARE;
	case TP_SYMROLE_DEBUG_AS_MAIN: return symtab;
	case TP_SYMROLE_KERNEL: return symtab || tp_elf_has_code(elf);
	}
	return false;
}

/* A candidate is not the file that ran. With nothing held yet that is a warning; with a
 * verified copy held it was a richer one (only those get this far): the report header says
 * which and why, in the DSO's info, and the log only at INFO level. */
__attribute__((format(printf, 2, 3)))
static void refuse(struct tp_symfinder *f, const char *fmt, ...)
{
	char msg[2 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f->fd < 0) {
		symlog(f->s, TP_LOG_WARN, "%s", msg);
		return;
	}
	symlog(f->s, TP_LOG_INFO, "a richer copy is not used: %s", msg);
	if (!f->dso->info.refused)
		f->dso->info.refused = tp_symarena__strdup(&f->dso->arena, msg);
}

/* 1: right file (*verify set), 0: wrong (refused) */
static int check_identity(struct tp_symfinder *f, Elf *elf, int fd, const char *path,
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
		if (tp_build_id_match(id->build_id, id->build_id_len, fid, (size_t)fid_len)) {
			*verify = TP_SYMVERIFY_BUILD_ID;
			return 1;
		}
		hex_id(want, sizeof(want), id->build_id, id->build_id_len);
		refuse(f, "build-id mismatch for %s: recorded %s, file has %s",
		       path, want, have);
		return 0;
	}
	if (f->role == TP_SYMROLE_DEBUG) {
		/* no recorded build-id: the main file's identity carries over to its debug file */
		*verify = dso->info.verify;
		if (dso->main_build_id_len) {
			if (tp_build_id_match(dso->main_build_id, dso->main_build_id_len, fid,
				     (size_t)fid_len))
				return 1;
			hex_id(want, sizeof(want), dso->main_build_id, dso->main_build_id_len);
			refuse(f, "build-id mismatch for %s: %s has %s, file has %s",
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
			refuse(f, "%s does not belong to %s: neither its debuglink "
			       "CRC nor its code matches", path, dso->info.elf_path);
			return 0;
		}
		return !s->conf.strict;
	}
	if (id->text_hash && f->role != TP_SYMROLE_DEBUG_AS_MAIN) {
		h = elf_text_hash(elf);
		if (h == id->text_hash) {
			*verify = TP_SYMVERIFY_TEXT_HASH;
			return 1;
		}
		refuse(f, "text hash mismatch for %s: recorded %016llx, file has "
		       "%016llx", path, (unsigned long long)id->text_hash, (unsigned long long)h);
		return 0;
	}
	if (f->user_given) {
		*verify = TP_SYMVERIFY_USER;
		return 1;
	}
	if (s->conf.strict) {
		refuse(f, "no build-id or text hash recorded for %s: not using %s "
		       "unverified", dso->info.name, path);
		return 0;
	}
	symlog(s, TP_LOG_WARN, "no build-id or text hash recorded for %s: using %s unverified",
	       dso->info.name, path);
	*verify = TP_SYMVERIFY_NONE;
	return 1;
}

/* what the callback and the lookups need to know about the main file, before libdwfl loads */
static void note_main(struct tp_symfinder *f, Elf *elf)
{
	struct tp_symdso *dso = f->dso;
	const void *id = NULL;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);
	GElf_Word crc = 0;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);

	dso->main_build_id_len = 0;	/* a richer copy may replace the first one found */
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

bool tp_symfinder__done(const struct tp_symfinder *f)
{
	return f->fd >= 0 && (f->final || f->rich == TP_ELF_DWARF);
}

int tp_symfinder__try(struct tp_symfinder *f, const char *path)
{
	enum tp_symverify verify = TP_SYMVERIFY_NONE;
	GElf_Ehdr eh;
	enum tp_elf_richness rich;
	struct stat st;
	Elf *elf;
	unsigned i;
	int fd;

	if (tp_symfinder__done(f))
		return 1;
	/* a FIFO at a binary's path must not hang the search, nor /dev/zero fill memory */
	fd = tp_fs__open_regular(path, &st);
	if (fd == -TP_ERR_NOT_REGULAR)
		symlog(f->s, TP_LOG_WARN, "%s: skipped: %s", path, tp_strerror(fd));
	if (fd < 0)
		return 0;
	for (i = 0; i < f->n_seen; i++)
		if (f->seen[i].st_dev == st.st_dev && f->seen[i].st_ino == st.st_ino)
			goto out_skip;
	if (f->have_main_st && st.st_dev == f->main_st.st_dev && st.st_ino == f->main_st.st_ino)
		goto out_skip;
	if (f->n_seen < TP_SYMFINDER_SEEN)
		f->seen[f->n_seen++] = st;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		symlog(f->s, TP_LOG_DEBUG, "%s: not an executable or shared ELF file", path);
		goto out_end;
	}
	rich = tp_elf_richness(elf);
	if (!useful(f, elf, rich)) {
		symlog(f->s, TP_LOG_DEBUG, "%s: has no %s", path,
		       f->role == TP_SYMROLE_MAIN ? "code" : "symbols");
		goto out_end;
	}
	if (f->fd >= 0 && rich <= f->rich) {	/* the right file, but no richer */
		symlog(f->s, TP_LOG_DEBUG, "%s: not richer than %s", path, f->path);
		goto out_end;
	}
	if (!check_identity(f, elf, fd, path, &verify)) {
		if (f->fd < 0)
			f->n_mismatch++;
		goto out_end;
	}
	f->has_dwarf = rich == TP_ELF_DWARF;
	if (f->role != TP_SYMROLE_DEBUG)
		note_main(f, elf);
	elf_end(elf);
	if (f->fd >= 0) {
		symlog(f->s, TP_LOG_DEBUG, "%s: %s is richer than %s", f->dso->info.name, path,
		       f->path);
		close(f->fd);
	}
	f->fd = fd;
	f->rich = rich;
	f->verify = verify;
	/* only proven copies are compared: without an identity the first file found is used, as
	 * before; a vmlinux or a stand-in debug file is taken as found */
	f->final = f->role == TP_SYMROLE_KERNEL || f->role == TP_SYMROLE_DEBUG_AS_MAIN ||
		   verify == TP_SYMVERIFY_NONE || verify == TP_SYMVERIFY_USER;
	snprintf(f->path, sizeof(f->path), "%s", path);
	symlog(f->s, TP_LOG_DEBUG, "%s: using %s", f->dso->info.name, path);
	return tp_symfinder__done(f);

out_end:
	elf_end(elf);
out_skip:
	close(fd);
	return 0;
}

void tp_symfinder__init(struct tp_symfinder *f, struct tp_symbolizer *s, struct tp_symdso *dso,
			enum tp_symrole role)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->dso = dso;
	f->role = role;
	f->fd = -1;
}
