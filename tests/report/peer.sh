#!/bin/sh
# SPDX-License-Identifier: MIT
# Peer check: tinyperf report and script against Linux perf on the same recordings, made by
# Linux perf and by the tinyperf recorder (per task, -g, -a, tracepoints, pipe mode):
#   report --stdio --sort comm,dso,sym: the same sample totals per event, and perf's top 20
#     entries (comm, dso, sym) found with every percentage within 0.01 (and ours in perf's);
#   script: the same samples (comm, pid/tid, time, ip) in the same order, and for
#     tracepoints the same decoded fields, line for line;
#   a stripped binary resolves from --sysroot with the unstripped copy (build-id, and the
#     recorder's text hash for a binary without one);
#   a rebuilt binary in the sysroot is refused with a line naming it, its samples unresolved;
#   the richest verified copy serves, wherever the search meets it (peer-bestcopy.sh);
#   a kallsyms file of a kernel relocated elsewhere (a captured /proc/kallsyms, shifted)
#     resolves the kernel samples to the same symbols.
# -a recordings on a shared machine hold other people's processes: their top 20 is compared
# within the workload's own threads (--comm, in both tools); their totals in full.
#
#   usage: [KEEP=1] peer.sh BINDIR [RECORDER]   (BINDIR: $O/host-san/tests, the tool BINDIR/../tinyperf;
#                                       RECORDER: a built tinyperf recorder, else one is built;
#                                       KEEP=1 keeps the recordings)
set -u
T_NAME=report-peer
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"

bindir=$(cd "${1:?usage: peer.sh BINDIR [RECORDER]}" && pwd)
tp=$bindir/../tinyperf
rec=${2:-}
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || [ ! -x "$tp" ]; then
	fail "setup: need $PERF and $tp"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
wl=$tmp/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "setup: building the workloads"; done_tests; exit 1; }
if [ -z "$rec" ]; then
	if make -s -C "$src" O="$tmp/rec" host_defconfig >"$tmp/rec.log" 2>&1 &&
	   make -s -C "$src" O="$tmp/rec" >>"$tmp/rec.log" 2>&1; then
		rec=$tmp/rec/tinyperf
	else
		fail "setup: building the tinyperf recorder: $(tail -n 3 "$tmp/rec.log" | tr '\n' ' ')"
	fi
fi

# ---- how the outputs are compared ----

# perf report --stdio table -> "pct[<TAB>pct]<TAB>comm<TAB>dso<TAB>sym" per entry, cut at
# the column positions of the "# ....  ...." line (names may hold spaces)
cat >"$tmp/table.awk" <<'EOF'
/^# \.\.\./ {
	n = 0; i = 3
	while (i <= length($0)) {
		if (substr($0, i, 1) == ".") {
			j = i; while (j <= length($0) && substr($0, j, 1) == ".") j++
			n++; st[n] = i; en[n] = j - 1; i = j
		} else i++
	}
	next
}
/^#/ || /^$/ { next }
n && /^ +[0-9]+\.[0-9]+%/ {
	out = ""
	for (k = 1; k <= n; k++) {
		f = k < n ? substr($0, st[k], en[k] - st[k] + 1) : substr($0, st[k])
		gsub(/^ +| +$/, "", f)
		out = out (k > 1 ? "\t" : "") f
	}
	print out
}
EOF
# file 1 perf's table, file 2 ours: the top N of each must be in the other, each
# percentage within 0.01; prints what differs
cat >"$tmp/top.awk" <<'EOF'
function key(   k, i) { k = ""; for (i = npct + 1; i <= NF; i++) k = k "|" $i; return k }
FNR == 1 { file++ }
{
	npct = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+%$/) npct = i; else break
	k = key(); v = ""; for (i = 1; i <= npct; i++) { x = $i; sub(/%/, "", x); v = v " " x }
	if (file == 1) { if (!(k in p)) { p[k] = v; pr[++np] = k } }
	else if (!(k in t)) { t[k] = v; tr[++nt] = k }
}
function near(a, b,   x, y, i, n) {
	n = split(a, x, " "); split(b, y, " ")
	for (i = 1; i <= n; i++) if (x[i] - y[i] > 0.0100001 || y[i] - x[i] > 0.0100001) return 0
	return 1
}
END {
	for (i = 1; i <= np && i <= N; i++)
		if (!(pr[i] in t)) print "perf's #" i " " pr[i] " (" p[pr[i]] " ) missing"
		else if (!near(p[pr[i]], t[pr[i]])) print pr[i] ": perf" p[pr[i]] ", tinyperf" t[pr[i]]
	for (i = 1; i <= nt && i <= N; i++)
		if (!(tr[i] in p)) print "our #" i " " tr[i] " (" t[tr[i]] " ) not in perf's"
	if (!np) print "perf's table is empty"
}
EOF

# "event<TAB>samples<TAB>event count" per section; perf writes 495K for 495123 samples
totals() { # unit: "k" to print our exact counts as perf rounds them
	awk -v unit="$1" '
		/^# Samples: / {
			n = $3; u = ""
			# divided by 1000 step by step, as perf does: 1000500 is "1000K", not "1M"
			if (unit == "k" && n + 0 > 1000) { n = int(n / 1000); u = "K" }
			if (unit == "k" && n + 0 > 1000) { n = int(n / 1000); u = "M" }
			sub(/^.* of event /, ""); ev = $0; s = n u
		}
		/^# Event count \(approx\.\): / { print ev "\t" s "\t" $NF }' | sort
}

check_report() { # NAME FILE [ARGS...]: totals, then the top 20 (ARGS: e.g. --comm)
	name=$1 f=$2
	shift 2
	"$PERF" report --stdio --sort comm,dso,sym -i "$f" >"$tmp/p.rep" 2>/dev/null
	"$tp" report --stdio --sort comm,dso,sym -i "$f" >"$tmp/t.rep" 2>"$tmp/t.err"
	rc=$?
	expect_eq "$name: report exits 0, no warnings" "0:" "$rc:$(head -c 300 "$tmp/t.err")"
	want=$(totals "" <"$tmp/p.rep")
	got=$(totals k <"$tmp/t.rep")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "$name: report sample totals = perf's ($(echo "$want" | tr '\t\n' ' ;'))"
	else
		fail "$name: report sample totals: perf '$want', tinyperf '$got'"
	fi
	if [ $# -gt 0 ]; then
		"$PERF" report --stdio --sort comm,dso,sym -i "$f" "$@" >"$tmp/p.rep" 2>/dev/null
		"$tp" report --stdio --sort comm,dso,sym -i "$f" "$@" >"$tmp/t.rep" 2>/dev/null
	fi
	awk -f "$tmp/table.awk" "$tmp/p.rep" >"$tmp/p.tab"
	awk -f "$tmp/table.awk" "$tmp/t.rep" >"$tmp/t.tab"
	awk -v N=20 -f "$tmp/top.awk" "$tmp/p.tab" "$tmp/t.tab" >"$tmp/top.diff"
	if [ -s "$tmp/top.diff" ]; then
		fail "$name: report top 20 $* ($(wc -l <"$tmp/p.tab") entries): $(head -n 6 "$tmp/top.diff" | tr '\n' ';')"
	else
		ok "$name: report top 20 $* = perf's, within 0.01% ($(wc -l <"$tmp/p.tab") entries)"
	fi
}

check_script() { # NAME FILE: the samples, one line each, and the default output's length
	name=$1 f=$2
	"$PERF" script -G -F comm,pid,tid,time,ip -i "$f" >"$tmp/p.scr" 2>/dev/null
	"$tp" script -G -F comm,pid,tid,time,ip -i "$f" >"$tmp/t.scr" 2>"$tmp/t.err"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$tmp/p.scr" ] && cmp -s "$tmp/p.scr" "$tmp/t.scr"; then
		ok "$name: script lists perf's $(wc -l <"$tmp/p.scr") samples (comm pid/tid time ip)"
	else
		fail "$name: script samples (exit $rc $(head -c 200 "$tmp/t.err")): $(diff "$tmp/p.scr" "$tmp/t.scr" | head -n 4 | tr '\n' ' ')"
	fi
	"$PERF" script -i "$f" 2>/dev/null | wc -l >"$tmp/p.n"
	"$tp" script -i "$f" 2>/dev/null | wc -l >"$tmp/t.n"
	expect_eq "$name: script default output, as many lines as perf's" "$(cat "$tmp/p.n")" "$(cat "$tmp/t.n")"
}

check_trace() { # NAME FILE: tracepoint samples print the same fields, line for line
	name=$1 f=$2
	"$PERF" script -i "$f" >"$tmp/p.scr" 2>/dev/null
	"$tp" script -i "$f" >"$tmp/t.scr" 2>/dev/null
	if [ -s "$tmp/p.scr" ] && cmp -s "$tmp/p.scr" "$tmp/t.scr"; then
		ok "$name: script prints perf's $(wc -l <"$tmp/p.scr") tracepoint lines, fields decoded"
	else
		fail "$name: script tracepoint lines: $(diff "$tmp/p.scr" "$tmp/t.scr" | head -n 4 | tr '\n' ' ')"
	fi
}

prec() { # NAME PERF-RECORD-ARGS...: perf record into $tmp/NAME.data (-N: keep ~/.debug clean)
	name=$1
	shift
	"$PERF" record -q -N "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" && return 0
	fail "$name: perf record $*: $(tail -n 1 "$tmp/$name.err")"
	return 1
}

trec() { # NAME RECORD-ARGS...: the tinyperf recorder into $tmp/NAME.data
	name=$1
	shift
	[ -n "$rec" ] || return 1
	"$rec" record "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" && return 0
	fail "$name: tinyperf record $*: $(tail -n 1 "$tmp/$name.err")"
	return 1
}

spin="$wl/spin 0.5"
ws=spin,sysc		# the workload's threads, for -a on a shared machine

# ---- recordings by Linux perf ----
prec task -e cpu-clock -F 2000 -o "$tmp/task.data" -- $spin &&
	{ check_report task "$tmp/task.data"; check_script task "$tmp/task.data"; }
prec callg -g -e cpu-clock -F 2000 -o "$tmp/callg.data" -- $spin &&
	{ check_report callg "$tmp/callg.data"; check_script callg "$tmp/callg.data"; }
prec sys -a -g -e cpu-clock -F 2000 -o "$tmp/sys.data" -- sh -c "$wl/spin 0.5 & $wl/sysc 0.5; wait" &&
	{ check_report sys "$tmp/sys.data" --comm $ws; check_script sys "$tmp/sys.data"; }
prec tpt -a -e sched:sched_switch -e raw_syscalls:sys_enter -o "$tmp/tpt.data" -- $wl/sysc 0.1 &&
	{ check_report tpt "$tmp/tpt.data" --comm sysc; check_trace tpt "$tmp/tpt.data"; }
if "$PERF" record -q -g -e cpu-clock -F 2000 -o - -- $spin >"$tmp/pipe.data" 2>"$tmp/pipe.err"; then
	check_report pipe "$tmp/pipe.data"
	check_script pipe "$tmp/pipe.data"
	n=$("$tp" script -i - <"$tmp/pipe.data" 2>/dev/null | wc -l)
	expect_eq "pipe: script -i - (stdin) = from the file" "$("$tp" script -i "$tmp/pipe.data" 2>/dev/null | wc -l)" "$n"
else
	fail "pipe: perf record -o -: $(tail -n 1 "$tmp/pipe.err")"
fi
if "$PERF" record -q -a -e sched:sched_switch -o - -- sleep 0.1 >"$tmp/tpipe.data" 2>/dev/null; then
	check_trace tpipe "$tmp/tpipe.data"
else
	fail "tpipe: perf record -a -e sched:sched_switch -o -"
fi

# ---- recordings by the tinyperf recorder ----
if [ -n "$rec" ]; then
	trec rtask -e cpu-clock -o "$tmp/rtask.data" -- $spin &&
		{ check_report rtask "$tmp/rtask.data"; check_script rtask "$tmp/rtask.data"; }
	trec rcallg -e cpu-clock -g -o "$tmp/rcallg.data" -- $spin &&
		{ check_report rcallg "$tmp/rcallg.data"; check_script rcallg "$tmp/rcallg.data"; }
	trec rsys -e cpu-clock -a -g -o "$tmp/rsys.data" -- sh -c "$wl/spin 0.5 & $wl/sysc 0.5; wait" &&
		{ check_report rsys "$tmp/rsys.data" --comm $ws; check_script rsys "$tmp/rsys.data"; }
	if "$rec" record -e cpu-clock -g -o - -- $spin >"$tmp/rpipe.data" 2>"$tmp/rpipe.err"; then
		check_report rpipe "$tmp/rpipe.data"
		check_script rpipe "$tmp/rpipe.data"
	else
		fail "rpipe: tinyperf record -o -: $(tail -n 1 "$tmp/rpipe.err")"
	fi
fi

. "$here/peer-symbols.sh"
. "$here/peer-bestcopy.sh"

done_tests
