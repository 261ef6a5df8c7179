#!/bin/sh
# SPDX-License-Identifier: MIT
# Recorder budgets against Linux perf, measured in the same run (A B A B ...) with public
# tools: hyperfine for wall time, perf stat (task-clock) for CPU, /usr/bin/time for peak RSS,
# perf's own sample counts. Prints one table; figures are ratios to perf where that makes sense.
#   bench/record.sh TINYPERF [SECONDS]   (SECONDS: the long -a -g run, default 20)
# TINYPERF is any build: the default one, or the core one (tests/configs/core-musl.config:
# no embedded symbols, so its "cache warm" and "--no-embed-symbols" rows are not printed).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:?usage: bench/record.sh TINYPERF [SECONDS]}
long=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wl=$("$src/tests/workloads/build.sh" "$work/wl")
# the kernel-function cache (CONFIG_REC_KSYMS_CACHE) off unless a row says otherwise
export TINYPERF_KSYMS_CACHE=
perf=$(command -v perf)
. "$src/bench/lib.sh"	# hf_results; row and ratio are this table's own

row() { printf '%-46s %14s %14s %10s   %s\n' "$@"; }
# cpu_rss CMD...: "user+sys seconds" and "peak RSS KiB" of CMD and its children: the CPU
# from perf stat's task-clock (to the microsecond: /usr/bin/time prints hundredths, too
# coarse for a recorder that uses a few ms in 20 s; it adds /usr/bin/time's own, well under
# a ms), the RSS from /usr/bin/time. The file CMD writes (-o) is removed first: dropping an
# earlier run's pages from the page cache (a 170 MB dwarf-mode file took 100-300 ms) would
# be counted to this one, and perf would rename it to .old instead of truncating it.
cpu_rss() {
	prev=
	for a in "$@"; do
		[ "$prev" = -o ] && rm -f "$a" "$a.old"
		prev=$a
	done
	perf stat -x, -e task-clock -o "$work/s" -- /usr/bin/time -f '%M' -o "$work/t" "$@" \
		>/dev/null 2>&1 || true
	awk -F, '$3 ~ /^task-clock/ { ms = $1 } END { printf "%.4f ", ms / 1000 }' "$work/s"
	tail -n 1 "$work/t"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

# builds without embedded symbols (CONFIG_REC_EMBED_SYMBOLS) have no --no-embed-symbols
embed=0
"$tp" record --help 2>&1 | grep -q -e --no-embed-symbols && embed=1
noembed=
[ $embed = 1 ] && noembed=--no-embed-symbols

echo "tinyperf: $tp ($(stat -c %s "$tp") bytes unstripped; embedded symbols: $([ $embed = 1 ] && echo on || echo "not in this build"))"
echo "perf:     $perf ($($perf --version))"
echo
row "measure" "tinyperf" "perf" "ratio" "budget"

# 1. fixed cost of recording /bin/true (wall: hyperfine medians, alternating). A run whose
# one or two samples include a kernel address reads /proc/kallsyms for the embedded symbols
# as far as that address (the kernel formats it at ~0.5 us a line: up to 90 ms here), unless
# the kernel-function cache (CONFIG_REC_KSYMS_CACHE) names it: measured cold (no cache, as
# the first recording of a boot) and warm (a cache that 50 earlier recordings of /bin/true
# filled, as for someone recording the same program again); --no-embed-symbols apart.
kc="$work/ksyms-cache"
i=0
while [ $i -lt 50 ]; do
	env TINYPERF_KSYMS_CACHE="$kc" "$tp" record -q -e cpu-clock -F 1000 -o "$work/a.data" -- /bin/true
	i=$((i + 1))
done
hyperfine -N -w 3 -r 30 --export-json "$work/h.json" \
	"env TINYPERF_KSYMS_CACHE= $tp record -q -e cpu-clock -F 1000 -o $work/a.data -- /bin/true" \
	"$perf record -q -e cpu-clock -F 1000 -o $work/b.data -- /bin/true" \
	"env TINYPERF_KSYMS_CACHE=$kc $tp record -q -e cpu-clock -F 1000 -o $work/d.data -- /bin/true" \
	"env $tp record -q $noembed -e cpu-clock -F 1000 -o $work/c.data -- /bin/true" \
	>/dev/null 2>&1
set -- $(hf_results "$work/h.json" median)
row "record -- /bin/true: wall (median, s)" "$(printf %.4f "$1")" "$(printf %.4f "$2")" "$(ratio "$1" "$2")" "<= 0.020 s"
if [ $embed = 1 ]; then
	row "  kernel-function cache warm" "$(printf %.4f "$3")" "" "$(ratio "$3" "$2")" "<= 0.020 s"
	row "  with --no-embed-symbols" "$(printf %.4f "$4")" "" "$(ratio "$4" "$2")" "<= 0.020 s"
fi
# CPU: hyperfine's mean user + system over the same 30 runs (/usr/bin/time counts in 10 ms)
set -- $(hf_results "$work/h.json" cpu %.4f)
row "record -- /bin/true: CPU (mean of 30, s)" "$1" "$2" "$(ratio "$1" "$2")" "<= 0.010 s"
if [ $embed = 1 ]; then
	row "  kernel-function cache warm" "$3" "" "$(ratio "$3" "$2")" "<= 0.010 s"
	row "  with --no-embed-symbols" "$4" "" "$(ratio "$4" "$2")" "<= 0.010 s"
fi
set -- $(hf_results "$work/h.json" mean %.4f)
row "  wall, mean of 30 (cold, perf, warm, none)" "$1 $3 $4" "$2" "" ""

# 2. peak RSS; the rings (128 pages per CPU, touched as they fill) are reported apart, and
# the RSS without them is the peak over /proc/PID/smaps read every 20 ms (every mapping but
# the perf_event ones)
ncpu=$(nproc)
rings_kib=$((ncpu * 129 * 4))
t=$(cpu_rss "$tp" record -q -e cpu-clock -F 1000 -o "$work/a.data" -- sleep 1)
p=$(cpu_rss "$perf" record -q -e cpu-clock -F 1000 -o "$work/b.data" -- sleep 1)
row "peak RSS, record -- sleep 1 (KiB)" "${t#* }" "${p#* }" "$(ratio "${t#* }" "${p#* }")" "<= 2048 + rings"
row "  of which rings at most (KiB)" "$rings_kib" "" "" ""
# no_rings CMD...: peak KiB of CMD's mappings other than its rings
no_rings() {
	"$@" >/dev/null 2>&1 & pid=$!
	peak=0
	while [ -e "/proc/$pid/smaps" ]; do
		k=$(awk '/^[0-9a-f]+-/ { ring = /perf_event/ } /^Rss:/ && !ring { n += $2 } END { print n + 0 }' \
			"/proc/$pid/smaps" 2>/dev/null || echo 0)
		[ "${k:-0}" -gt "$peak" ] && peak=$k
		sleep 0.02
		kill -0 "$pid" 2>/dev/null || break
	done
	wait "$pid" 2>/dev/null
	echo "$peak"
}
t=$(no_rings "$tp" record -q -e cpu-clock -F 1000 -o "$work/a.data" -- sleep 1)
p=$(no_rings "$perf" record -q -e cpu-clock -F 1000 -o "$work/b.data" -- sleep 1)
row "  peak RSS without the rings (KiB)" "$t" "$p" "$(ratio "$t" "$p")" "<= 2048"

# 3. own CPU of a long system-wide callchain recording at 10 kHz
# (cold: no kernel-function cache; a second run with the one the first filled is below)
t=$(cpu_rss env TINYPERF_KSYMS_CACHE="$kc.long" "$tp" record -q -a -g -e cpu-clock -F 10000 -o "$work/a.data" -- sleep "$long")
ts=$(perf script -i "$work/a.data" -F tid 2>/dev/null | grep -c .)
p=$(cpu_rss "$perf" record -q -a -g -e cpu-clock -F 10000 -o "$work/b.data" -- sleep "$long")
ps=$(perf script -i "$work/b.data" -F tid 2>/dev/null | grep -c .)
row "-a -g -F 10000, ${long} s: own CPU (s)" "${t% *}" "${p% *}" "$(ratio "${t% *}" "${p% *}")" "<= 0.1 s (20 s)"
row "  peak RSS (KiB)" "${t#* }" "${p#* }" "$(ratio "${t#* }" "${p#* }")" ""
row "  samples" "$ts" "$ps" "$(ratio "$ts" "$ps")" ""
lost() { perf report --stats -i "$1" 2>/dev/null | awk '/^ *LOST(_SAMPLES)? events:/ {n += $3} END {print n + 0}'; }
row "  LOST + LOST_SAMPLES records" "$(lost "$work/a.data")" "$(lost "$work/b.data")" "" "0 where perf loses 0"
if [ $embed = 1 ]; then
	t=$(cpu_rss env TINYPERF_KSYMS_CACHE="$kc.long" "$tp" record -q -a -g -e cpu-clock -F 10000 -o "$work/a.data" -- sleep "$long")
	row "  own CPU, kernel-function cache warm (s)" "${t% *}" "" "" "<= 0.1 s (20 s)"
	# the embedded symbols (CONFIG_REC_EMBED_SYMBOLS) are read at the end: their share
	t=$(cpu_rss "$tp" record -q -a -g -e cpu-clock -F 10000 --no-embed-symbols -o "$work/a.data" -- sleep "$long")
	row "  own CPU with --no-embed-symbols (s)" "${t% *}" "" "" "<= 0.1 s (20 s)"
fi

# 3b. own CPU in dwarf mode (CONFIG_REC_CALLGRAPH_DWARF): the user registers and 8 KiB of
# stack per sample, -a at 1 kHz for 10 s while a program built without frame pointers spins
# (in the background, so the CPU measured is the recorder's and sleep's alone)
# (the median of 3 runs each, alternating: a single run's copy to the page cache varied by a
# quarter from run to run on a shared machine)
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
if "$tp" record --help 2>&1 | grep -q -e '--call-graph'; then
	"$wl/nofp" 100 40 &
	spin=$!
	tl= pl=
	for i in 1 2 3; do
		t=$(cpu_rss "$tp" record -q -a -e cpu-clock -F 1000 --call-graph dwarf,8192 -o "$work/a.data" -- sleep 10)
		p=$(cpu_rss "$perf" record -q -a -e cpu-clock -F 1000 --call-graph dwarf,8192 -o "$work/b.data" -- sleep 10)
		tl="$tl ${t% *}" pl="$pl ${p% *}"
	done
	ts=$(perf script -i "$work/a.data" -F tid 2>/dev/null | grep -c .)
	ps=$(perf script -i "$work/b.data" -F tid 2>/dev/null | grep -c .)
	kill "$spin" 2>/dev/null; wait "$spin" 2>/dev/null || true
	# shellcheck disable=SC2086
	t=$(median3 $tl) p=$(median3 $pl)
	row "-a --call-graph dwarf,8192 -F 1000, 10 s: own CPU (s)" "$t" "$p" "$(ratio "$t" "$p")" "<= 1/3 of perf's"
	row "  each run (tinyperf; perf)" "" "" "" "$tl;$pl"
	row "  samples" "$ts" "$ps" "$(ratio "$ts" "$ps")" ""
	# the embedded symbols' share: /proc/kallsyms read and packed at the end (about half
	# of the recorder's CPU in this row), the rest is mostly the ring's copy to the file
	if [ $embed = 1 ]; then
		"$wl/nofp" 60 40 &
		spin=$!
		t=$(cpu_rss "$tp" record -q -a $noembed -e cpu-clock -F 1000 --call-graph dwarf,8192 -o "$work/a.data" -- sleep 10)
		kill "$spin" 2>/dev/null; wait "$spin" 2>/dev/null || true
		row "  own CPU with --no-embed-symbols (s)" "${t% *}" "" "$(ratio "${t% *}" "$p")" ""
	fi
fi

# 4. short-lived children at 1 kHz, per-task: samples caught vs CPU time x frequency
for tool in tp perf; do
	if [ $tool = tp ]; then cmd=$tp; else cmd=$perf; fi
	$cmd record -q -e cpu-clock -F 1000 -o "$work/f.data" -- "$wl/forkexec" 1000 >"$work/f.out" 2>/dev/null
	ms=$(sed -n 's/forkexec-tree-cpu-ms: //p' "$work/f.out")
	n=$(perf script -i "$work/f.data" -F tid 2>/dev/null | grep -c .)
	eval "${tool}_catch=\$(awk -v n=$n -v ms=$ms 'BEGIN{printf \"%.1f\", 100 * n / ms}')"
	eval "${tool}_n=$n ${tool}_ms=$ms"
done
row "fork/exec 1 kHz: samples / (CPU ms)" "$tp_n/$tp_ms" "$perf_n/$perf_ms" "" ""
row "  caught (%)" "$tp_catch" "$perf_catch" "$(ratio "$tp_catch" "$perf_catch")" ">= 90 %"
