#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo: the whole product in one go, as a newcomer would use it.
#  1. install what is needed (Debian packages), build the static recorder and the host tools;
#  2. make a tiny "device" root filesystem holding only the stripped static recorder and a
#     stripped static workload, and keep the unstripped workload in a "sysroot" on the host;
#  3. record the workload on the device (chroot when root), with callchains;
#  4. report on the host against the sysroot: named functions although the device's
#     binaries were stripped.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_OUT:-$src/out}
demo=$out/demo
export TP_DL_DIR="${TP_DL_DIR:-$out/dl}"
MAKE=${MAKE:-make}
step() { printf '\n==> %s\n' "$*"; }

step "installing dependencies (Debian packages, only what is missing)"
"$src/scripts/deps.sh" all

step "building the static recorder for this machine (boards/host_defconfig: musl, static)"
$MAKE -s -C "$src" O="$demo/build" host_defconfig >/dev/null
$MAKE -s -C "$src" O="$demo/build" tinyperf.stripped
step "building the host tools"
$MAKE -s -C "$src" O="$demo/build" host

rec=$demo/build/tinyperf.stripped
host=$demo/build/host/tinyperf
echo "recorder: $(stat -c %s "$rec") bytes, $(file -b "$rec" | cut -d, -f1-2), $(file -b "$rec" | grep -o 'statically linked')"
"$rec" --version

step "a device root filesystem: the stripped recorder and a stripped workload, nothing else"
rm -rf "$demo/device" "$demo/sysroot"
mkdir -p "$demo/device/usr/bin" "$demo/device/proc" "$demo/device/sys" "$demo/device/tmp" \
	"$demo/sysroot/usr/bin"
cc -O2 -g -fno-omit-frame-pointer -pthread -static -o "$demo/sysroot/usr/bin/spin" \
	"$src/tests/workloads/spin.c"
strip -o "$demo/device/usr/bin/spin" "$demo/sysroot/usr/bin/spin"
cp "$rec" "$demo/device/usr/bin/tinyperf"
ls -l "$demo/device/usr/bin"

step "recording on the device: tinyperf record -g -e cpu-clock -- /usr/bin/spin 2"
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null &&
   mount -t proc proc "$demo/device/proc" 2>/dev/null; then
	mount -t sysfs sysfs "$demo/device/sys" 2>/dev/null || true
	chroot "$demo/device" /usr/bin/tinyperf record -g -e cpu-clock -o /tmp/perf.data -- /usr/bin/spin 2 || true
	umount "$demo/device/sys" 2>/dev/null || true
	umount "$demo/device/proc"
	data=$demo/device/tmp/perf.data
	sysroot=$demo/sysroot
else
	echo "(not root: recording without the chroot)"
	"$demo/device/usr/bin/tinyperf" record -g -e cpu-clock -o "$demo/perf.data" -- "$demo/device/usr/bin/spin" 2
	data=$demo/perf.data
	mkdir -p "$demo/sysroot$demo/device/usr/bin"
	cp "$demo/sysroot/usr/bin/spin" "$demo/sysroot$demo/device/usr/bin/spin"
	sysroot=$demo/sysroot
fi

step "on the host: tinyperf report --sysroot $sysroot"
"$host" report --stdio --no-children --sort comm,dso,sym -i "$data" --sysroot "$sysroot" | head -n 30
step "the same file, read by Linux perf (it is standard perf.data)"
perf report --stdio --no-children --sort comm,dso,sym -i "$data" --symfs "$sysroot" 2>/dev/null | grep -v '^$' | head -n 16
echo
echo "Files: $data (recording), $sysroot (unstripped binaries). 'make help' for more."
