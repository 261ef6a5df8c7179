/* SPDX-License-Identifier: MIT */
/* The perf_event ABI (Linux include/uapi/linux/perf_event.h) written out as tinyperf's own
 * definitions, so an old or missing toolchain UAPI header never limits what we can record.
 * Only <stdint.h>/<stddef.h>: included by the recorder, perfdata/ and the host tools alike.
 * Offsets and sizes are checked in include/tinyperf/asserts.h on every target. */
#ifndef TINYPERF_INCLUDE_PERF_EVENT_H
#define TINYPERF_INCLUDE_PERF_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* ---- attr.type ---- */
enum perf_type_id {
	PERF_TYPE_HARDWARE	= 0,
	PERF_TYPE_SOFTWARE	= 1,
	PERF_TYPE_TRACEPOINT	= 2,
	PERF_TYPE_HW_CACHE	= 3,
	PERF_TYPE_RAW		= 4,
	PERF_TYPE_BREAKPOINT	= 5,
	PERF_TYPE_MAX,		/* dynamic PMUs (/sys/bus/event_source/devices/X/type) follow */
};

/* attr.config for PERF_TYPE_HARDWARE/HW_CACHE may carry a PMU type in bits 32-63 (hybrid) */
#define PERF_PMU_TYPE_SHIFT	32
#define PERF_HW_EVENT_MASK	0xffffffffULL

enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,
	PERF_COUNT_HW_MAX,
};

/* PERF_TYPE_HW_CACHE config = id | (op << 8) | (result << 16) */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D		= 0,
	PERF_COUNT_HW_CACHE_L1I		= 1,
	PERF_COUNT_HW_CACHE_LL		= 2,
	PERF_COUNT_HW_CACHE_DTLB	= 3,
	PERF_COUNT_HW_CACHE_ITLB	= 4,
	PERF_COUNT_HW_CACHE_BPU		= 5,
	PERF_COUNT_HW_CACHE_NODE	= 6,
	PERF_COUNT_HW_CACHE_MAX,
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ	= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE	= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH	= 2,
	PERF_COUNT_HW_CACHE_OP_MAX,
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,
	PERF_COUNT_HW_CACHE_RESULT_MAX,
};

enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK		= 0,
	PERF_COUNT_SW_TASK_CLOCK	= 1,
	PERF_COUNT_SW_PAGE_FAULTS	= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES	= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS	= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ	= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS	= 7,
	PERF_COUNT_SW_EMULATION_FAULTS	= 8,
	PERF_COUNT_SW_DUMMY		= 9,
	PERF_COUNT_SW_BPF_OUTPUT	= 10,
	PERF_COUNT_SW_CGROUP_SWITCHES	= 11,
	PERF_COUNT_SW_MAX,
};

/* ---- attr.sample_type: which fields a PERF_RECORD_SAMPLE carries, in record order ---- */
#define PERF_SAMPLE_IP			(1ULL << 0)
#define PERF_SAMPLE_TID			(1ULL << 1)
#define PERF_SAMPLE_TIME		(1ULL << 2)
#define PERF_SAMPLE_ADDR		(1ULL << 3)
#define PERF_SAMPLE_READ		(1ULL << 4)
#define PERF_SAMPLE_CALLCHAIN		(1ULL << 5)
#define PERF_SAMPLE_ID			(1ULL << 6)
#define PERF_SAMPLE_CPU			(1ULL << 7)
#define PERF_SAMPLE_PERIOD		(1ULL << 8)
#define PERF_SAMPLE_STREAM_ID		(1ULL << 9)
#define PERF_SAMPLE_RAW			(1ULL << 10)
#define PERF_SAMPLE_BRANCH_STACK	(1ULL << 11)
#define PERF_SAMPLE_REGS_USER		(1ULL << 12)
#define PERF_SAMPLE_STACK_USER		(1ULL << 13)
#define PERF_SAMPLE_WEIGHT		(1ULL << 14)
#define PERF_SAMPLE_DATA_SRC		(1ULL << 15)
#define PERF_SAMPLE_IDENTIFIER		(1ULL << 16)
#define PERF_SAMPLE_TRANSACTION		(1ULL << 17)
#define PERF_SAMPLE_REGS_INTR		(1ULL << 18)
#define PERF_SAMPLE_PHYS_ADDR		(1ULL << 19)
#define PERF_SAMPLE_AUX			(1ULL << 20)
#define PERF_SAMPLE_CGROUP		(1ULL << 21)
#define PERF_SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define PERF_SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define PERF_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)
#define PERF_SAMPLE_MAX			(1ULL << 25)

/* ---- attr.branch_sample_type: the bits that change a sample's BRANCH_STACK layout ---- */
#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)	/* a u64 hw_idx after nr */
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)	/* nr u64 counters after the entries */

/* ---- attr.read_format ---- */
#define PERF_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define PERF_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define PERF_FORMAT_ID			(1ULL << 2)
#define PERF_FORMAT_GROUP		(1ULL << 3)
#define PERF_FORMAT_LOST		(1ULL << 4)
#define PERF_FORMAT_MAX			(1ULL << 5)

/* ---- attr.size: each version's size names the last field it added ---- */
#define PERF_ATTR_SIZE_VER0	64	/* up to config1 */
#define PERF_ATTR_SIZE_VER1	72	/* config2 */
#define PERF_ATTR_SIZE_VER2	80	/* branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* sig_data */
#define PERF_ATTR_SIZE_VER8	136	/* config3 */

/* ---- the attr flag word (offset 40) ----
 * The kernel declares it as 1-bit fields in one __u64. GCC allocates bitfields from the least
 * significant bit on little-endian targets and from the most significant bit on big-endian ones,
 * so the same field sits at a different bit of the u64 depending on the byte order of the ABI.
 * PERF_ATTR_BIT_* are the kernel's field numbers (byte-order neutral, for code that handles
 * another machine's attrs, e.g. the host reader); PERF_ATTR_FLAG_* are the masks for this
 * target's own attrs. __BYTE_ORDER__ is a compiler macro, not an arch test. */
#define PERF_ATTR_BIT_DISABLED			0
#define PERF_ATTR_BIT_INHERIT			1
#define PERF_ATTR_BIT_PINNED			2
#define PERF_ATTR_BIT_EXCLUSIVE			3
#define PERF_ATTR_BIT_EXCLUDE_USER		4
#define PERF_ATTR_BIT_EXCLUDE_KERNEL		5
#define PERF_ATTR_BIT_EXCLUDE_HV		6
#define PERF_ATTR_BIT_EXCLUDE_IDLE		7
#define PERF_ATTR_BIT_MMAP			8
#define PERF_ATTR_BIT_COMM			9
#define PERF_ATTR_BIT_FREQ			10
#define PERF_ATTR_BIT_INHERIT_STAT		11
#define PERF_ATTR_BIT_ENABLE_ON_EXEC		12
#define PERF_ATTR_BIT_TASK			13
#define PERF_ATTR_BIT_WATERMARK			14
#define PERF_ATTR_BIT_PRECISE_IP		15	/* 2 bits: 15-16 */
#define PERF_ATTR_BIT_MMAP_DATA			17
#define PERF_ATTR_BIT_SAMPLE_ID_ALL		18
#define PERF_ATTR_BIT_EXCLUDE_HOST		19
#define PERF_ATTR_BIT_EXCLUDE_GUEST		20
#define PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_KERNEL	21
#define PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_USER	22
#define PERF_ATTR_BIT_MMAP2			23
#define PERF_ATTR_BIT_COMM_EXEC			24
#define PERF_ATTR_BIT_USE_CLOCKID		25
#define PERF_ATTR_BIT_CONTEXT_SWITCH		26
#define PERF_ATTR_BIT_WRITE_BACKWARD		27
#define PERF_ATTR_BIT_NAMESPACES		28
#define PERF_ATTR_BIT_KSYMBOL			29
#define PERF_ATTR_BIT_BPF_EVENT			30
#define PERF_ATTR_BIT_AUX_OUTPUT		31
#define PERF_ATTR_BIT_CGROUP			32
#define PERF_ATTR_BIT_TEXT_POKE			33
#define PERF_ATTR_BIT_BUILD_ID			34
#define PERF_ATTR_BIT_INHERIT_THREAD		35
#define PERF_ATTR_BIT_REMOVE_ON_EXEC		36
#define PERF_ATTR_BIT_SIGTRAP			37
#define PERF_ATTR_BIT_DEFER_CALLCHAIN		38
#define PERF_ATTR_BIT_DEFER_OUTPUT		39
#define PERF_ATTR_NR_BITS			40
#define PERF_ATTR_PRECISE_IP_WIDTH		2

/* Shift of a `width`-bit field whose first kernel bit number is n, in a native u64 bitfield
 * word. Shared with the other kernel bitfield word we touch (mmap page capabilities). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PERF_BITFIELD_SHIFT(n, width)	(64 - (n) - (width))
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PERF_BITFIELD_SHIFT(n, width)	(n)
#else
#error "__BYTE_ORDER__ is needed to place the perf_event_attr bitfields"
#endif
#define PERF_BITFIELD_BIT(n)		(1ULL << PERF_BITFIELD_SHIFT(n, 1))

#define PERF_ATTR_FLAG_DISABLED			PERF_BITFIELD_BIT(PERF_ATTR_BIT_DISABLED)
#define PERF_ATTR_FLAG_INHERIT			PERF_BITFIELD_BIT(PERF_ATTR_BIT_INHERIT)
#define PERF_ATTR_FLAG_PINNED			PERF_BITFIELD_BIT(PERF_ATTR_BIT_PINNED)
#define PERF_ATTR_FLAG_EXCLUSIVE		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUSIVE)
#define PERF_ATTR_FLAG_EXCLUDE_USER		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_USER)
#define PERF_ATTR_FLAG_EXCLUDE_KERNEL		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_KERNEL)
#define PERF_ATTR_FLAG_EXCLUDE_HV		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_HV)
#define PERF_ATTR_FLAG_EXCLUDE_IDLE		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_IDLE)
#define PERF_ATTR_FLAG_MMAP			PERF_BITFIELD_BIT(PERF_ATTR_BIT_MMAP)
#define PERF_ATTR_FLAG_COMM			PERF_BITFIELD_BIT(PERF_ATTR_BIT_COMM)
#define PERF_ATTR_FLAG_FREQ			PERF_BITFIELD_BIT(PERF_ATTR_BIT_FREQ)
#define PERF_ATTR_FLAG_INHERIT_STAT		PERF_BITFIELD_BIT(PERF_ATTR_BIT_INHERIT_STAT)
#define PERF_ATTR_FLAG_ENABLE_ON_EXEC		PERF_BITFIELD_BIT(PERF_ATTR_BIT_ENABLE_ON_EXEC)
#define PERF_ATTR_FLAG_TASK			PERF_BITFIELD_BIT(PERF_ATTR_BIT_TASK)
#define PERF_ATTR_FLAG_WATERMARK		PERF_BITFIELD_BIT(PERF_ATTR_BIT_WATERMARK)
#define PERF_ATTR_FLAG_MMAP_DATA		PERF_BITFIELD_BIT(PERF_ATTR_BIT_MMAP_DATA)
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL		PERF_BITFIELD_BIT(PERF_ATTR_BIT_SAMPLE_ID_ALL)
#define PERF_ATTR_FLAG_EXCLUDE_HOST		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_HOST)
#define PERF_ATTR_FLAG_EXCLUDE_GUEST		PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_GUEST)
#define PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_KERNEL	PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_KERNEL)
#define PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER	PERF_BITFIELD_BIT(PERF_ATTR_BIT_EXCLUDE_CALLCHAIN_USER)
#define PERF_ATTR_FLAG_MMAP2			PERF_BITFIELD_BIT(PERF_ATTR_BIT_MMAP2)
#define PERF_ATTR_FLAG_COMM_EXEC		PERF_BITFIELD_BIT(PERF_ATTR_BIT_COMM_EXEC)
#define PERF_ATTR_FLAG_USE_CLOCKID		PERF_BITFIELD_BIT(PERF_ATTR_BIT_USE_CLOCKID)
#define PERF_ATTR_FLAG_CONTEXT_SWITCH		PERF_BITFIELD_BIT(PERF_ATTR_BIT_CONTEXT_SWITCH)
#define PERF_ATTR_FLAG_WRITE_BACKWARD		PERF_BITFIELD_BIT(PERF_ATTR_BIT_WRITE_BACKWARD)
#define PERF_ATTR_FLAG_NAMESPACES		PERF_BITFIELD_BIT(PERF_ATTR_BIT_NAMESPACES)
#define PERF_ATTR_FLAG_KSYMBOL			PERF_BITFIELD_BIT(PERF_ATTR_BIT_KSYMBOL)
#define PERF_ATTR_FLAG_BPF_EVENT		PERF_BITFIELD_BIT(PERF_ATTR_BIT_BPF_EVENT)
#define PERF_ATTR_FLAG_AUX_OUTPUT		PERF_BITFIELD_BIT(PERF_ATTR_BIT_AUX_OUTPUT)
#define PERF_ATTR_FLAG_CGROUP			PERF_BITFIELD_BIT(PERF_ATTR_BIT_CGROUP)
#define PERF_ATTR_FLAG_TEXT_POKE		PERF_BITFIELD_BIT(PERF_ATTR_BIT_TEXT_POKE)
#define PERF_ATTR_FLAG_BUILD_ID			PERF_BITFIELD_BIT(PERF_ATTR_BIT_BUILD_ID)
#define PERF_ATTR_FLAG_INHERIT_THREAD		PERF_BITFIELD_BIT(PERF_ATTR_BIT_INHERIT_THREAD)
#define PERF_ATTR_FLAG_REMOVE_ON_EXEC		PERF_BITFIELD_BIT(PERF_ATTR_BIT_REMOVE_ON_EXEC)
#define PERF_ATTR_FLAG_SIGTRAP			PERF_BITFIELD_BIT(PERF_ATTR_BIT_SIGTRAP)
#define PERF_ATTR_FLAG_DEFER_CALLCHAIN		PERF_BITFIELD_BIT(PERF_ATTR_BIT_DEFER_CALLCHAIN)
#define PERF_ATTR_FLAG_DEFER_OUTPUT		PERF_BITFIELD_BIT(PERF_ATTR_BIT_DEFER_OUTPUT)

/* precise_ip is a 2-bit field (0 arbitrary skid .. 3 zero skid). Being a field, its value keeps
 * normal significance inside its two bits on both byte orders. */
#define PERF_ATTR_PRECISE_IP_SHIFT \
	PERF_BITFIELD_SHIFT(PERF_ATTR_BIT_PRECISE_IP, PERF_ATTR_PRECISE_IP_WIDTH)
#define PERF_ATTR_PRECISE_IP_MASK	(3ULL << PERF_ATTR_PRECISE_IP_SHIFT)
#define PERF_ATTR_PRECISE_IP(v)		(((uint64_t)(v) & 3) << PERF_ATTR_PRECISE_IP_SHIFT)
#define PERF_ATTR_PRECISE_IP_GET(flags)	((unsigned)(((flags) >> PERF_ATTR_PRECISE_IP_SHIFT) & 3))
#define PERF_ATTR_SET_PRECISE_IP(flags, v) \
	((flags) = ((flags) & ~PERF_ATTR_PRECISE_IP_MASK) | PERF_ATTR_PRECISE_IP(v))

struct perf_event_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	union {
		uint64_t sample_period;
		uint64_t sample_freq;		/* when PERF_ATTR_FLAG_FREQ */
	};
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;				/* PERF_ATTR_FLAG_* */
	union {
		uint32_t wakeup_events;
		uint32_t wakeup_watermark;	/* when PERF_ATTR_FLAG_WATERMARK */
	};
	uint32_t bp_type;
	union {
		uint64_t bp_addr;
		uint64_t kprobe_func;
		uint64_t uprobe_path;
		uint64_t config1;
	};
	union {
		uint64_t bp_len;
		uint64_t kprobe_addr;
		uint64_t probe_offset;
		uint64_t config2;
	};
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action;			/* kernel bitfield aux_start_paused/pause/resume */
	uint64_t sig_data;
	uint64_t config3;
};

/* ---- records ---- */
struct perf_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;				/* whole record, header included */
};

enum perf_event_type {
	PERF_RECORD_MMAP			= 1,
	PERF_RECORD_LOST			= 2,
	PERF_RECORD_COMM			= 3,
	PERF_RECORD_EXIT			= 4,
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,
	PERF_RECORD_FORK			= 7,
	PERF_RECORD_READ			= 8,
	PERF_RECORD_SAMPLE			= 9,
	PERF_RECORD_MMAP2			= 10,
	PERF_RECORD_AUX				= 11,
	PERF_RECORD_ITRACE_START		= 12,
	PERF_RECORD_LOST_SAMPLES		= 13,
	PERF_RECORD_SWITCH			= 14,
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,
	PERF_RECORD_NAMESPACES			= 16,
	PERF_RECORD_KSYMBOL			= 17,
	PERF_RECORD_BPF_EVENT			= 18,
	PERF_RECORD_CGROUP			= 19,
	PERF_RECORD_TEXT_POKE			= 20,
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,
	PERF_RECORD_CALLCHAIN_DEFERRED		= 22,
	PERF_RECORD_MAX,

	/* written by perf tools, never by the kernel */
	PERF_RECORD_USER_TYPE_START		= 64,
	PERF_RECORD_HEADER_ATTR			= 64,
	PERF_RECORD_HEADER_EVENT_TYPE		= 65,	/* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA		= 66,
	PERF_RECORD_HEADER_BUILD_ID		= 67,
	PERF_RECORD_FINISHED_ROUND		= 68,
	PERF_RECORD_ID_INDEX			= 69,
	PERF_RECORD_AUXTRACE_INFO		= 70,
	PERF_RECORD_AUXTRACE			= 71,
	PERF_RECORD_AUXTRACE_ERROR		= 72,
	PERF_RECORD_THREAD_MAP			= 73,
	PERF_RECORD_CPU_MAP			= 74,
	PERF_RECORD_STAT_CONFIG			= 75,
	PERF_RECORD_STAT			= 76,
	PERF_RECORD_STAT_ROUND			= 77,
	PERF_RECORD_EVENT_UPDATE		= 78,
	PERF_RECORD_TIME_CONV			= 79,
	PERF_RECORD_HEADER_FEATURE		= 80,
	PERF_RECORD_COMPRESSED			= 81,
	PERF_RECORD_FINISHED_INIT		= 82,
	PERF_RECORD_COMPRESSED2			= 83,
	PERF_RECORD_BPF_METADATA		= 84,
	PERF_RECORD_SCHEDSTAT_CPU		= 85,
	PERF_RECORD_SCHEDSTAT_DOMAIN		= 86,
	PERF_RECORD_HEADER_MAX,
};

/* header.misc */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)
/* bit 13 and bit 14 mean different things per record type */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13)	/* MMAP/MMAP2 */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13)	/* COMM */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13)	/* FORK (perf-internal) */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13)	/* SWITCH */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14)	/* SAMPLE */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)	/* SWITCH */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14)	/* MMAP2 */
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)
/* perf tools reuse bit 15 in HEADER_BUILD_ID records: the size byte is valid */
#define PERF_RECORD_MISC_BUILD_ID_SIZE		(1 << 15)

/* callchain context markers (u64 values in PERF_SAMPLE_CALLCHAIN ips[]) */
#define PERF_CONTEXT_HV			((uint64_t)-32)
#define PERF_CONTEXT_KERNEL		((uint64_t)-128)
#define PERF_CONTEXT_USER		((uint64_t)-512)
#define PERF_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PERF_CONTEXT_GUEST		((uint64_t)-2048)
#define PERF_CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define PERF_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PERF_CONTEXT_MAX		((uint64_t)-4095)

/* perf_event_open() flags */
#define PERF_FLAG_FD_NO_GROUP	(1UL << 0)
#define PERF_FLAG_FD_OUTPUT	(1UL << 1)
#define PERF_FLAG_PID_CGROUP	(1UL << 2)
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)

/* ---- ioctls ----
 * _IO/_IOR/_IOW('$', nr, type) are encoded differently per arch (MIPS and PowerPC move the
 * direction bits and give them other values), so the composing macro takes the encoding from
 * TP_IOC_* in arch/abi.h; include that before using PERF_EVENT_IOC_*. The size of pointer
 * arguments is the size of a pointer in the *calling* ABI, as in the kernel's definitions. */
#define PERF_IOC_NR_ENABLE		0
#define PERF_IOC_NR_DISABLE		1
#define PERF_IOC_NR_REFRESH		2
#define PERF_IOC_NR_RESET		3
#define PERF_IOC_NR_PERIOD		4
#define PERF_IOC_NR_SET_OUTPUT		5
#define PERF_IOC_NR_SET_FILTER		6
#define PERF_IOC_NR_ID			7
#define PERF_IOC_NR_SET_BPF		8
#define PERF_IOC_NR_PAUSE_OUTPUT	9

#define TP_PERF_IOC(dir, nr, size)					\
	((uint32_t)(((uint32_t)(dir) << TP_IOC_DIRSHIFT) |		\
		    ((uint32_t)(size) << TP_IOC_SIZESHIFT) |		\
		    ((uint32_t)'$' << TP_IOC_TYPESHIFT) |		\
		    ((uint32_t)(nr) << TP_IOC_NRSHIFT)))

#define PERF_EVENT_IOC_ENABLE		TP_PERF_IOC(TP_IOC_NONE, PERF_IOC_NR_ENABLE, 0)
#define PERF_EVENT_IOC_DISABLE		TP_PERF_IOC(TP_IOC_NONE, PERF_IOC_NR_DISABLE, 0)
#define PERF_EVENT_IOC_REFRESH		TP_PERF_IOC(TP_IOC_NONE, PERF_IOC_NR_REFRESH, 0)
#define PERF_EVENT_IOC_RESET		TP_PERF_IOC(TP_IOC_NONE, PERF_IOC_NR_RESET, 0)
#define PERF_EVENT_IOC_PERIOD		TP_PERF_IOC(TP_IOC_WRITE, PERF_IOC_NR_PERIOD, sizeof(uint64_t))
#define PERF_EVENT_IOC_SET_OUTPUT	TP_PERF_IOC(TP_IOC_NONE, PERF_IOC_NR_SET_OUTPUT, 0)
#define PERF_EVENT_IOC_SET_FILTER	TP_PERF_IOC(TP_IOC_WRITE, PERF_IOC_NR_SET_FILTER, sizeof(char *))
#define PERF_EVENT_IOC_ID		TP_PERF_IOC(TP_IOC_READ, PERF_IOC_NR_ID, sizeof(uint64_t *))
#define PERF_EVENT_IOC_SET_BPF		TP_PERF_IOC(TP_IOC_WRITE, PERF_IOC_NR_SET_BPF, sizeof(uint32_t))
#define PERF_EVENT_IOC_PAUSE_OUTPUT	TP_PERF_IOC(TP_IOC_WRITE, PERF_IOC_NR_PAUSE_OUTPUT, sizeof(uint32_t))

/* ---- the first page of the ring-buffer mapping ---- */
/* capabilities is a kernel bitfield word too, so its bits move with the byte order */
#define PERF_MMAP_CAP_BIT_USER_RDPMC		2
#define PERF_MMAP_CAP_BIT_USER_TIME		3
#define PERF_MMAP_CAP_BIT_USER_TIME_ZERO	4
#define PERF_MMAP_CAP_BIT_USER_TIME_SHORT	5
#define PERF_MMAP_CAP_USER_RDPMC	PERF_BITFIELD_BIT(PERF_MMAP_CAP_BIT_USER_RDPMC)
#define PERF_MMAP_CAP_USER_TIME		PERF_BITFIELD_BIT(PERF_MMAP_CAP_BIT_USER_TIME)
#define PERF_MMAP_CAP_USER_TIME_ZERO	PERF_BITFIELD_BIT(PERF_MMAP_CAP_BIT_USER_TIME_ZERO)
#define PERF_MMAP_CAP_USER_TIME_SHORT	PERF_BITFIELD_BIT(PERF_MMAP_CAP_BIT_USER_TIME_SHORT)

struct perf_event_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint32_t lock;			/* seqlock for the time fields */
	uint32_t index;
	int64_t offset;
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t capabilities;		/* PERF_MMAP_CAP_* */
	uint16_t pmc_width;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
	uint64_t time_zero;
	uint32_t size;
	uint32_t reserved_1;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t reserved[116 * 8];
	/* read data_head with acquire semantics, write data_tail with release (arch/barrier.h);
	 * a 32-bit kernel only moves the low half of data_head */
	uint64_t data_head;
	uint64_t data_tail;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t aux_head;
	uint64_t aux_tail;
	uint64_t aux_offset;
	uint64_t aux_size;
};

#endif
