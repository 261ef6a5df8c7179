/* SPDX-License-Identifier: MIT */
/* host-tools/lib/annotate: disassembly of hand-made ELF files of each class, byte order and
 * machine (MIPS big-endian, x86_64, ARM and Thumb, AArch64), file offsets to addresses and
 * back, and the per-address sample counts. With arguments it is tests/annotate/run.sh's
 * harness:
 *   test-annotate --disasm ELF START SIZE: "addr<TAB>mnemonic<TAB>ops" for each instruction
 *     of [START, START + SIZE), Thumb told by the file's own symbols;
 *   test-annotate --record ELF DEVPATH BUILD-ID OUT VADDR:COUNT...: a perf.data in OUT in
 *     which ELF ran as DEVPATH (mapped whole, with BUILD-ID in hex) and took COUNT samples
 *     at each VADDR: recordings of any arch without running it. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/stat.h>

#include "host-tools/lib/annotate/annotate.h"
#include "perfdata/features.h"
#include "perfdata/records.h"
#include "perfdata/sink.h"
#include "perfdata/writer.h"
#include "tests/unit/check.h"

#define CODE_OFF 0x100

static void put(uint8_t *p, unsigned n, uint64_t v, bool be)
{
	for (unsigned i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* an ELF with one PT_LOAD mapping file offset CODE_OFF to vaddr, holding code; its path in
 * path (a temporary file the caller removes) */
static bool write_elf(char *path, size_t size, bool is64, bool be, uint16_t machine,
		      uint32_t flags, uint64_t vaddr, const uint8_t *code, size_t n)
{
	uint8_t f[CODE_OFF + 64] = { 0 };
	unsigned ehsize = is64 ? 64 : 52, phsize = is64 ? 56 : 32, w = is64 ? 8 : 4;
	uint8_t *ph = f + ehsize;
	int fd;

	if (n > 64)
		return false;
	memcpy(f, ELFMAG, SELFMAG);
	f[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	f[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	f[EI_VERSION] = EV_CURRENT;
	put(f + 16, 2, ET_EXEC, be);
	put(f + 18, 2, machine, be);
	put(f + 20, 4, EV_CURRENT, be);
	put(f + 24, w, vaddr, be);			/* e_entry */
	put(f + 24 + w, w, ehsize, be);			/* e_phoff */
	put(f + 24 + 3 * w, 4, flags, be);		/* e_flags (after e_shoff) */
	put(f + 28 + 3 * w, 2, ehsize, be);
	put(f + 30 + 3 * w, 2, phsize, be);
	put(f + 32 + 3 * w, 2, 1, be);			/* e_phnum */
	put(ph, 4, PT_LOAD, be);
	if (is64) {
		put(ph + 4, 4, PF_R | PF_X, be);
		put(ph + 8, 8, CODE_OFF, be);
		put(ph + 16, 8, vaddr, be);
		put(ph + 24, 8, vaddr, be);
		put(ph + 32, 8, n, be);
		put(ph + 40, 8, n, be);
	} else {
		put(ph + 4, 4, CODE_OFF, be);
		put(ph + 8, 4, vaddr, be);
		put(ph + 12, 4, vaddr, be);
		put(ph + 16, 4, n, be);
		put(ph + 20, 4, n, be);
		put(ph + 24, 4, PF_R | PF_X, be);
	}
	memcpy(f + CODE_OFF, code, n);
	snprintf(path, size, "/tmp/test-annotate-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	if (write(fd, f, CODE_OFF + n) != (ssize_t)(CODE_OFF + n)) {
		close(fd);
		return false;
	}
	return !close(fd);
}

struct want {
	uint64_t addr;
	const char *mnemonic;
};

static void disasm_case(const char *name, bool is64, bool be, uint16_t machine, uint32_t flags,
			uint64_t vaddr, const uint8_t *code, size_t n, bool thumb,
			const struct want *want, size_t nr_want)
{
	struct tcase c = case_begin(name);
	struct tp_insns ins = { 0 };
	struct tp_annelf *e = NULL;
	char path[64];
	uint64_t v = 0, off = 0;

	if (!EXPECT_TRUE(&c, "writing the ELF", write_elf(path, sizeof(path), is64, be, machine,
							    flags, vaddr, code, n)))
		goto out;
	if (!EXPECT(&c, "open", 0, tp_annelf__open(&e, path, NULL)))
		goto out_rm;
	EXPECT(&c, "file offset -> vaddr", 0, tp_annelf__vaddr(e, CODE_OFF + 2, &v));
	EXPECT(&c, "the vaddr", vaddr + 2, v);
	EXPECT(&c, "vaddr -> file offset", 0, tp_annelf__offset(e, vaddr + 2, &off));
	EXPECT(&c, "the file offset", CODE_OFF + 2, off);
	EXPECT(&c, "an offset outside the segment", -ERANGE, tp_annelf__vaddr(e, 3, &v));
	EXPECT(&c, "code outside the file", -ERANGE,
	       tp_annelf__disasm(e, vaddr + 0x1000, 4, false, &ins));
	EXPECT(&c, "disassembly", 0, tp_annelf__disasm(e, vaddr, n, thumb, &ins));
	EXPECT(&c, "instructions", nr_want, ins.nr);
	for (size_t i = 0; i < nr_want && i < ins.nr; i++) {
		EXPECT(&c, "address", want[i].addr, ins.v[i].addr);
		if (!c.failed && strcmp(want[i].mnemonic, ins.v[i].mnemonic)) {
			printf("[FAIL] %s: instruction %zu: expected '%s', got '%s %s'\n", name, i,
			       want[i].mnemonic, ins.v[i].mnemonic, ins.v[i].ops);
			c.failed = true;
		}
	}
	tp_insns__release(&ins);
	tp_annelf__close(e);
out_rm:
	unlink(path);
out:
	case_end(&c);
}

static void test_disasm(void)
{
	/* addiu sp,sp,-24; jr ra; nop */
	static const uint8_t mips[] = { 0x27, 0xbd, 0xff, 0xe8, 0x03, 0xe0, 0x00, 0x08,
					0, 0, 0, 0 };
	static const struct want mips_w[] = { { 0x400100, "addiu" }, { 0x400104, "jr" },
					      { 0x400108, "nop" } };
	/* mov %rdi,%rax; (0x06: no instruction in 64-bit mode); ret */
	static const uint8_t x86[] = { 0x48, 0x89, 0xf8, 0x06, 0xc3 };
	static const struct want x86_w[] = { { 0x1000, "mov" }, { 0x1003, "(bad)" },
					     { 0x1004, "ret" } };
	/* Thumb: adds r0, #1; bx lr */
	static const uint8_t thumb[] = { 0x01, 0x30, 0x70, 0x47 };
	static const struct want thumb_w[] = { { 0x8000, "adds" }, { 0x8002, "bx" } };
	/* ARM: add r0, r0, #1; bx lr */
	static const uint8_t arm[] = { 0x01, 0x00, 0x80, 0xe2, 0x1e, 0xff, 0x2f, 0xe1 };
	static const struct want arm_w[] = { { 0x8000, "add" }, { 0x8004, "bx" } };
	/* add x0, x0, #1; ret */
	static const uint8_t a64[] = { 0x00, 0x04, 0x00, 0x91, 0xc0, 0x03, 0x5f, 0xd6 };
	static const struct want a64_w[] = { { 0x400000, "add" }, { 0x400004, "ret" } };

	disasm_case("disasm: MIPS32 big-endian", false, true, EM_MIPS, 0x70001007, 0x400100,
		    mips, sizeof(mips), false, mips_w, ARRAY_SIZE(mips_w));
	disasm_case("disasm: x86_64, AT&T, undecodable byte as (bad)", true, false, EM_X86_64, 0,
		    0x1000, x86, sizeof(x86), false, x86_w, ARRAY_SIZE(x86_w));
	disasm_case("disasm: ARM in Thumb state (no mapping symbols: the hint)", false, false,
		    EM_ARM, 0x05000400, 0x8000, thumb, sizeof(thumb), true, thumb_w,
		    ARRAY_SIZE(thumb_w));
	disasm_case("disasm: ARM in ARM state", false, false, EM_ARM, 0x05000400, 0x8000, arm,
		    sizeof(arm), false, arm_w, ARRAY_SIZE(arm_w));
	disasm_case("disasm: AArch64", true, false, EM_AARCH64, 0, 0x400000, a64, sizeof(a64),
		    false, a64_w, ARRAY_SIZE(a64_w));
}

static void test_hits(void)
{
	struct tcase c = case_begin("hits: per symbol and address, hottest symbol first");
	struct tp_annhits h = { 0 };
	struct tp_annsym *s;

	EXPECT(&c, "add", 0, tp_annhits__add(&h, 0, 1, 7, 0x1000, 0x40, 0x1010, 3));
	EXPECT(&c, "add", 0, tp_annhits__add(&h, 0, 1, 7, 0x1000, 0x40, 0x1004, 1));
	EXPECT(&c, "add", 0, tp_annhits__add(&h, 0, 1, 7, 0x1000, 0x40, 0x1010, 2));
	EXPECT(&c, "add", 0, tp_annhits__add(&h, 0, 2, 9, 0x2000, 0x10, 0x2000, 10));
	EXPECT(&c, "add", 0, tp_annhits__add(&h, 1, 1, 7, 0x1000, 0x40, 0x1004, 1));
	tp_annhits__sort(&h);
	EXPECT(&c, "symbols", 3, h.nr_syms);
	EXPECT(&c, "total", 17, h.total);
	s = &h.syms[0];
	EXPECT(&c, "hottest: dso", 2, s->dso);
	s = &h.syms[1];
	EXPECT(&c, "second: sym", 7, s->sym);
	EXPECT(&c, "second: attr", 0, s->attr);
	EXPECT(&c, "second: total", 6, s->total);
	EXPECT(&c, "second: samples", 3, s->nr_samples);
	EXPECT(&c, "second: addresses", 2, s->nr_hits);
	EXPECT(&c, "second: first address", 0x1004, s->hits[0].addr);
	EXPECT(&c, "weight at 0x1010", 5, tp_annsym__weight(s, 0x1010));
	EXPECT(&c, "weight at 0x1008", 0, tp_annsym__weight(s, 0x1008));
	/* a kernel symbol: runtime addresses minus the relocation */
	EXPECT(&c, "to vaddr: outside", 0, tp_annsym__to_vaddr(s, NULL, false, 0x100));
	EXPECT(&c, "to vaddr: moved", 5, tp_annsym__weight(s, 0xf10));
	tp_annhits__release(&h);
	case_end(&c);
}

/* the harness for tests/annotate/run.sh */
static int disasm_main(const char *path, const char *start_s, const char *size_s)
{
	uint64_t start = strtoull(start_s, NULL, 0), size = strtoull(size_s, NULL, 0);
	struct tp_insns ins = { 0 };
	struct tp_annelf *e;
	int err = tp_annelf__open(&e, path, NULL);

	if (err) {
		fprintf(stderr, "test-annotate: %s: %s\n", path, tp_strerror(err));
		return 1;
	}
	err = tp_annelf__disasm(e, start, size, false, &ins);
	if (err)
		fprintf(stderr, "test-annotate: %s: %s\n", path, tp_strerror(err));
	for (uint32_t i = 0; !err && i < ins.nr; i++)
		printf("%llx\t%s\t%s\n", (unsigned long long)ins.v[i].addr, ins.v[i].mnemonic,
		       ins.v[i].ops);
	tp_insns__release(&ins);
	tp_annelf__close(e);
	return err ? 1 : 0;
}

#define REC_PID 4242
#define REC_BASE 0x10000

static int hex_id(const char *s, uint8_t *id)
{
	size_t n = strlen(s) / 2;

	if (n < 1 || n > 20 || strlen(s) % 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		id[i] = (uint8_t)v;
	}
	return (int)n;
}

/* the harness's recording: COMM, MMAP2 (with the build-id), the samples, BUILD_ID */
static int record_main(int argc, char **argv)
{
	const char *path = argv[2], *devpath = argv[3], *out = argv[5];
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = PERF_ATTR_SIZE_VER5,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD };
	static const uint64_t ids[] = { 1 };
	const struct tp_writer_attr wa = { &a, "cpu-clock", ids, 1 };
	struct tp_rec_fmt fmt = { 0, false };
	static uint8_t recs[1 << 16], fb[4096];
	uint8_t id[20];
	struct tp_annelf *e = NULL;
	struct tp_sink_fd sink;
	struct tp_writer w;
	struct tp_fbuf f;
	struct tp_feat feat;
	struct stat st;
	size_t n = 0;
	int id_len = hex_id(argv[4], id), fd, err, r;
	uint64_t time = 1000;

	if (id_len < 0 || stat(path, &st) || tp_annelf__open(&e, path, NULL)) {
		fprintf(stderr, "test-annotate: --record: %s: not an ELF file, or bad build-id %s\n",
			path, argv[4]);
		return 1;
	}
	r = tp_rec__comm(recs, sizeof(recs), &fmt, REC_PID, REC_PID, "cross", false);
	n += r > 0 ? (size_t)r : 0;
	r = tp_rec__mmap2(recs + n, sizeof(recs) - n, &fmt, PERF_RECORD_MISC_USER,
			  &(struct tp_mmap2){ .pid = REC_PID, .tid = REC_PID, .addr = REC_BASE,
					      .len = ((uint64_t)st.st_size + 0xfff) & ~0xfffULL,
					      .build_id = id, .build_id_size = (uint8_t)id_len,
					      .prot = 5 /* PROT_READ | PROT_EXEC */,
					      .flags = 2 /* MAP_PRIVATE */, .filename = devpath });
	n += r > 0 ? (size_t)r : 0;
	for (int i = 6; i < argc; i++) {
		uint64_t vaddr = strtoull(argv[i], NULL, 0), off;
		const char *colon = strchr(argv[i], ':');
		unsigned long count = colon ? strtoul(colon + 1, NULL, 0) : 1;

		if (tp_annelf__offset(e, vaddr, &off)) {
			fprintf(stderr, "test-annotate: --record: %s is in no segment\n", argv[i]);
			tp_annelf__close(e);
			return 1;
		}
		for (unsigned long k = 0; k < count && sizeof(recs) - n >= 256; k++) {
			struct tp_sample smp = { .ip = REC_BASE + off, .pid = REC_PID,
						 .tid = REC_PID, .time = time++, .period = 1 };

			r = tp_rec__sample(recs + n, sizeof(recs) - n, &fmt, a.sample_type,
					   PERF_RECORD_MISC_USER, &smp);
			n += r > 0 ? (size_t)r : 0;
		}
	}
	tp_annelf__close(e);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	tp_sink_fd__init(&sink, fd, true);
	err = tp_writer__open(&w, &sink.sink, TP_WRITER_FILE, false, &wa, 1, PERF_ATTR_SIZE_VER5);
	err = err ? err : tp_writer__add(&w, recs, n);
	tp_writer__fbuf(&w, &f, fb, sizeof(fb));
	err = err ? err : tp_feat__build_id(&f, &feat, &(struct tp_build_id){
		PERF_RECORD_MISC_USER, id, (uint8_t)id_len, devpath }, 1);
	err = err ? err : tp_writer__close(&w, &feat, 1);
	close(fd);
	if (err)
		fprintf(stderr, "test-annotate: --record: writing %s: error %d\n", out, err);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--disasm"))
		return disasm_main(argv[2], argv[3], argv[4]);
	if (argc >= 7 && !strcmp(argv[1], "--record"))
		return record_main(argc, argv);
	test_disasm();
	test_hits();
	return check_summary("test-annotate");
}
