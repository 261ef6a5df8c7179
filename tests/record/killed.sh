#!/bin/sh
# SPDX-License-Identifier: MIT
# A recorder killed at any moment keeps what reached the disk (issue 24, item 5): 20 SIGKILLs
# at random moments, uniform in 0.1-5 s, of `record -a -g -F 999 -- sleep 5`. For each file:
#   tinyperf report recovers >= 99 % of the samples that reached the disk (counted by dump's
#     record walk), warns that the recording was not finished and exits non-zero;
#   Linux perf reads it (perf report exits 0), however early the kill came.
# The moments come from a seed that is printed (TP_KILL_SEED=N replays a run).
#
#   usage: killed.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]
set -u
T_NAME=killed
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

rec=${1:?usage: killed.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]}
host=${2:?usage: killed.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]}
work=${3:-$(mktemp -d)}
PERF=${PERF:-perf}
N=${TP_KILLS:-20}
if ! command -v "$PERF" >/dev/null 2>&1 || [ ! -x "$rec" ] || [ ! -x "$host" ]; then
	fail "setup: need $PERF, $rec and $host"
	done_tests
	exit 1
fi
rm -rf "$work"
mkdir -p "$work"
seed=${TP_KILL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "moments from seed $seed (TP_KILL_SEED=$seed replays them)"
moments=$(awk -v s="$seed" -v n="$N" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.2f\n", 0.1 + 4.9 * rand() }')

# samples COUNTFILE: the number on dump's "SAMPLE events:" line (0 without one)
samples_on_disk() {
	n=$(sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' "$1" | head -n1)
	echo "${n:-0}"
}

i=0
perf_ok=0
worst=""
for t in $moments; do
	i=$((i + 1))
	f=$work/k$i.data
	"$rec" record -a -g -F 999 -o "$f" -- sleep 5 >"$work/k$i.rec" 2>&1 &
	pid=$!
	sleep "$t"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pkill -P "$pid" sleep 2>/dev/null	# the workload of a killed recorder lives on
	"$host" dump -i "$f" >"$work/k$i.dump" 2>&1
	disk=$(samples_on_disk "$work/k$i.dump")
	timeout 60 "$host" report -i "$f" --stdio >"$work/k$i.report" 2>"$work/k$i.err"
	rc=$?
	got=$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' "$work/k$i.report" | awk '{ s += $1 } END { print s + 0 }')
	# >= 99 %, in integers: 100 * got >= 99 * disk
	check "kill $i at $t s: report recovers $got of the $disk samples on disk" \
		[ $((100 * got)) -ge $((99 * disk)) ]
	check "kill $i at $t s: report warns and exits non-zero ($rc)" \
		sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'not finished' '$work/k$i.err'"
	if timeout 60 "$PERF" report -i "$f" --stdio >"$work/k$i.perf" 2>&1; then
		perf_ok=$((perf_ok + 1))
	else
		worst="$worst k$i($t s): $(grep -m1 -i 'error\|invalid\|zero' "$work/k$i.perf")"
	fi
done
check "Linux perf reads $perf_ok of $N killed recordings${worst:+:$worst}" [ "$perf_ok" -eq "$N" ]
done_tests
