#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every libFuzzer target (tests/fuzz/fuzz-<target>.c, built by tests/fuzz/fuzz.mk with
# ASan + UBSan) for SECONDS each, FUZZ_JOBS (default: the CPU count) at a time. Per target:
# first the regression inputs (tests/fuzz/regress/<target>/) and the seeds
# (tests/fuzz/corpus/<target>/) are replayed one by one, then it fuzzes from them into a
# scratch corpus out of the tree ($O/fuzz/<target>/corpus, kept between runs). A crash, leak,
# timeout or out-of-memory leaves $O/fuzz/<target>/crash-* (leak-*, timeout-*, oom-*) and fails
# the target. Prints libFuzzer's final figures per target and a table (executions, exec/s,
# coverage cov = edges, ft = features, corpus units, peak RSS), exits nonzero on any finding.
# A target's libFuzzer options beyond the common ones: a line " * fuzz-options: -max_len=N"
# in its source.
#   usage: tests/fuzz/run.sh [--no-build] SECONDS [TARGET...]   (default: all of them)
#   env: FUZZ_O: the output tree (default out/: binaries in out/fuzz/bin); FUZZ_JOBS; MAKE
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
O=${FUZZ_O:-$src/out}
bin=$O/fuzz/bin

# ---- one target (run by xargs below): TARGET SECONDS -> $O/fuzz/TARGET/{replay,fuzz}.log, result
if [ "${1:-}" = --one ]; then
	t=$2 secs=$3
	d=$O/fuzz/$t
	seeds=$src/tests/fuzz/corpus/$t
	regress=$src/tests/fuzz/regress/$t
	mkdir -p "$d/corpus" || exit 1
	# the files targets write per input (kallsyms, tar, ELF images) go to a tmpfs where there
	# is one: on this machine's disk the kallsyms target ran at a quarter of the speed
	tmp=
	[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=$(mktemp -d /dev/shm/tinyperf-fuzz-XXXXXX 2>/dev/null)
	[ -n "$tmp" ] || { tmp=$d/tmp && mkdir -p "$tmp"; } || exit 1
	rm -f "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-* "$d/result"
	opts=$(sed -n 's/^ \* fuzz-options: \([^*]*\).*/\1/p' "$src/tests/fuzz/fuzz-$t.c")
	export TMPDIR="$tmp" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	# shellcheck disable=SC2086
	# one input over 25 s is a hang (none takes a second under ASan; a loaded machine must not
	# make one look hung); one allocation over 256 MB is a finding (nothing of the inputs'
	# size needs it; it is caught at the malloc, before the RSS limit is reached)
	set -- -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix="$d/" $opts
	inputs=$(find "$regress" "$seeds" -type f 2>/dev/null | sort)
	nr=$(echo "$inputs" | grep -c .)
	why=""
	# shellcheck disable=SC2086
	if [ "$nr" -gt 0 ] && ! timeout 600 "$bin/fuzz-$t" "$@" $inputs >"$d/replay.log" 2>&1; then
		why="replaying the corpus"
	else
		dirs=$d/corpus
		[ -d "$seeds" ] && dirs="$dirs $seeds"
		[ -d "$regress" ] && dirs="$dirs $regress"
		# shellcheck disable=SC2086
		timeout $((secs + 300)) "$bin/fuzz-$t" "$@" -max_total_time="$secs" \
			-print_final_stats=1 $dirs >"$d/fuzz.log" 2>&1 || why="fuzzing"
	fi
	stat() { sed -n "s/^stat::$1: *//p" "$d/fuzz.log" 2>/dev/null | tail -n 1; }
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$d/fuzz.log" 2>/dev/null | tail -n 1 |
	      awk '{ print $2, $4, $6 }')
	found=$(cd "$d" && ls crash-* leak-* timeout-* oom-* 2>/dev/null | tr '\n' ',' | sed 's/,$//')
	# target replayed execs exec/s cov ft corpus rss result
	printf '%s %s %s %s %s %s %s\n' "$t" "$nr" "$(stat number_of_executed_units)" \
		"$(stat average_exec_per_sec)" "${cov:-- - -}" "$(stat peak_rss_mb)" \
		"${why:+FAILED($why)${found:+:$found}}" >"$d/result"
	rm -rf "$tmp"
	exit 0
fi

T_NAME=fuzz
. "$src/tests/lib.sh"
build=1
[ "${1:-}" = --no-build ] && { build=0; shift; }
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=$*
[ -n "$targets" ] || targets=$(cd "$src/tests/fuzz" && ls fuzz-*.c | sed 's/^fuzz-//; s/\.c$//')
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

mkdir -p "$O" || exit 1
if [ $build = 1 ]; then
	if ${MAKE:-make} -C "$src" -j"$jobs" O="$O" fuzz-build >"$O/fuzz-build.log" 2>&1; then
		ok "build the fuzz targets ($(echo $targets | wc -w) in $bin)"
	else
		fail "build: $(grep -m1 -iE 'error|not found' "$O/fuzz-build.log")"
		done_tests
		exit 1
	fi
fi
echo "fuzzing $(echo $targets | wc -w) targets ${secs}s each, $jobs at a time"
# shellcheck disable=SC2086
printf '%s\n' $targets | xargs -P "$jobs" -I{} env FUZZ_O="$O" sh "$0" --one {} "$secs"

table=""
for t in $targets; do
	d=$O/fuzz/$t
	if [ ! -s "$d/result" ]; then
		fail "$t: no result (see $d)"
		continue
	fi
	# shellcheck disable=SC2046
	set -- $(cat "$d/result")
	echo "---- $t: replayed $2 inputs; final stats:"
	grep -E '^stat::|DONE' "$d/fuzz.log" 2>/dev/null | sed 's/^/    /'
	table="$table$(printf '%-12s %8s %12s %8s %6s %7s %6s %6s  %s' "$1" "$2" "$3" "$4" "$5" \
		"$6" "$7" "$8" "${9:-}")
"
	if [ -z "${9:-}" ]; then
		ok "$t: ${secs}s, $3 runs, cov $5 ft $6, no crash"
	else
		fail "$t: $9 (logs in $d)"
		grep -hm8 -E 'ERROR|SUMMARY|runtime error|Test unit written|escaped' \
			"$d/replay.log" "$d/fuzz.log" 2>/dev/null | sed 's/^/    /'
	fi
done
printf '%-12s %8s %12s %8s %6s %7s %6s %6s  %s\n' target replayed execs exec/s cov ft corpus \
	rss_mb result
printf '%s' "$table"
done_tests
