#!/bin/sh
# SPDX-License-Identifier: MIT
# What embedded symbols (TP_FEAT_SYMTAB) cost: a 10 s 'record -a -g' with and without them
# (--no-embed-symbols), alternating, while a workload mix runs (a syscall loop, two spinning
# threads, and a shell loop that runs many short programs, so many DSOs and kernel paths get
# samples). Prints one table: perf.data size, the time the end of the recording takes (wall
# time minus the --duration, medians), peak RSS (/usr/bin/time), the section itself, and
# whether Linux perf report reads the file with no warning.
#   bench/embed.sh TINYPERF [SECONDS] [RUNS]   (defaults 10 s, 3 runs each)
#   BENCH_LOAD=0: no workload mix (an idle system's -a -g: what the machine runs anyway)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:?usage: bench/embed.sh TINYPERF [SECONDS] [RUNS]}
secs=${2:-10}
runs=${3:-3}
work=$(mktemp -d)
bg=""
trap '[ -z "$bg" ] || kill $bg 2>/dev/null; rm -rf "$work"' EXIT
wl=$("$src/tests/workloads/build.sh" "$work/wl")
# the kernel-function cache (CONFIG_REC_KSYMS_CACHE) off: every run reads kallsyms, as the
# first recording of a boot does (bench/record.sh measures it warm too)
export TINYPERF_KSYMS_CACHE=
host=${TP_HOST:-}

# sect FILE: the size of the TP_FEAT_SYMTAB (129) section of a perf.data file
sect() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
data_off, data_size = struct.unpack_from('<QQ', d, 40)
bits = int.from_bytes(d[72:104], 'little')
idx = sum(1 for b in range(129) if bits >> b & 1)
print(struct.unpack_from('<QQ', d, data_off + data_size + 16 * idx)[1] if bits >> 129 & 1 else 0)
PY
}
row() { printf '%-40s %14s %14s %10s   %s\n' "$@"; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# the load: for the whole benchmark
bg=""
if [ "${BENCH_LOAD:-1}" != 0 ]; then
	"$wl/sysc" 100000 &
	bg=$!
	"$wl/spin" 100000 &
	bg="$bg $!"
	sh -c 'while :; do ls / >/dev/null; date >/dev/null; cat /proc/loadavg >/dev/null; done' &
	bg="$bg $!"
fi

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $runs runs of ${secs} s each"
for i in $(seq "$runs"); do
	for mode in on off; do
		opt=""; [ $mode = off ] && opt=--no-embed-symbols
		t0=$(date +%s%N)
		/usr/bin/time -f '%M %U %S' -o "$work/rss" "$tp" record -q -a -g $opt --duration "$secs" \
			-o "$work/$mode.$i.data" 2>"$work/$mode.$i.err"
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000 - secs * 1000)) >>"$work/$mode.end"
		cut -d' ' -f1 "$work/rss" >>"$work/$mode.rss"
		awk '{ printf "%d\n", ($2 + $3) * 1000 }' "$work/rss" >>"$work/$mode.cpu"
		stat -c %s "$work/$mode.$i.data" >>"$work/$mode.size"
		[ $mode = off ] || sect "$work/$mode.$i.data" >>"$work/sect"
	done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "$bg" ] || kill $bg 2>/dev/null || true
bg=""

s_on=$(median <"$work/on.size"); s_off=$(median <"$work/off.size")
e_on=$(median <"$work/on.end"); e_off=$(median <"$work/off.end")
r_on=$(median <"$work/on.rss"); r_off=$(median <"$work/off.rss")
c_on=$(median <"$work/on.cpu"); c_off=$(median <"$work/off.cpu")
pct=$(awk -v a="$s_on" -v b="$s_off" 'BEGIN { printf "%+.2f%%", (a - b) * 100 / b }')
# the two recordings differ in more than the section (samples vary run to run): the section
# against the rest of its own file is the cost
x=$(median <"$work/sect")
xpct=$(awk -v x="$x" -v a="$s_on" 'BEGIN { printf "%+.2f%%", x * 100 / (a - x) }')
echo
row "measure (median of $runs)" "embedded" "--no-embed" "added" "budget"
row "perf.data size (bytes)" "$s_on" "$s_off" "$pct" ""
row "  the symbols section (bytes)" "$x" "" "$xpct" "<= +5 %"
row "end of recording (ms after --duration)" "$e_on" "$e_off" "$((e_on - e_off)) ms" "<= 50 ms"
row "  recorder CPU, user+sys (ms)" "$c_on" "$c_off" "$((c_on - c_off)) ms" ""
row "peak RSS (KiB)" "$r_on" "$r_off" "$((r_on - r_off)) KiB" "<= 1024 KiB"
if [ -n "$host" ]; then
	"$host" header -i "$work/on.1.data" 2>/dev/null | grep '^# embedded symbols'
fi
perf report -i "$work/on.1.data" --stdio >/dev/null 2>"$work/perf.err" && rc=0 || rc=$?
if [ $rc -eq 0 ] && ! grep -q . "$work/perf.err"; then
	echo "perf report reads the file with embedded symbols: exit 0, no warning"
else
	echo "perf report: exit $rc: $(head -c 300 "$work/perf.err")"
	exit 1
fi
