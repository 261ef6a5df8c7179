#!/bin/sh
# SPDX-License-Identifier: MIT
# What one Kconfig option costs the recorder: each board's default configuration built with
# the option and without it, the difference in the stripped file and in the loaded bytes
# (text + data), against a budget when one is given. The costs in the options' prompts and
# in README's "Size budgets" come from here.
#   bench/option-cost.sh [-l freestanding|musl] [-b BYTES] OPTION [LINE...]
# OPTION: a bool symbol, with or without CONFIG_ (REC_STAT). LINEs: .config lines both builds
# get, e.g. "# CONFIG_REC_STAT_EXTRA is not set" or "CONFIG_ARCH_MIPS16_COLD=y" (a board
# without the symbol ignores its line, as Kconfig does). -b: the budget; a cell over it makes
# the exit status 1. MATRIX_BOARDS narrows the boards; the builds stay in
# $MATRIX_OUT/cost-* (out/ by default), so a second run only rebuilds what changed.
#   bench/option-cost.sh -b 4096 REC_STAT "# CONFIG_REC_STAT_EXTRA is not set"
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${MATRIX_OUT:-$src/out}
boards=${MATRIX_BOARDS:-"qemu-x86_64 qemu-i386 qemu-armv7 qemu-aarch64 qemu-mipsel qemu-mips"}
export TP_DL_DIR="${TP_DL_DIR:-$out/dl}"
MAKE=${MAKE:-make}
libc=freestanding budget=
usage() { echo "usage: bench/option-cost.sh [-l freestanding|musl] [-b BYTES] OPTION [LINE...]" >&2; exit 2; }
while getopts l:b: f; do
	case $f in
	l) libc=$OPTARG ;;
	b) budget=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $libc in freestanding|musl) ;; *) echo "bench/option-cost.sh: -l takes freestanding or musl, not '$libc'" >&2; exit 2 ;; esac
case $budget in ''|*[!0-9]*) [ -z "$budget" ] || { echo "bench/option-cost.sh: -b takes bytes, not '$budget'" >&2; exit 2; } ;; esac
opt=CONFIG_${1#CONFIG_}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for l in "$@"; do printf '%s\n' "$l"; done >"$work/lines"

# build BOARD TAG VALUE-LINE: the O= directory, configured and built
build() {
	o=$out/cost-$1-$libc-$2
	{ cat "$src/tests/configs/$libc.config" "$work/lines"; echo "$3"; } >"$work/frag-$2"
	$MAKE -s -C "$src" O="$o" KCONFIG_FRAGMENTS="$work/frag-$2" "$1_defconfig" >"$work/log" 2>&1 &&
		$MAKE -s -C "$src" O="$o" -j"$(nproc)" all tinyperf.stripped >>"$work/log" 2>&1 || {
		echo "bench/option-cost.sh: $1 ($2) did not build; the end of its log:" >&2
		tail -n 15 "$work/log" >&2
		exit 1
	}
	echo "$o"
}

# loaded bytes: text + data of the unstripped recorder, with the board's own size(1)
loaded() {
	pre=$(sed -n 's/^CONFIG_ARCH_CROSS_COMPILE="\(.*\)"$/\1/p' "$1/.config")
	"${pre}size" "$1/tinyperf" | awk 'NR == 2 { print $1 + $2 }'
}

printf '%s, %s, stripped, LTO%s\n' "$opt" "$libc" "$(sed 's/^/; /' "$work/lines" | tr -d '\n')"
printf '%-14s %9s %9s %7s %10s %7s  %s\n' board with without cost text+data budget verdict
rc=0
for b in $boards; do
	w=$(build "$b" with "$opt=y")
	if ! grep -q "^$opt=y" "$w/.config"; then
		echo "bench/option-cost.sh: $b: $opt is not y in the build with it: no such option, or one it depends on is off there" >&2
		exit 1
	fi
	n=$(build "$b" without "# $opt is not set")
	sw=$(stat -c %s "$w/tinyperf.stripped") sn=$(stat -c %s "$n/tinyperf.stripped")
	c=$((sw - sn)) t=$(($(loaded "$w") - $(loaded "$n")))
	v=-
	if [ -n "$budget" ]; then
		v=ok
		[ "$c" -le "$budget" ] || { v=OVER; rc=1; }
	fi
	printf '%-14s %9s %9s %7s %10s %7s  %s\n' "$b" "$sw" "$sn" "$c" "$t" "${budget:--}" "$v"
done
exit $rc
