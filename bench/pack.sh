#!/bin/sh
# SPDX-License-Identifier: MIT
# What packing costs (CONFIG_REC_PACK): the packed recorder against the stripped recorder it
# carries and against Linux perf, in the same run (hyperfine, alternating): the file sizes,
# the start (--version: the unpacking alone), record -- /bin/true wall and CPU, and the peak
# RSS of record -- sleep 1 (/usr/bin/time; the memory file counts: it is the recorder's image).
#   bench/pack.sh BUILD_DIR      (an O= build with CONFIG_REC_PACK=y for this machine's arch,
#                                 e.g. out/qemu-x86_64-core-freestanding after make sizes)
set -eu
o=${1:?usage: bench/pack.sh BUILD_DIR}
pk=$o/tinyperf.packed st=$o/tinyperf.stripped
[ -x "$pk" ] && [ -x "$st" ] || { echo "bench/pack.sh: no $pk and $st: build $o with CONFIG_REC_PACK=y" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TINYPERF_KSYMS_CACHE=
perf=$(command -v perf)
. "$(dirname "$0")/lib.sh"
row() { printf '%-40s %12s %12s %12s %9s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

echo "packed:   $pk ($(stat -c %s "$pk") bytes)"
echo "stripped: $st ($(stat -c %s "$st") bytes)"
echo "perf:     $perf ($($perf --version))"
echo
row "measure" "packed" "stripped" "perf" "pk/strip"
row "file (bytes)" "$(stat -c %s "$pk")" "$(stat -c %s "$st")" "$(stat -c %s "$(readlink -f "$perf")")" \
	"$(ratio "$(stat -c %s "$pk")" "$(stat -c %s "$st")")"

hyperfine -N -w 5 -r 100 --export-json "$work/v.json" "$pk --version" "$st --version" \
	"$perf --version" >/dev/null 2>&1
set -- $(hf_results "$work/v.json" median)
row "--version: wall, median (ms)" "$(ms "$1")" "$(ms "$2")" "$(ms "$3")" "$(ratio "$1" "$2")"
set -- $(hf_results "$work/v.json" cpu %.6f)
row "--version: CPU, mean (ms)" "$(ms "$1")" "$(ms "$2")" "$(ms "$3")" "$(ratio "$1" "$2")"

hyperfine -N -w 3 -r 30 --export-json "$work/t.json" \
	"$pk record -q -e cpu-clock -F 1000 -o $work/a.data -- /bin/true" \
	"$st record -q -e cpu-clock -F 1000 -o $work/b.data -- /bin/true" \
	"$perf record -q -e cpu-clock -F 1000 -o $work/c.data -- /bin/true" >/dev/null 2>&1
set -- $(hf_results "$work/t.json" median)
row "record -- /bin/true: wall, median (ms)" "$(ms "$1")" "$(ms "$2")" "$(ms "$3")" "$(ratio "$1" "$2")"
set -- $(hf_results "$work/t.json" cpu %.6f)
row "record -- /bin/true: CPU, mean (ms)" "$(ms "$1")" "$(ms "$2")" "$(ms "$3")" "$(ratio "$1" "$2")"

a=$(rss "$pk" record -q -e cpu-clock -F 1000 -o "$work/a.data" -- sleep 1)
b=$(rss "$st" record -q -e cpu-clock -F 1000 -o "$work/b.data" -- sleep 1)
c=$(rss "$perf" record -q -e cpu-clock -F 1000 -o "$work/c.data" -- sleep 1)
row "peak RSS, record -- sleep 1 (KiB)" "$a" "$b" "$c" "$(ratio "$a" "$b")"
