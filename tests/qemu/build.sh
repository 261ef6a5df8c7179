#!/bin/sh
# SPDX-License-Identifier: MIT
# What a qemu board runs, built for its arch:
#   build.sh CONFIG LIBC WL_CFLAGS DIR [NOFP_CFLAGS]
# DIR/rec      the recorder, O= build of boards/CONFIG_defconfig + tests/configs/LIBC.config
# DIR/sysroot  the unstripped binaries at their guest paths (/bin/tinyperf, /bin/spin ...):
#              what the host symbolizes with
# DIR/root     the same stripped (what the guest runs), plus /init and /bin/tinyperf-packed
#              (the packed core recorder of tests/configs/core-freestanding.config)
# Everything is incremental: a second run with nothing changed only runs make's checks.
set -eu
config=$1 libc=$2 wlflags=$3 dir=$4 nofpflags=${5:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
MAKE=${MAKE:-make}
die() { echo "tinyperf: qemu: build $config: $*" >&2; exit 1; }

rec=$dir/rec
mkdir -p "$rec" "$dir/sysroot/bin" "$dir/root/bin"
frag=$src/tests/configs/$libc.config
[ -f "$frag" ] || die "no tests/configs/$libc.config"
if [ ! -f "$rec/.config" ] || [ "$src/boards/${config}_defconfig" -nt "$rec/.config" ] ||
   [ "$frag" -nt "$rec/.config" ]; then
	$MAKE -C "$src" O="$rec" "${config}_defconfig" KCONFIG_FRAGMENTS="$frag" </dev/null >/dev/null ||
		die "make ${config}_defconfig failed"
fi
$MAKE -C "$src" O="$rec" -j"$(nproc 2>/dev/null || echo 2)" tinyperf.stripped </dev/null >"$dir/make.log" 2>&1 ||
	{ tail -n 20 "$dir/make.log" >&2; die "the recorder does not build (log: $dir/make.log)"; }

# the packed core recorder (CONFIG_REC_PACK), where make sizes builds it: on a real kernel it
# unpacks itself into a memory file and executes that
pk=${MATRIX_OUT:-$src/out}/$config-core-freestanding
pkfrag=$src/tests/configs/core-freestanding.config
if [ ! -f "$pk/.config" ] || [ "$src/boards/${config}_defconfig" -nt "$pk/.config" ] ||
   [ "$pkfrag" -nt "$pk/.config" ]; then
	$MAKE -C "$src" O="$pk" "${config}_defconfig" KCONFIG_FRAGMENTS="$pkfrag" </dev/null >/dev/null ||
		die "make ${config}_defconfig (core-freestanding) failed"
fi
$MAKE -C "$src" O="$pk" -j"$(nproc 2>/dev/null || echo 2)" all tinyperf.stripped </dev/null >"$dir/make-packed.log" 2>&1 ||
	{ tail -n 20 "$dir/make-packed.log" >&2; die "the packed recorder does not build (log: $dir/make-packed.log)"; }
cmp -s "$pk/tinyperf.packed" "$dir/root/bin/tinyperf-packed" || cp "$pk/tinyperf.packed" "$dir/root/bin/tinyperf-packed"

# the cross compiler the recorder was built with: from .config, never re-derived here
cross=$(sed -n 's/^CONFIG_ARCH_CROSS_COMPILE="\(.*\)"$/\1/p' "$rec/.config")
cc=${cross}gcc
command -v "$cc" >/dev/null || cc=gcc	# x86_64-linux-gnu-gcc is plain gcc on some hosts
strip=${cross}strip
command -v "$strip" >/dev/null || strip=strip

# install SRC DST: unstripped into the sysroot, stripped into the root, when it changed
install_bin() {
	if ! cmp -s "$1" "$dir/sysroot$2"; then
		cp "$1" "$dir/sysroot$2"
		$strip -o "$dir/root$2" "$1"
	fi
}
install_bin "$rec/tinyperf" /bin/tinyperf
cmp -s "$rec/tinyperf.stripped" "$dir/root/bin/tinyperf" || cp "$rec/tinyperf.stripped" "$dir/root/bin/tinyperf"

# workloads: glibc static (threads, clock_gettime ...), frame pointers for -g
for w in spin sysc forkexec; do
	s=$src/tests/workloads/$w.c
	o=$dir/wl-$w
	if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$(cat "$o.flags" 2>/dev/null)" != "$cc $wlflags" ]; then
		# shellcheck disable=SC2086
		$cc -O2 -g -fno-omit-frame-pointer -static -pthread $wlflags -Wall -o "$o" "$s" 2>"$dir/wl-$w.err" ||
			{ cat "$dir/wl-$w.err" >&2; die "workload $w does not build with $cc (static glibc: libc6-dev-*-cross)"; }
		echo "$cc $wlflags" >"$o.flags"
	fi
	install_bin "$o" "/bin/$w"
done
# nofp: without frame pointers and without the board's frame-pointer flags (armv7: the
# toolchain's default Thumb-2), for --call-graph dwarf: the host unwinds it from its tables.
# --eh-frame-hdr, which GCC leaves out of -static links: Linux perf's unwinders need it.
# NOFP_CFLAGS: the board's own (boards.sh B_NOFP_CFLAGS). check.sh rebuilds it from
# wl-nofp.flags ("CC FLAGS") to see a rebuilt binary refused.
s=$src/tests/workloads/nofp.c
o=$dir/wl-nofp
nf="-O2 -g -fomit-frame-pointer -static -Wl,--eh-frame-hdr${nofpflags:+ $nofpflags}"
if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$(cat "$o.flags" 2>/dev/null)" != "$cc $nf" ]; then
	# shellcheck disable=SC2086
	$cc $nf -Wall -o "$o" "$s" 2>"$dir/wl-nofp.err" ||
		{ cat "$dir/wl-nofp.err" >&2; die "workload nofp does not build with $cc"; }
	echo "$cc $nf" >"$o.flags"
fi
install_bin "$o" /bin/nofp

if [ ! -f "$dir/init" ] || [ "$src/tests/qemu/init.c" -nt "$dir/init" ]; then
	$cc -O2 -static -Wall -Wextra -Werror -o "$dir/init" "$src/tests/qemu/init.c" ||
		die "tests/qemu/init.c does not build with $cc"
fi
install_bin "$dir/init" /init
