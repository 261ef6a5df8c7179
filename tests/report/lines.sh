#!/bin/sh
# SPDX-License-Identifier: MIT
# Source lines and inlined frames (--lines, --inline, script -F +srcline) on a workload built
# with -g -O2 whose hot loop is an always-inlined function (inline-wl.c: step inlined into
# walk), recorded by Linux perf:
#   script -F +srcline, with and without callchains: as many lines as perf, and the same
#     sample lines and srclines for every frame of the workload and of the kernel (glibc's
#     own lines are left out: for some DWARF 5 rows binutils' addr2line, which perf runs,
#     names the including .c file where libdw names the header, same line number);
#   script --lines is script -F +srcline;
#   script --inline puts "step+0x.. (inlined)" before each walk frame whose address binutils'
#     addr2line -i places in step, and nowhere else; its srcline is a line of step's body;
#   report --inline shows step (inlined) above walk in walk's graph, and walk's entry keeps
#     the percentage perf gives it (the inlined function is not an entry of its own).
#   report --sort srcline (and dso,srcline; sym,srcline without children) = perf report's
#     rows for the workload and the kernel; with children, a workload line's children
#     column = the share of samples with that line on their stack in perf script's srclines
#     (perf 6.1's report names the callers' entries "walk+<run-time address>");
#   report -g srcline = perf's graph lines for the workload; --lines = -s ...,srcline -g srcline.
# (Linux perf 6.1 here prints no inlined frames at all, so addr2line is the peer for them.)
#
#   usage: lines.sh TINYPERF
set -u
T_NAME=report-lines
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

tp=${1:?usage: lines.sh TINYPERF}
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! command -v addr2line >/dev/null 2>&1 ||
   [ ! -x "$tp" ]; then
	fail "setup: need $PERF, addr2line and $tp"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
src=$here/inline-wl.c
wl=$tmp/wl
# -fno-plt: clock_gettime through the GOT, so no sample lands in a PLT stub now and then
# (perf and tinyperf name an address there differently in srcline rows: not what this tests)
if ! ${CC:-cc} -g -O2 -fno-omit-frame-pointer -fno-plt -Wall -Wextra -Werror -o "$wl" "$src"; then
	fail "setup: building $src"
	done_tests
	exit 1
fi
# step's body, from the source (the loop and its statement)
body1=$(grep -n 'for (int i = 0; i < 1000; i++)' "$src" | cut -d: -f1)
body2=$(grep -n 'x = x \* 2862933555777941757UL' "$src" | cut -d: -f1)

rec() { # NAME PERF-RECORD-ARGS...
	name=$1
	shift
	"$PERF" record -q -N -e cpu-clock -F 2000 -o "$tmp/$name.data" "$@" -- "$wl" 0.4 \
		>/dev/null 2>"$tmp/$name.err" && return 0
	fail "$name: perf record: $(tail -n 1 "$tmp/$name.err")"
	return 1
}

# "frame line<TAB>srcline" for frames of the workload and the kernel (their srclines do not
# depend on which debug files this host has for its libraries)
pairs() {
	awk -v wl="($wl)" '
		/^  [^ ]/ && fr != "" {
			if (index(fr, wl) || index(fr, "([kernel.kallsyms])")) print fr "\t" $0
			fr = ""
			next
		}
		/./ { fr = $0 }' "$1"
}

if rec flat; then
	"$PERF" script -F +srcline -i "$tmp/flat.data" >"$tmp/p.flat" 2>/dev/null
	"$tp" script -F +srcline -i "$tmp/flat.data" >"$tmp/t.flat" 2>"$tmp/t.err"
	expect_eq "flat: script -F +srcline, as many lines as perf's" "$(wc -l <"$tmp/p.flat")" \
		"$(wc -l <"$tmp/t.flat")"
	pairs "$tmp/p.flat" >"$tmp/p.fpairs"
	pairs "$tmp/t.flat" >"$tmp/t.fpairs"
	if grep -q "inline-wl.c:" "$tmp/p.fpairs" && cmp -s "$tmp/p.fpairs" "$tmp/t.fpairs"; then
		ok "flat: every workload and kernel sample and its srcline = perf's ($(grep -c "inline-wl.c:" "$tmp/p.fpairs") lines of inline-wl.c)"
	else
		fail "flat: script -F +srcline: $(diff "$tmp/p.fpairs" "$tmp/t.fpairs" | head -n 4 | tr '\n' ' ')"
	fi
	expect_eq "flat: no warnings" "" "$(head -c 300 "$tmp/t.err")"
	"$tp" script --lines -i "$tmp/flat.data" >"$tmp/t.lines" 2>/dev/null
	check "flat: script --lines = script -F +srcline" cmp -s "$tmp/t.flat" "$tmp/t.lines"
fi

if rec graph -g; then
	"$PERF" script -F +srcline -i "$tmp/graph.data" >"$tmp/p.g" 2>/dev/null
	"$tp" script -F +srcline -i "$tmp/graph.data" >"$tmp/t.g" 2>/dev/null
	expect_eq "graph: script -F +srcline, as many lines as perf's" "$(wc -l <"$tmp/p.g")" \
		"$(wc -l <"$tmp/t.g")"
	pairs "$tmp/p.g" >"$tmp/p.pairs"
	pairs "$tmp/t.g" >"$tmp/t.pairs"
	if [ -s "$tmp/p.pairs" ] && cmp -s "$tmp/p.pairs" "$tmp/t.pairs"; then
		ok "graph: the srcline of every workload and kernel frame = perf's ($(wc -l <"$tmp/p.pairs") frames)"
	else
		fail "graph: srclines: $(diff "$tmp/p.pairs" "$tmp/t.pairs" | head -n 4 | tr '\n' ' ')"
	fi

	# --inline in script: the inlined frames, against addr2line -i -f on each walk address
	"$tp" script --inline -F ip,sym,symoff,dso,srcline -i "$tmp/graph.data" >"$tmp/t.inls" 2>/dev/null
	"$tp" script --inline -F ip,sym,symoff,dso -i "$tmp/graph.data" >"$tmp/t.inl" 2>/dev/null
	"$tp" script -F ip,sym,symoff,dso -i "$tmp/graph.data" >"$tmp/t.noinl" 2>/dev/null
	awk '/^\t/ && / walk\+0x/ { print $1 }' "$tmp/t.noinl" | sort -u >"$tmp/walk.addrs"
	: >"$tmp/want.inl"
	while read -r a; do
		# addr2line -i -f: function, file:line pairs, innermost first; all but the last
		# function are inlined there
		addr2line -i -f -e "$wl" "0x$a" | awk -v a="$a" 'NR % 2 == 1 { f[++n] = $0 }
			END { for (i = 1; i < n; i++) print a " " f[i] }' >>"$tmp/want.inl"
	done <"$tmp/walk.addrs"
	# the inlined frames in front of each walk frame (and any step frame not inlined)
	awk '/^\t/ && /\(inlined\)$/ { sub(/\+0x[0-9a-f]*/, "", $2); p = p $1 " " $2 "\n"; next }
	     /^\t/ && / walk\+0x/ { printf "%s", p }
	     /^\t/ && / step\+0x/ { print $1 " " $2 }
	     { p = "" }' "$tmp/t.inl" | sort -u >"$tmp/got.inl"
	awk '/^\t/ && / step\+0x/ { fr = $0; next } fr != "" && /^  / { print $0; fr = "" }' \
		"$tmp/t.inls" | sort -u >"$tmp/step.lines"
	sort -u "$tmp/want.inl" >"$tmp/want.inl.s"
	if grep -q ' step$' "$tmp/want.inl.s" && cmp -s "$tmp/want.inl.s" "$tmp/got.inl"; then
		ok "graph: script --inline: step (inlined) exactly where addr2line -i puts it ($(wc -l <"$tmp/got.inl") addresses)"
	else
		fail "graph: script --inline: addr2line says '$(head -n 3 "$tmp/want.inl.s" | tr '\n' ';')', tinyperf '$(head -n 3 "$tmp/got.inl" | tr '\n' ';')'"
	fi
	if [ -s "$tmp/step.lines" ] &&
	   ! grep -v -x -e "  inline-wl.c:$body1 (inlined)" -e "  inline-wl.c:$body2 (inlined)" \
		"$tmp/step.lines" >/dev/null; then
		ok "graph: the inlined frames' srclines are step's body (lines $body1, $body2)"
	else
		fail "graph: inlined frames' srclines: $(head -n 3 "$tmp/step.lines" | tr '\n' ';')"
	fi
	n_inl=$(grep -c '(inlined)$' "$tmp/t.inl")
	expect_eq "graph: script --inline adds one line per inlined frame" \
		"$(($(wc -l <"$tmp/t.noinl") + n_inl))" "$(wc -l <"$tmp/t.inl")"

	# --inline in report
	"$tp" report --no-children -g callee --inline -i "$tmp/graph.data" >"$tmp/t.rep" 2>/dev/null
	"$PERF" report --stdio --no-children -g none -i "$tmp/graph.data" 2>/dev/null |
		awk '/\[\.\] walk *$/ { print $1 }' >"$tmp/p.walk"
	got=$(awk '/\[\.\] walk *$/ { print $1 }' "$tmp/t.rep")
	expect_eq "graph: report --inline keeps walk's entry at perf's percentage" \
		"$(cat "$tmp/p.walk")" "$got"
	check "graph: report --inline has no entry for the inlined step" \
		sh -c "! grep -q '\[\.\] step' '$tmp/t.rep'"
	check "graph: report --inline shows step (inlined) right above walk in walk's graph" \
		sh -c "awk '/\[\.\] walk *\$/ { in_walk = 1; next } /^ *[0-9.]+%/ { in_walk = 0 }
			in_walk && prev ~ /step \(inlined\)\$/ && /walk\$/ { found = 1 }
			{ prev = \$0 } END { exit !found }' '$tmp/t.rep'"
fi

# ---- report: the srcline sort key and file:line in graphs (--lines, -g srcline) ----
# rows "pct... dso srcline" of a report table for the workload and the kernel, sorted (ties
# are printed in either order), blanks squeezed (perf's columns are given fixed widths with
# -w: it sizes its srcline column before it has every text, and cuts the longest one short)
rows() { # FILE NR-PCT-COLUMNS
	awk -v n="$2" -v wl="$(basename "$wl")" '$1 ~ /%$/ && ($(n + 1) == wl || $(n + 1) == "[kernel.kallsyms]")' "$1" |
		tr -s ' ' | sed 's/ $//' | sort
}

if rec flat2; then
	"$PERF" report --stdio --sort srcline -w 10,80 -i "$tmp/flat2.data" 2>/dev/null |
		grep 'inline-wl\.c:' | tr -s ' ' | sed 's/ $//' | sort >"$tmp/p.sl"
	"$tp" report --sort srcline -i "$tmp/flat2.data" 2>"$tmp/t.sl.err" |
		grep 'inline-wl\.c:' | tr -s ' ' | sed 's/ $//' | sort >"$tmp/t.sl"
	if grep -q "inline-wl.c:$body1\|inline-wl.c:$body2" "$tmp/p.sl" && cmp -s "$tmp/p.sl" "$tmp/t.sl"; then
		ok "report --sort srcline: the workload's lines and percentages = perf's ($(wc -l <"$tmp/p.sl") lines)"
	else
		fail "report --sort srcline: $(diff "$tmp/p.sl" "$tmp/t.sl" | head -n 4 | tr '\n' ' ')"
	fi
	expect_eq "report --sort srcline: no warnings" "" "$(head -c 300 "$tmp/t.sl.err")"
	"$PERF" report --stdio --sort dso,srcline -w 10,40,80 -i "$tmp/flat2.data" 2>/dev/null >"$tmp/p.dsl"
	"$tp" report --sort dso,srcline -i "$tmp/flat2.data" 2>/dev/null >"$tmp/t.dsl"
	rows "$tmp/p.dsl" 1 >"$tmp/p.dslr"
	rows "$tmp/t.dsl" 1 >"$tmp/t.dslr"
	if grep -q 'inline-wl\.c:' "$tmp/p.dslr" && cmp -s "$tmp/p.dslr" "$tmp/t.dslr"; then
		ok "report --sort dso,srcline: workload and kernel rows = perf's ($(wc -l <"$tmp/p.dslr") rows, $(grep -c kernel "$tmp/p.dslr") of the kernel: sym+offset)"
	else
		fail "report --sort dso,srcline: $(diff "$tmp/p.dslr" "$tmp/t.dslr" | head -n 4 | tr '\n' ' ')"
	fi
fi

# a fixed period, so that a percentage is a count of samples
if "$PERF" record -q -N -e cpu-clock -c 500000 -g -o "$tmp/graph2.data" -- "$wl" 0.4 \
	>/dev/null 2>"$tmp/graph2.err" || ! fail "graph2: perf record: $(tail -n 1 "$tmp/graph2.err")"; then
	"$PERF" report --stdio --no-children --sort dso,sym,srcline -w 10,40,60,80 -g none \
		-i "$tmp/graph2.data" \
		2>/dev/null >"$tmp/p.self"
	"$tp" report --no-children --sort dso,sym,srcline -g none -i "$tmp/graph2.data" \
		2>/dev/null >"$tmp/t.self"
	rows "$tmp/p.self" 1 >"$tmp/p.selfr"
	rows "$tmp/t.self" 1 >"$tmp/t.selfr"
	if [ -s "$tmp/p.selfr" ] && cmp -s "$tmp/p.selfr" "$tmp/t.selfr"; then
		ok "graph: report --no-children -s dso,sym,srcline: rows = perf's ($(wc -l <"$tmp/p.selfr"))"
	else
		fail "graph: report -s dso,sym,srcline: $(diff "$tmp/p.selfr" "$tmp/t.selfr" | head -n 4 | tr '\n' ' ')"
	fi

	# children: the share of samples with a line of the workload anywhere on their stack,
	# counted from perf script's srcline of every frame (perf 6.1's own report gives the
	# callers' entries garbage texts, "walk+<a run-time address>")
	"$PERF" script -F +srcline -i "$tmp/graph2.data" 2>/dev/null |
		awk -v wl="($wl)" '
			function flush(s) { for (s in seen) n[s]++; delete seen }
			/^[^\t ]/ { flush(); total++; fr = 0; next }
			/^\t/ { fr = index($0, wl) > 0; next }
			/^  [^ ]/ && fr { sub(/^  /, ""); seen[$0] = 1; fr = 0 }
			END { flush(); for (s in n) printf "%.2f%% %s\n", 100 * n[s] / total, s }' |
		sort >"$tmp/want.ch"
	# (source lines only: a frame with none, _start's in the rare sample whose stack reaches
	# it, is "_start+0" in tinyperf's report and has no srcline in perf script's)
	"$tp" report --children --sort dso,srcline -g none -i "$tmp/graph2.data" 2>/dev/null |
		awk -v wl="$(basename "$wl")" '$1 ~ /%$/ && $3 == wl && $4 ~ /:[0-9]+$/ { print $1 " " $4 }' |
		sort >"$tmp/got.ch"
	# (step's body: its loop line gets no sample in some runs, its multiply line all of them)
	if grep -q "inline-wl.c:\($body1\|$body2\)\$" "$tmp/want.ch" &&
	   cmp -s "$tmp/want.ch" "$tmp/got.ch"; then
		ok "graph: report --children -s dso,srcline: each workload line's children = its share in perf script's stacks ($(wc -l <"$tmp/got.ch") lines)"
	else
		fail "graph: report --children -s dso,srcline: want '$(head -n 3 "$tmp/want.ch" | tr '\n' ';')', got '$(head -n 3 "$tmp/got.ch" | tr '\n' ';')'"
	fi

	# graphs with file:line: perf report -g srcline, the workload's frames
	"$PERF" report --stdio --no-children --sort sym -g srcline -i "$tmp/graph2.data" \
		2>/dev/null >"$tmp/p.glall"
	grep 'inline-wl\.c:' "$tmp/p.glall" >"$tmp/p.gl"
	"$tp" report --no-children --sort sym -g srcline -i "$tmp/graph2.data" 2>/dev/null >"$tmp/t.glall"
	grep 'inline-wl\.c:' "$tmp/t.glall" >"$tmp/t.gl"
	# When every sample of walk is on one line (step's multiply: its loop line gets none in
	# some runs), perf prints walk's one chain from its caller's caller on, with no line of
	# the workload: then both print a graph and neither has a workload line.
	if cmp -s "$tmp/p.gl" "$tmp/t.gl" && { [ -s "$tmp/p.gl" ] ||
	   { grep -q '^ *---' "$tmp/p.glall" && grep -q '^ *---' "$tmp/t.glall"; }; }; then
		ok "graph: report -g srcline: the workload's graph lines (\"walk inline-wl.c:N\") = perf's ($(wc -l <"$tmp/p.gl"))"
	else
		fail "graph: report -g srcline: $(diff "$tmp/p.gl" "$tmp/t.gl" | head -n 4 | tr '\n' ' ')"
	fi
	"$tp" report --no-children --sort sym,srcline -g srcline -i "$tmp/graph2.data" \
		>"$tmp/t.glk" 2>/dev/null
	"$tp" report --no-children --sort sym --lines -i "$tmp/graph2.data" >"$tmp/t.lines" 2>/dev/null
	check "graph: report --lines = -s ...,srcline -g srcline" cmp -s "$tmp/t.glk" "$tmp/t.lines"
	check "graph: report --lines has a Source:Line column" grep -q 'Source:Line' "$tmp/t.lines"
	"$tp" report --sort sym,srcline,sym -i "$tmp/graph2.data" >/dev/null 2>"$tmp/t.twice"
	expect_eq "report -s sym,srcline,sym: one line that says so, exit 2" \
		"2:1:tinyperf: report: --sort: 'sym' given twice" \
		"$("$tp" report --sort sym,srcline,sym -i "$tmp/graph2.data" >/dev/null 2>&1; echo $?):$(wc -l <"$tmp/t.twice"):$(cat "$tmp/t.twice")"
fi

done_tests
