# SPDX-License-Identifier: MIT
# The runner the perf-vs-tinyperf benchmarks share (sourced, after $work is set): one
# measured run of a command from /usr/bin/time (wall, CPU, peak RSS), medians, the values of
# a hyperfine run, and the table rows with the perf/tinyperf ratios (a script with another
# table defines its own row and ratio after sourcing this). The scripts alternate the
# commands themselves.

# measure NAME CMD...: one run, "wall cpu rss" appended to $work/NAME
measure() {
	name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || true
	awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' "$work/t" >>"$work/$name"
}

# median FILE COLUMN
median() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

row() { printf '%-44s %10s %10s %9s   %s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

# line WHAT PERF-FILE TP-FILE BUDGET-TIME BUDGET-RSS: the wall, CPU and peak RSS rows
line() {
	pw=$(median "$work/$2" 1) tw=$(median "$work/$3" 1)
	pc=$(median "$work/$2" 2) tc=$(median "$work/$3" 2)
	pr=$(median "$work/$2" 3) tr=$(median "$work/$3" 3)
	row "$1: wall (s)" "$pw" "$tw" "$(ratio "$pw" "$tw")" "$4"
	row "$1: CPU (s)" "$pc" "$tc" "$(ratio "$pc" "$tc")" ""
	row "$1: peak RSS (MiB)" "$((pr / 1024))" "$((tr / 1024))" "$(ratio "$pr" "$tr")" "$5"
}

# link_data: DATA=FILE measured instead of a new recording, as $work/bench.data
link_data() {
	ln -s "$(cd "$(dirname "$DATA")" && pwd)/$(basename "$DATA")" "$work/bench.data"
}

# hf_results JSON WHAT [FORMAT]: one value per command of a hyperfine --export-json file, in
# the commands' order: WHAT is median or mean (wall, s) or cpu (mean user + system, s);
# FORMAT a Python %-format (default: the value as hyperfine wrote it)
hf_results() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
path, what, fmt = sys.argv[1:]
runs = json.load(open(path))['results']
vals = [r['user'] + r['system'] if what == 'cpu' else r[what] for r in runs]
print(*[fmt % v if fmt else v for v in vals])
PY
}

# ms SECONDS: in milliseconds, two decimals
ms() { awk -v s="$1" 'BEGIN { printf "%.2f", s * 1000 }'; }

# rss CMD...: the peak RSS (KiB) of CMD, from /usr/bin/time; CMD's failure is not fatal
rss() { /usr/bin/time -f '%M' -o "$work/m" "$@" >/dev/null 2>&1 || true; tail -n 1 "$work/m"; }
