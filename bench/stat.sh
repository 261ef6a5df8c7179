#!/bin/sh
# SPDX-License-Identifier: MIT
# stat and annotate against Linux perf's, measured in the same run (hyperfine alternates the
# commands; /usr/bin/time gives the peak RSS), ratios perf / tinyperf:
#   - stat -- /bin/true: what a count costs beyond the command (start, open, print);
#   - stat -- spin 1: the counted command's own wall time under each (the counting overhead
#     is the kernel's: both open the same counting events);
#   - stat -I 100 -- sleep 2: the CPU twenty interval blocks take;
#   - stat -p: the peak RSS of the counter itself;
#   - annotate --stdio of a 2 s recording of the workloads' spin (perf's file, read by both).
#   bench/stat.sh TINYPERF [HOST_TINYPERF]
# TINYPERF: a recorder for this machine (e.g. out/qemu-x86_64-musl/tinyperf); HOST_TINYPERF:
# the host tools (out/host/host/tinyperf, the default). Software events only (no PMU here).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:?usage: bench/stat.sh TINYPERF [HOST_TINYPERF]}
host=${2:-$src/out/host/host/tinyperf}
[ -x "$tp" ] || { echo "bench/stat.sh: no recorder at $tp: build one (make O=DIR)" >&2; exit 1; }
[ -x "$host" ] || { echo "bench/stat.sh: no host tools at $host: run make host" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wl=$("$src/tests/workloads/build.sh" "$work/wl")
export TINYPERF_KSYMS_CACHE=
perf=$(command -v perf)
. "$src/bench/lib.sh"
ev=task-clock,context-switches,cpu-migrations,page-faults

row() { printf '%-44s %12s %12s %9s\n' "$@"; }
# hf NAME RUNS CMD-TINYPERF CMD-PERF: hyperfine, both alternating; the wall medians and
# the CPU means (user + system) as "tp perf" in $work/NAME.wall and $work/NAME.cpu
hf() {
	hyperfine -N -w 2 -r "$2" --export-json "$work/$1.json" "$3" "$4" >/dev/null 2>&1 || {
		echo "bench/stat.sh: '$3' or '$4' failed: run them by hand to see why" >&2
		exit 1
	}
	hf_results "$work/$1.json" median >"$work/$1.wall"
	hf_results "$work/$1.json" cpu %.6f >"$work/$1.cpu"
}
# both WHAT NAME: the wall and CPU rows of hf NAME
both() {
	read -r a b <"$work/$2.wall"
	row "$1: wall, median (ms)" "$(ms "$a")" "$(ms "$b")" "$(ratio "$b" "$a")"
	read -r a b <"$work/$2.cpu"
	row "$1: CPU, mean (ms)" "$(ms "$a")" "$(ms "$b")" "$(ratio "$b" "$a")"
}

echo "tinyperf: $tp ($(stat -c %s "$tp") bytes); host tools: $host"
echo "perf:     $perf ($($perf --version); $(stat -c %s "$(readlink -f "$perf")") bytes)"
echo "annotate: both read perf's recording of the workloads' spin (2 s, cpu-clock at 4 kHz)"
echo
row "measure" "tinyperf" "perf" "perf/tp"

hf true 50 "$tp stat -e $ev -- /bin/true" "$perf stat -e $ev -- /bin/true"
both "stat -- /bin/true" true
hf spin 5 "$tp stat -e $ev -- $wl/spin 1" "$perf stat -e $ev -- $wl/spin 1"
both "stat -- spin 1" spin
hf ival 3 "$tp stat -I 100 -e $ev -- sleep 2" "$perf stat -I 100 -e $ev -- sleep 2"
read -r a b <"$work/ival.cpu"
row "stat -I 100 -- sleep 2: CPU, mean (ms)" "$(ms "$a")" "$(ms "$b")" "$(ratio "$b" "$a")"
# the counter's own peak RSS: counting a sleep it did not start (-p), which both end with;
# a command it runs would count too (wait4 reports the largest of the tree). A subshell
# reaps the sleep: a zombie target keeps both counting until Ctrl-C, as it is not gone.
target() { (sleep 1 & echo $! >"$work/pid"; wait) >/dev/null & sleep 0.1; cat "$work/pid"; }
a=$(rss "$tp" stat -e $ev -p "$(target)")
b=$(rss "$perf" stat -e $ev -p "$(target)")
wait
row "stat -p (a sleep 1): peak RSS (KiB)" "$a" "$b" "$(ratio "$b" "$a")"

"$perf" record -q -e cpu-clock -F 4000 -o "$work/spin.data" -- "$wl/spin" 2 >/dev/null 2>&1
hf ann 10 "$host annotate --stdio -i $work/spin.data" "$perf annotate --stdio -i $work/spin.data"
both "annotate --stdio" ann
a=$(rss "$host" annotate --stdio -i "$work/spin.data")
b=$(rss "$perf" annotate --stdio -i "$work/spin.data")
row "annotate --stdio: peak RSS (KiB)" "$a" "$b" "$(ratio "$b" "$a")"
