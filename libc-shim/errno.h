/* SPDX-License-Identifier: MIT */
/* Error numbers are kernel ABI (they differ on MIPS): defined in arch/abi.h.
 * tp_strerror() gives a short message for the ones tinyperf reports. */
#ifndef TINYPERF_LIBC_SHIM_ERRNO_H
#define TINYPERF_LIBC_SHIM_ERRNO_H

#include "arch/abi.h"
#include "libc-shim/types.h"

/* err may be negative or positive; never returns NULL */
const char *tp_strerror(long err);

/* Every TP_E* arch/abi.h defines, with its message: X(name without TP_, "message").
 * tp_strerror() is built from TP_ERRNO_LIST and the tests walk it. The socket ones only a
 * connection can return are in it when something connects (CONFIG_SHIM_NET_ERRNOS, which the
 * stream outputs select): without, they print as "errno N" (-0.5 KiB). A write to a stdout
 * that is a socket can meet ECONNRESET or ENOTCONN, perf_event_open EOPNOTSUPP: always in. */
#define TP_ERRNO_LIST_BASE(X) \
	X(EPERM, "Operation not permitted") \
	X(ENOENT, "No such file or directory") \
	X(ESRCH, "No such process") \
	X(EINTR, "Interrupted system call") \
	X(EIO, "I/O error") \
	X(ENXIO, "No such device or address") \
	X(E2BIG, "Argument list too long") \
	X(ENOEXEC, "Exec format error") \
	X(EBADF, "Bad file descriptor") \
	X(ECHILD, "No child processes") \
	X(EAGAIN, "Resource temporarily unavailable") \
	X(ENOMEM, "Out of memory") \
	X(EACCES, "Permission denied") \
	X(EFAULT, "Bad address") \
	X(EBUSY, "Device or resource busy") \
	X(EEXIST, "File exists") \
	X(EXDEV, "Cross-device link") \
	X(ENODEV, "No such device") \
	X(ENOTDIR, "Not a directory") \
	X(EISDIR, "Is a directory") \
	X(EINVAL, "Invalid argument") \
	X(ENFILE, "Too many open files in system") \
	X(EMFILE, "Too many open files") \
	X(ENOTTY, "Not a terminal") \
	X(ETXTBSY, "Text file busy") \
	X(EFBIG, "File too large") \
	X(ENOSPC, "No space left on device") \
	X(ESPIPE, "Illegal seek") \
	X(EROFS, "Read-only file system") \
	X(EMLINK, "Too many links") \
	X(EPIPE, "Broken pipe") \
	X(ERANGE, "Result out of range") \
	X(ENAMETOOLONG, "File name too long") \
	X(ENOSYS, "Function not implemented") \
	X(ELOOP, "Too many levels of symbolic links") \
	X(ENODATA, "No data available") \
	X(EBADMSG, "Bad message") \
	X(EOVERFLOW, "Value too large for data type") \
	X(ECONNRESET, "Connection reset by peer") \
	X(ENOTCONN, "Socket not connected") \
	X(ESTALE, "Stale file handle") \
	X(EDQUOT, "Quota exceeded") \
	X(EOPNOTSUPP, "Operation not supported")

#define TP_ERRNO_LIST_NET(X) \
	X(ENOTSOCK, "Not a socket") \
	X(EDESTADDRREQ, "Destination address required") \
	X(EMSGSIZE, "Message too long") \
	X(EPROTOTYPE, "Wrong protocol type for socket") \
	X(ENOPROTOOPT, "Protocol not available") \
	X(EPROTONOSUPPORT, "Protocol not supported") \
	X(EAFNOSUPPORT, "Address family not supported") \
	X(EADDRINUSE, "Address in use") \
	X(EADDRNOTAVAIL, "Address not available") \
	X(ENETDOWN, "Network is down") \
	X(ENETUNREACH, "Network unreachable") \
	X(ECONNABORTED, "Connection aborted") \
	X(ENOBUFS, "No buffer space available") \
	X(EISCONN, "Socket is connected") \
	X(ETIMEDOUT, "Connection timed out") \
	X(ECONNREFUSED, "Connection refused") \
	X(EHOSTUNREACH, "Host is unreachable") \
	X(EALREADY, "Operation already in progress") \
	X(EINPROGRESS, "Operation in progress")

#if IS_ENABLED(CONFIG_SHIM_NET_ERRNOS)
#define TP_ERRNO_LIST(X) TP_ERRNO_LIST_BASE(X) TP_ERRNO_LIST_NET(X)
#else
#define TP_ERRNO_LIST(X) TP_ERRNO_LIST_BASE(X)
#endif

#endif
