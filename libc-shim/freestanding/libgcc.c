/* What libgcc.a expects from a C library: ARM's division-by-zero handler (__aeabi_idiv0,
 * __aeabi_ldiv0 in _dvmd_lnx.o) calls raise(SIGFPE). Linked only when something pulls it in. */
#include "libc-shim/sys.h"

int raise(int sig);

/* used: with -flto the compiler sees no caller (libgcc is not LTO code) and would drop it */
__attribute__((used)) int raise(int sig)
{
	return (int)sys_kill((int)sys_gettid(), sig);
}
