#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight recorder: --overwrite rings snapshotted on SIGUSR2 into --switch-output files, each
# read by Linux perf as a file of its own (the then-active phase on top, build-ids listed),
# --switch-max-files keeping the newest, a command whose hot code runs in a forked child, the
# closing line's total. The 10-minute RSS soak is tests/flight/soak.sh.
#   run.sh TINYPERF [WORKDIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-flight}
. "$src/tests/lib.sh"
tp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
wl=$work/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "build workloads"; done_tests; exit 1; }
command -v perf >/dev/null || { fail "Linux perf not installed"; done_tests; exit 1; }

# start_rec DIR ARGS...: tinyperf record in DIR (output DIR/perf.data.*), $rec its pid; waits
# until it writes (its signal handlers are in place before it opens the file)
start_rec() {
	d=$1; shift
	rm -rf "$d"; mkdir -p "$d"
	(cd "$d" && exec "$tp" record -o perf.data "$@" 2>"$d/rec.err") &
	rec=$!
	i=0
	while [ ! -e "$d/perf.data.tmp" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
}

# stop_rec: SIGINT, wait; $rc its exit status
stop_rec() {
	kill -INT "$rec"
	wait "$rec"
	rc=$?
}

phase() { cut -d' ' -f1 "$work/phase" 2>/dev/null; }

# wait for the next phase change, then 2.2 s into the phase (the rings hold ~1.3 s at
# -F 1000 -m 16): the phase that must be on top of a snapshot taken now
late_in_next_phase() {
	p0=$(phase); i=0
	while [ "$(phase)" = "$p0" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	sleep 2.2
	phase
}

# peer_check FILE WANT: perf reads FILE (no warning but lost chunks, which say how many
# records the kernel dropped while the ring was paused), WANT tops the workload's symbols,
# the build-ids are listed
peer_check() {
	f=$1 want=$2 n=$(basename "$1")
	perf report --stdio --no-children -i "$f" --comms phases --sort sym >"$f.report" 2>"$f.report.err"
	prc=$?
	warn=$(grep -v -e '^Warning:$' -e 'lost [0-9]* chunks' -e 'Check IO/CPU overload' \
		-e '^$' "$f.report.err" | head -n1)
	top=$(grep -E '^ +[0-9.]+%' "$f.report" | head -n1 | awk '{print $NF}')
	if [ $prc -ne 0 ] || [ -n "$warn" ]; then
		fail "$n: perf report exited $prc: ${warn:-no output}"
	elif [ "$top" != "$want" ]; then
		fail "$n: expected $want on top (the phase active at the snapshot), got '$top': $(grep -E '^ +[0-9.]+%' "$f.report" | head -n3 | tr -s ' ' | tr '\n' '|')"
	else
		ok "$n: read by perf, $want on top"
	fi
	ids=$(perf buildid-list -i "$f" 2>/dev/null)
	# the kernel's build-id is due when the window has kernel samples (a short, quiet last
	# window of a user-space spin may have none), as perf report counts them
	kwant=no kgot=no
	perf report --stdio --no-children --sort dso -i "$f" 2>/dev/null |
		grep -qE '^ +[0-9.]+% +\[kernel\.kallsyms\]' && kwant=yes
	echo "$ids" | grep -q 'kernel.kallsyms' && kgot=yes
	if echo "$ids" | grep -q "$wl/phases" && [ $kwant = $kgot ]; then
		ok "$n: build-ids of the workload listed, the kernel's as its samples ($kwant)"
	else
		fail "$n: build-ids: expected $wl/phases, kernel samples $kwant, kernel build-id $kgot; got: $(echo "$ids" | tr '\n' '|')"
	fi
}

# ---- 3 x SIGUSR2 in different phases, then SIGINT: four files ----
rm -f "$work/phase"
"$wl/phases" 40 3000 "$work/phase" &
wpid=$!
sleep 0.5
start_rec "$work/snap" --overwrite --switch-output -a -e cpu-clock -F 1000 -m 16
wants=""
for k in 1 2 3; do
	wants="$wants $(late_in_next_phase)"
	kill -USR2 "$rec"
done
wants="$wants $(late_in_next_phase)"
stop_rec
kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
files=$(ls "$work/snap" | grep -E '^perf\.data\.[0-9]{16}$')
expect_eq "snapshots: recorder exit status" 0 "$rc"
expect_eq "snapshots: exactly four files named perf.data.YYYYMMDDHHMMSScc" 4 "$(echo "$files" | grep -c .)"
check "snapshots: no temporary file left" test ! -e "$work/snap/perf.data.tmp"
set -- $wants
for f in $files; do
	peer_check "$work/snap/$f" "$1"
	shift
done
first=$(echo "$files" | head -n1)
perf report --header-only -i "$work/snap/$first" 2>/dev/null | grep -q 'time of first sample : [1-9]' &&
	ok "snapshots: the header carries the first/last sample times" ||
	fail "snapshots: no first sample time in the header of $first"

# the closing line counts the bytes of every file, not only the last one's
mb=$(sed -n 's/^\[ tinyperf record: .* \([0-9]*\.[0-9]*\) MB written to 4 files, the last .*/\1/p' "$work/snap/rec.err")
sum=$(cd "$work/snap" && stat -c %s $files | awk '{ n += $1 } END { printf "%d.%02d", n / 1000000, n % 1000000 / 10000 }')
expect_eq "snapshots: the closing line's MB is the four files' total" "$sum" "$mb"

# ---- a command whose hot code runs in a forked child: at each snapshot the whole tree is
# synthesized (the child's FORK is long overwritten by then), so its samples resolve. On one
# CPU, whose 16 KiB ring then holds its last ~400 samples (0.4 s, longer when the CPU is
# shared; another CPU's ring would keep older samples) ----
rm -f "$work/phase"
start_rec "$work/cmd" --overwrite --switch-output -e cpu-clock -F 1000 -m 4 -- \
	taskset -c 0 "$wl/phases" 8.5 3000 "$work/phase" child
wants="$(late_in_next_phase) funcC"	# funcB at the signal; the end, past 7.2 s, funcC
kill -USR2 "$rec"
wait "$rec"
rc=$?
files=$(ls "$work/cmd" | grep -E '^perf\.data\.[0-9]{16}$')
expect_eq "command tree: recorder exit status (the command's)" 0 "$rc"
expect_eq "command tree: two files (a signal and the end)" 2 "$(echo "$files" | grep -c .)"
set -- $wants
for f in $files; do
	peer_check "$work/cmd/$f" "$1"
	shift
done

# ---- --switch-max-files 3 and ten signals: the three newest remain ----
start_rec "$work/max" --overwrite --switch-output --switch-max-files 3 -a -e cpu-clock -F 1000 -m 16
# each signal after the previous snapshot is out (two signals during one snapshot make one)
for k in 1 2 3 4 5 6 7 8 9 10; do
	kill -USR2 "$rec"; i=0
	while [ "$(grep -c 'dump perf.data' "$work/max/rec.err")" -lt $k ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
done
stop_rec
have=$(ls "$work/max" | grep -E '^perf\.data\.[0-9]{16}$' | tr '\n' ' ')
newest=$(sed -n 's/^\[ tinyperf record: dump \(.*\) \]$/\1/p' "$work/max/rec.err" | tail -n3 | tr '\n' ' ')
dumps=$(grep -c 'dump perf.data' "$work/max/rec.err")
expect_eq "max-files: 11 files written (10 signals + the end)" 11 "$dumps"
expect_eq "max-files: the three newest remain" "$newest" "$have"

# ---- the issue's example: callchains, syscalls and scheduling, per-event call-graph ----
start_rec "$work/tp" -g -e cpu-clock -e 'raw_syscalls:*/call-graph=no/' \
	-e sched:sched_switch/call-graph=no/ --overwrite --switch-output -a -m 32
sleep 1; kill -USR2 "$rec"; sleep 1
stop_rec
expect_eq "tracepoints: two files (a signal and the end)" 2 \
	"$(ls "$work/tp" | grep -cE '^perf\.data\.[0-9]{16}$')"
for f in $(ls "$work/tp" | grep -E '^perf\.data\.[0-9]{16}$'); do
	perf report --stdio -i "$work/tp/$f" >/dev/null 2>"$work/tp/$f.err"
	prc=$?
	warn=$(grep -v -e '^Warning:$' -e 'lost [0-9]* chunks' -e 'Check IO/CPU overload' \
		-e '^$' "$work/tp/$f.err" | head -n1)
	nsys=$(perf script -i "$work/tp/$f" 2>/dev/null | grep -c 'raw_syscalls:sys_enter: NR')
	nsw=$(perf script -i "$work/tp/$f" 2>/dev/null | grep -c 'sched:sched_switch: prev_comm=')
	if [ $prc -eq 0 ] && [ -z "$warn" ] && [ "$nsys" -gt 0 ] && [ "$nsw" -gt 0 ]; then
		ok "tracepoints: $f read by perf, $nsys syscalls and $nsw switches decoded"
	else
		fail "tracepoints: $f: perf report exited $prc ${warn}; $nsys syscalls, $nsw switches decoded"
	fi
done

done_tests
