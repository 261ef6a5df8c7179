/* SPDX-License-Identifier: MIT */
/* The packed recorder's contract between its first stage (unpack.c) and the recorder it
 * unpacks (main.c): without a memory file, the recorder goes into DIR + TP_UNPACKED_NAME +
 * the process's pid, a file the recorder removes as it starts. */
#ifndef TINYPERF_RECORDER_PACK_UNPACK_H
#define TINYPERF_RECORDER_PACK_UNPACK_H

#define TP_UNPACKED_NAME	"/.tinyperf-unpacked-"

#endif
