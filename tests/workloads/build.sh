#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the test workloads (-O2 -g -fno-omit-frame-pointer, the host compiler; nofp without
# frame pointers) into DIR.
# -fno-plt: library calls through the GOT, no PLT stubs. A sample in a stub is named by
# Linux perf after whichever of two overlapping symbols (the unsized _init stretched over
# .plt, or the stub's "name@plt") its red-black tree meets first, which depends on the
# tree's shape; tinyperf always names the enclosing one. Tests comparing the two reports
# sample by sample would then differ on a coin toss (seen in report/peer.sh's "rpipe").
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh DIR}
cc=${CC:-cc}
mkdir -p "$out"
for w in spin sysc forkexec phases naps; do
	if [ ! -x "$out/$w" ] || [ "$src/$w.c" -nt "$out/$w" ] || [ "$0" -nt "$out/$w" ]; then
		$cc -O2 -g -fno-omit-frame-pointer -fno-plt -pthread -Wall -Wextra -Werror -o "$out/$w" "$src/$w.c"
	fi
done
# nofp: built as distributions build, without frame pointers (call stacks need
# --call-graph dwarf and the binary's unwind tables)
if [ ! -x "$out/nofp" ] || [ "$src/nofp.c" -nt "$out/nofp" ] || [ "$0" -nt "$out/nofp" ]; then
	$cc -O2 -g -fomit-frame-pointer -fno-plt -Wall -Wextra -Werror -o "$out/nofp" "$src/nofp.c"
fi
echo "$out"
