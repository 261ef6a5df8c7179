/* SPDX-License-Identifier: MIT */
/* Path helpers every layer uses: formatting into a bounded buffer, hex build-ids, dirname and
 * basename, and whether a path is a regular file. */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_PATH_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* snprintf into buf[size]; returns 0, or -1 when the result was cut short */
__attribute__((format(printf, 3, 4)))
int tp_path_fmt(char *buf, size_t size, const char *fmt, ...);
/* lowercase hex of id[0..len) into out (2 * len + 1 bytes) */
void tp_hex(char *out, const uint8_t *id, size_t len);
/* dirname of path into buf ("" for a path without '/' or in the root) */
void tp_path_dirname(char *buf, size_t size, const char *path);
const char *tp_path_basename(const char *path);
/* is path an existing regular file (after symlinks)? */
bool tp_path_is_file(const char *path);

#endif
