#!/bin/sh
# SPDX-License-Identifier: MIT
# Report and script speed against Linux perf on the same system-wide callchain recording,
# measured in the same run, alternating (perf, tinyperf, perf, tinyperf ...): wall and CPU
# time and peak RSS from /usr/bin/time, medians of RUNS. Prints one table with ratios.
#   bench/report.sh TINYPERF [SECONDS] [RUNS]
#     TINYPERF  the host tool (an optimised build: make O=... host)
#     SECONDS   length of the perf record -a -g -F 10000 run under a mixed load (default 25:
#               about 50 MB); a shorter run makes a smaller file
#     RUNS      measurements of each command (default 3)
#   KEEP=1 keeps the recording (its path is printed); DATA=FILE measures FILE instead of
#   recording one
# The recording is made with Linux perf so both tools read perf's own file.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:?usage: bench/report.sh TINYPERF [SECONDS] [RUNS]}
secs=${2:-25}
runs=${3:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] && echo "kept $work/bench.data" || rm -rf "$work"' EXIT
wl=$("$src/tests/workloads/build.sh" "$work/wl")
perf=$(command -v perf)
. "$src/bench/lib.sh"

# ---- the recording: a mixed load on every CPU ----
# spin (hot user loops), sysc (half kernel), process churn, and the compiler on tinyperf's
# own sources (deep stacks, many DSOs): what a busy embedded build host looks like
load() {
	end=$(($(date +%s) + secs))
	"$wl/spin" "$secs" &
	"$wl/sysc" "$secs" &
	(while [ "$(date +%s)" -lt "$end" ]; do "$wl/forkexec" >/dev/null 2>&1; done) &
	(while [ "$(date +%s)" -lt "$end" ]; do
		for f in "$src"/host-tools/lib/*/*.c; do
			[ "$(date +%s)" -lt "$end" ] || break
			cc -O2 -I"$src" -DCONFIG_SHIM_HOSTED=1 -c -o /dev/null "$f" 2>/dev/null || true
		done
	done) &
	wait
}
if [ -n "${DATA:-}" ]; then
	link_data
else
	echo "recording: perf record -a -g -F 10000 -e cpu-clock, ${secs} s of mixed load ..."
	# the load runs inside the recording: its function text, with what it needs exported
	export secs wl src
	"$perf" record -q -N -a -g -F 10000 -e cpu-clock -o "$work/bench.data" -- \
		sh -c "$(sed -n '/^load() {/,/^}/p' "$0"); load" >/dev/null 2>"$work/rec.err" ||
		{ echo "perf record failed: $(tail -n 2 "$work/rec.err")"; exit 1; }
fi
size=$(stat -L -c %s "$work/bench.data")
nsamples=$("$tp" report -i "$work/bench.data" -g none --no-children 2>/dev/null |
	   sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' | head -n 1)
echo "file: $(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }'), $nsamples samples"
echo "perf:     $perf ($($perf --version))"
echo "tinyperf: $tp"
echo

# ---- the measurements ----

f=$work/bench.data
i=0
while [ $i -lt "$runs" ]; do
	measure perf-report "$perf" report --stdio --sort comm,dso,sym -i "$f"
	measure tp-report "$tp" report --stdio --sort comm,dso,sym -i "$f"
	measure perf-report-nog "$perf" report --stdio --sort comm,dso,sym -g none -i "$f"
	measure tp-report-nog "$tp" report --stdio --sort comm,dso,sym -g none -i "$f"
	measure perf-script "$perf" script -i "$f"
	measure tp-script "$tp" script -i "$f"
	i=$((i + 1))
done

row "measure (median of $runs, alternating)" "perf" "tinyperf" "perf/tp" "budget"
line "report --sort comm,dso,sym (callchains)" perf-report tp-report ">= 10x" ">= 4x (1/4 RSS)"
line "report ... -g none" perf-report-nog tp-report-nog "" ""
line "script" perf-script tp-script ">= 3x" ""
echo
# the same answer: sample totals of the two reports
"$perf" report --stdio --sort comm,dso,sym -i "$f" 2>/dev/null | grep -m2 -E '^# (Samples|Event count \(approx\.\)):' | sed 's/^/perf:     /'
"$tp" report --stdio --sort comm,dso,sym -i "$f" 2>/dev/null | grep -m2 -E '^# (Samples|Event count \(approx\.\)):' | sed 's/^/tinyperf: /'
