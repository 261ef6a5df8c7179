#!/bin/sh
# SPDX-License-Identifier: MIT
# Unwinding speed against Linux perf on the same perf-written --call-graph dwarf recording,
# measured in the same run, alternating (perf, tinyperf, perf, tinyperf ...): wall and CPU time
# and peak RSS of report -g and script (every sample's user stack unwound) from /usr/bin/time,
# medians of RUNS; then the share of samples whose chain tinyperf script gives as perf script
# does (tests/unwind/chains.py). Prints one table with ratios and the issue's budgets.
# The load is mixed: tests/unwind's workload (built -O2 without frame pointers: a PIE, a shared
# library, a second thread, a SIGALRM handler, a 48-deep recursion), xz -9e with two worker
# threads (liblzma), the python3 interpreter and perl, as Debian built them, side by side.
# They are started first and perf attaches to them (perf record -p): in a process that perf
# saw exec from another (sh -c, make, a launcher), perf's own unwinding loses the libc frames
# (__libc_start_main, clone3, the signal frame), which would measure that, not us; attached,
# perf sees their mappings from /proc and unwinds them right, so every chain can be compared.
#   bench/unwind.sh TINYPERF [SECONDS] [RUNS]
#     TINYPERF  the host tool (an optimised build: make O=... host)
#     SECONDS   length of the perf record --call-graph dwarf -F 1000 run (default 20: 20-40 MB
#               of 8 KiB stack copies, depending on how much CPU the load gets)
#     RUNS      measurements of each command (default 3)
#   KEEP=1 keeps the recording (its path is printed); DATA=FILE measures FILE instead
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tp=${1:?usage: bench/unwind.sh TINYPERF [SECONDS] [RUNS]}
secs=${2:-20}
runs=${3:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] && echo "kept $work/bench.data" || rm -rf "$work"' EXIT
perf=$(command -v perf)
. "$src/bench/lib.sh"

# ---- the workload ----
cc -O2 -fomit-frame-pointer -fPIC -shared -o "$work/libuwlib.so" "$src/tests/unwind/uw-lib.c"
cc -O2 -fomit-frame-pointer -fPIE -pie -I"$src/tests/unwind" -o "$work/uw-work" \
	"$src/tests/unwind/uw-work.c" -L"$work" -luwlib -Wl,-rpath,"$work" -lpthread
if [ -n "${DATA:-}" ]; then
	link_data
else
	# input for xz that lasts: random text compresses slowly at -9e
	head -c 6000000 /dev/urandom | base64 >"$work/xz.in"
	run=$((secs + 10))	# they outlive the recording; killed after it
	pids=""
	# each started by exec from a subshell: its image is in place before perf attaches
	(exec "$work/uw-work" "$run" >/dev/null) &
	pids=$!
	if command -v xz >/dev/null; then
		(exec xz -9e -T2 -c "$work/xz.in" >/dev/null) &
		pids="$pids,$!"
	fi
	if [ -x /usr/bin/python3 ]; then
		(exec /usr/bin/python3 -c "import time
t = time.time()
while time.time() - t < $run:
    sorted(str(i) for i in range(3000))") &
		pids="$pids,$!"
	fi
	if [ -x /usr/bin/perl ]; then
		(exec /usr/bin/perl -e "my \$t = time; while (time - \$t < $run) {
			my %h; \$h{\$_} = \$_ * 3 for 1 .. 20000; my @k = sort keys %h; }") &
		pids="$pids,$!"
	fi
	sleep 0.5	# their images and first threads in place
	echo "recording: perf record --call-graph dwarf -F 1000 -e cpu-clock -p ($pids), ${secs} s" \
	     "of a mixed load (uw-work, xz -T2, python3, perl) ..."
	"$perf" record -q -N --call-graph dwarf -F 1000 -e cpu-clock -o "$work/bench.data" \
		-p "$pids" -- sleep "$secs" >/dev/null 2>"$work/rec.err" ||
		{ echo "perf record failed: $(tail -n 2 "$work/rec.err")"; exit 1; }
	kill $(echo "$pids" | tr , ' ') 2>/dev/null || true
	wait
fi
size=$(stat -L -c %s "$work/bench.data")
nsamples=$("$tp" report -i "$work/bench.data" -g none --no-children 2>/dev/null |
	   sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' | head -n 1)
echo "file: $(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }'), $nsamples samples" \
     "($("$tp" report -i "$work/bench.data" --stdio --sort comm -g none --no-children 2>/dev/null |
	 awk '/^ +[0-9.]+%/ { printf "%s%s %s", n++ ? ", " : "", $2, $1 }'))"
[ "$size" -ge 20000000 ] || echo "note: under the issue's 20 MB: give it more SECONDS"
echo "perf:     $perf ($($perf --version))"
echo "tinyperf: $tp"
echo

f=$work/bench.data
i=0
while [ $i -lt "$runs" ]; do
	measure perf-report "$perf" report --stdio -g --no-children -i "$f"
	measure tp-report "$tp" report --stdio -g --no-children -i "$f"
	measure perf-script "$perf" script -i "$f"
	measure tp-script "$tp" script -i "$f"
	i=$((i + 1))
done

row "measure (median of $runs, alternating)" "perf" "tinyperf" "perf/tp" "budget"
line "report -g --no-children (unwinding)" perf-report tp-report ">= 10x" ">= 4x (1/4 RSS)"
line "script (unwinding)" perf-script tp-script "" ""
echo
"$perf" script -i "$f" >"$work/p.scr" 2>/dev/null
"$tp" script -i "$f" >"$work/t.scr" 2>/dev/null
python3 "$src/tests/unwind/chains.py" "$work/p.scr" "$work/t.scr" 99 || true
echo "budget: chains equal on >= 99 % of samples"
