/* SPDX-License-Identifier: MIT */
/* The symbolizer's insides, shared by its files: symbolizer.c (API, DSO registry, lookups),
 * sym/find.c (where files are looked for), sym/candidate.c (how each is proven right),
 * sym/elf.c (an ELF through libdwfl: symbols, segments, lines, inlines), sym/kernel.c (vmlinux
 * and kallsyms, relocation). Not for callers. */
#ifndef TINYPERF_HOST_TOOLS_LIB_SYM_INTERNAL_H
#define TINYPERF_HOST_TOOLS_LIB_SYM_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "host-tools/lib/sym/debugpath.h"
#include "host-tools/lib/common/common.h"
#include "host-tools/lib/sym/kallsyms.h"
#include "host-tools/lib/sym/symbolizer.h"
#include "host-tools/lib/sym/symtab.h"

#define TP_BUILD_ID_MAX 64

#define symlog(s, lvl, ...) tp_log__msg(&(s)->conf.log, (lvl), __VA_ARGS__)

/* bump allocator for cached results and strings: freed all at once */
struct tp_symarena {
	struct tp_symarena_chunk *head;
	size_t used, cap;
};

void *tp_symarena__alloc(struct tp_symarena *a, size_t n);
char *tp_symarena__strdup(struct tp_symarena *a, const char *s);
void tp_symarena__exit(struct tp_symarena *a);

/* what a file must prove to be: the recorded identity */
struct tp_symident {
	uint8_t build_id[TP_BUILD_ID_MAX];
	size_t build_id_len;
	uint64_t text_hash;
};

/* a PT_LOAD, for file offset -> vaddr */
struct tp_symseg {
	uint64_t off, filesz, memsz, vaddr;
	bool exec;
};

enum tp_symdso_type {
	TP_SYMDSO_TYPE_NONE,	/* resolves nothing */
	TP_SYMDSO_TYPE_ELF,	/* user DSO or vmlinux, through libdwfl */
	TP_SYMDSO_TYPE_KALLSYMS,
	TP_SYMDSO_TYPE_EMBEDDED,	/* the recording's own symbols, in tab */
};

struct tp_symdso {
	struct tp_symdso_info info;
	enum tp_symdso_type type;
	struct tp_symident id;
	bool kernel;

	/* ELF */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	uint64_t bias;		/* module address - ELF vaddr (0: reported at its p_vaddr) */
	struct tp_symseg *segs;	/* of the file that maps addresses, when addr is an offset */
	size_t n_segs;
	bool addr_is_offset;
	bool stand_in;		/* a debug-only file maps addresses: no main file was found */
	int64_t reloc;		/* kernel: symbol-source address = addr - reloc */
	struct tp_symtab tab;
	/* the recording's embedded symbols for an address the host file does not name (or names
	 * only from .dynsym): filled on first need (sym/embedded.c) */
	struct tp_symtab etab;
	bool etab_loaded;
	bool etab_richer;	/* a .symtab (or MiniDebugInfo) of the device, over a .dynsym */
	unsigned machine;	/* e_machine */
	struct tp_symcu *cus;	/* sym/dwarf.c's per-CU function index, sorted by CU offset */
	size_t n_cus, cap_cus;

	/* search state, read by the find_debuginfo callback */
	struct tp_symbolizer *owner;
	uint8_t main_build_id[TP_BUILD_ID_MAX];	/* of the file that maps addresses */
	size_t main_build_id_len;
	uint64_t main_text_hash;
	bool has_debuglink;
	uint32_t debuglink_crc;
	const char *debuglink;
	bool debug_searched;	/* the callback ran its search once */
	bool debug_has_dwarf;	/* the separate debug file the callback returned has DWARF */
	bool main_has_dwarf;

	/* kallsyms */
	const struct tp_kallsyms *ks;
	long module;		/* -1: any */

	struct tp_symarena arena;	/* info strings and every result handed out */
};

struct tp_symbolizer {
	struct tp_symconf conf;	/* strings point into arena */
	const char *sysroot;	/* "" for "/" */
	const char *buildid_dir;	/* NULL: none */
	char *dipath;		/* libdwfl debuginfo_path: <sysroot>/usr/lib/debug */
	Dwfl_Callbacks cb;
	bool debuginfod;	/* DEBUGINFOD_URLS set and not offline */
	struct tp_debugdirs dd;
	struct tp_symdso **dsos;
	size_t n_dsos, cap_dsos;
	struct tp_symdso *kernel;
	struct tp_kallsyms *ks;	/* the kernel's kallsyms, for modules */
	const char *ks_path;
	int64_t ks_delta;	/* kallsyms address = runtime address + ks_delta */
	struct tp_symarena arena;
};

/* symbolizer.c */
struct tp_symdso *tp_symdso__alloc(struct tp_symbolizer *s, const char *name);
void tp_symdso__set_path(struct tp_symdso *dso, const char **field, const char *path);

/* sym/candidate.c: one search for a file of a DSO, and the test of each candidate */
enum tp_symrole {
	TP_SYMROLE_MAIN,		/* the file with the code, which maps file offsets */
	TP_SYMROLE_DEBUG,		/* symbols and DWARF for a main file without them */
	TP_SYMROLE_DEBUG_AS_MAIN,	/* no main file at all: a debug file found by build-id */
	TP_SYMROLE_KERNEL,		/* a vmlinux */
};

#define TP_SYMFINDER_SEEN 64

struct tp_symfinder {
	struct tp_symbolizer *s;
	struct tp_symdso *dso;
	enum tp_symrole role;
	bool user_given;
	int fd;			/* the accepted file, or -1 */
	char path[PATH_MAX];
	enum tp_symverify verify;
	bool has_dwarf;
	unsigned n_mismatch;
	struct stat seen[TP_SYMFINDER_SEEN];	/* files examined already (dev, ino) */
	unsigned n_seen;
	struct stat main_st;	/* TP_SYMROLE_DEBUG: the main file, never its own debug file */
	bool have_main_st;
	bool host_vdso;			/* the accepted file is this host's own vdso */
	enum tp_elf_richness rich;	/* the accepted file's */
	bool final;		/* the accepted file is not to be replaced by a richer one */
};

void tp_symfinder__init(struct tp_symfinder *f, struct tp_symbolizer *s, struct tp_symdso *dso,
			enum tp_symrole role);
/* Open path and keep it if it is the file f looks for and richer than the one f holds (a
 * candidate with the recorded identity and DWARF beats one with a .symtab, which beats one
 * with neither): identity decides which binary, richness which copy. 1 when the search can
 * stop (the richest kind is held, or an unverified file, which is not compared), else 0;
 * f->fd >= 0 once a file is held. */
int tp_symfinder__try(struct tp_symfinder *f, const char *path);
/* f holds a file that no later candidate can beat */
bool tp_symfinder__done(const struct tp_symfinder *f);
/* a file's build-id is the recorded one (which perf pads with zeros to 20 bytes) */
bool tp_build_id_match(const uint8_t *rec, size_t rec_len, const uint8_t *file, size_t file_len);

/* sym/find.c */
int tp_symfind__user(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path);
/* open path as a vmlinux for dso (checked against dso->id); returns 0 if it is now loaded,
 * 1 if it is missing or unusable, 2 if it has another build-id (logged), <0 on error */
int tp_symfind__try_vmlinux(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path,
			    bool given_by_user);
int tp_symfind__debuginfo_cb(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			     GElf_Word debuglink_crc, char **debuginfo_file_name);

/* sym/embedded.c: if dso resolves nothing, the recording's embedded block for it (kind:
 * TP_SYMTAB_USER, _KERNEL, _MODULE), if any. 0 or -TP_ERR_NOMEM. */
int tp_symembed__attach(struct tp_symbolizer *s, struct tp_symdso *dso, int kind);
/* sym/embedded.c: r as a host file resolved addr in dso (a user DSO or the kernel); where that
 * file names nothing there, or only from its .dynsym while the recording carries the device's
 * .symtab, the recording's name for addr, if it has one. 0 or -TP_ERR_NOMEM. */
int tp_symembed__fill(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		      struct tp_symres *r);
const struct tp_sym *tp_symembed__find(const struct tp_symdso *dso, uint64_t addr);

/* sym/dwarf.c: file:line and the inline chain at module address pc */
int tp_symdwarf__resolve(struct tp_symbolizer *s, struct tp_symdso *dso, Dwarf_Addr pc,
			 struct tp_symres *res);
void tp_symdwarf__exit(struct tp_symdso *dso);

/* sym/elf.c */
/* load the ELF open on fd (consumed) as dso's module; 0, or <0 with the reason logged */
int tp_symelf__open(struct tp_symbolizer *s, struct tp_symdso *dso, const char *path, int fd);
/* the symbol value of name in dso's ELF, for the kernel's reference symbol */
bool tp_symelf__value(struct tp_symdso *dso, const char *name, uint64_t *value);
int tp_symelf__resolve(struct tp_symbolizer *s, struct tp_symdso *dso, uint64_t addr,
		       struct tp_symres *res);
/* sym/elfstr.c: the string tables of the last ELF a symbol name came from */
#define TP_SYMSTRS_MAX 16
struct tp_symstrs {
	Elf *elf;
	unsigned nr;
	struct { const void *p; size_t n; } t[TP_SYMSTRS_MAX];
};
/* name (from dwfl_module_getsym_info, of a symbol of elf) if a NUL ends it inside the string
 * table it points into, else NULL; c starts zeroed */
const char *tp_symstr__check(struct tp_symstrs *c, Elf *elf, const char *name);
/* sym/plt.c: perf's "name@plt" symbols over .plt where no symbol reaches, after the table is
 * finished; 0 or -TP_ERR_NOMEM */
int tp_symplt__add(struct tp_symdso *dso, Elf *elf);

#endif
