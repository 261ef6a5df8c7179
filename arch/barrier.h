/* SPDX-License-Identifier: MIT */
/* Barriers and u64 acquire/release for the perf ring, derived from what the arch file provides.
 *
 * Each arch advertises what it has (`#define arch_mb arch_mb`): arch_mb/arch_rmb/arch_wmb are
 * required; arch_load_acquire_u64/arch_store_release_u64 are optional and derived here:
 *   load-acquire  = READ_ONCE(*p); rmb()   -- orders the head load before the record loads,
 *                                             which is all the ring reader needs
 *   store-release = mb(); WRITE_ONCE(*p)   -- a full barrier: record loads complete before the
 *                                             kernel may reuse the space (perf's "D" barrier)
 * A u64 in a 32-bit process is two loads. The kernel writes data_head with one store on a
 * 64-bit kernel (both halves move at once) and as an unsigned long on a 32-bit kernel (only
 * the low half moves), so the reader loads hi, lo, hi again and retries while hi changed:
 * the head only ever moves one way, so a stable hi means lo belongs to it. The tail is
 * written low half first; the kernel only uses its low bits (CIRC_SPACE masks), so a torn
 * tail cannot mislead it. */
#ifndef TINYPERF_ARCH_BARRIER_H
#define TINYPERF_ARCH_BARRIER_H

#include <stdint.h>

#if !defined(arch_mb) || !defined(arch_rmb) || !defined(arch_wmb)
#error "the arch file must provide arch_mb, arch_rmb and arch_wmb"
#endif

/* stops the compiler, not the CPU */
#define arch_barrier() __asm__ volatile("" ::: "memory")

#if __SIZEOF_LONG__ == 8
static inline uint64_t tp_read_once_u64(const volatile uint64_t *p)
{
	return *p;
}
static inline void tp_write_once_u64(volatile uint64_t *p, uint64_t v)
{
	*p = v;
}
#else
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TP_U64_HI 0
#define TP_U64_LO 1
#else
#define TP_U64_HI 1
#define TP_U64_LO 0
#endif
static inline uint64_t tp_read_once_u64(const volatile uint64_t *p)
{
	const volatile uint32_t *w = (const volatile uint32_t *)p;
	uint32_t hi, lo;

	do {
		hi = w[TP_U64_HI];
		arch_rmb();
		lo = w[TP_U64_LO];
		arch_rmb();
	} while (hi != w[TP_U64_HI]);
	return (uint64_t)hi << 32 | lo;
}
static inline void tp_write_once_u64(volatile uint64_t *p, uint64_t v)
{
	volatile uint32_t *w = (volatile uint32_t *)p;

	w[TP_U64_LO] = (uint32_t)v;
	w[TP_U64_HI] = (uint32_t)(v >> 32);
}
#endif

#ifndef arch_load_acquire_u64
static inline uint64_t arch_load_acquire_u64(const volatile uint64_t *p)
{
	uint64_t v = tp_read_once_u64(p);

	arch_rmb();
	return v;
}
#define arch_load_acquire_u64 arch_load_acquire_u64
#endif

#ifndef arch_store_release_u64
static inline void arch_store_release_u64(volatile uint64_t *p, uint64_t v)
{
	arch_mb();
	tp_write_once_u64(p, v);
}
#define arch_store_release_u64 arch_store_release_u64
#endif

#endif
