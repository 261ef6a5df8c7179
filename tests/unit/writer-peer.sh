#!/bin/sh
# SPDX-License-Identifier: MIT
# Peer check: Linux perf must read what perfdata/ writes. Builds tests/workloads/hot-ab.c, has
# WRITER_BIN (test-writer) emit synthetic recordings of it -- file, pipe, byte-swapped, and a
# file cut short after a checkpoint -- and asserts what perf report, perf script,
# perf buildid-list and perf evlist make of them.
#
#   usage: writer-peer.sh WRITER_BIN          (env: CC, PERF)
# WRITER_BIN may also be the directory holding test-writer (how tests/unit/run.sh calls it).
set -u

bin=${1:?usage: writer-peer.sh WRITER_BIN}
[ -d "$bin" ] && bin=$bin/test-writer
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
PERF=${PERF:-perf}
NR_A=300
NR_B=100

passed=0
failed=0
skipped=0
ok() { echo "[OK] $1"; passed=$((passed + 1)); }
fail() { echo "[FAIL] $1: $2"; failed=$((failed + 1)); }
skip() { echo "[SKIP] $1: $2"; skipped=$((skipped + 1)); }
finish() {
	echo "writer-peer: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

command -v "$PERF" >/dev/null 2>&1 || { fail "setup" "no '$PERF' in PATH"; finish; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the helper: a real ELF with a build-id whose symbols perf must find
helper=$tmp/tp-peer-helper
if ! $CC -O2 -g -no-pie -Wl,--build-id -o "$helper" "$here/../workloads/hot-ab.c"; then
	fail "setup" "cannot build the helper with $CC"
	finish
fi
sym() { nm -S "$helper" | awk -v s="$1" '$4 == s { print "0x" $1 ",0x" $2 }'; }
hot_a=$(sym hot_a)
hot_b=$(sym hot_b)
build_id=$(readelf -n "$helper" | awk '/Build ID:/ { print $3 }')
# the executable PT_LOAD, mapped the way the kernel would report it in MMAP2
set -- $(readelf -lW "$helper" | awk '$1 == "LOAD" && / R E / { print $2, $3, $6; exit }')
if [ -z "$hot_a" ] || [ -z "$hot_b" ] || [ -z "$build_id" ] || [ $# -ne 3 ]; then
	fail "setup" "no hot_a/hot_b symbols, build-id or text segment in $helper"
	finish
fi
map_start=$(( $2 & ~0xfff ))
map_len=$(( ($2 - map_start + $3 + 0xfff) & ~0xfff ))
map_pgoff=$(( $1 & ~0xfff ))

emit() {
	out=$1
	shift
	"$bin" --emit "$out" --elf "$helper" --map "$map_start,$map_len,$map_pgoff" \
		--hot-a "$hot_a" --hot-b "$hot_b" --build-id "$build_id" \
		--samples "$NR_A,$NR_B" "$@" > "$out.info" 2> "$out.err"
}

# perf reads a pipe-mode file from stdin, a regular one with -i
run_perf() {	# NAME FILE CMD...
	f=$2
	shift 2
	case $f in
	*.pipe*) "$PERF" "$@" -i - < "$f" ;;
	*) "$PERF" "$@" -i "$f" ;;
	esac
}

# perf 6.1 has no swap op for HEADER_FEATURE records (recent perf has one): it takes the
# feat_id of a foreign-endian pipe unswapped and `perf report` gives up on it ("wrong feature
# ID"). That is perf's limit, not the stream's; perf script and buildid-list, which ignore the
# id, are checked regardless.
perf_skips_feature_swap() {	# NAME OUTPUT
	case $1 in pipe.swap*) echo "$2" | grep -q 'wrong feature ID' ;; *) false ;; esac
}

check_report() {	# NAME FILE NR_A NR_B
	name=$1 f=$2 a=$3 b=$4
	n=$((a + b))

	out=$(run_perf "$name" "$f" report --stdio 2>&1)
	rc=$?
	if perf_skips_feature_swap "$name" "$out"; then
		skip "$name: perf report" "this perf does not byte-swap HEADER_FEATURE records"
		return
	fi
	if [ $rc -ne 0 ]; then
		fail "$name: perf report" "expected exit 0, got $rc: $(echo "$out" | tail -n 3)"
		return
	fi
	# perf ends some reports with a random "# (Tip: ...)" line: not a warning
	bad=$(echo "$out" | grep -v -e '^# Total Lost Samples: 0$' -e '^# (Tip:' |
		grep -i -E 'warn|error|fail|unexpected|corrupt|invalid|unsupported|incompatible|broken|lost|skip' | head -n 3)
	if [ -n "$bad" ]; then
		fail "$name: perf report" "expected no warnings, got: $bad"
	else
		ok "$name: perf report exits 0 without warnings"
	fi
	# cpu-clock as EVENT_DESC names it, cpu-clock:ku as perf names the attr without it
	if echo "$out" | grep -q -E "^# Samples: $n +of event 'cpu-clock(:[a-z]+)?'$"; then
		ok "$name: perf report counts $n samples"
	else
		fail "$name: perf report" "expected '# Samples: $n of event 'cpu-clock'', got: $(echo "$out" | grep '^# Samples' || echo none)"
	fi
	for fn in hot_a hot_b; do
		want=$([ $fn = hot_a ] && echo $((100 * a / n)) || echo $((100 * b / n)))
		got=$(echo "$out" | awk -v s="$fn" '$NF == s && $(NF-1) == "[.]" { sub("%", "", $1); print int($1 + 0.5); exit }')
		if [ -n "$got" ] && [ "$got" -ge $((want - 1)) ] && [ "$got" -le $((want + 1)) ]; then
			ok "$name: perf report names $fn at ${got}%"
		else
			fail "$name: perf report" "expected $fn at ~${want}%, got '${got:-no line}'"
		fi
	done
}

check_script() {	# NAME FILE NR_A NR_B
	name=$1 f=$2 a=$3 b=$4
	n=$((a + b))

	out=$(run_perf "$name" "$f" script 2>&1)
	rc=$?
	lines=$(echo "$out" | grep -c .)
	in_a=$(echo "$out" | grep -c 'hot_a')
	in_b=$(echo "$out" | grep -c 'hot_b')
	if [ $rc -eq 0 ] && [ "$lines" -eq $n ] && [ "$in_a" -eq "$a" ] && [ "$in_b" -eq "$b" ]; then
		ok "$name: perf script shows $n samples ($a hot_a, $b hot_b)"
	else
		fail "$name: perf script" "expected exit 0 and $n lines ($a hot_a, $b hot_b), got exit $rc and $lines lines ($in_a hot_a, $in_b hot_b): $(echo "$out" | head -n 2)"
	fi
}

check_features() {	# NAME FILE
	name=$1 f=$2

	out=$(run_perf "$name" "$f" buildid-list 2>&1)
	if echo "$out" | grep -q -F "$build_id $helper"; then
		ok "$name: perf buildid-list lists the helper's build-id"
	else
		fail "$name: perf buildid-list" "expected '$build_id $helper', got: $(echo "$out" | head -n 3)"
	fi
	out=$(run_perf "$name" "$f" report --header-only 2>&1)
	if perf_skips_feature_swap "$name" "$out"; then
		skip "$name: perf report --header-only" "this perf does not byte-swap HEADER_FEATURE records"
	elif echo "$out" | grep -q '^# hostname : tinyperf-peer$' && echo "$out" | grep -q '^# arch : '; then
		ok "$name: perf report --header-only shows the features"
	else
		fail "$name: perf report --header-only" "expected '# hostname : tinyperf-peer' and '# arch', got: $(echo "$out" | grep -E 'hostname|arch' | head -n 2)"
	fi
}

for v in file file.swap pipe pipe.swap; do
	f=$tmp/perf.data.$v
	args=
	case $v in *pipe*) args="$args --pipe" ;; esac
	case $v in *swap*) args="$args --swap" ;; esac
	if ! emit "$f" $args; then
		fail "$v: emit" "test-writer failed: $(cat "$f.err")"
		continue
	fi
	check_report "$v" "$f" $NR_A $NR_B
	check_script "$v" "$f" $NR_A $NR_B
	check_features "$v" "$f"
done

# the byte-swapped attr must read back as the same attr (flag bits included)
native=$("$PERF" evlist -v -i "$tmp/perf.data.file" 2>&1)
swapped=$("$PERF" evlist -v -i "$tmp/perf.data.file.swap" 2>&1)
if [ -n "$native" ] && [ "$native" = "$swapped" ] && echo "$native" | grep -q 'sample_id_all: 1'; then
	ok "file.swap: perf evlist -v shows the same attr as the native file"
else
	fail "file.swap: perf evlist -v" "expected '$native', got '$swapped'"
fi

# a recording cut short (SIGKILL, power loss) reads up to its last checkpoint: test-writer
# stops 100 samples after a checkpoint without closing, then the file is cut inside the data
for v in file file.swap; do
	f=$tmp/perf.data.$v.killed
	args=
	case $v in *swap*) args=--swap ;; esac
	if ! emit "$f" $args --checkpoint-after 200 --abort-after 300; then
		fail "$v.cut: emit" "test-writer failed: $(cat "$f.err")"
		continue
	fi
	size=$(sed -n 's/.*checkpoint_size=\([0-9]*\).*/\1/p' "$f.info")
	cp_n=$(sed -n 's/.*checkpoint_samples=\([0-9]*\).*/\1/p' "$f.info")
	if [ -z "$size" ] || [ -z "$cp_n" ]; then
		fail "$v.cut" "no checkpoint reported by test-writer"
		continue
	fi
	cut=$tmp/perf.data.$v.cut
	head -c $((size + 100)) "$f" > "$cut"
	cp_b=$((cp_n * NR_B / (NR_A + NR_B)))
	check_report "$v.cut" "$cut" $((cp_n - cp_b)) $cp_b
	check_script "$v.cut" "$cut" $((cp_n - cp_b)) $cp_b
done

finish
