#!/bin/sh
# SPDX-License-Identifier: MIT
# The big-endian MIPS malta kernel, built from Debian's linux-source-6.1 with the minimal
# tests/qemu/mips-be.config (about 3.5 minutes on 2 cores), then cached:
#   kernel-mips-be.sh OUTDIR
# OUTDIR gets kernel (vmlinux), config, System.map and "package" as kernel.sh does. Nothing
# is rebuilt while the fragment is unchanged, unless QEMU_REFRESH=1. The source package is
# downloaded once into the download dir; the unpacked tree is removed after the build.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
frag=$here/mips-be.config
dl=${TP_DL_DIR:?TP_DL_DIR is not set}
cross=${MIPS_BE_CROSS_COMPILE:-mips-linux-gnu-}
die() { echo "tinyperf: qemu: mips-be kernel: $*" >&2; exit 1; }
log() { echo "  KERNEL   mips-be: $*" >&2; }

sum=$(md5sum <"$frag" | cut -c1-32)
[ -f "$out/.ok" ] && [ "$(cat "$out/.ok")" = "$sum" ] && [ -z "${QEMU_REFRESH:-}" ] && exit 0
for t in "${cross}gcc" bison flex bc make; do
	command -v "$t" >/dev/null || die "$t is missing (scripts/deps.sh all installs it)"
done
mkdir -p "$dl/debs"
dl=$(cd "$dl" && pwd)

# the source package is arch "all": the host's own arch resolves it, with private lists
deb=$(ls "$dl/debs/"linux-source-6.1_*_all.deb 2>/dev/null | tail -n1)
if [ -z "$deb" ]; then
	a=$(dpkg --print-architecture)
	apt=$dl/apt-$a
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	set -- -oAPT::Architecture="$a" -oAPT::Architectures="$a" \
		-oDir::State::Lists="$apt/lists" -oDir::Cache="$apt/cache" -oDebug::NoLocking=1
	[ -n "$(ls "$apt/lists/"*Packages* 2>/dev/null)" ] || apt-get "$@" update -q >"$apt.qemu.log" 2>&1 || true
	log "download linux-source-6.1 (about 140 MB)"
	(cd "$dl/debs" && apt-get "$@" download linux-source-6.1 >>"$apt.qemu.log" 2>&1) ||
		{ apt-get "$@" update -q >>"$apt.qemu.log" 2>&1 || true
		  (cd "$dl/debs" && apt-get "$@" download linux-source-6.1 >>"$apt.qemu.log" 2>&1); } ||
		die "could not download linux-source-6.1 (see $apt.qemu.log)"
	deb=$(ls "$dl/debs/"linux-source-6.1_*_all.deb | tail -n1)
fi

work=$out.build
rm -rf "$work" && mkdir -p "$work/src" "$work/obj"
log "unpack $(basename "$deb")"
dpkg-deb --fsys-tarfile "$deb" | tar -x -O --wildcards './usr/src/linux-source-6.1.tar.xz' |
	tar -xJ -C "$work/src" --strip-components=1 || die "cannot unpack $deb"
k="make -C $work/src O=$work/obj ARCH=mips CROSS_COMPILE=$cross"
$k KCONFIG_ALLCONFIG="$frag" allnoconfig >"$work/build.log" 2>&1 || die "allnoconfig failed (see $work/build.log)"
for opt in CPU_BIG_ENDIAN VIRTIO_CONSOLE PERF_EVENTS KALLSYMS POWER_RESET_PIIX4_POWEROFF; do
	grep -q "^CONFIG_$opt=y" "$work/obj/.config" || die "CONFIG_$opt did not stick: the fragment needs a dependency"
done
log "make vmlinux (about 3.5 minutes on 2 cores; log: $work/build.log)"
$k -j"$(nproc 2>/dev/null || echo 2)" vmlinux >>"$work/build.log" 2>&1 || die "the build failed (see $work/build.log)"

rm -rf "$out.tmp" && mkdir -p "$out.tmp"
cp "$work/obj/vmlinux" "$out.tmp/kernel"
cp "$work/obj/.config" "$out.tmp/config"
cp "$work/obj/System.map" "$out.tmp/System.map"
echo "$(basename "$deb" .deb) + tests/qemu/mips-be.config" >"$out.tmp/package"
echo "$sum" >"$out.tmp/.ok"
rm -rf "$out" && mv "$out.tmp" "$out"
cp "$work/build.log" "$out/build.log"
rm -rf "$work"
log "ready in $out"
