#!/bin/sh
# SPDX-License-Identifier: MIT
# What the pictures and exports cost against tinyperf report on the same recording (the
# system-wide callchain one of bench/report.sh): wall time, peak RSS and output size, medians
# of RUNS, with the budgets of issue 19 (each <= 1.5x report's time, the SVG <= 2 MB at the
# default --minwidth). A measurement, not a test: not part of make check.
#   bench/pictures.sh TINYPERF [RUNS]     DATA=FILE measures FILE; else bench/report.sh
#                                         records one (25 s, about 50 MB) and keeps it
set -eu
tp=${1:?usage: bench/pictures.sh TINYPERF [RUNS]}
runs=${2:-3}
data=${DATA:-}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$data" ]; then
	data=$(KEEP=1 "$src/bench/report.sh" "$tp" 25 1 | sed -n 's/^kept //p')
	echo "recording kept: $data"
fi

# median wall seconds and peak RSS (KiB) of RUNS runs of a command
measure() {
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>&1 || true
		cat "$work/t"
	done | sort -n | awk '{ t[NR] = $1; m[NR] = $2 } END { i = int((NR + 1) / 2); print t[i], m[i] }'
}

set -- $(measure "$tp" report -i "$data")
rep_t=$1 rep_m=$2
printf '%-34s %8s %10s %10s %8s  %s\n' "command" "wall(s)" "RSS(MiB)" "output" "x report" "budget"
printf '%-34s %8s %10d %10s %8s\n' "report" "$rep_t" $((rep_m / 1024)) "-" "1.00"
row() { # NAME OUTPUT BUDGET COMMAND...
	name=$1 out=$2 budget=$3; shift 3
	set -- $(measure "$@")
	size=$(stat -c %s "$out" 2>/dev/null || echo 0)
	printf '%-34s %8s %10d %9dK %8s  %s\n' "$name" "$1" $(($2 / 1024)) $((size / 1024)) \
		"$(awk -v a="$1" -v b="$rep_t" 'BEGIN { printf("%.2f", (b > 0) ? a / b : 0) }')" "$budget"
}
row "flamegraph (default --minwidth)" "$work/fg.svg" "<= 1.5x, <= 2048K" \
	"$tp" flamegraph -i "$data" -o "$work/fg.svg"
row "pprof" "$work/p.pb.gz" "<= 1.5x" "$tp" pprof -i "$data" -o "$work/p.pb.gz"
row "report --html" "$work/r.html" "(size bounded)" "$tp" report --html "$work/r.html" -i "$data"
