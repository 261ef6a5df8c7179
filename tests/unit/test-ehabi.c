/* SPDX-License-Identifier: MIT */
/* Unit tests for the ARM EHABI one-frame unwinder (host-tools/lib/unwind/ehabi.c): hand-built
 * tables (ehabi/hand.c), then the real .ARM.exidx/.ARM.extab of a program that
 * ehabi-fixtures.sh compiles for ARM and Thumb-2 and runs under qemu-arm: starting from the
 * registers and stack it captured at its deepest call, the unwinder must walk up to main and
 * beyond with exactly the return addresses and SPs the program reported for itself, also with
 * the tables turned big-endian, and must stop cleanly on a truncated copy of that stack.
 * Set TP_EHABI_KEEP=1 to keep the fixtures (in ./ehabi-fixtures).
 * `test-ehabi --emit-seeds DIR` writes the fuzz target's seeds (tests/fuzz/fuzz-ehabi.c) from
 * the same tables and stacks instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "host-tools/lib/unwind/ehabi.h"

#include "ehabi/hand.c"

#define FX_DIR "ehabi-fixtures"

/* what the fixture program printed */
struct capture {
	uint32_t regs[16];
	uint32_t stack_base;
	uint32_t stack[4096];
	size_t nstack;
	struct { uint32_t ra, sp; } frames[32];	/* main first, the deepest last */
	int nframes;
};

static int read_capture(const char *path, struct capture *cp)
{
	char line[256];
	unsigned a, b;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	memset(cp, 0, sizeof(*cp));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "regs", 4)) {
			char *p = line + 4;

			for (int i = 0; i < 16; i++)
				cp->regs[i] = (uint32_t)strtoul(p, &p, 16);
		} else if (sscanf(line, "stack %x %u", &a, &b) == 2) {
			cp->stack_base = a;
		} else if (sscanf(line, "frame %x %x", &a, &b) == 2) {
			if (cp->nframes < (int)ARRAY_SIZE(cp->frames)) {
				cp->frames[cp->nframes].ra = a;
				cp->frames[cp->nframes++].sp = b;
			}
		} else if (sscanf(line, "%x%n", &a, &n) == 1 && n == 8 &&
			   cp->nstack < ARRAY_SIZE(cp->stack)) {
			cp->stack[cp->nstack++] = a;
		}
	}
	fclose(f);
	return cp->nframes >= 2 && cp->nstack ? 0 : -1;
}

struct elf_tables {
	int fd;
	Elf *elf;
	struct tp_ehabi_tables t;
	uint8_t *swapped[2];	/* the sections with every word byte-swapped */
};

static int open_tables(const char *path, struct elf_tables *et)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	memset(et, 0, sizeof(*et));
	et->fd = open(path, O_RDONLY);
	if (et->fd < 0)
		return -1;
	et->elf = elf_begin(et->fd, ELF_C_READ, NULL);
	if (!et->elf || elf_getshdrstrndx(et->elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(et->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(et->elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".ARM.exidx") && strcmp(name, ".ARM.extab"))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d)
			return -1;
		if (!strcmp(name, ".ARM.exidx")) {
			et->t.exidx = d->d_buf;
			et->t.exidx_size = d->d_size;
			et->t.exidx_addr = sh.sh_addr;
		} else {
			et->t.extab = d->d_buf;
			et->t.extab_size = d->d_size;
			et->t.extab_addr = sh.sh_addr;
		}
	}
	return et->t.exidx ? 0 : -1;
}

static void close_tables(struct elf_tables *et)
{
	free(et->swapped[0]);
	free(et->swapped[1]);
	if (et->elf)
		elf_end(et->elf);
	if (et->fd >= 0)
		close(et->fd);
}

static uint8_t *swap_words(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	for (size_t i = 0; q && i + 4 <= n; i += 4)
		for (int j = 0; j < 4; j++)
			q[i + j] = p[i + 3 - j];
	return q;
}

/* the tables as an armeb linker would have laid them out: every field is a 32-bit word */
static struct tp_ehabi_tables big_endian_copy(struct elf_tables *et)
{
	struct tp_ehabi_tables t = et->t;

	et->swapped[0] = swap_words(et->t.exidx, et->t.exidx_size);
	et->swapped[1] = et->t.extab ? swap_words(et->t.extab, et->t.extab_size) : NULL;
	t.exidx = et->swapped[0];
	t.extab = et->swapped[1];
	t.big_endian = 1;
	return t;
}

/* a non-leaf frame's PC as the caller of tp_ehabi_step gives it: inside the call */
static uint32_t lookup_pc(uint32_t ra)
{
	return (ra & ~1u) - 1;
}

/* the captured stack, cut at LIMIT words (a truncated user-stack copy) */
struct cap_stack {
	const struct capture *cp;
	size_t limit;
};

static int cap_read(void *ctx, uint32_t addr, uint32_t *word)
{
	const struct cap_stack *s = ctx;
	uint32_t off = addr - s->cp->stack_base;

	if (addr < s->cp->stack_base || off % 4 || off / 4 >= s->limit || off / 4 >= s->cp->nstack)
		return -EFAULT;
	*word = s->cp->stack[off / 4];
	return 0;
}

/* the registers at the deepest call: every one known (r14 = r15 = the return into deep()) */
static struct tp_arm_regs cap_regs(const struct capture *cp)
{
	struct tp_arm_regs r = { .valid = 0xffff };

	memcpy(r.r, cp->regs, sizeof(r.r));
	return r;
}

static void walk(const char *mode, const char *order, const struct tp_ehabi_tables *t,
		 const struct capture *cp)
{
	char name[128];
	struct cap_stack s = { cp, SIZE_MAX };
	struct tp_arm_regs r = cap_regs(cp);
	int n = cp->nframes, ret = 1, k;
	struct tcase c;

	snprintf(name, sizeof(name), "ehabi real %s tables (%s): %d frames up to main", mode,
		 order, n);
	c = case_begin(name);
	for (k = 1; k <= n && !c.failed; k++) {
		uint32_t from = r.r[15];

		ret = tp_ehabi_step(t, lookup_pc(r.r[15]), &r, cap_read, &s);
		if (!EXPECT(&c, "step returns 1", 1, ret))
			printf("       (step %d, from PC %#x)\n", k, (unsigned)from);
		EXPECT(&c, "caller's PC = the return address the program saw",
		       cp->frames[n - k].ra, r.r[15]);
		if (k < n)
			EXPECT(&c, "caller's SP = the SP the program saw",
			       cp->frames[n - k - 1].sp, r.r[13]);
	}
	case_end(&c);

	/* past main, through libc's start code (the copy reaches 1 KiB above main's frame): the
	 * walk ends at _start, whose entry is EXIDX_CANTUNWIND */
	snprintf(name, sizeof(name), "ehabi real %s tables (%s): past main to _start", mode,
		 order);
	c = case_begin(name);
	for (k = 0; k < 64 && ret == 1; k++)
		ret = tp_ehabi_step(t, lookup_pc(r.r[15]), &r, cap_read, &s);
	EXPECT(&c, "ends at _start's EXIDX_CANTUNWIND within 64 steps", 0, ret);
	case_end(&c);
}

/* the same stack cut short at every word count: each walk ends in an error, never a crash,
 * and never reports a frame it did not read */
static void walk_truncated(const char *mode, const struct tp_ehabi_tables *t,
			   const struct capture *cp)
{
	char name[128];
	int faults = 0, bad = 0;
	struct tcase c;

	for (size_t limit = 0; limit < cp->nstack; limit += 3) {
		struct cap_stack s = { cp, limit };
		struct tp_arm_regs r = cap_regs(cp);
		int ret = 1, k;

		for (k = 0; k < 64 && ret == 1; k++) {
			ret = tp_ehabi_step(t, lookup_pc(r.r[15]), &r, cap_read, &s);
			if (ret == 1 && k < cp->nframes && r.r[15] != cp->frames[cp->nframes - 1 - k].ra)
				bad++;
		}
		faults += ret == -EFAULT;
	}
	snprintf(name, sizeof(name), "ehabi real %s tables: truncated stacks", mode);
	c = case_begin(name);
	EXPECT(&c, "frames unlike the program's", 0, bad);
	EXPECT_TRUE(&c, "some walks stopped at the end of the copy", faults > 0);
	case_end(&c);
}

static void test_real(const char *dir, const char *mode)
{
	char path[PATH_MAX], name[96];
	struct capture *cp = malloc(sizeof(*cp));
	struct elf_tables et;
	struct tp_ehabi_tables be;
	struct tcase c;

	snprintf(name, sizeof(name), "ehabi real %s: fixture and its .ARM.exidx", mode);
	c = case_begin(name);
	snprintf(path, sizeof(path), "%s/%s.out", dir, mode);
	EXPECT(&c, "the program's capture is readable", 0, cp ? read_capture(path, cp) : -1);
	snprintf(path, sizeof(path), "%s/%s", dir, mode);
	EXPECT(&c, ".ARM.exidx read with libelf", 0, open_tables(path, &et));
	EXPECT_TRUE(&c, ".ARM.extab present", et.t.extab != NULL);
	case_end(&c);
	if (!c.failed) {
		walk(mode, "little-endian", &et.t, cp);
		be = big_endian_copy(&et);
		walk(mode, "words swapped, big-endian", &be, cp);
		walk_truncated(mode, &et.t, cp);
	}
	close_tables(&et);
	free(cp);
}

static void put_le32(FILE *f, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		fputc((int)(v >> 8 * i) & 0xff, f);
}

/* one input of tests/fuzz/fuzz-ehabi.c: its header, the sections, the stack words */
static int emit_seed(const char *dir, const char *name, const struct tp_ehabi_tables *t,
		     const struct tp_arm_regs *r, uint32_t stack_base, const uint32_t *stack,
		     size_t nstack)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fputc(t->big_endian ? 1 : 0, f);
	fputc((int)(t->exidx_size & 0xff), f);
	fputc((int)(t->exidx_size >> 8), f);
	fputc((int)(t->extab_size & 0xff), f);
	fputc((int)(t->extab_size >> 8), f);
	put_le32(f, (uint32_t)t->exidx_addr);
	put_le32(f, (uint32_t)t->extab_addr);
	for (int i = 0; i < 16; i++)
		put_le32(f, r->r[i]);
	put_le32(f, r->valid);
	put_le32(f, stack_base);
	put_le32(f, 0);		/* load bias */
	fwrite(t->exidx, 1, t->exidx_size, f);
	if (t->extab)
		fwrite(t->extab, 1, t->extab_size, f);
	for (size_t i = 0; i < nstack; i++) {
		uint32_t w = stack[i];

		if (t->big_endian)
			w = (w >> 24) | (w >> 8 & 0xff00) | (w << 8 & 0xff0000) | w << 24;
		put_le32(f, w);
	}
	return fclose(f) ? -1 : 0;
}

static int emit_seeds(const char *dir, const char *fx)
{
	static const char *const modes[] = { "arm", "thumb" };
	char path[PATH_MAX], name[64];
	struct capture *cp = malloc(sizeof(*cp));
	int err = !cp;

	for (size_t m = 0; m < ARRAY_SIZE(modes) && !err; m++) {
		struct elf_tables et = { .fd = -1 };
		struct tp_arm_regs r;

		snprintf(path, sizeof(path), "%s/%s.out", fx, modes[m]);
		err = read_capture(path, cp);
		snprintf(path, sizeof(path), "%s/%s", fx, modes[m]);
		err = err ? err : open_tables(path, &et);
		if (!err) {
			struct tp_ehabi_tables be = big_endian_copy(&et);

			r = cap_regs(cp);
			snprintf(name, sizeof(name), "real-%s-le", modes[m]);
			err = emit_seed(dir, name, &et.t, &r, cp->stack_base, cp->stack, cp->nstack);
			snprintf(name, sizeof(name), "real-%s-be", modes[m]);
			err = err ? err : emit_seed(dir, name, &be, &r, cp->stack_base, cp->stack,
						    cp->nstack);
		}
		close_tables(&et);
	}
	for (int be = 0; be < 2 && !err; be++) {
		struct tb b;
		struct stk s = stack_of(64);
		struct tp_arm_regs r = regs_in();

		multi(&b, be);
		r.r[15] = 0x8505;	/* in the generic-model function */
		snprintf(name, sizeof(name), "hand-%s", be ? "be" : "le");
		err = emit_seed(dir, name, &b.t, &r, s.base, s.w, s.n);
	}
	free(cp);
	return err;
}

int main(int argc, char **argv)
{
	char cmd[2 * PATH_MAX], src[PATH_MAX];

	if (argc == 3 && !strcmp(argv[1], "--emit-seeds")) {
		elf_version(EV_CURRENT);
		snprintf(src, sizeof(src), "%s", __FILE__);
		snprintf(cmd, sizeof(cmd), "sh %s/ehabi-fixtures.sh %s", dirname(src), FX_DIR);
		if (system(cmd) != 0 || emit_seeds(argv[2], FX_DIR)) {
			fprintf(stderr, "test-ehabi: cannot write the seeds in %s\n", argv[2]);
			return 1;
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s", FX_DIR);
		return system(cmd) ? 1 : 0;
	}

	for (int be = 0; be < 2; be++) {
		hand_opcodes(be);
		hand_tables(be);
	}
	hand_misc();

	elf_version(EV_CURRENT);
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(cmd, sizeof(cmd), "sh %s/ehabi-fixtures.sh %s", dirname(src), FX_DIR);
	if (system(cmd) != 0) {
		struct tcase c = case_begin("ehabi real tables: fixtures");

		EXPECT(&c, "ehabi-fixtures.sh exits 0", 0, 1);
		case_end(&c);
	} else {
		test_real(FX_DIR, "arm");
		test_real(FX_DIR, "thumb");
	}
	if (!getenv("TP_EHABI_KEEP") && !check_failed) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", FX_DIR);
		if (system(cmd))
			printf("note: could not remove %s\n", FX_DIR);
	}
	return check_summary("test-ehabi");
}
