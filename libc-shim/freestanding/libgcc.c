/* What libgcc.a expects from a C library: ARM's division-by-zero handler (__aeabi_idiv0,
 * __aeabi_ldiv0 in _dvmd_lnx.o) calls raise(SIGFPE). Linked only when something pulls it in. */
#include "libc-shim/sys.h"

int raise(int sig);

int raise(int sig)
{
	return (int)sys_kill((int)sys_gettid(), sig);
}
