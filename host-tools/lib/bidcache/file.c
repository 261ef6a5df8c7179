/* SPDX-License-Identifier: MIT */
/* What a file is to the build-id cache: a binary with code, a debug-only file, a kallsyms
 * text, or something it does not keep; and its identity (GNU build-id, else text hash). */
#define _GNU_SOURCE
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-tools/lib/bidcache/bidcache.h"
#include "host-tools/lib/common/common.h"
#include "perfdata/texthash.h"

/* "ffffffff81000000 T _text": a hex address, a space, a type letter, a space */
static bool kallsyms_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
		i++;
	return i >= 8 && i + 3 < n && p[i] == ' ' && p[i + 2] == ' ' &&
	       ((p[i + 1] >= 'a' && p[i + 1] <= 'z') || (p[i + 1] >= 'A' && p[i + 1] <= 'Z'));
}

static int identify_elf(int fd, struct tp_bidfile *f, const char **why)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *id = NULL;
	GElf_Ehdr eh;
	ssize_t len;
	int r = 1;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		*why = "not an ELF file";
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		*why = "not an executable, shared library, vmlinux or debug file";
		goto out;
	}
	if (tp_elf_has_code(elf)) {
		f->kind = TP_BID_ELF;
	} else if (tp_elf_has_section(elf, ".symtab", true) ||
		   tp_elf_has_section(elf, ".debug_info", true)) {
		f->kind = TP_BID_DEBUG;
	} else {
		*why = "neither code nor symbols";
		goto out;
	}
	len = dwelf_elf_gnu_build_id(elf, &id);
	if (len > 0 && len <= TP_BIDKEY_MAX) {
		memcpy(f->key.build_id, id, (size_t)len);
		f->key.build_id_len = (size_t)len;
		r = 0;
	} else if (f->kind == TP_BID_ELF) {
		size_t size = 0;
		char *raw = elf_rawfile(elf, &size);

		f->key.text_hash = raw ? tp_text_hash(raw, size) : 0;
		r = f->key.text_hash ? 0 : 1;
		if (r)
			*why = "no build-id and no executable segment to hash";
	} else {
		*why = "a debug file without a build-id (add the binary it belongs to instead)";
	}
out:
	elf_end(elf);
	return r;
}

int tp_bidfile__identify(const char *path, struct tp_bidfile *f, const char **why,
			 const struct tp_log *log)
{
	char head[256];
	ssize_t n;
	int fd, r;

	memset(f, 0, sizeof(*f));
	*why = "";
	fd = tp_fs__open_regular(path, NULL);
	if (fd < 0) {
		r = fd;
		tp_log__error(log, "cannot open %s: %s", path, tp_strerror(r));
		return r;
	}
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0) {
		r = -errno;
		tp_log__error(log, "cannot read %s: %s", path, tp_strerror(r));
		close(fd);
		return r;
	}
	if (n >= 4 && !memcmp(head, ELFMAG, SELFMAG)) {
		elf_version(EV_CURRENT);
		r = identify_elf(fd, f, why);
	} else if (kallsyms_line(head, (size_t)n) || (n == 0 && !strcmp(path, "/proc/kallsyms"))) {
		f->kind = TP_BID_KALLSYMS;	/* /proc files stat as empty: read on */
		r = 0;
	} else {
		*why = "not an ELF file";
		r = 1;
	}
	close(fd);
	return r;
}

int tp_bidfile__running_kernel(struct tp_bidkey *k)
{
	uint8_t *buf;
	size_t len, off = 0;
	int err = tp_fs__read_all("/sys/kernel/notes", &buf, &len);

	memset(k, 0, sizeof(*k));
	if (err)
		return err;
	/* ELF notes in the kernel's (our) byte order: namesz, descsz, type, name, desc */
	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t desc_off, next;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = off + 12 + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + off + 12, "GNU", 4) &&
		    descsz && descsz <= TP_BIDKEY_MAX) {
			memcpy(k->build_id, buf + desc_off, descsz);
			k->build_id_len = descsz;
			break;
		}
		off = next;
	}
	free(buf);
	return k->build_id_len ? 0 : -TP_ERR_IO;
}
