/* tp_text_hash(): FNV-1a 64 over the first executable load segment (the contract is in
 * texthash.h). Parses the ELF itself, byte by byte, so it runs on the device over an mmapped
 * file of any class and byte order without alignment assumptions. */
#include "perfdata/elf-field.h"
#include "perfdata/texthash.h"

#define FNV64_BASIS 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

#define PT_LOAD 1
#define PF_X 1

struct elf_view {
	const uint8_t *p;
	size_t len;
	bool be;
};

static uint64_t rd(const struct elf_view *v, size_t off, unsigned n)
{
	return tp_elf_get(v->p + off, n, v->be);
}

static TP_NOINLINE uint64_t fnv_bytes(uint64_t h, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

static TP_NOINLINE uint64_t fnv_u64le(uint64_t h, uint64_t x)
{
	uint8_t b[8];

	for (unsigned i = 0; i < 8; i++, x >>= 8)
		b[i] = (uint8_t)x;
	return fnv_bytes(h, b, 8);
}

uint64_t tp_text_hash(const void *elf, size_t len)
{
	struct elf_view v = { .p = elf, .len = len };
	uint64_t phoff, ehsize, start, end, off, filesz, vaddr, h;
	unsigned phentsize, phnum, i;
	bool is64;

	if (!elf || len < 52 || tp_elf_ident(v.p, &is64, &v.be) || (is64 && len < 64))
		return 0;

	phoff = is64 ? rd(&v, 32, 8) : rd(&v, 28, 4);
	ehsize = rd(&v, is64 ? 52 : 40, 2);
	phentsize = (unsigned)rd(&v, is64 ? 54 : 42, 2);
	phnum = (unsigned)rd(&v, is64 ? 56 : 44, 2);
	if (phentsize < (is64 ? 56u : 32u) || phoff > len)
		return 0;
	if ((uint64_t)phnum * phentsize > len - phoff)
		return 0;

	for (i = 0; i < phnum; i++) {
		size_t ph = (size_t)(phoff + (uint64_t)i * phentsize);
		uint32_t type = (uint32_t)rd(&v, ph, 4);
		uint32_t flags = (uint32_t)rd(&v, ph + (is64 ? 4 : 24), 4);

		if (type != PT_LOAD || !(flags & PF_X))
			continue;
		off = is64 ? rd(&v, ph + 8, 8) : rd(&v, ph + 4, 4);
		vaddr = is64 ? rd(&v, ph + 16, 8) : rd(&v, ph + 8, 4);
		filesz = is64 ? rd(&v, ph + 32, 8) : rd(&v, ph + 16, 4);
		if (off > len || filesz > len - off)
			return 0;
		start = off > ehsize ? off : ehsize;
		end = off + filesz;
		h = fnv_u64le(FNV64_BASIS, vaddr);
		h = fnv_u64le(h, filesz);
		if (start < end)
			h = fnv_bytes(h, v.p + start, (size_t)(end - start));
		return h ? h : 1;
	}
	return 0;
}
