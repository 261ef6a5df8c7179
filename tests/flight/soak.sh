#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight-recorder soak: --overwrite --switch-output -a at -F 1000 with process churn (a
# fork/exec loop) and a SIGUSR2 snapshot every 5 s, --switch-max-files 3. The recorder's RSS
# must be flat over the second half (at the end within 10 % of its RSS at half time) and
# within 25 % of its RSS at minute 1 (bounded state: nothing grows with the processes that
# come and go or with the number of snapshots), every file kept must read in Linux perf, and
# the recorder must exit 0. The first minutes are allowed their warm-up: the arena keeps each
# size class's highest use and the process table its most processes, so RSS steps up by
# 8-10 % in minutes 1-5 (e.g. 248 kB at 60 s, 272 kB from 240 s on) and then stays; a leak
# of one page per snapshot would add 240 kB over the second half.
#   soak.sh TINYPERF [WORKDIR [SECS]]    (SECS: default 600; the minute-1 sample is taken at
#   60 s, or at 2/3 of SECS when shorter; the half-time sample at SECS/2, at least 5 s on)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-flight-soak}
. "$src/tests/lib.sh"
tp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-$(mktemp -d)}
secs=${3:-600}
mkdir -p "$work"
work=$(cd "$work" && pwd)
wl=$work/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "build workloads"; done_tests; exit 1; }
command -v perf >/dev/null || { fail "Linux perf not installed"; done_tests; exit 1; }

d=$work/soak
rm -rf "$d"; mkdir -p "$d"
( while :; do "$wl/forkexec" 500 >/dev/null 2>&1 || exit; done ) &
churn=$!
(cd "$d" && exec "$tp" record -o perf.data --overwrite --switch-output --switch-max-files 3 \
	-a -F 1000 2>"$d/rec.err") &
rec=$!
rss() { awk -v k="${1:-VmRSS}:" '$1 == k {print $2}' "/proc/$rec/status" 2>/dev/null; }
at1=$((secs * 2 / 3)); [ $at1 -gt 60 ] && at1=60; [ $at1 -lt 5 ] && at1=5
ath=$((secs / 2)); [ $ath -lt $at1 ] && ath=$at1
# RSS is read between snapshots, 5 s after the last one (a snapshot's own work, the embedded
# symbols' buffers, comes and goes); the peak (VmHWM) is printed alongside
t=0 rss1= rssh= trace=
while [ $t -lt "$secs" ]; do
	sleep 5; t=$((t + 5))
	[ -z "$rss1" ] && [ $t -ge $at1 ] && rss1=$(rss) hwm1=$(rss VmHWM) t1=$t
	[ -z "$rssh" ] && [ $t -ge $ath ] && rssh=$(rss) th=$t
	[ $((t % 60)) -eq 0 ] && trace="$trace ${t}s:$(rss)"
	kill -USR2 "$rec" 2>/dev/null || break
done
sleep 5
rss2=$(rss) hwm2=$(rss VmHWM)
kill -INT "$rec"; wait "$rec"; rc=$?
kill "$churn" 2>/dev/null; wait "$churn" 2>/dev/null
echo "RSS (kB) every minute:$trace; at the end: ${rss2:-?}; peak (VmHWM) ${hwm1:-?} at ${t1:-?} s, ${hwm2:-?} at the end"
expect_eq "soak: recorder exit status" 0 "$rc"
if [ -n "$rss1" ] && [ -n "$rssh" ] && [ -n "$rss2" ] && [ $((rss2 * 10)) -le $((rssh * 11)) ] &&
   [ $((rss2 * 4)) -le $((rss1 * 5)) ]; then
	ok "soak ($secs s): RSS ${rss1} kB at ${t1} s, ${rssh} kB at ${th} s, ${rss2} kB at the end (flat over the second half)"
else
	fail "soak ($secs s): RSS ${rss1:-?} kB at ${t1:-?} s, ${rssh:-?} kB at ${th:-?} s, ${rss2:-?} kB at the end: grew more than 10 % over the second half or 25 % since minute 1"
fi
files=$(ls "$d" | grep -E '^perf\.data\.[0-9]{16}$')
expect_eq "soak: --switch-max-files 3 keeps three files" 3 "$(echo "$files" | grep -c .)"
for f in $files; do
	if perf report --stdio -i "$d/$f" >/dev/null 2>"$d/$f.err" &&
	   [ "$(perf script -i "$d/$f" -F tid 2>/dev/null | grep -c .)" -gt 0 ]; then
		ok "soak: $f reads in perf, with samples"
	else
		fail "soak: perf cannot read $f: $(head -n1 "$d/$f.err")"
	fi
done
done_tests
