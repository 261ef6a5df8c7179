/* SPDX-License-Identifier: MIT */
/* Opens a shared library on first use and looks up its functions (dl.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "host-tools/lib/common/dl.h"
#include "host-tools/lib/common/error.h"

int tp_dl__load(const char *soname, const char *const *names, tp_dl_fn *fns, unsigned n,
		const struct tp_log *log)
{
	const char *err;
	void *sym;

	if (fns[0])			/* already loaded: every entry is filled together */
		return 0;
	if (!dlopen(soname, RTLD_NOW | RTLD_GLOBAL)) {
		err = dlerror();
		tp_log__error(log, "cannot load %s: %s", soname, err ? err : "dlopen failed");
		return -TP_ERR_IO;
	}
	for (unsigned i = 0; i < n; i++) {
		/* the global scope: an interposer preloaded before the library comes first */
		sym = dlsym(RTLD_DEFAULT, names[i]);
		if (!sym) {
			tp_log__error(log, "%s has no %s", soname, names[i]);
			for (unsigned j = 0; j < i; j++)
				fns[j] = NULL;
			return -TP_ERR_IO;
		}
		/* POSIX: a dlsym() result converts to the function's pointer type */
		fns[i] = (tp_dl_fn)sym;
	}
	return 0;
}

void *tp_dl__data(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}
