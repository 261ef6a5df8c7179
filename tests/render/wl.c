/* SPDX-License-Identifier: MIT */
/* The render tests' workload: "wl A B W" spins 4A, 4B and 4W million rounds in render_a,
 * render_b and a function whose name has XML's markup characters and a byte that is no
 * UTF-8 (op<&"q'\xff), so pictures must escape it. The three are aligned alike: unaligned,
 * render_a's loop straddled a 32-byte boundary and ran at half render_b's speed on this
 * machine's CPU (a third now and then), so the shares were not the rounds'. */
#include <dlfcn.h>
#include <stdlib.h>

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline, aligned(64))) void render_a(unsigned long n) { spin(n); }
__attribute__((noinline, aligned(64))) void render_b(unsigned long n) { spin(n); }

/* the assembler takes a quoted name with \" where it is defined but not in a call, so the
 * call goes through dlsym (the program is linked with -rdynamic) */
__attribute__((noinline, used, aligned(64))) void weird(unsigned long n) __asm__("\"op<&\\\"q'\xff\"");
void weird(unsigned long n) { spin(n); }

int main(int argc, char **argv)
{
	void (*w)(unsigned long) = (void (*)(unsigned long))dlsym(RTLD_DEFAULT, "op<&\"q'\xff");
	unsigned long m = 4000000;

	if (argc != 4 || !w)
		return 2;
	render_a(strtoul(argv[1], NULL, 0) * m);
	render_b(strtoul(argv[2], NULL, 0) * m);
	w(strtoul(argv[3], NULL, 0) * m);
	return 0;
}
