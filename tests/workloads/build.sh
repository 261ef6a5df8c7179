#!/bin/sh
# Build the test workloads (-O2 -g -fno-omit-frame-pointer, the host compiler) into DIR.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh DIR}
cc=${CC:-cc}
mkdir -p "$out"
for w in spin sysc forkexec phases; do
	if [ ! -x "$out/$w" ] || [ "$src/$w.c" -nt "$out/$w" ]; then
		$cc -O2 -g -fno-omit-frame-pointer -pthread -Wall -Wextra -Werror -o "$out/$w" "$src/$w.c"
	fi
done
echo "$out"
