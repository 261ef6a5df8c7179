#!/bin/sh
# SPDX-License-Identifier: MIT
# 'tinyperf stat' against Linux perf stat on this machine (issue 21): the same workloads
# (tests/workloads) under both, alternately: task-clock and elapsed within 10 %, the software
# counts within 10 % or 20; the same text modulo numbers (default, -r 3, -I, -A -a); -x ,
# splits into perf's fields; -I 100 prints >= 9 blocks for a 1 s command; the command's exit
# status; <not supported> where perf says it; no permission gives record's one line.
#   run.sh TINYPERF [WORKDIR]     (root: setpriv, perf_event_paranoid)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=stat
. "$src/tests/lib.sh"
tp=$1
work=${2:-$(mktemp -d)}
mkdir -p "$work"
wl=$("$src/tests/workloads/build.sh" "$work/wl") || { fail "cannot build the workloads"; done_tests; exit 1; }
command -v perf >/dev/null || { fail "no Linux perf (linux-perf)"; done_tests; exit 1; }

# numbers to N (a rate's K/M/G with them: perf picks it by the number), runs of blanks to
# one, our note (a tinyperf: line) out: the layout
shape() { grep -v '^tinyperf: ' "$1" | sed -E 's/[0-9][0-9.,]*/N/g; s/N [KMG]\/sec/N \/sec/; s/ +/ /g'; }
# the '#' column of each line
cols() { grep -v '^tinyperf: ' "$1" | awk '{ print index($0, "#") }'; }
same_layout() { # NAME OURS PERFS
	if shape "$2" >"$2.shape" && shape "$3" >"$3.shape" && cmp -s "$2.shape" "$3.shape"; then
		if cols "$2" | cmp -s - "$(cols "$3" >"$3.cols"; echo "$3.cols")"; then
			ok "$1: the same lines as perf's, modulo numbers, '#' in the same columns"
		else
			fail "$1: the '#' columns differ: $(cols "$2" | tr '\n' ' ') vs $(tr '\n' ' ' <"$3.cols")"
		fi
	else
		fail "$1: layout differs from perf's: $(diff "$2.shape" "$3.shape" | head -n 6 | tr '\n' '|')"
	fi
}
# -r: a line's '  ( +- x.xx% )' is there iff its count varied across the runs, as perf prints
# it, which two independent sets of runs need not share (page-faults may repeat exactly):
# the layouts modulo numbers and that suffix; where both lines have it, the same text (the
# number's field to N's), at the same column on an event's line (the elapsed time's width
# follows its spread); at least one line with it in both
noise_sfx() { grep -v '^tinyperf: ' "$1" | awk '{ i = match($0, / +\( \+- *[0-9.]+% \)$/)
	s = i ? substr($0, i) : ""; j = match(s, /[ 0-9.]+%/); t = substr(s, j, RLENGTH - 1)
	gsub(/./, "N", t); s = substr(s, 1, j - 1) t substr(s, j + RLENGTH - 1)
	print (!i ? "-" : /#/ ? i " " s : s) }'; }
same_layout_noise() { # NAME OURS PERFS
	# the blanks before the suffix, or the metric's padding on a line without it, go too:
	# one tool's runs may have repeated a count exactly where the other's did not
	for f in "$2" "$3"; do sed -E 's/ +\( \+- *[0-9.]+% \)$//; s/ +$//' "$f" >"$f.nonoise"; done
	noise_sfx "$2" >"$2.sfx"
	noise_sfx "$3" >"$3.sfx"
	if [ "$(wc -l <"$2.sfx")" -ne "$(wc -l <"$3.sfx")" ]; then
		fail "$1: $(wc -l <"$2.sfx") lines, perf $(wc -l <"$3.sfx")"
		return
	fi
	both=$(paste -d '|' "$2.sfx" "$3.sfx" | awk -F'|' '$1 != "-" && $2 != "-"' | grep -c .)
	differ=$(paste -d '|' "$2.sfx" "$3.sfx" | awk -F'|' '$1 != "-" && $2 != "-" && $1 != $2')
	if [ "$both" -ge 1 ] && [ -z "$differ" ]; then
		ok "$1: '( +- x.xx% )' as perf's on the $both lines where both runs varied"
	else
		fail "$1: the noise suffix: $both lines with it in both; differing: $(echo "$differ" | tr '\n' ' ')"
	fi
	same_layout "$1 (modulo the noise suffix)" "$2.nonoise" "$3.nonoise"
}
# the value of an event's line (the first number; msec as is)
val() { grep -v '^tinyperf: ' "$1" | awk -v ev="$2" '$0 ~ " " ev "( |$)" && $1 ~ /^[0-9]/ { gsub(",", "", $1); print $1; exit }'; }
elapsed() { awk '/seconds time elapsed/ { print $1 }' "$1"; }
# within PCT % or ABS of the reference: NAME OURS PERFS PCT ABS
near() {
	if awk -v a="$2" -v b="$3" -v p="$4" -v d="$5" 'BEGIN { e = a - b; if (e < 0) e = -e;
		exit !(a != "" && b != "" && (e <= b * p / 100 || e <= d)) }'; then
		ok "$1: $2 (perf $3)"
	else
		fail "$1: $2, perf $3: more than $4 % (or $5) apart"
	fi
}

# 1. the default events on the same work under both, five times each, alternately, compared
#    by their medians (the machine may be busy): the software counts on naps 300 0 (300 sleeps
#    of 1 ms: a voluntary context switch each, little to preempt), task-clock on naps 0 200
#    (fixed CPU work), the elapsed time on spin 1 (a fixed duration)
median5() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
for i in 1 2 3 4 5; do
	"$tp" stat -- "$wl/naps" 300 0 2>"$work/tp$i.txt"
	perf stat -- "$wl/naps" 300 0 2>"$work/pf$i.txt"
	"$tp" stat -e task-clock -- "$wl/naps" 0 200 2>"$work/tpw$i.txt"
	perf stat -e task-clock -- "$wl/naps" 0 200 2>"$work/pfw$i.txt"
	"$tp" stat -e task-clock -- "$wl/spin" 1 2>"$work/tps$i.txt"
	perf stat -e task-clock -- "$wl/spin" 1 2>"$work/pfs$i.txt"
done
same_layout "default events" "$work/tp1.txt" "$work/pf1.txt"
for ev in task-clock context-switches cpu-migrations page-faults; do
	f=""; [ $ev = task-clock ] && f=w
	a=$(median5 $(for i in 1 2 3 4 5; do val "$work/tp$f$i.txt" $ev; done))
	b=$(median5 $(for i in 1 2 3 4 5; do val "$work/pf$f$i.txt" $ev; done))
	case $ev in task-clock) near "$ev (msec, naps 0 200, median of 5)" "$a" "$b" 10 0 ;;
	*) near "$ev (naps 300 0, median of 5)" "$a" "$b" 10 20 ;; esac
done
near "seconds time elapsed (spin 1, median of 5)" \
	"$(median5 $(for i in 1 2 3 4 5; do elapsed "$work/tps$i.txt"; done))" \
	"$(median5 $(for i in 1 2 3 4 5; do elapsed "$work/pfs$i.txt"; done))" 10 0

# 2. an event this machine cannot count: <not supported> where perf says so
"$tp" stat -e cycles,task-clock -- true 2>"$work/ns.txt"
perf stat -e cycles,task-clock -- true 2>"$work/ns.perf"
if grep -q '<not supported>' "$work/ns.perf"; then
	if grep -q '^   <not supported>      cycles  ' "$work/ns.txt"; then ok "cycles: <not supported>, as perf"
	else fail "cycles: perf says <not supported>, we: $(grep cycles "$work/ns.txt")"; fi
else
	if grep -q '^ *[0-9][0-9]*      cycles ' "$work/ns.txt"; then ok "cycles counted, as perf counts them"
	else fail "cycles: perf counts them, we: $(grep cycles "$work/ns.txt")"; fi
fi
same_layout "-e cycles,task-clock" "$work/ns.txt" "$work/ns.perf"

# 3. -x , : the same fields as perf's, line by line
"$tp" stat -x , -- "$wl/forkexec" 50 >/dev/null 2>"$work/csv.txt"
perf stat -x , -- "$wl/forkexec" 50 >/dev/null 2>"$work/csv.perf"
fields() { grep -v '^tinyperf: ' "$1" | awk -F, '{ printf "%d fields, unit \"%s\", event \"%s\", metric unit \"%s\"\n", NF, $2, $3, $8 }'; }
if [ -s "$work/csv.txt" ] && [ "$(fields "$work/csv.txt")" = "$(fields "$work/csv.perf")" ]; then
	ok "-x ,: $(grep -c . "$work/csv.txt") lines, the fields of perf's (value,unit,event,run,pct,metric,unit)"
else
	fail "-x ,: $(fields "$work/csv.txt" | head -n 2 | tr '\n' '|') vs perf $(fields "$work/csv.perf" | head -n 2 | tr '\n' '|')"
fi
if awk -F, '$3 == "task-clock" { exit !($1 ~ /^[0-9]+\.[0-9][0-9]$/ && $4 ~ /^[0-9]+$/ && $5 == "100.00" && $6 ~ /^[0-9]+\.[0-9][0-9][0-9]$/) }' "$work/csv.txt"
then ok "-x ,: task-clock's value, run time, percentage and metric parse as perf's"
else fail "-x ,: task-clock: $(grep task-clock "$work/csv.txt")"; fi

# 4. -I 100 on a 1 s command: at least 9 blocks, perf's header and columns
"$tp" stat -I 100 -e task-clock,page-faults -- "$wl/spin" 1 2>"$work/int.txt"
n=$(grep -v '^#' "$work/int.txt" | awk '{ print $1 }' | sort -u | grep -c .)
if [ "$n" -ge 9 ]; then ok "-I 100 for 1 s: $n interval blocks"; else fail "-I 100: $n blocks: $(head -n 3 "$work/int.txt")"; fi
perf stat -I 100 -e task-clock,page-faults -- "$wl/spin" 0.3 2>"$work/int.perf"
head -n 3 "$work/int.txt" >"$work/int3.txt"; head -n 3 "$work/int.perf" >"$work/int3.perf"
same_layout "-I 100 (header, first block)" "$work/int3.txt" "$work/int3.perf"
"$tp" stat -I 100 -x , -e task-clock -- "$wl/spin" 0.25 2>"$work/intx.txt"
if [ "$(grep -c . "$work/intx.txt")" -ge 2 ] &&
   ! grep -Ev '^ *[0-9]+\.[0-9]{9},[0-9.]+,msec,task-clock,[0-9]+,[0-9.]+,[0-9.]+,CPUs utilized$' "$work/intx.txt" | grep -q .
then ok "-I -x ,: a timestamp field then perf's seven"
else fail "-I -x ,: $(head -n 2 "$work/intx.txt" | tr '\n' '|')"; fi

# 5. -r 3: the spread on each line that varies, and on the elapsed time
"$tp" stat -r 3 -e task-clock,page-faults -- "$wl/forkexec" 30 >/dev/null 2>"$work/rep.txt"
perf stat -r 3 -e task-clock,page-faults -- "$wl/forkexec" 30 >/dev/null 2>"$work/rep.perf"
if grep -q "(3 runs):" "$work/rep.txt" && grep -Eq 'task-clock .*\( \+- *[0-9]+\.[0-9][0-9]% \)$' "$work/rep.txt" &&
   grep -Eq '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- *[0-9]+\.[0-9][0-9]% \)$' "$work/rep.txt"
then ok "-r 3: (3 runs), '( +- x.xx% )' on task-clock and on the elapsed time"
else fail "-r 3: $(tr '\n' '|' <"$work/rep.txt")"; fi
same_layout_noise "-r 3" "$work/rep.txt" "$work/rep.perf"

# 6. system-wide, one line per CPU
"$tp" stat -a -A -e task-clock,page-faults -- sleep 0.2 2>"$work/cpu.txt"
perf stat -a -A -e task-clock,page-faults -- sleep 0.2 2>"$work/cpu.perf"
same_layout "-a -A" "$work/cpu.txt" "$work/cpu.perf"

# 7. the command's exit status, and a command that cannot run
"$tp" stat -- sh -c 'exit 7' 2>/dev/null
a=$?
perf stat -- sh -c 'exit 7' 2>/dev/null
expect_eq "exit status of the command (perf: $?)" 7 $a
"$tp" stat -- "$work/no-such-command" 2>"$work/noexec.err"
a=$?
if [ $a -eq 255 ] && grep -q "cannot run '$work/no-such-command': No such file" "$work/noexec.err"
then ok "a command that cannot run: one line, exit 255 as perf"
else fail "no such command: exit $a: $(cat "$work/noexec.err")"; fi
"$tp" stat --no-such-option true 2>"$work/badopt.err"
expect_eq "a bad option: exit 129 as perf" 129 $?
"$tp" stat -A true 2>"$work/aggr.err"
a=$?
if [ $a -eq 129 ] && grep -q "per-cpu needs -a or -C" "$work/aggr.err"; then ok "-A without -a or -C: refused, as perf refuses it"
else fail "-A without -a: exit $a: $(cat "$work/aggr.err")"; fi

# 7c. -p and -t: the header names the list as it was given, the last -p or -t counting,
#     as perf's
sleep 30 & bg=$!
for opt in "-p 1 -p $bg" "-t $bg" "-p $bg,$$"; do
	# shellcheck disable=SC2086
	timeout -s INT 0.5 "$tp" stat -e task-clock $opt 2>"$work/tgt.txt"
	# shellcheck disable=SC2086
	timeout -s INT 0.5 perf stat -e task-clock $opt 2>"$work/tgt.perf"
	h=$(grep 'Performance counter stats' "$work/tgt.txt")
	if [ -n "$h" ] && [ "$h" = "$(grep 'Performance counter stats' "$work/tgt.perf")" ]
	then ok "$opt: the header as perf's:$h"
	else fail "$opt: header '$h', perf's '$(grep 'Performance counter' "$work/tgt.perf")'"; fi
done
# with both, -p wins and -t is ignored, silently, as in perf: a spinning -t thread is not
# counted beside a sleeping -p process (task-clock "<not counted>", or a few msec)
sh -c 'while :; do :; done' & spin=$!
msec() { # FILE: task-clock in whole msec, 0 when not counted
	awk '/task-clock/ { v = $1; sub(/[.,].*/, "", v); print (v ~ /^[0-9]+$/ ? v : 0); exit }' "$1"; }
timeout -s INT 0.5 "$tp" stat -e task-clock -p "$bg" -t "$spin" 2>"$work/pt.txt"
timeout -s INT 0.5 perf stat -e task-clock -p "$bg" -t "$spin" 2>"$work/pt.perf"
m=$(msec "$work/pt.txt") mp=$(msec "$work/pt.perf")
if [ -n "$m" ] && [ "$m" -lt 50 ] && [ -n "$mp" ] && [ "$mp" -lt 50 ]
then ok "-p P -t T: only P counted, as perf ($m msec; perf $mp)"
else fail "-p P -t T: $m msec of task-clock (perf: $mp): the -t thread was counted"; fi
kill $bg $spin

# 7b. Ctrl-C (SIGINT to the process group): the counts, then death by SIGINT (perf 6.1 does
#     that too, or exits 0 when its wait4 was not interrupted: not compared)
int() { python3 -c 'import subprocess, sys, time, os, signal
p = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE, start_new_session=True)
time.sleep(0.5); os.killpg(p.pid, signal.SIGINT)
e = p.communicate()[1].decode()
print(p.returncode, int("Performance counter stats" in e and "seconds time elapsed" in e))' "$@"; }
expect_eq "Ctrl-C: the counts printed, then death by SIGINT (status -2, counts 1)" "-2 1" \
	"$(int "$tp" stat -e task-clock -- sleep 5)"

# 8. no permission, as nobody with perf_event_paranoid at 2 or more: record's one line for
#    -a; a command still counts, user space only (:u), as perf
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	pp=/proc/sys/kernel/perf_event_paranoid pp0=$(cat $pp)
	trap 'echo "$pp0" >$pp' EXIT
	trap 'exit 1' INT TERM HUP
	[ "$pp0" -ge 2 ] || echo 2 >$pp
	cp "$tp" "$work/tp-user" && chmod 755 "$work" "$work/tp-user"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody "$work/tp-user" stat -a -- true 2>"$work/perm.err"
	a=$?
	if [ $a -ne 0 ] && [ "$(grep -c . "$work/perm.err")" = 1 ] &&
	   grep -q "^tinyperf: stat: cannot open cpu-clock: Permission denied: kernel.perf_event_paranoid is [0-9]*; run as root, or 'sysctl kernel.perf_event_paranoid=0'$" "$work/perm.err"
	then ok "-a as nobody: record's one line naming perf_event_paranoid (exit $a)"
	else fail "-a as nobody: exit $a: $(cat "$work/perm.err")"; fi
	nobody "$work/tp-user" stat -e task-clock,page-faults -- "$wl/forkexec" 20 >/dev/null 2>"$work/user.txt"
	nobody perf stat -e task-clock,page-faults -- "$wl/forkexec" 20 >/dev/null 2>"$work/user.perf"
	same_layout "a command as nobody (task-clock:u)" "$work/user.txt" "$work/user.perf"
	echo "$pp0" >$pp
fi

done_tests
