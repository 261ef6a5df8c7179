/* SPDX-License-Identifier: MIT */
/* 64-bit division for 32-bit targets: the helpers gcc calls for uint64_t / and % there;
 * and 32-bit division where the CPU has no divide instruction (ARMv7-A before the
 * integer-divide extension: Cortex-A8/A9; arch/arm/arch.h says so with ARCH_SOFT_DIV32).
 * libgcc's are built for speed (1.1 KiB each on MIPS, 3.3 KiB for the three the recorder
 * pulls in, 1.2 KiB on i386); the recorder divides 64-bit numbers only on cold paths, so one
 * shift-subtract loop serves them all (fmt.c's tp_divmod spares the formatter and the closing
 * summary even that).
 * Defining them here keeps libgcc's copies out of the link (static linking takes the first
 * definition; libgcc has one function per object). Built without LTO, like string.c: the
 * compiler emits these calls after LTO has decided what is used. Empty on 64-bit targets.
 * On MIPS, the 64-bit shifts gcc calls out for at -Os (ARCH_SOFT_SHIFT64) too. */
#include "arch/arch.h"
#include "libc-shim/types.h"

#ifdef ARCH_SOFT_DIV32
/* The ARM EABI's 32-bit helpers (libgcc's are unrolled for speed: 1.2 KiB for the two
 * objects). The *divmod ones return the quotient in r0 and the remainder in r1, which is how
 * AAPCS returns a 64-bit value (low word in r0). One quotient bit per step, from the
 * divisor's highest bit aligned under the dividend's. */
uint32_t __aeabi_uidiv(uint32_t n, uint32_t d);
uint64_t __aeabi_uidivmod(uint32_t n, uint32_t d);
int32_t __aeabi_idiv(int32_t n, int32_t d);
uint64_t __aeabi_idivmod(int32_t n, int32_t d);

uint64_t __aeabi_uidivmod(uint32_t n, uint32_t d)
{
	uint32_t q = 0;
	int s;

	if (!d)
		return ~0ULL;	/* undefined in C; libgcc would raise SIGFPE */
	s = n >= d ? __builtin_clz(d) - __builtin_clz(n) : -1;
	for (; s >= 0; s--)
		if (n >= d << s) {
			n -= d << s;
			q |= 1u << s;
		}
	return q | (uint64_t)n << 32;
}

uint32_t __aeabi_uidiv(uint32_t n, uint32_t d)
{
	return (uint32_t)__aeabi_uidivmod(n, d);
}

/* truncating: the quotient is negative when the signs differ, the remainder takes the
 * dividend's sign */
uint64_t __aeabi_idivmod(int32_t n, int32_t d)
{
	uint32_t un = n < 0 ? -(uint32_t)n : (uint32_t)n, ud = d < 0 ? -(uint32_t)d : (uint32_t)d;
	uint64_t qr = __aeabi_uidivmod(un, ud);
	uint32_t q = (uint32_t)qr, r = (uint32_t)(qr >> 32);

	if ((n < 0) != (d < 0))
		q = -q;
	if (n < 0)
		r = -r;
	return q | (uint64_t)r << 32;
}

int32_t __aeabi_idiv(int32_t n, int32_t d)
{
	return (int32_t)(uint32_t)__aeabi_idivmod(n, d);
}
#endif

#if __SIZEOF_LONG__ == 4

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);

/* Restoring division, one quotient bit per step; shifts by constants only (a variable 64-bit
 * shift would itself be a libgcc call on MIPS). Division by zero traps in the 32-bit divide
 * when both fit in 32 bits, and yields all-ones otherwise; C leaves it undefined either way. */
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, r = 0;
	int i;

	if (!(uint32_t)(n >> 32) && !(uint32_t)(d >> 32)) {
		q = (uint32_t)n / (uint32_t)d;
		r = (uint32_t)n % (uint32_t)d;
	} else {
		for (i = 0; i < 64; i++) {
			uint32_t carry = (uint32_t)(r >> 63);

			r = r << 1 | n >> 63;
			n <<= 1;
			q <<= 1;
			if (carry || r >= d) {
				r -= d;
				q |= 1;
			}
		}
	}
	if (rem)
		*rem = r;
	return q;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* C's truncating division: the quotient is negative when the signs differ, the remainder
 * takes the dividend's sign. */
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem)
{
	uint64_t r, q = __udivmoddi4(mag(n), mag(d), &r);

	if (rem)
		*rem = (int64_t)(n < 0 ? -r : r);
	return (int64_t)((n < 0) != (d < 0) ? -q : q);
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	return __udivmoddi4(n, d, NULL);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;

	__udivmoddi4(n, d, &r);
	return r;
}

int64_t __divdi3(int64_t n, int64_t d)
{
	return __divmoddi4(n, d, NULL);
}

int64_t __moddi3(int64_t n, int64_t d)
{
	int64_t r;

	__divmoddi4(n, d, &r);
	return r;
}

#ifdef ARCH_SOFT_SHIFT64
/* shifts by 0..63 on the two 32-bit halves (gcc emits these calls at -Os) */
uint64_t __lshrdi3(uint64_t v, int n);
uint64_t __ashldi3(uint64_t v, int n);
int64_t __ashrdi3(int64_t v, int n);

uint64_t __ashldi3(uint64_t v, int n)
{
	uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;

	if (n >= 32) {
		hi = lo << (n - 32);
		lo = 0;
	} else if (n) {
		hi = (hi << n) | (lo >> (32 - n));
		lo <<= n;
	}
	return (uint64_t)hi << 32 | lo;
}

/* arithmetic: the sign fills from the left (>> of a negative int32_t does so in gcc) */
int64_t __ashrdi3(int64_t v, int n)
{
	int32_t hi = (int32_t)(v >> 32);
	uint32_t lo = (uint32_t)v;

	if (n >= 32) {
		lo = (uint32_t)(hi >> (n - 32));
		hi >>= 31;
	} else if (n) {
		lo = (lo >> n) | ((uint32_t)hi << (32 - n));
		hi >>= n;
	}
	return (int64_t)((uint64_t)(uint32_t)hi << 32 | lo);
}

uint64_t __lshrdi3(uint64_t v, int n)
{
	uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;

	if (n >= 32) {
		lo = hi >> (n - 32);
		hi = 0;
	} else if (n) {
		lo = (lo >> n) | (hi << (32 - n));
		hi >>= n;
	}
	return (uint64_t)hi << 32 | lo;
}
#endif

#endif
