/* SPDX-License-Identifier: MIT */
/* tp_strerror: the messages of TP_ERRNO_LIST as one string, NUL-separated, indexed by a table
 * of numbers (which differ per arch), so a lookup costs a byte per entry (two on MIPS) plus
 * the text. Others print as "errno N", the number errno.h names. */
#include "libc-shim/errno.h"
#include "libc-shim/fmt.h"
#include "libc-shim/types.h"

#define CODE(name, msg) TP_##name,
#define TEXT(name, msg) msg "\0"
#define BITS(name, msg) | TP_##name

/* a byte per number where they all fit: every arch but MIPS (EDQUOT is 1133 there) */
#if (0 TP_ERRNO_LIST(BITS)) < 256
static const unsigned char codes[] = { TP_ERRNO_LIST(CODE) };
#else
static const unsigned short codes[] = { TP_ERRNO_LIST(CODE) };
#endif
static const char texts[] = TP_ERRNO_LIST(TEXT);

const char *tp_strerror(long err)
{
	const char *s = texts;
	size_t i;

	if (err < 0)
		err = -err;
	if (err == 0)
		return "Success";
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		if (codes[i] == err)
			return s;
		while (*s++)
			;
	}
	/* one buffer: the recorder is one thread, and prints each message before the next */
	static char unknown[24];

	tp_snprintf(unknown, sizeof(unknown), "errno %ld", err);
	return unknown;
}
