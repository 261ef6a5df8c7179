/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the host's ELF readers: the input is a shared library in a scratch
 * sysroot, loaded by the symbolizer as `tinyperf report --sysroot` loads a DSO (libdwfl, its
 * symbols, PLT names from sym/plt.c, segments; the text hash checked when it has one; lines and
 * inlines on) and resolved at 16 offsets and its entry; the same file as a --vmlinux; slimmed
 * for an archive (archive/elfslim.c); and read through libelf's elf_memory by the richness
 * checks the build-id cache and the symbolizer's candidates use (common/elfinfo.c). */
#include "tests/fuzz/fuzz.h"

#include <gelf.h>
#include <sys/stat.h>

#include "host-tools/lib/archive/elfslim.h"
#include "host-tools/lib/common/elfinfo.h"
#include "host-tools/lib/sym/symbolizer.h"
#include "perfdata/texthash.h"

static void resolve(struct tp_symbolizer *sym, struct tp_symdso *dso, size_t size, uint64_t entry)
{
	const struct tp_symres *res;

	for (unsigned i = 0; i <= 16; i++) {
		uint64_t a = i < 16 ? size / 16 * i : entry;

		if (tp_symbolizer__lookup(sym, dso, a, &res) || !res->name)
			continue;
		sink += strlen(res->name) + res->offset + (res->file ? strlen(res->file) : 0);
		for (unsigned j = 0; j < res->n_inline; j++)
			sink += strlen(res->inl[j].func) + res->inl[j].call_line;
	}
}

static void symbolize(const char *sysroot, const char *path, const uint8_t *data, size_t size,
		      uint64_t entry)
{
	struct tp_symconf conf = { .sysroot = sysroot, .buildid_dir = "", .offline = true,
				   .want_lines = true, .want_inlines = true, .log = fuzz_log };
	struct tp_symbolizer *sym = tp_symbolizer__new(&conf);
	struct tp_symdso *dso;

	if (!sym)
		abort();
	if (!tp_symbolizer__dso(sym, "/lib/libfuzz.so", NULL, 0, tp_text_hash(data, size), &dso))
		resolve(sym, dso, size, entry);
	tp_symbolizer__delete(sym);

	conf.vmlinux = path;
	conf.want_inlines = false;
	sym = tp_symbolizer__new(&conf);
	if (!sym)
		abort();
	if (!tp_symbolizer__kernel(sym, "6.1.0-fuzz", NULL, 0, "_text", 0, &dso))
		resolve(sym, dso, size, entry);
	tp_symbolizer__delete(sym);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char sysroot[300], path[300];
	uint8_t *slim;
	char *copy;
	size_t len;
	uint64_t entry = 0;
	GElf_Ehdr eh;
	Elf *elf;

	if (!path[0]) {
		snprintf(sysroot, sizeof(sysroot), "%s/sys", fuzz_dir());
		snprintf(path, sizeof(path), "%s/lib", sysroot);
		mkdir(sysroot, 0755);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/lib/libfuzz.so", sysroot);
		elf_version(EV_CURRENT);
	}
	copy = malloc(size ? size : 1);	/* libelf may convert a private image in place */
	if (!copy)
		abort();
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		sink += tp_elf_richness(elf) + tp_elf_has_code(elf) +
			tp_elf_has_section(elf, ".text", true);
		if (gelf_getehdr(elf, &eh))
			entry = eh.e_entry;
	}
	elf_end(elf);
	free(copy);
	fuzz_write(path, data, size);
	symbolize(sysroot, path, data, size, entry);
	if (!tp_elfslim(path, &slim, &len, &fuzz_log)) {
		for (size_t i = 0; i < len; i++)
			sink += slim[i];
		free(slim);
	}
	return 0;
}
