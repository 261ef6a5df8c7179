/* SPDX-License-Identifier: MIT */
/* Identities of the files that got samples, for the BUILD_ID feature: the GNU build-id from
 * the ELF notes, read with a few small preads (ELF header, program headers, PT_NOTE
 * segments; never the whole file), of a file, the kernel, a module or the [vdso]; and for a
 * binary without a build-id the hash of its executable load segment (perfdata/texthash.h),
 * which stripping does not change.
 *
 * Each returns 0 with id[0..*len) (1..20 bytes: longer ids are cut to 20 as perf does),
 * -TP_ENODATA when there is no GNU build-id note, -TP_ENOEXEC for something that is not a
 * well-formed ELF, or the -errno of open/read. */
#ifndef TINYPERF_RECORDER_TRACK_BUILDID_H
#define TINYPERF_RECORDER_TRACK_BUILDID_H

#include "libc-shim/types.h"

#define BUILD_ID_MAX 20

/* an ELF file, 32- or 64-bit, either byte order; when it has no build-id (any error but
 * open's) also *hash = tp_text_hash() of the file, mapped read-only (left as it was when the
 * file cannot be mapped whole; 0 without an executable load segment): one open for both */
int buildid__from_file(const char *path, uint8_t id[BUILD_ID_MAX], uint8_t *len,
		       uint64_t *hash);
/* the running kernel: /sys/kernel/notes */
int buildid__kernel(uint8_t id[BUILD_ID_MAX], uint8_t *len);
/* a loaded module, "ext4" or "[ext4]": /sys/module/NAME/notes/.note.gnu.build-id */
int buildid__module(const char *name, uint8_t id[BUILD_ID_MAX], uint8_t *len);
/* the [vdso] of this process (AT_SYSINFO_EHDR), read in memory. Processes of another ABI
 * than the recorder's (32-bit ones on a 64-bit kernel) have another vdso. */
int buildid__vdso(uint8_t id[BUILD_ID_MAX], uint8_t *len);

#endif
