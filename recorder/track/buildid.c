/* SPDX-License-Identifier: MIT */
/* GNU build-ids from ELF notes and load-segment hashes (buildid.h). */
#include "libc-shim/shim.h"
#include "perfdata/elf-field.h"
#include "perfdata/texthash.h"
#include "recorder/track/buildid.h"

#define PT_LOAD		1
#define PT_NOTE		4
#define NT_GNU_BUILD_ID	3
#define AT_SYSINFO_EHDR	33	/* the same on every Linux arch */
#define NOTES_MAX	2048	/* bytes of a PT_NOTE segment searched: ids come early */
#define NATIVE_BE	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/* an ELF image read from a file (pread) or from memory (mem, size bytes) */
struct elf {
	int fd;
	const uint8_t *mem;
	uint64_t size;
	bool is64, be;
	uint64_t phoff;
	unsigned phentsize, phnum;
};

static int elf_read(const struct elf *e, void *buf, size_t len, uint64_t off)
{
	long n;

	if (e->mem) {
		if (off > e->size || len > e->size - off)
			return -TP_ENOEXEC;
		memcpy(buf, e->mem + (size_t)off, len);
		return 0;
	}
	n = sys_pread(e->fd, buf, len, off);
	return n < 0 ? (int)n : (size_t)n == len ? 0 : -TP_ENOEXEC;
}

static int elf_open(struct elf *e)
{
	uint8_t h[64];
	uint64_t f[TP_EH_PHNUM + 1];
	/* an ELF32 header, and 12 bytes more for ELF64's (class 2 in byte 4; tp_elf_header
	 * refuses what is no ELF after all) */
	int err = elf_read(e, h, 52, 0);

	if (!err && h[4] == 2)
		err = elf_read(e, h + 52, 12, 52);
	if (err)
		return err;
	err = tp_elf_header(h, h[4] == 2 ? 64 : 52, &e->is64, &e->be, f);
	if (err)
		return err;
	e->phoff = f[TP_EH_PHOFF];
	e->phentsize = (unsigned)f[TP_EH_PHENTSIZE];
	e->phnum = TP_MIN((unsigned)f[TP_EH_PHNUM], 256u);
	return 0;
}

/* program header i: f[TP_PH_TYPE..TP_PH_ALIGN] (i < 256 times a 16-bit phentsize fits 32
 * bits: no 64-bit multiply on 32-bit targets) */
static int elf_phdr(const struct elf *e, unsigned i, uint64_t *f)
{
	uint8_t p[56];
	int err = elf_read(e, p, TP_ELF_PHDR_MIN(e->is64), e->phoff + i * e->phentsize);

	if (!err)
		tp_elf_fields(p, e->is64, e->be, TP_PH_TYPE, 6, f);
	return err;
}

/* the NT_GNU_BUILD_ID note named "GNU" among the notes p[0..len) */
static int find_note(const uint8_t *p, size_t len, size_t align, bool be,
		     uint8_t *id, uint8_t *idlen)
{
	size_t off = 0, desc;

	while (off <= len && len - off >= 12) {
		size_t namesz = (size_t)tp_elf_get(p + off, 4, be);
		size_t descsz = (size_t)tp_elf_get(p + off + 4, 4, be);

		if (namesz > len || descsz > len)
			break;
		desc = off + 12 + TP_ALIGN(namesz, align);
		if (desc > len || descsz > len - desc)
			break;
		if (tp_elf_get(p + off + 8, 4, be) == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + off + 12, "GNU", 4) && descsz) {
			*idlen = (uint8_t)TP_MIN(descsz, (size_t)BUILD_ID_MAX);
			memcpy(id, p + desc, *idlen);
			return 0;
		}
		off = desc + TP_ALIGN(descsz, align);
	}
	return -TP_ENODATA;
}

static int elf_build_id(struct elf *e, uint8_t *id, uint8_t *len)
{
	uint8_t notes[NOTES_MAX];
	uint64_t f[TP_PH_ALIGN + 1];
	size_t size;
	int err = elf_open(e);

	/* an image in memory first gets its size: it ends with its last load segment */
	for (unsigned pass = !e->mem; !err && pass < 2; pass++)
		for (unsigned i = 0; !err && i < e->phnum; i++) {
			err = elf_phdr(e, i, f);
			if (!pass) {
				if (!err && f[TP_PH_TYPE] == PT_LOAD &&
				    f[TP_PH_OFFSET] + f[TP_PH_FILESZ] > e->size)
					e->size = f[TP_PH_OFFSET] + f[TP_PH_FILESZ];
				err = 0;
				continue;
			}
			if (err || f[TP_PH_TYPE] != PT_NOTE)
				continue;
			size = (size_t)TP_MIN(f[TP_PH_FILESZ], (uint64_t)sizeof(notes));
			err = elf_read(e, notes, size, f[TP_PH_OFFSET]);
			/* notes are 4-aligned, or 8 in segments aligned so (.note.gnu.property) */
			if (!err && !find_note(notes, size, f[TP_PH_ALIGN] == 8 ? 8 : 4, e->be, id,
					       len))
				return 0;
		}
	return err ? err : -TP_ENODATA;
}

int buildid__from_file(const char *path, uint8_t id[BUILD_ID_MAX], uint8_t *len,
			uint64_t *hash)
{
	struct elf e = { 0 };
	long fd = sys_open(path, TP_O_RDONLY | TP_O_CLOEXEC, 0), m;
	int64_t size;
	int err;

	if (fd < 0)
		return (int)fd;
	e.fd = (int)fd;
	err = elf_build_id(&e, id, len);
	/* no build-id: the load segment's hash, over the same open file (mapped whole) */
	if (err) {
		size = sys_lseek(e.fd, 0, TP_SEEK_END);
		if (size > 0 && (uint64_t)size <= (size_t)-1) {
			m = sys_mmap(NULL, (size_t)size, TP_PROT_READ, TP_MAP_PRIVATE, e.fd, 0);
			if ((unsigned long)m < (unsigned long)-4095) {
				*hash = tp_text_hash((const void *)m, (size_t)size);
				sys_munmap((void *)m, (size_t)size);
			}
		}
	}
	sys_close(e.fd);
	return err;
}

/* a file that is nothing but notes, from the running kernel */
static int sys_notes(const char *path, uint8_t *id, uint8_t *len)
{
	uint8_t buf[4096];
	long n = tp_read_file(path, (char *)buf, sizeof(buf));

	return n < 0 ? (int)n : find_note(buf, (size_t)n, 4, NATIVE_BE, id, len);
}

int buildid__kernel(uint8_t id[BUILD_ID_MAX], uint8_t *len)
{
	return sys_notes("/sys/kernel/notes", id, len);
}

int buildid__module(const char *name, uint8_t id[BUILD_ID_MAX], uint8_t *len)
{
	const char *end;
	char path[128];

	if (*name == '[')
		name++;
	end = strchr(name, ']');
	/* without ']' all of name: a negative precision */
	if (tp_snprintf(path, sizeof(path), "/sys/module/%.*s/notes/.note.gnu.build-id",
			end ? (int)(end - name) : -1, name) >= (int)sizeof(path))
		return -TP_ENAMETOOLONG;
	return sys_notes(path, id, len);
}

int buildid__vdso(uint8_t id[BUILD_ID_MAX], uint8_t *len)
{
	unsigned long base = tp_getauxval(AT_SYSINFO_EHDR);
	/* the headers are in its first page */
	struct elf e = { .mem = (const uint8_t *)base, .size = 4096 };

	return base ? elf_build_id(&e, id, len) : -TP_ENOENT;
}
