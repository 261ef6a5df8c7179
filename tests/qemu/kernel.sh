#!/bin/sh
# SPDX-License-Identifier: MIT
# A Debian kernel for a qemu board, downloaded once and cached (no dpkg --add-architecture:
# a private apt state per arch under the download dir, as scripts/toolchain.sh does for musl).
#   kernel.sh DEBARCH META-PACKAGE KBOOT OUTDIR
# OUTDIR gets: kernel (what QEMU boots), modules/*.ko (virtio, uncompressed), config,
# System.map, and the file "package" naming what was resolved. The meta-package
# (linux-image-armmp ...) is resolved to its ABI name through apt, never written down here.
# KBOOT pvh: the x86 bzImage is decompressed here once, QEMU then boots the ELF through its
# PVH note and skips ~7 s of in-guest xz under TCG. Cached: nothing is fetched when OUTDIR
# is complete, unless QEMU_REFRESH=1.
set -eu
debarch=$1 meta=$2 kboot=$3 out=$4
dl=${TP_DL_DIR:?TP_DL_DIR is not set}
die() { echo "tinyperf: qemu: kernel $debarch: $*" >&2; exit 1; }
log() { echo "  KERNEL   $debarch: $*" >&2; }

[ -f "$out/.ok" ] && [ -z "${QEMU_REFRESH:-}" ] && exit 0
command -v apt-get >/dev/null || die "apt-get is needed to download $meta"
mkdir -p "$dl"
dl=$(cd "$dl" && pwd)
apt=$dl/apt-$debarch
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dl/debs"
set -- -oAPT::Architecture="$debarch" -oAPT::Architectures="$debarch" \
	-oDir::State::Lists="$apt/lists" -oDir::Cache="$apt/cache" -oDebug::NoLocking=1

update() {
	log "apt-get update (private lists in $apt)"
	# a security index caught mid-sync fails the update while the main lists are fine:
	# judged by whether the package resolves and downloads below
	apt-get "$@" update -q >"$apt.qemu.log" 2>&1 || true
}
resolve() { apt-cache "$@" depends "$meta" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'; }

[ -n "$(ls "$apt/lists/"*Packages* 2>/dev/null)" ] && [ -z "${QEMU_REFRESH:-}" ] || update "$@"
pkg=$(resolve "$@")
[ -n "$pkg" ] || { update "$@"; pkg=$(resolve "$@"); }
[ -n "$pkg" ] || die "apt cannot resolve $meta (see $apt.qemu.log)"

fetch() { (cd "$dl/debs" && apt-get "$@" download "$pkg:$debarch" >>"$apt.qemu.log" 2>&1); }
deb=$(ls "$dl/debs/${pkg}_"*"_$debarch.deb" 2>/dev/null | tail -n1)
if [ -z "$deb" ]; then
	log "download $pkg"
	fetch "$@" || { update "$@"; fetch "$@"; } || die "could not download $pkg (see $apt.qemu.log)"
	deb=$(ls "$dl/debs/${pkg}_"*"_$debarch.deb" | tail -n1)
fi

log "extract $(basename "$deb")"
rm -rf "$out.tmp" && mkdir -p "$out.tmp/x" "$out.tmp/modules"
# only the kernel, its config and map, and the virtio drivers: 5 MB of the 200-400 MB
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$out.tmp/x" --wildcards \
	'./boot/vmlinu*' './boot/config-*' './boot/System.map-*' \
	'./lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/drivers/char/virtio_console.ko' ||
	die "unexpected content in $deb"
find "$out.tmp/x/lib/modules" -name '*.ko' -exec cp {} "$out.tmp/modules/" \;
cp "$out.tmp/x/boot/config-"* "$out.tmp/config"
cp "$out.tmp/x/boot/System.map-"* "$out.tmp/System.map"
vmlinuz=$(ls "$out.tmp/x/boot/vmlinu"* | head -n1)

case $kboot in
file) mv "$vmlinuz" "$out.tmp/kernel" ;;
pvh)
	# the bzImage carries the kernel as one xz stream: find its magic and decompress it
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -n1 | cut -d: -f1)
	[ -n "$off" ] || die "no xz stream in $(basename "$vmlinuz") for a PVH boot"
	tail -c +"$((off + 1))" "$vmlinuz" | xz -dc --single-stream >"$out.tmp/kernel" 2>/dev/null || true
	[ "$(head -c 4 "$out.tmp/kernel" | od -An -c | tr -d ' ')" = "177ELF" ] ||
		die "the xz stream in $(basename "$vmlinuz") is not an ELF vmlinux"
	;;
*) die "unknown boot kind $kboot" ;;
esac
rm -rf "$out.tmp/x"
echo "$pkg" >"$out.tmp/package"
touch "$out.tmp/.ok"
rm -rf "$out" && mv "$out.tmp" "$out"
log "$pkg ready in $out"
