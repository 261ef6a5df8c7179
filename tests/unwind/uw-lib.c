/* SPDX-License-Identifier: MIT */
/* The shared library of the unwinding workload: a hot loop reached only through it. */
#include "uw-lib.h"

__attribute__((noinline)) static unsigned long lib_leaf(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

#ifdef UW_REBUILT
#define SHIFT 9
#else
#define SHIFT 7
#endif

__attribute__((noinline)) unsigned long uw_lib_work(unsigned long x, int n)
{
	unsigned long r = lib_leaf(x, n);

	return r ^ (r >> SHIFT);
}
