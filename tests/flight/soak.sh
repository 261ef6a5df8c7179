#!/bin/sh
# Flight-recorder soak: --overwrite --switch-output -a at -F 1000 with process churn (a
# fork/exec loop) and a SIGUSR2 snapshot every 5 s, --switch-max-files 3. The recorder's RSS
# at the end must be within 10 % of its RSS at minute 1 (bounded state: nothing grows with
# the processes that come and go or with the number of snapshots), every file kept must
# read in Linux perf, and the recorder must exit 0.
#   soak.sh TINYPERF [WORKDIR [SECS]]    (SECS: default 600; the minute-1 sample is taken at
#   60 s, or at 2/3 of SECS when shorter)
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
# RSS is read between snapshots, 5 s after the last one (a snapshot's own work, the embedded
# symbols' buffers, comes and goes); the peak (VmHWM) is printed alongside
t=0 rss1= trace=
while [ $t -lt "$secs" ]; do
	sleep 5; t=$((t + 5))
	[ -z "$rss1" ] && [ $t -ge $at1 ] && rss1=$(rss) hwm1=$(rss VmHWM) t1=$t
	[ $((t % 60)) -eq 0 ] && trace="$trace ${t}s:$(rss)"
	kill -USR2 "$rec" 2>/dev/null || break
done
sleep 5
rss2=$(rss) hwm2=$(rss VmHWM)
kill -INT "$rec"; wait "$rec"; rc=$?
kill "$churn" 2>/dev/null; wait "$churn" 2>/dev/null
echo "RSS (kB) every minute:$trace; at the end: ${rss2:-?}; peak (VmHWM) ${hwm1:-?} at ${t1:-?} s, ${hwm2:-?} at the end"
expect_eq "soak: recorder exit status" 0 "$rc"
if [ -n "$rss1" ] && [ -n "$rss2" ] && [ $((rss2 * 10)) -le $((rss1 * 11)) ]; then
	ok "soak ($secs s): RSS ${rss1} kB at ${t1} s, ${rss2} kB at the end (within 10 %)"
else
	fail "soak ($secs s): RSS ${rss1:-?} kB at ${t1:-?} s grew to ${rss2:-?} kB at the end (more than 10 %)"
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
