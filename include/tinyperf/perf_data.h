/* SPDX-License-Identifier: MIT */
/* The perf.data container (file and pipe mode) as Linux perf reads it, plus tinyperf's private
 * feature ids. Shared by the device writer and the host reader; see
 * shared/reference/perf-data-format.md §1 for the layout this describes. */
#ifndef TINYPERF_INCLUDE_PERF_DATA_H
#define TINYPERF_INCLUDE_PERF_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "perf_event.h"

/* "PERFILE2" stored as a native u64: its bytes tell the reader the writer's byte order */
#define PERF_MAGIC2		0x32454c4946524550ULL
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL

struct perf_file_section {
	uint64_t offset;		/* from the start of the file */
	uint64_t size;
};

#define HEADER_FEAT_BITS	256

/* File layout (§1.1):
 *   0                perf_file_header
 *   104              u64 ids[] of every attr, one array after the other
 *   attrs.offset     perf_file_attr[nr], each attr_size bytes
 *   data.offset      records
 *   data.offset+data.size   perf_file_section[popcount(adds_features)], ascending feature id
 *   ...              the feature payloads they point to */
struct perf_file_header {
	uint64_t magic;			/* PERF_MAGIC2 */
	uint64_t size;			/* sizeof(struct perf_file_header) */
	uint64_t attr_size;		/* attr.size + sizeof(struct perf_file_section) */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	/* perf declares this as unsigned long[]; we always write u64 words, which perf accepts
	 * from any writer as long as HEADER_HOSTNAME is set (it probes the word size with it) */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

/* On disk an attr takes exactly attr.size bytes (possibly fewer than sizeof here), followed by
 * the section locating its ids, so entries are header.attr_size apart: never use sizeof() to
 * walk them. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

struct perf_pipe_file_header {
	uint64_t magic;			/* PERF_MAGIC2 */
	uint64_t size;			/* 16 */
};

/* feature bits of perf_file_header.adds_features; each id's payload is described in §1.4 */
enum perf_header_feature {
	HEADER_RESERVED		= 0,	/* always clear */
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID		= 2,
	HEADER_FIRST_FEATURE	= HEADER_BUILD_ID,
	HEADER_HOSTNAME		= 3,
	HEADER_OSRELEASE	= 4,
	HEADER_VERSION		= 5,
	HEADER_ARCH		= 6,
	HEADER_NRCPUS		= 7,
	HEADER_CPUDESC		= 8,
	HEADER_CPUID		= 9,
	HEADER_TOTAL_MEM	= 10,
	HEADER_CMDLINE		= 11,
	HEADER_EVENT_DESC	= 12,
	HEADER_CPU_TOPOLOGY	= 13,
	HEADER_NUMA_TOPOLOGY	= 14,
	HEADER_BRANCH_STACK	= 15,
	HEADER_PMU_MAPPINGS	= 16,
	HEADER_GROUP_DESC	= 17,
	HEADER_AUXTRACE		= 18,
	HEADER_STAT		= 19,
	HEADER_CACHE		= 20,
	HEADER_SAMPLE_TIME	= 21,
	HEADER_MEM_TOPOLOGY	= 22,
	HEADER_CLOCKID		= 23,
	HEADER_DIR_FORMAT	= 24,
	HEADER_BPF_PROG_INFO	= 25,
	HEADER_BPF_BTF		= 26,
	HEADER_COMPRESSED	= 27,
	HEADER_CPU_PMU_CAPS	= 28,
	HEADER_CLOCK_DATA	= 29,
	HEADER_HYBRID_TOPOLOGY	= 30,
	HEADER_PMU_CAPS		= 31,
	HEADER_CPU_DOMAIN_INFO	= 32,
	HEADER_LAST_FEATURE	= 33,

	/* tinyperf's own sections; Linux perf skips ids it does not know */
	TP_FEAT_FIRST		= 128,
	/* load-segment hash of hit DSOs without a build-id (tp_text_hash, perfdata/texthash.h):
	 * u32 nr; { u64 hash; perf header string filename (as in the MMAP records) }[nr] */
	TP_FEAT_TEXT_HASH	= 128,
	TP_FEAT_SYMTAB		= 129,	/* embedded symbols */
	TP_FEAT_RECORD_INFO	= 130,	/* key/value meta data of the recording */
};

/* In a stream, a HEADER_FEATURE record holds at most 64 KiB (its u16 size); tinyperf's own
 * sections can be bigger, and go as several records of the same id, each but the last with
 * this bit in header.misc and a payload that is a multiple of 8 bytes (no padding), which
 * 'tinyperf recv' joins. Linux perf never gets them (it refuses private features in a pipe). */
#define TP_FEATURE_MISC_MORE	1

/* Feature strings: u32 len; char str[len], len = ALIGN(strlen + 1, 64) (NUL-padded) */
#define PERF_HEADER_STRING_ALIGN	64

/* HEADER_BUILD_ID section entry and PERF_RECORD_HEADER_BUILD_ID record (same bytes).
 * 36 bytes on every ABI: the struct holds nothing wider than 4 bytes. */
#define PERF_BUILD_ID_MAX	20
struct perf_record_header_build_id {
	struct perf_event_header header; /* type 67, misc KERNEL|USER (| BUILD_ID_SIZE) */
	int32_t pid;			/* -1 for the host machine */
	union {
		uint8_t build_id[24];	/* old layout: id zero-padded to 24 */
		struct {
			uint8_t data[PERF_BUILD_ID_MAX];
			uint8_t size;	/* valid if misc & PERF_RECORD_MISC_BUILD_ID_SIZE */
			uint8_t reserved1;
			uint16_t reserved2;
		};
	};
	char filename[];		/* NUL-terminated, zero-padded to header.size */
};

/* PERF_RECORD_HEADER_FEATURE (pipe mode): the feature section's bytes after feat_id */
struct perf_record_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;
};

/* PERF_RECORD_HEADER_TRACING_DATA (pipe mode): `size` blob bytes follow the record, outside
 * header.size */
struct perf_record_header_tracing_data {
	struct perf_event_header header; /* size 12 */
	uint32_t size;			/* blob size, padded to 8 */
};

/* HEADER_TRACING_DATA blob starts with these 10 bytes, then a version string ("0.6") */
#define PERF_TRACING_DATA_MAGIC		"\027\010Dtracing"
#define PERF_TRACING_DATA_MAGIC_LEN	10

/* every user of the format gets the layout checked */
#include "asserts.h"

#endif
