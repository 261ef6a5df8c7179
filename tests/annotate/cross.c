/* SPDX-License-Identifier: MIT */
/* tests/annotate's cross-arch fixture, linked without libc (-nostdlib): a hot loop, a
 * dense switch (a table whose address on Thumb-2 sits in a literal pool: data in the code,
 * a $d mapping symbol), and on 32-bit ARM a function in ARM state beside the Thumb ones
 * ($a, $t). */
unsigned long hot(unsigned long x, int n);
int pick(int k);
void _start(void);

__attribute__((noinline)) unsigned long hot(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

__attribute__((noinline)) int pick(int k)
{
	switch (k) {
	case 0: return k * 7 + 1;
	case 1: return k ^ 0x55;
	case 2: return k << 5;
	case 3: return k - 1000;
	case 4: return k * k;
	case 5: return k | 0x300;
	case 6: return k >> 1;
	case 7: return ~k;
	default: return -1;
	}
}

#if defined(__arm__) && defined(__thumb__)
__attribute__((noinline, target("arm"))) int in_arm(int a)
{
	return a * 3 + pick(a);
}
#else
__attribute__((noinline)) int in_arm(int a)
{
	return a * 3 + pick(a);
}
#endif

static volatile unsigned long sink;

void _start(void)
{
	sink = hot(sink, 1000) + (unsigned long)in_arm((int)sink);
	for (;;)
		;
}
