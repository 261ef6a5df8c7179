/* SPDX-License-Identifier: MIT */
/* Process start-up for the freestanding backend: arch's _start hands the initial stack
 * pointer to tp_start_c(), which finds argc, argv, envp and the auxiliary vector, runs main()
 * and exits with its status. */
#include "libc-shim/sys.h"
#include "arch/arch.h"

int main(int argc, char **argv, char **envp);
__attribute__((noreturn, used)) void tp_start_c(long *sp);

char **tp_environ;
static unsigned long *auxv;

ARCH_START_ASM

/* sp[0] = argc, then argv[] and NULL, envp[] and NULL, then auxv (type, value) pairs */
void tp_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char **p = envp;

	while (*p)
		p++;
	tp_environ = envp;
	auxv = (unsigned long *)(p + 1);
	sys_exit_group(main(argc, argv, envp));
}

unsigned long tp_getauxval(unsigned long type)
{
	const unsigned long *a;

	for (a = auxv; a && a[0] != TP_AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}
