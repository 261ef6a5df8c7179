/* SPDX-License-Identifier: MIT */
/* Disassembly with Capstone: the mode from the ELF header (class, byte order, e_machine,
 * e_flags), on ARM switched between ARM, Thumb and data by the mapping symbols. Capstone is
 * opened the first time something is disassembled (common/dl.h), not by every command. */
#define _GNU_SOURCE
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/lib/annotate/internal.h"
#include "host-tools/lib/common/common.h"

/* Capstone's soname carries its API's major version (libcapstone.so.4 in Debian bookworm) */
#define CS_STR(x)	#x
#define CS_SONAME(major)	"libcapstone.so." CS_STR(major)

#define CS_FNS(X)	X(cs_open) X(cs_option) X(cs_malloc) X(cs_disasm_iter) X(cs_insn_group) \
			X(cs_insn_name) X(cs_free) X(cs_close)
#define CS_ENUM(fn)	CSF_##fn,
enum { CS_FNS(CS_ENUM) CSF_NR };
#define CS_NAME(fn)	#fn,
static const char *const cs_names[CSF_NR] = { CS_FNS(CS_NAME) };
static tp_dl_fn cs_fns[CSF_NR];
/* Capstone's function fn, once loaded */
#define CS(fn)		TP_DL_CALL(cs_fns, CSF_##fn, fn)

/* e_flags of MIPS (elf.h has them; spelled here so an older elf.h does not matter) */
#define MIPS_ARCH_MASK	0xf0000000u
#define MIPS_ARCH_3	0x20000000u
#define MIPS_ARCH_4	0x30000000u
#define MIPS_ARCH_5	0x40000000u
#define MIPS_ARCH_64	0x60000000u
#define MIPS_ARCH_64R2	0x80000000u
#define MIPS_ARCH_32R6	0x90000000u
#define MIPS_ARCH_64R6	0xa0000000u
#define MIPS_MICROMIPS	0x02000000u

/* the Capstone arch and mode of e's code; thumb for 32-bit ARM's Thumb state */
static int cs_mode_of(const struct tp_annelf *e, bool thumb, cs_arch *arch, cs_mode *mode)
{
	cs_mode endian = e->big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;
	uint32_t march = e->flags & MIPS_ARCH_MASK;

	switch (e->machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_64;
		return 0;
	case EM_386:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_32;
		return 0;
	case EM_ARM:
		*arch = CS_ARCH_ARM;
		*mode = (thumb ? CS_MODE_THUMB : CS_MODE_ARM) | endian;
		return 0;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64;
		*mode = CS_MODE_ARM | endian;
		return 0;
	case EM_MIPS:
		*arch = CS_ARCH_MIPS;
		if (e->flags & MIPS_MICROMIPS)
			*mode = CS_MODE_MICRO;
		else if (march == MIPS_ARCH_32R6)
			*mode = CS_MODE_MIPS32R6;
		else if (e->is64 || march == MIPS_ARCH_3 || march == MIPS_ARCH_4 ||
			 march == MIPS_ARCH_5 || march == MIPS_ARCH_64 || march == MIPS_ARCH_64R2 ||
			 march == MIPS_ARCH_64R6)	/* n32 is 32-bit ELF with 64-bit code */
			*mode = CS_MODE_MIPS64;
		else
			*mode = CS_MODE_MIPS32;
		*mode |= endian;
		return 0;
	default:
		return -ENOEXEC;
	}
}

/* the smallest step over bytes nothing decodes from */
static unsigned bad_unit(const struct tp_annelf *e, bool thumb)
{
	if (e->machine == EM_X86_64 || e->machine == EM_386)
		return 1;
	return thumb || (e->machine == EM_MIPS && (e->flags & MIPS_MICROMIPS)) ? 2 : 4;
}

static struct tp_insn *append(struct tp_insns *out, uint64_t addr, unsigned size)
{
	struct tp_insn *in;

	if (tp_grow((void **)&out->v, &out->cap, out->nr + 1, sizeof(*out->v)))
		return NULL;
	in = &out->v[out->nr++];
	memset(in, 0, sizeof(*in));
	in->addr = addr;
	in->size = (uint8_t)size;
	return in;
}

/* data in code, as objdump shows it: words, then a halfword and a byte at the end */
static int add_data(const struct tp_annelf *e, const uint8_t *p, uint64_t addr, uint64_t n,
		    struct tp_insns *out)
{
	while (n) {
		unsigned size = n >= 4 ? 4 : n >= 2 ? 2 : 1;
		struct tp_insn *in = append(out, addr, size);
		uint32_t v = 0;

		if (!in)
			return -TP_ERR_NOMEM;
		for (unsigned i = 0; i < size; i++)
			v |= (uint32_t)p[i] << (8 * (e->big_endian ? size - 1 - i : i));
		in->data = true;
		snprintf(in->mnemonic, sizeof(in->mnemonic), "%s",
			 size == 4 ? ".word" : size == 2 ? ".short" : ".byte");
		snprintf(in->ops, sizeof(in->ops), "0x%0*" PRIx32, (int)size * 2, v);
		p += size;
		addr += size;
		n -= size;
	}
	return 0;
}

/* where a direct jump or call goes: its last immediate operand */
static bool branch_target(csh h, const cs_insn *ci, cs_arch arch, uint64_t *target)
{
	const cs_detail *d = ci->detail;
	bool found = false;

	if (!d || (!CS(cs_insn_group)(h, ci, CS_GRP_JUMP) &&
		   !CS(cs_insn_group)(h, ci, CS_GRP_CALL)))
		return false;
	switch (arch) {
	case CS_ARCH_X86:
		for (unsigned i = 0; i < d->x86.op_count; i++)
			if (d->x86.operands[i].type == X86_OP_IMM)
				*target = (uint64_t)d->x86.operands[i].imm, found = true;
		break;
	case CS_ARCH_ARM:
		for (unsigned i = 0; i < d->arm.op_count; i++)
			if (d->arm.operands[i].type == ARM_OP_IMM)
				*target = (uint32_t)d->arm.operands[i].imm, found = true;
		break;
	case CS_ARCH_ARM64:
		for (unsigned i = 0; i < d->arm64.op_count; i++)
			if (d->arm64.operands[i].type == ARM64_OP_IMM)
				*target = (uint64_t)d->arm64.operands[i].imm, found = true;
		break;
	case CS_ARCH_MIPS:
		for (unsigned i = 0; i < d->mips.op_count; i++)
			if (d->mips.operands[i].type == MIPS_OP_IMM)
				*target = (uint64_t)d->mips.operands[i].imm, found = true;
		break;
	default:
		break;
	}
	return found;
}

/* x86's AT&T operands as objdump spells them: "%rdi,%rax" */
static void squeeze_commas(char *s)
{
	char *o = s;

	for (const char *p = s; *p; p++)
		if (!(p[0] == ' ' && p > s && p[-1] == ','))
			*o++ = *p;
	*o = '\0';
}

/* AT&T's operand-size suffix where objdump leaves it out: an operand register tells the
 * size, or the instruction is a jump, call, return or stack push/pop. Only where the
 * mnemonic is Capstone's name of the instruction plus one letter ("movl", not "movzbl"). */
static void drop_size_suffix(csh h, const cs_insn *ci, char *mnemonic)
{
	const char *base = CS(cs_insn_name)(h, ci->id);
	size_t n = base ? strlen(base) : 0;
	bool reg = false, flow;

	if (!n || strncmp(mnemonic, base, n) || !mnemonic[n] || mnemonic[n + 1] ||
	    !strchr("bwlq", mnemonic[n]) || !ci->detail)
		return;
	for (unsigned i = 0; i < ci->detail->x86.op_count; i++)
		reg |= ci->detail->x86.operands[i].type == X86_OP_REG;
	flow = CS(cs_insn_group)(h, ci, CS_GRP_JUMP) || CS(cs_insn_group)(h, ci, CS_GRP_CALL) ||
	       CS(cs_insn_group)(h, ci, CS_GRP_RET) || ci->id == X86_INS_PUSH ||
	       ci->id == X86_INS_POP;
	if (reg || flow)
		mnemonic[n] = '\0';
}

/* the code of [addr, addr + n) at p in one mode */
static int add_code(const struct tp_annelf *e, csh h, cs_arch arch, cs_insn *ci, bool thumb,
		    const uint8_t *p, uint64_t addr, uint64_t n, struct tp_insns *out)
{
	size_t left = n;
	uint64_t at = addr;

	while (left) {
		const uint8_t *code = p;
		struct tp_insn *in;

		if (CS(cs_disasm_iter)(h, &code, &left, &at, ci)) {
			in = append(out, ci->address, ci->size);
			if (!in)
				return -TP_ERR_NOMEM;
			snprintf(in->mnemonic, sizeof(in->mnemonic), "%s", ci->mnemonic);
			snprintf(in->ops, sizeof(in->ops), "%s", ci->op_str);
			if (arch == CS_ARCH_X86) {
				squeeze_commas(in->ops);
				drop_size_suffix(h, ci, in->mnemonic);
			}
			in->thumb = thumb;
			in->has_target = branch_target(h, ci, arch, &in->target);
			p = code;
			continue;
		}
		/* nothing decodes here: step over the smallest unit, as objdump's "(bad)" */
		unsigned u = bad_unit(e, thumb);

		if (u > left)
			u = (unsigned)left;
		in = append(out, at, u);
		if (!in)
			return -TP_ERR_NOMEM;
		snprintf(in->mnemonic, sizeof(in->mnemonic), "(bad)");
		in->thumb = thumb;
		p += u;
		at += u;
		left -= u;
	}
	return 0;
}

/* the state at addr: 'a' ARM, 't' Thumb, 'd' data ('x' A64 is code); where it ends */
static char state_at(const struct tp_annelf *e, uint64_t addr, uint64_t start, bool thumb_start,
		     uint64_t *next)
{
	char k = '\0';

	*next = UINT64_MAX;
	if (e->machine == EM_ARM || e->machine == EM_AARCH64)
		k = annelf_map_at(e, addr, next);
	if (k)
		return k;
	if (e->machine != EM_ARM)
		return 'x';
	/* no mapping symbol before addr: the function's own bit 0 says */
	(void)addr;
	(void)start;
	return thumb_start ? 't' : 'a';
}

int tp_annelf__disasm(struct tp_annelf *e, uint64_t start, uint64_t size, bool thumb_hint,
		      struct tp_insns *out)
{
	bool thumb_start = thumb_hint || annelf_thumb_func(e, start);
	uint64_t n = size;
	const uint8_t *bytes;
	cs_insn *ci = NULL;
	cs_arch arch;
	cs_mode mode;
	csh h = 0;
	int err;

	out->nr = 0;
	if (!size)
		return 0;
	bytes = annelf_bytes(e, start, &n);
	if (!bytes)
		return -ERANGE;
	err = cs_mode_of(e, thumb_start, &arch, &mode);
	if (err)
		return err;
	if (tp_dl__load(CS_SONAME(CS_API_MAJOR), cs_names, cs_fns, CSF_NR, NULL))
		return -ELIBACC;
	if (CS(cs_open)(arch, mode, &h) != CS_ERR_OK)
		return -ENOEXEC;
	if (arch == CS_ARCH_X86)
		CS(cs_option)(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	CS(cs_option)(h, CS_OPT_DETAIL, CS_OPT_ON);	/* for the targets of jumps and calls */
	ci = CS(cs_malloc)(h);
	if (!ci) {
		err = -TP_ERR_NOMEM;
		goto out;
	}
	for (uint64_t at = start; at < start + n;) {
		uint64_t next, end;
		char k = state_at(e, at, start, thumb_start, &next);

		end = next < start + n ? next : start + n;
		if (end <= at)	/* (a mapping symbol at at itself is the one in force) */
			end = start + n;
		if (k == 'd') {
			err = add_data(e, bytes + (at - start), at, end - at, out);
		} else {
			bool thumb = k == 't';

			if (arch == CS_ARCH_ARM &&
			    CS(cs_option)(h, CS_OPT_MODE, (thumb ? CS_MODE_THUMB : CS_MODE_ARM) |
				      (e->big_endian ? CS_MODE_BIG_ENDIAN : 0)) != CS_ERR_OK) {
				err = -ENOEXEC;
				goto out;
			}
			err = add_code(e, h, arch, ci, thumb, bytes + (at - start), at, end - at, out);
		}
		if (err)
			goto out;
		at = end;
	}
out:
	if (ci)
		CS(cs_free)(ci, 1);
	CS(cs_close)(&h);
	return err;
}

void tp_insns__release(struct tp_insns *in)
{
	free(in->v);
	in->v = NULL;
	in->nr = in->cap = 0;
}
