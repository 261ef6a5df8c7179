#!/bin/sh
# SPDX-License-Identifier: MIT
# Peer check: tinyperf's reader against Linux perf on real recordings. Records with
# perf record (per task, -a, -g, two events, a tracepoint, pipe mode) and checks that
#   tinyperf dump sees as many samples as perf report -D and perf script,
#   tinyperf buildid-list [--with-hits] prints perf buildid-list's lines (any order),
#   tinyperf header shows perf's hostname, os release, arch and cmdline,
#   a copy in the other byte order (test-reader --swap), which perf also reads, decodes to
#   the same samples as the original, in file and pipe mode.
#
#   usage: reader-peer.sh BINDIR   (BINDIR: $O/host-san/tests; the tool is BINDIR/../tinyperf)
set -u
T_NAME=reader-peer
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

bindir=$(cd "${1:?usage: reader-peer.sh BINDIR}" && pwd)
tp=$bindir/../tinyperf
tr=$bindir/test-reader
PERF=${PERF:-perf}

if ! command -v "$PERF" >/dev/null 2>&1 || [ ! -x "$tp" ] || [ ! -x "$tr" ]; then
	fail "setup: need $PERF, $tp and $tr"
	# A recording killed mid-way (perfdata/'s writer through test-writer --emit): after a header
# checkpoint perf reads up to the checkpoint, with no checkpoint nothing; tinyperf reads every
# record that reached the file, says the recording was not finished, and exits 1.
tw=$bindir/test-writer
if [ -x "$tw" ] && cc -O2 -g -no-pie -Wl,--build-id -o "$tmp/hot-ab" "$here/../workloads/hot-ab.c"; then
	sym() { nm -S "$tmp/hot-ab" | awk -v s="$1" '$4 == s { print "0x" $1 ",0x" $2 }'; }
	bid=$(readelf -n "$tmp/hot-ab" | awk '/Build ID:/ { print $3 }')
	set -- $(readelf -lW "$tmp/hot-ab" | awk '$1 == "LOAD" && / R E / { print $2, $3, $6; exit }')
	ms=$(($2 & ~0xfff))
	for cp in "--checkpoint-after 50" ""; do
		# shellcheck disable=SC2086
		"$tw" --emit "$tmp/killed.data" --elf "$tmp/hot-ab" \
			--map "$ms,$(((($2 - ms + $3 + 0xfff) & ~0xfff))),$(($1 & ~0xfff))" \
			--hot-a "$(sym hot_a)" --hot-b "$(sym hot_b)" --build-id "$bid" \
			--samples 300,100 $cp --abort-after 120 >/dev/null 2>&1
		"$tp" dump -i "$tmp/killed.data" >"$tmp/killed.dump" 2>"$tmp/killed.err"
		rc=$?
		got="$rc $(grep -c ': PERF_RECORD_SAMPLE' "$tmp/killed.dump") $(grep -c 'not finished' "$tmp/killed.err")"
		expect_eq "killed recording ${cp:-without checkpoint}: all 120 samples, 'not finished', exit 1 (perf report -D: $(perf_samples "$tmp/killed.data"))" "1 120 2" "$got"
	done
else
	fail "killed recording: no $tw or cannot build hot-ab"
fi

done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$here/../workloads/build.sh" "$tmp/wl" >/dev/null || { fail "setup: building the workloads"; done_tests; exit 1; }
spin="$tmp/wl/spin 0.3"

rec() { # NAME PERF-RECORD-ARGS...: record into $tmp/NAME.data
	name=$1
	shift
	if "$PERF" record -q "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		return 0
	fi
	fail "$name: perf record $*: $(tail -n 1 "$tmp/$name.err")"
	return 1
}

perf_samples() { "$PERF" report -D -i "$1" 2>/dev/null | grep -c ': PERF_RECORD_SAMPLE'; }
tp_samples() { "$tp" dump -i "$1" 2>/dev/null | grep -c ': PERF_RECORD_SAMPLE'; }
# the decoded samples without file offsets (a converted copy has other offsets)
tp_sample_lines() {
	"$tp" dump -i "$1" 2>/dev/null | awk '
		/: PERF_RECORD_SAMPLE/ { on = 1; sub(/ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: /, " "); print; next }
		on && /^\.\.\./ { print; next }
		{ on = 0 }'
}
# perf 6.1 names the vdso of a pipe-mode file after the temp copy it extracted
# (/tmp/perf-vdso.so-XXXXXX): that is the [vdso] entry
norm() { sed 's/^ *//; s/  */ /g; s|^\(.* \)\{0,1\}/tmp/perf-vdso\.so-[A-Za-z0-9]*$|\1[vdso]|' | sort; }

check_file() { # NAME: the checks every recording gets
	name=$1
	f=$tmp/$name.data
	"$tp" dump -i "$f" >"$tmp/$name.dump" 2>"$tmp/$name.dump.err"
	rc=$?
	expect_eq "$name: dump exits 0 without warnings" "0:" "$rc:$(head -c 300 "$tmp/$name.dump.err")"
	want=$(perf_samples "$f")
	got=$(grep -c ': PERF_RECORD_SAMPLE' "$tmp/$name.dump")
	expect_eq "$name: dump sample count = perf report -D ($want)" "$want" "$got"
	want=$("$PERF" script -i "$f" -G -F time 2>/dev/null | wc -l)
	expect_eq "$name: dump sample count = perf script" "$want" "$got"
	want=$("$PERF" report -D -i "$f" 2>/dev/null | sed -n '/^Aggregated stats:/,/^ *$/p' | grep -E ' (SAMPLE|MMAP2?|COMM|FORK|EXIT) events:')
	got=$(sed -n '/^Aggregated stats:/,/^ *$/p' "$tmp/$name.dump" | grep -E ' (SAMPLE|MMAP2?|COMM|FORK|EXIT) events:')
	expect_eq "$name: record counts per type = perf report -D" "$want" "$got"
	# perf 6.1's buildid-list cannot skip the tracing data of a pipe ("failed to process
	# type"): there is nothing to compare with then
	if [ "$name" != tppipe ]; then
		for h in "" "--with-hits"; do
			want=$("$PERF" buildid-list -i "$f" $h 2>/dev/null | norm)
			got=$("$tp" buildid-list -i "$f" $h 2>"$tmp/err" | norm)
			expect_eq "$name: buildid-list $h = perf buildid-list $h" "$want" "$got$(head -c 300 "$tmp/err")"
		done
	fi
	want=$("$PERF" report --header-only -i "$f" 2>/dev/null | grep -E '^# (hostname|os release|arch|cmdline) :')
	got=$("$tp" header -i "$f" 2>"$tmp/err" | grep -E '^# (hostname|os release|arch|cmdline) :')
	expect_eq "$name: header hostname/os release/arch/cmdline = perf report --header-only" "$want" "$got$(head -c 300 "$tmp/err")"
}

check_swapped() { # NAME [--pipe]: the other byte order decodes to the same samples
	name=$1
	mode=${2:-}
	out=$tmp/$name-swapped${mode:+-pipe}.data
	if ! "$tr" --swap "$tmp/$name.data" "$out" $mode >/dev/null; then
		fail "$name: test-reader --swap $mode"
		return
	fi
	# perf 6.1 does not byte-swap the feature id of HEADER_FEATURE records ("wrong feature
	# ID"), so it cannot read a foreign-endian pipe: only files are checked with perf
	if [ -z "$mode" ]; then
		want=$(perf_samples "$tmp/$name.data")
		expect_eq "$name: perf reads the swapped copy" "$want" "$(perf_samples "$out")"
	fi
	tp_sample_lines "$tmp/$name.data" >"$tmp/a.txt"
	tp_sample_lines "$out" >"$tmp/b.txt"
	if [ -s "$tmp/a.txt" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
		ok "$name: swapped copy $mode decodes to the same samples ($(grep -c PERF_RECORD_SAMPLE "$tmp/a.txt"))"
	else
		fail "$name: swapped copy $mode decodes differently: $(diff "$tmp/a.txt" "$tmp/b.txt" | head -n 4 | tr '\n' ' ')"
	fi
	"$tp" header -i "$out" >"$tmp/h.txt" 2>&1
	check "$name: swapped copy $mode header says big-endian" grep -q 'byte order *: big-endian' "$tmp/h.txt"
}

rec task -e cpu-clock -F 2000 -o "$tmp/task.data" -- $spin && { check_file task; check_swapped task; }
rec all -a -e cpu-clock -F 1000 -o "$tmp/all.data" -- sleep 0.3 && { check_file all; check_swapped all; }
rec callg -g -e cpu-clock -F 2000 -o "$tmp/callg.data" -- $spin && { check_file callg; check_swapped callg; check_swapped callg --pipe; }
rec two -e cpu-clock,task-clock -F 1000 -o "$tmp/two.data" -- $spin && { check_file two; check_swapped two; }
rec tp -a -e sched:sched_switch -o "$tmp/tp.data" -- sleep 0.2 && check_file tp
if "$PERF" record -q -g -e cpu-clock -F 2000 -o - -- $spin >"$tmp/pipe.data" 2>"$tmp/pipe.err"; then
	check_file pipe
	check_swapped pipe
else
	fail "pipe: perf record -o -: $(tail -n 1 "$tmp/pipe.err")"
fi
if "$PERF" record -q -a -e sched:sched_switch -o - -- sleep 0.2 >"$tmp/tppipe.data" 2>/dev/null; then
	check_file tppipe
	n=$("$tp" dump -i - <"$tmp/tppipe.data" 2>"$tmp/err" | grep -c ': PERF_RECORD_SAMPLE')
	expect_eq "tppipe: dump -i - (stdin) = perf report -D" "$(perf_samples "$tmp/tppipe.data")" "$n$(head -c 300 "$tmp/err")"
else
	fail "tppipe: perf record -o - with a tracepoint"
fi

# A recording killed mid-way (perfdata/'s writer through test-writer --emit): after a header
# checkpoint perf reads up to the checkpoint, with no checkpoint nothing; tinyperf reads every
# record that reached the file, says the recording was not finished, and exits 1.
tw=$bindir/test-writer
if [ -x "$tw" ] && cc -O2 -g -no-pie -Wl,--build-id -o "$tmp/hot-ab" "$here/../workloads/hot-ab.c"; then
	sym() { nm -S "$tmp/hot-ab" | awk -v s="$1" '$4 == s { print "0x" $1 ",0x" $2 }'; }
	bid=$(readelf -n "$tmp/hot-ab" | awk '/Build ID:/ { print $3 }')
	set -- $(readelf -lW "$tmp/hot-ab" | awk '$1 == "LOAD" && / R E / { print $2, $3, $6; exit }')
	ms=$(($2 & ~0xfff))
	for cp in "--checkpoint-after 50" ""; do
		# shellcheck disable=SC2086
		"$tw" --emit "$tmp/killed.data" --elf "$tmp/hot-ab" \
			--map "$ms,$(((($2 - ms + $3 + 0xfff) & ~0xfff))),$(($1 & ~0xfff))" \
			--hot-a "$(sym hot_a)" --hot-b "$(sym hot_b)" --build-id "$bid" \
			--samples 300,100 $cp --abort-after 120 >/dev/null 2>&1
		"$tp" dump -i "$tmp/killed.data" >"$tmp/killed.dump" 2>"$tmp/killed.err"
		rc=$?
		got="$rc $(grep -c ': PERF_RECORD_SAMPLE' "$tmp/killed.dump") $(grep -c 'not finished' "$tmp/killed.err")"
		expect_eq "killed recording ${cp:-without checkpoint}: all 120 samples, 'not finished', exit 1 (perf report -D: $(perf_samples "$tmp/killed.data"))" "1 120 2" "$got"
	done
else
	fail "killed recording: no $tw or cannot build hot-ab"
fi

done_tests
