/* SPDX-License-Identifier: MIT */
/* Checks include/tinyperf/perf_event.h against the compiler and the kernel's numbers:
 * the attr flag masks against a kernel-style bitfield laid out by this compiler (so the test
 * means something on big-endian targets too), and the perf ioctl numbers composed for both
 * ioctl encodings against perf-data-format.md §2.1. Offsets and sizes are _Static_asserts
 * in include/tinyperf/asserts.h, checked by compiling this file. */
#include "check.h"
#include "include/tinyperf/asserts.h"

/* the kernel's declaration order; bit 38/39 are the newest ones */
struct kernel_flags {
	uint64_t disabled:1, inherit:1, pinned:1, exclusive:1, exclude_user:1, exclude_kernel:1,
		 exclude_hv:1, exclude_idle:1, mmap:1, comm:1, freq:1, inherit_stat:1,
		 enable_on_exec:1, task:1, watermark:1, precise_ip:2, mmap_data:1,
		 sample_id_all:1, exclude_host:1, exclude_guest:1, exclude_callchain_kernel:1,
		 exclude_callchain_user:1, mmap2:1, comm_exec:1, use_clockid:1, context_switch:1,
		 write_backward:1, namespaces:1, ksymbol:1, bpf_event:1, aux_output:1, cgroup:1,
		 text_poke:1, build_id:1, inherit_thread:1, remove_on_exec:1, sigtrap:1,
		 defer_callchain:1, defer_output:1, reserved:24;
};

union flags_word {
	struct kernel_flags f;
	uint64_t v;
};

static void test_attr_flags(void)
{
	struct tcase c = case_begin("attr flag masks match the compiler's bitfield layout");
	union flags_word u;

#define FLAG(field, mask) do {						\
		memset(&u, 0, sizeof(u));				\
		u.f.field = 1;						\
		EXPECT(&c, #mask, u.v, mask);				\
	} while (0)
	FLAG(disabled, PERF_ATTR_FLAG_DISABLED);
	FLAG(inherit, PERF_ATTR_FLAG_INHERIT);
	FLAG(pinned, PERF_ATTR_FLAG_PINNED);
	FLAG(exclusive, PERF_ATTR_FLAG_EXCLUSIVE);
	FLAG(exclude_user, PERF_ATTR_FLAG_EXCLUDE_USER);
	FLAG(exclude_kernel, PERF_ATTR_FLAG_EXCLUDE_KERNEL);
	FLAG(exclude_hv, PERF_ATTR_FLAG_EXCLUDE_HV);
	FLAG(exclude_idle, PERF_ATTR_FLAG_EXCLUDE_IDLE);
	FLAG(mmap, PERF_ATTR_FLAG_MMAP);
	FLAG(comm, PERF_ATTR_FLAG_COMM);
	FLAG(freq, PERF_ATTR_FLAG_FREQ);
	FLAG(inherit_stat, PERF_ATTR_FLAG_INHERIT_STAT);
	FLAG(enable_on_exec, PERF_ATTR_FLAG_ENABLE_ON_EXEC);
	FLAG(task, PERF_ATTR_FLAG_TASK);
	FLAG(watermark, PERF_ATTR_FLAG_WATERMARK);
	FLAG(mmap_data, PERF_ATTR_FLAG_MMAP_DATA);
	FLAG(sample_id_all, PERF_ATTR_FLAG_SAMPLE_ID_ALL);
	FLAG(exclude_host, PERF_ATTR_FLAG_EXCLUDE_HOST);
	FLAG(exclude_guest, PERF_ATTR_FLAG_EXCLUDE_GUEST);
	FLAG(exclude_callchain_kernel, PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_KERNEL);
	FLAG(exclude_callchain_user, PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER);
	FLAG(mmap2, PERF_ATTR_FLAG_MMAP2);
	FLAG(comm_exec, PERF_ATTR_FLAG_COMM_EXEC);
	FLAG(use_clockid, PERF_ATTR_FLAG_USE_CLOCKID);
	FLAG(context_switch, PERF_ATTR_FLAG_CONTEXT_SWITCH);
	FLAG(write_backward, PERF_ATTR_FLAG_WRITE_BACKWARD);
	FLAG(namespaces, PERF_ATTR_FLAG_NAMESPACES);
	FLAG(ksymbol, PERF_ATTR_FLAG_KSYMBOL);
	FLAG(bpf_event, PERF_ATTR_FLAG_BPF_EVENT);
	FLAG(aux_output, PERF_ATTR_FLAG_AUX_OUTPUT);
	FLAG(cgroup, PERF_ATTR_FLAG_CGROUP);
	FLAG(text_poke, PERF_ATTR_FLAG_TEXT_POKE);
	FLAG(build_id, PERF_ATTR_FLAG_BUILD_ID);
	FLAG(inherit_thread, PERF_ATTR_FLAG_INHERIT_THREAD);
	FLAG(remove_on_exec, PERF_ATTR_FLAG_REMOVE_ON_EXEC);
	FLAG(sigtrap, PERF_ATTR_FLAG_SIGTRAP);
	FLAG(defer_callchain, PERF_ATTR_FLAG_DEFER_CALLCHAIN);
	FLAG(defer_output, PERF_ATTR_FLAG_DEFER_OUTPUT);
#undef FLAG
	for (unsigned v = 0; v < 4; v++) {
		uint64_t flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_MMAP_DATA;

		memset(&u, 0, sizeof(u));
		u.f.precise_ip = v & 3;
		EXPECT(&c, "PERF_ATTR_PRECISE_IP(v)", u.v, PERF_ATTR_PRECISE_IP(v));
		EXPECT(&c, "PERF_ATTR_PRECISE_IP_GET", v, PERF_ATTR_PRECISE_IP_GET(u.v));
		PERF_ATTR_SET_PRECISE_IP(flags, v);
		EXPECT(&c, "PERF_ATTR_SET_PRECISE_IP keeps the neighbours",
		       PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_MMAP_DATA | u.v, flags);
	}
	case_end(&c);
}

struct kernel_caps {
	uint64_t cap_bit0:1, cap_bit0_is_deprecated:1, cap_user_rdpmc:1, cap_user_time:1,
		 cap_user_time_zero:1, cap_user_time_short:1, cap_res:58;
};

static void test_mmap_caps(void)
{
	struct tcase c = case_begin("mmap page capability masks match the bitfield layout");
	union { struct kernel_caps f; uint64_t v; } u;

	memset(&u, 0, sizeof(u));
	u.f.cap_user_rdpmc = 1;
	EXPECT(&c, "PERF_MMAP_CAP_USER_RDPMC", u.v, PERF_MMAP_CAP_USER_RDPMC);
	memset(&u, 0, sizeof(u));
	u.f.cap_user_time = 1;
	EXPECT(&c, "PERF_MMAP_CAP_USER_TIME", u.v, PERF_MMAP_CAP_USER_TIME);
	memset(&u, 0, sizeof(u));
	u.f.cap_user_time_zero = 1;
	EXPECT(&c, "PERF_MMAP_CAP_USER_TIME_ZERO", u.v, PERF_MMAP_CAP_USER_TIME_ZERO);
	memset(&u, 0, sizeof(u));
	u.f.cap_user_time_short = 1;
	EXPECT(&c, "PERF_MMAP_CAP_USER_TIME_SHORT", u.v, PERF_MMAP_CAP_USER_TIME_SHORT);
	case_end(&c);
}

/* ---- ioctl numbers: the same macros evaluated under each encoding ---- */
enum { ENABLE, DISABLE, REFRESH, RESET, PERIOD, SET_OUTPUT, SET_FILTER, ID, SET_BPF,
       PAUSE_OUTPUT, NR_IOC };

/* composed explicitly with 4- and 8-byte pointer arguments, for the table's columns */
#define TABLE_ROW(ptr)						\
	{ TP_PERF_IOC(TP_IOC_NONE, 0, 0), TP_PERF_IOC(TP_IOC_NONE, 1, 0),		\
	  TP_PERF_IOC(TP_IOC_NONE, 2, 0), TP_PERF_IOC(TP_IOC_NONE, 3, 0),		\
	  TP_PERF_IOC(TP_IOC_WRITE, 4, 8), TP_PERF_IOC(TP_IOC_NONE, 5, 0),		\
	  TP_PERF_IOC(TP_IOC_WRITE, 6, ptr), TP_PERF_IOC(TP_IOC_READ, 7, ptr),	\
	  TP_PERF_IOC(TP_IOC_WRITE, 8, 4), TP_PERF_IOC(TP_IOC_WRITE, 9, 4) }
#define READY_MADE							\
	{ PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE, PERF_EVENT_IOC_REFRESH,	\
	  PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,	\
	  PERF_EVENT_IOC_SET_FILTER, PERF_EVENT_IOC_ID, PERF_EVENT_IOC_SET_BPF,	\
	  PERF_EVENT_IOC_PAUSE_OUTPUT }

/* asm-generic (x86, arm, aarch64, riscv) */
#define TP_IOC_NONE		0U
#define TP_IOC_WRITE		1U
#define TP_IOC_READ		2U
#define TP_IOC_DIRSHIFT		30
#define TP_IOC_NRSHIFT		0
#define TP_IOC_TYPESHIFT	8
#define TP_IOC_SIZESHIFT	16
static const uint32_t generic32[NR_IOC] = TABLE_ROW(4);
static const uint32_t generic64[NR_IOC] = TABLE_ROW(8);
static const uint32_t generic_native[NR_IOC] = READY_MADE;
#undef TP_IOC_NONE
#undef TP_IOC_WRITE
#undef TP_IOC_READ
#undef TP_IOC_DIRSHIFT

/* MIPS (and PowerPC): other direction values, 13-bit size field */
#define TP_IOC_NONE		1U
#define TP_IOC_READ		2U
#define TP_IOC_WRITE		4U
#define TP_IOC_DIRSHIFT		29
static const uint32_t mips32[NR_IOC] = TABLE_ROW(4);
static const uint32_t mips64[NR_IOC] = TABLE_ROW(8);
static const uint32_t mips_native[NR_IOC] = READY_MADE;

/* perf-data-format.md §2.1, plus REFRESH/PERIOD/SET_BPF, which the table leaves out */
static const uint32_t expect_generic32[NR_IOC] = {
	0x2400, 0x2401, 0x2402, 0x2403, 0x40082404, 0x2405, 0x40042406, 0x80042407,
	0x40042408, 0x40042409 };
static const uint32_t expect_generic64[NR_IOC] = {
	0x2400, 0x2401, 0x2402, 0x2403, 0x40082404, 0x2405, 0x40082406, 0x80082407,
	0x40042408, 0x40042409 };
static const uint32_t expect_mips32[NR_IOC] = {
	0x20002400, 0x20002401, 0x20002402, 0x20002403, 0x80082404, 0x20002405, 0x80042406,
	0x40042407, 0x80042408, 0x80042409 };
static const uint32_t expect_mips64[NR_IOC] = {
	0x20002400, 0x20002401, 0x20002402, 0x20002403, 0x80082404, 0x20002405, 0x80082406,
	0x40082407, 0x80042408, 0x80042409 };

static const char *const ioc_names[NR_IOC] = {
	"ENABLE", "DISABLE", "REFRESH", "RESET", "PERIOD", "SET_OUTPUT", "SET_FILTER", "ID",
	"SET_BPF", "PAUSE_OUTPUT" };

static void check_ioc(const char *name, const uint32_t *exp, const uint32_t *got)
{
	struct tcase c = case_begin(name);

	for (int i = 0; i < NR_IOC; i++)
		EXPECT(&c, ioc_names[i], exp[i], got[i]);
	case_end(&c);
}

int main(void)
{
	test_attr_flags();
	test_mmap_caps();
	check_ioc("ioctl numbers, generic encoding, 32-bit pointers", expect_generic32, generic32);
	check_ioc("ioctl numbers, generic encoding, 64-bit pointers", expect_generic64, generic64);
	check_ioc("ioctl numbers, MIPS encoding, 32-bit pointers", expect_mips32, mips32);
	check_ioc("ioctl numbers, MIPS encoding, 64-bit pointers", expect_mips64, mips64);
	check_ioc("PERF_EVENT_IOC_* for this ABI, generic encoding",
		  sizeof(void *) == 8 ? expect_generic64 : expect_generic32, generic_native);
	check_ioc("PERF_EVENT_IOC_* for this ABI, MIPS encoding",
		  sizeof(void *) == 8 ? expect_mips64 : expect_mips32, mips_native);
	return check_summary("test-perf-abi");
}
