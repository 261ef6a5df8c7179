/* SPDX-License-Identifier: MIT */
/* The symbolizer: turns a sampled address in a recorded DSO or kernel into a function name (and
 * optionally file:line and the inline chain), finding the right ELF on the host — a sysroot,
 * build-id cache, debug directories, debuglink, debuginfod — and proving it is the file that ran.
 * Built on elfutils (libdwfl, libdw, libelf). Not thread-safe: one symbolizer per thread. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_SYMBOLIZER_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_SYMBOLIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host-tools/lib/common/common.h"

struct tp_symbolizer;
struct tp_symdso;
struct tp_embsyms;

struct tp_symconf {
	/* --sysroot/--symfs: the device's root on the host. NULL or "" = "/" (native). Every
	 * device path, /usr/lib/debug and debuglink directory is looked up under it. */
	const char *sysroot;
	/* --debug-dir, repeatable: trees searched for a file of the DSO's basename (recursively,
	 * e.g. buildroot's output/build) and as extra roots (<dir><path>, <dir>/usr/lib/debug/
	 * .build-id/..., <dir><dirname>/.debug/<basename>, e.g. yocto's rootfs-dbg) */
	const char *const *debug_dirs;
	size_t n_debug_dirs;
	/* --buildid-dir: perf's build-id cache. NULL = "$HOME/.debug"; "" = none */
	const char *buildid_dir;
	/* --vmlinux / --kallsyms: used alone for the kernel when given */
	const char *vmlinux;
	const char *kallsyms;
	bool want_lines;	/* fill tp_symres.file/line */
	bool want_inlines;	/* fill tp_symres.inl/n_inline */
	/* no debuginfod even when DEBUGINFOD_URLS is set (debuginfod is used only if it is) */
	bool offline;
	/* refuse a DSO whose recording has neither a build-id nor a text hash, instead of using
	 * the file at its path unverified (with a warning) */
	bool strict;
	/* "[vdso]" with no build-id recorded (pipe mode): use this host's own vdso, unverified,
	 * as perf does; the caller sets it when the recording is of this host's kernel. With a
	 * build-id recorded, this host's vdso is always tried after the cache, verified. */
	bool host_vdso;
	struct tp_log log;	/* diagnostics: mismatches (WARN), where symbols came from (INFO) */
	/* the symbols embedded in the recording (TP_FEAT_SYMTAB, symembed.h), or NULL, only
	 * for the recorded identity: for a DSO, the kernel or a module that nothing above
	 * resolves, and for each address a host file does not name (or names only from its
	 * .dynsym while the recording has the device's .symtab) */
	const struct tp_embsyms *embedded;
};

/* Where a DSO's symbols came from, best first. */
enum tp_symsrc {
	TP_SYMSRC_NONE = 0,	/* nothing usable: lookups return unresolved */
	TP_SYMSRC_DEBUGINFO,	/* DWARF (+ .symtab) */
	TP_SYMSRC_SYMTAB,	/* .symtab, no DWARF */
	TP_SYMSRC_MINIDEBUGINFO,	/* .gnu_debugdata (+ .dynsym) */
	TP_SYMSRC_DYNSYM,	/* .dynsym only */
	TP_SYMSRC_KALLSYMS,	/* a kallsyms text file */
};

enum tp_symstatus {
	TP_SYMDSO_OK = 0,
	TP_SYMDSO_NOT_FOUND,	/* no candidate file exists */
	TP_SYMDSO_MISMATCH,	/* candidates exist, none has the recorded identity (logged) */
	TP_SYMDSO_UNREADABLE,	/* the matching file could not be loaded (logged) */
};

/* How the file was proven to be the one that ran. */
enum tp_symverify {
	TP_SYMVERIFY_NONE = 0,	/* not verified: nothing was recorded to check against */
	TP_SYMVERIFY_BUILD_ID,
	TP_SYMVERIFY_TEXT_HASH,	/* tp_text_hash() of the executable segment */
	TP_SYMVERIFY_USER,	/* given by the user (--vmlinux without a recorded build-id, --kallsyms) */
};

struct tp_symdso_info {
	const char *name;	/* device path, "[kernel.kallsyms]" or "[module]" */
	enum tp_symstatus status;
	enum tp_symsrc src;
	enum tp_symverify verify;
	const char *elf_path;	/* the file whose layout maps addresses (NULL if none) */
	const char *sym_path;	/* the file symbols come from (may equal elf_path) */
	const char *debug_path;	/* a separate debug file libdw loaded, or NULL */
	size_t n_syms;		/* functions in the lookup table */
	int64_t kernel_reloc;	/* kernel: runtime address - address in the symbol source */
	bool embedded;		/* from the recording's embedded symbols (sym_path says so) */
	/* some addresses the host file does not name (or names only from its .dynsym) were
	 * named from the recording's embedded symbols */
	bool embedded_names;
	/* a copy richer than the one used was refused, and why (another build-id...), or NULL */
	const char *refused;
};

/* One inlined call, innermost first: inl[0].func was inlined into inl[1].func (or into the
 * symbol, for the last one) at inl[0].call_file:call_line. The innermost source position
 * itself is tp_symres.file:line. */
struct tp_syminline {
	const char *func;	/* DW_AT_linkage_name if any (C++: mangled), else DW_AT_name */
	const char *call_file;	/* NULL if unknown */
	unsigned call_line;
};

struct tp_symres {
	const char *name;	/* NULL = unresolved: print the raw address */
	uint64_t offset;	/* from the start of the symbol */
	uint64_t sym_start;	/* symbol start and size in the symbol source's addresses */
	uint64_t sym_size;
	uint64_t vaddr;		/* the looked-up address in the symbol source's addresses */
	const char *file;	/* want_lines: the line-table position of vaddr, else NULL */
	unsigned line;
	unsigned n_inline;	/* want_inlines */
	const struct tp_syminline *inl;
};

/* A symbolizer (copies conf). Returns NULL only when out of memory. */
struct tp_symbolizer *tp_symbolizer__new(const struct tp_symconf *conf);
void tp_symbolizer__delete(struct tp_symbolizer *sym);

/* The DSO that was mapped from path_on_device, identified by the recorded build_id (len 0 if
 * none; a 20-byte id zero-padded from a shorter one matches) or, without one, by text_hash
 * (tp_text_hash() of the device file; 0 if none). Always sets *dso (the same handle for the
 * same identity) unless out of memory; if no candidate matches, the handle resolves nothing
 * and its info says why. Returns 0 or -TP_ERR_NOMEM / -TP_ERR_INVAL.
 * Search order, each candidate checked against the identity (a mismatch is logged with both
 * identities and the file skipped). Identity decides which binary, richness which copy: of the
 * verified copies along each list, the one with DWARF is kept over one with a .symtab, and
 * that over one with neither (a stripped copy in the cache does not hide the sysroot's
 * unstripped one); the search stops at the first with DWARF. Without a recorded identity the
 * first file found is used, as it cannot be compared:
 *   the file with the code: <buildid-dir>/.build-id/xx/yyyy/elf (and the old flat link),
 *     <buildid-dir><path>/<id>/elf, <sysroot><path>, the debug dirs, debuginfod's executable;
 *   its symbols and DWARF, if that file has none: <buildid-dir>/.build-id/xx/yyyy/debug,
 *     <sysroot>/usr/lib/debug/.build-id/xx/yyyy.debug, .gnu_debuglink (CRC checked) in
 *     <sysroot><dir>/, <sysroot><dir>/.debug/, <sysroot>/usr/lib/debug<dir>/, yocto's
 *     <sysroot><dir>/.debug/<basename>, <sysroot>/usr/lib/debug<path>(.debug), the debug
 *     dirs, debuginfod (DEBUGINFOD_URLS), then .gnu_debugdata (MiniDebugInfo) and .dynsym;
 *     without a recorded build-id a debug file must match the main file's build-id, its
 *     debuglink CRC, or (an unstripped copy) its text hash;
 *   with no file with the code at all, a debug file found by build-id stands in for it (its
 *     zeroed segment offsets are reconstructed, assuming a GNU ld layout).
 * "[vdso]" is looked up in the build-id cache (<buildid-dir>/[vdso]/<id>/vdso), then is this
 * host's own vdso if its build-id matches (or, conf.host_vdso, if none was recorded). */
int tp_symbolizer__dso(struct tp_symbolizer *sym, const char *path_on_device,
		       const uint8_t *build_id, size_t build_id_len, uint64_t text_hash,
		       struct tp_symdso **dso);

/* The kernel. ref_reloc_name/addr come from the kernel MMAP record ("[kernel.kallsyms]_text",
 * pgoff = runtime _text); addr 0 = no relocation. Sources, first found wins: --kallsyms
 * (alone), --vmlinux (alone), <buildid-dir>/.build-id/xx/yyyy/elf, <sysroot>/boot/vmlinux-<rel>
 * and the other vmlinux paths under a sysroot, <buildid-dir>/[kernel.kallsyms]/<id>/kallsyms,
 * and without a sysroot /proc/kallsyms when /sys/kernel/notes has the recorded build-id.
 * A vmlinux is checked against build_id; a kallsyms is shifted by kallsyms[_text] - addr.
 * One kernel per symbolizer: later calls return the first handle. */
int tp_symbolizer__kernel(struct tp_symbolizer *sym, const char *osrelease,
			  const uint8_t *build_id, size_t build_id_len,
			  const char *ref_reloc_name, uint64_t ref_reloc_addr,
			  struct tp_symdso **dso);

/* A kernel module, "[name]" or "name", resolved from the kallsyms the kernel call found (its
 * [mod] column, same shift). Call tp_symbolizer__kernel() first. */
int tp_symbolizer__kmodule(struct tp_symbolizer *sym, const char *name, struct tp_symdso **dso);

/*
 * Resolve addr in dso. What addr is:
 *   user DSOs:            the FILE OFFSET, i.e. ip - map.start + map.pgoff of the MMAP record.
 *                         It is mapped to the ELF virtual address through the PT_LOAD segment
 *                         that holds it (vaddr = addr - p_offset + p_vaddr), so ET_EXEC, PIE and
 *                         shared libraries, prelinked or not, need nothing more from the caller.
 *   kernel and modules:   the sampled ip itself (the runtime address); the relocation is applied
 *                         inside.
 * *res stays valid until the symbolizer is deleted. Each call resolves anew and keeps a new
 * result: the symbolizer holds no address cache. The one (DSO, address) cache is the
 * caller's: frames/ (tp_symcache) keeps this answer next to the frame it made of it. (A
 * cache here too sat behind that one: filled once per address, read only for lines and
 * inlines, which frames/ now reads from its own.)
 * Returns 0 (res->name NULL if unresolved) or -TP_ERR_NOMEM / -TP_ERR_INVAL.
 */
int tp_symbolizer__lookup(struct tp_symbolizer *sym, struct tp_symdso *dso, uint64_t addr,
			  const struct tp_symres **res);

/* Where this DSO's symbols came from, for a report header. Valid as long as the symbolizer. */
const struct tp_symdso_info *tp_symdso__info(const struct tp_symdso *dso);

const char *tp_symsrc_str(enum tp_symsrc src);	/* "debuginfo", "symtab", ... */

#endif
