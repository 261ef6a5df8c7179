#!/bin/sh
# SPDX-License-Identifier: MIT
# Build and run uw-cross.c for each target whose cross compiler and qemu-user are here (run by
# test-unwind): OUTDIR/ARCH (the static binary, -O2 without frame pointers, with .eh_frame and
# with -g's .debug_frame; big-endian MIPS with .debug_frame only, as GCC builds MIPS C),
# OUTDIR/ARCH.stack (what it wrote), OUTDIR/ARCH.syms ("name start size", in hex, of leaf,
# mid, top, main); and OUTDIR/arm-exidx, the ARM binary without .debug_frame and .eh_frame
# (only .ARM.exidx). Prints the arches built in OUTDIR/arches.
#   unwind-fixtures.sh OUTDIR
set -u
out=$1
src=$(cd "$(dirname "$0")" && pwd)/uw-cross.c
mkdir -p "$out" || exit 1
: >"$out/arches"
# arch compiler flags qemu
while read -r arch cc flags qemu; do
	command -v "$cc" >/dev/null 2>&1 || continue
	[ "$qemu" = - ] || command -v "$qemu" >/dev/null 2>&1 || continue
	[ "$flags" = - ] && flags=
	"$cc" -O2 -g -fomit-frame-pointer -fasynchronous-unwind-tables -static $flags \
		-o "$out/$arch" "$src" 2>"$out/$arch.err" || continue
	if [ "$qemu" = - ]; then
		"$out/$arch" >"$out/$arch.stack" || continue
	else
		"$qemu" "$out/$arch" >"$out/$arch.stack" || continue
	fi
	nm -S "$out/$arch" | awk '$4 ~ /^(leaf|mid|top|main)(\.|$)/ {
		sub(/\..*/, "", $4); print $4, $1, $2 }' >"$out/$arch.syms"
	echo "$arch" >>"$out/arches"
	# ARM with only its EHABI tables, as a binary without -g has them
	if [ "$arch" = arm ] && objcopy -R .debug_frame -R .eh_frame "$out/arm" "$out/arm-exidx" &&
	   ! readelf -S "$out/arm-exidx" | grep -q -e '\.debug_frame' -e '\.eh_frame' &&
	   readelf -S "$out/arm-exidx" | grep -q '\.ARM\.exidx'; then
		cp "$out/arm.stack" "$out/arm-exidx.stack"
		cp "$out/arm.syms" "$out/arm-exidx.syms"
		echo arm-exidx >>"$out/arches"
	fi
done <<LIST
x86_64 cc - -
i386 i686-linux-gnu-gcc - qemu-i386-static
arm arm-linux-gnueabihf-gcc -mthumb qemu-arm-static
aarch64 aarch64-linux-gnu-gcc - qemu-aarch64-static
mipsel mipsel-linux-gnu-gcc - qemu-mipsel-static
mips mips-linux-gnu-gcc -fno-asynchronous-unwind-tables qemu-mips-static
LIST
