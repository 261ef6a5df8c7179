#!/bin/sh
# SPDX-License-Identifier: MIT
# record --call-graph dwarf on this machine's kernel, judged by Linux perf: the attrs as perf
# sets them (perf evlist -v against perf's own recording), samples with the registers and the
# stack of the size asked, and perf unwinding tinyperf's files of a workload built without
# frame pointers (tests/workloads/nofp) to main along the same call path as its own, through
# a file, -o -, the flight recorder, TCP and a 115200-baud serial line. Also: the register
# masks of arch/*/abi.h against each cross compiler's asm/perf_regs.h, option and term
# parsing, the ring-size refusal, and tinyperf report/script/dump reading the files.
#   dwarf.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-record-dwarf}
. "$src/tests/lib.sh"
. "$src/tests/transport/lib.sh"
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
tp=$(abs "$1")
host=$(abs "$2")
work=$(abs "${3:-$(mktemp -d)}")
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
wl=$work/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "build workloads"; done_tests; exit 1; }
export TINYPERF_KSYMS_CACHE=
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done' EXIT

# ---- the register masks against the kernel's uapi headers (each cross toolchain's) ----------
cat >masks.c <<'EOF'
#include <asm/perf_regs.h>
#include "arch/abi.h"
#if defined(__x86_64__)
#define WANT (((1ULL << PERF_REG_X86_64_MAX) - 1) & ~(0xfULL << PERF_REG_X86_DS))
#elif defined(__i386__)
#define WANT ((1ULL << PERF_REG_X86_DS) - 1)
#elif defined(__aarch64__)
#define WANT ((1ULL << PERF_REG_ARM64_MAX) - 1)
#elif defined(__arm__)
#define WANT ((1ULL << PERF_REG_ARM_MAX) - 1)
#elif defined(__mips__)
#define WANT ((1ULL << PERF_REG_MIPS_MAX) - 1)
#endif
_Static_assert(TP_PERF_REGS_USER == WANT, "TP_PERF_REGS_USER");
EOF
for cc in x86_64-linux-gnu-gcc i686-linux-gnu-gcc arm-linux-gnueabihf-gcc aarch64-linux-gnu-gcc \
	  mipsel-linux-gnu-gcc mips-linux-gnu-gcc; do
	if ! command -v $cc >/dev/null; then
		fail "register mask: no $cc (scripts/deps.sh all)"
	elif $cc -std=c11 -fsyntax-only -I"$src" masks.c 2>masks.err; then
		ok "register mask of $cc's arch is asm/perf_regs.h's"
	else
		fail "register mask of $cc's arch: $(head -3 masks.err | tr '\n' ' ')"
	fi
done

# record NAME ARGS...: tinyperf record -q -o NAME.data ARGS (rc in $rc)
record() {
	n=$1; shift
	"$tp" record -o "$n.data" "$@" >"$n.out" 2>"$n.err"
	rc=$?
}
# attr FILE FIELD: a field of the first event in perf evlist -v
attr() { perf evlist -v -i "$1" 2>/dev/null | head -n1 | tr ',' '\n' | sed -n "s/^ *$2: //p"; }
# chains FILE: per sample, the symbols of its callchain joined by '<' (leaf first), as perf
# unwinds them (no inlined frames: those come from debug info, not from unwinding)
chains() {
	perf script -i "$1" --no-inline -F ip,sym 2>/dev/null |
		awk 'NF == 0 { if (c != "") print c; c = ""; next } { c = c (c == "" ? "" : "<") $2 }
		     END { if (c != "") print c }'
}
# unwound FILE WHAT: [OK] when perf unwinds >= 95 % of FILE's samples in leaf to main, along
# the path of perf's own recording (ref.top) for the most of them
unwound() {
	chains "$1" | grep '^leaf<' >"$1.chains"
	nl=$(grep -c . "$1.chains")
	nm=$(grep -c '<main<\|<main$' "$1.chains")
	top=$(sed 's/<main<.*/<main/' "$1.chains" | sort | uniq -c | sort -rn | head -n1 | awk '{print $2}')
	how="$nm of $nl leaf samples unwound to main, top path $top"
	if [ "$nl" -ge 20 ] && [ $((nm * 100)) -ge $((nl * 95)) ] && [ "$top" = "$(cat ref.top)" ]; then
		ok "$2: perf unwinds: $how"
	else
		fail "$2: $how; perf's own recording: $(cat ref.top)"
	fi
}

# ---- perf's own recording of the workload: the reference --------------------------------
depth=6
perf record -q -e cpu-clock -F 499 --call-graph dwarf,4096 -o ref.data -- "$wl/nofp" 0.5 $depth \
	>/dev/null 2>ref.err
chains ref.data | grep '^leaf<' | sed 's/<main<.*/<main/' | sort | uniq -c | sort -rn |
	head -n1 | awk '{print $2}' >ref.top
want="leaf$(printf '<descend%.0s' $(seq 0 $depth))<run<main"
if [ "$(cat ref.top)" = "$want" ]; then
	ok "perf's own --call-graph dwarf recording: top path $want"
else
	fail "perf's own recording: top path '$(cat ref.top)', expected $want: $(head -c 300 ref.err)"
fi

# ---- a file: the attrs as perf's, the samples' size, the chains -------------------------
record file -e cpu-clock -F 499 --call-graph dwarf,4096 -- "$wl/nofp" 0.5 $depth
st=$(attr file.data sample_type)
if [ $rc -eq 0 ] && [ "$(attr file.data sample_regs_user)" = "$(attr ref.data sample_regs_user)" ] &&
   [ "$(attr file.data sample_stack_user)" = 4096 ] &&
   [ "$(attr ref.data sample_stack_user)" = 4096 ] &&
   [ "$(attr file.data exclude_callchain_user)" = 1 ] && [ "$(attr file.data mmap_data)" = 1 ] &&
   echo "$st" | grep -q 'CALLCHAIN.*REGS_USER|STACK_USER'; then
	ok "file: perf evlist -v: sample_regs_user $(attr file.data sample_regs_user), sample_stack_user 4096, exclude_callchain_user, mmap_data, $st (as perf's own)"
else
	fail "file: rc $rc, ours: $(perf evlist -v -i file.data 2>&1 | head -c 600); perf's: $(perf evlist -v -i ref.data 2>&1 | head -c 600)"
fi
# every user-mode sample (misc 2): header, IP TID TIME CPU PERIOD, callchain nr (0: the user
# part is left to the unwinder), abi, 20 registers, size, 4096 bytes, dyn_size
sizes=$(perf report -D -i file.data 2>/dev/null | sed -n 's/.*\[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE(IP, 0x2).*/\1/p' | sort | uniq -c)
expect_eq "file: every user sample 8 + 5*8 + 8 + 8 + 20*8 + 8 + 4096 + 8 bytes" \
	"$(printf '0x%x' $((8 + 48 + 8 + 160 + 8 + 4096 + 8)))" "$(echo "$sizes" | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//')"
unwound file.data file
# the blocks reserved ahead of the writer (8 MiB and more: what the rings hold, twice) are
# given back at the end: what the file occupies is what it holds, to the block
fsize=$(stat -c %s file.data)
fblocks=$(($(stat -c '%b * %B' file.data)))
check "file: no blocks reserved past its end ($fblocks bytes of blocks for $fsize bytes)" \
	[ "$fblocks" -le $((fsize + 65536)) ]
perf report -i file.data -g --stdio --no-children --no-inline >file.report 2>file.report-err
check "file: perf report -g --stdio --no-children: no warning, leaf's graph reaches main" \
	sh -c '! grep -q . file.report-err && sed -n "/\] leaf/,/^$/p" file.report | grep -q -- "main"'

# tinyperf's own tools read the files: the same sample count as perf, no crash
pn=$(perf script -i file.data -F tid 2>/dev/null | grep -c .)
"$host" report -i file.data --stdio >tpr.out 2>tpr.err
r1=$?
"$host" script -i file.data >tps.out 2>tps.err
r2=$?
"$host" dump -i file.data >tpd.out 2>tpd.err
r3=$?
tn=$(grep -c 'PERF_RECORD_SAMPLE' tpd.out)
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ $r3 -eq 0 ] && [ "$tn" = "$pn" ] &&
   grep -q 'leaf' tpr.out && [ "$(grep -c 'cpu-clock' tps.out)" = "$pn" ]; then
	ok "file: tinyperf report, script and dump read it: $pn samples as perf"
else
	fail "file: tinyperf report $r1, script $r2, dump $r3 ($tn samples, perf $pn): $(head -c 300 tpr.err tps.err tpd.err)"
fi

# the defaults: --call-graph dwarf without a size; the per-event terms
record dflt -e cpu-clock -F 999 --call-graph dwarf -- "$wl/nofp" 0.2
dflt=$("$tp" record --help | sed -n 's/.*frame pointers (\([0-9]*\):$/\1/p')
expect_eq "--call-graph dwarf: the default stack size of --help (${dflt:-none})" \
	"${dflt:-none}" "$(attr dflt.data sample_stack_user)"
record odd -e cpu-clock -F 999 --call-graph dwarf,1001 -- "$wl/nofp" 0.2
expect_eq "--call-graph dwarf,1001: rounded up to 1008 (a multiple of 8)" 1008 "$(attr odd.data sample_stack_user)"
record fp -e cpu-clock -F 999 --call-graph dwarf --call-graph fp -- "$wl/nofp" 0.2
expect_eq "--call-graph fp (the last one wins): frame pointers only" "IP|TID|TIME|CALLCHAIN|CPU|PERIOD" \
	"$(attr fp.data sample_type)"
record term -e 'cpu-clock/call-graph=dwarf,stack-size=2048/,page-faults/call-graph=no/' -F 999 -- "$wl/nofp" 0.5
ev2=$(perf evlist -v -i term.data 2>/dev/null | sed -n 2p)
if [ $rc -eq 0 ] && [ "$(attr term.data sample_stack_user)" = 2048 ] &&
   ! echo "$ev2" | grep -q -e REGS_USER -e CALLCHAIN && perf report -i term.data --stdio >/dev/null 2>&1; then
	ok "-e cpu-clock/call-graph=dwarf,stack-size=2048/,page-faults/call-graph=no/: per event"
else
	fail "per-event terms: rc $rc: $(cat term.err) $(perf evlist -v -i term.data 2>&1 | head -c 500)"
fi
# refusals: one line each, non-zero exit
for args in "--call-graph dwarf,0" "--call-graph dwarf,65529" "--call-graph dwarf,x" "--call-graph lbr" \
	    "-m 1 --call-graph dwarf,8192" "-e cpu-clock/stack-size=0/ -g"; do
	# shellcheck disable=SC2086
	"$tp" record -q $args -o refused.data -- /bin/true >/dev/null 2>refused.err
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -le 2 ] && [ "$(grep -c . refused.err)" -le 2 ] &&
	   head -n1 refused.err | grep -q '^tinyperf'; then
		ok "record $args: refused: $(head -n1 refused.err)"
	else
		fail "record $args: exit $rc: $(head -n3 refused.err | tr '\n' '|')"
	fi
done

# ---- the other outputs -------------------------------------------------------------------
"$tp" record -q -e cpu-clock -F 499 --call-graph dwarf,4096 -o - -- "$wl/nofp" 0.5 $depth 2>pipe.err >pipe.data
unwound pipe.data "-o - (pipe mode)"
perf report -i - -g --stdio --no-children --no-inline <pipe.data >pipe.report 2>pipe.report-err
check "-o -: perf report -i - (read from a pipe) shows leaf's graph to main" \
	sh -c 'sed -n "/\] leaf/,/^$/p" pipe.report | grep -q -- main'

# the flight recorder: write_backward rings, read newest first at the snapshot (the end),
# the process's maps from /proc then (data maps included). The rings wrap (~4.3 KB a
# sample): a command that ended before the snapshot has its maps from the recorder's copy
# of the last second (its exec's COMM and MMAPs were overwritten in the rings)
record flightcmd -q -e cpu-clock -F 999 --call-graph dwarf,4096 -m 64 --overwrite -- "$wl/nofp" 0.5 $depth
if [ $rc -eq 0 ]; then
	unwound flightcmd.data "flight recorder, a command that ended first (--overwrite -m 64)"
else
	fail "flight recorder, a command: exit $rc: $(head -c 300 flightcmd.err)"
fi
"$wl/nofp" 60 $depth &
npid=$!
pids="$pids $npid"
record flight -q -e cpu-clock -F 999 --call-graph dwarf,4096 -m 64 --overwrite -p $npid --duration 1
kill $npid 2>/dev/null
wait $npid 2>/dev/null
if [ $rc -eq 0 ]; then
	unwound flight.data "flight recorder (--overwrite -m 64, wrapped rings)"
else
	fail "flight recorder: exit $rc: $(head -c 300 flight.err)"
fi

# TCP to tinyperf recv
if start_recv tcp --count 1; then
	"$tp" record -q -e cpu-clock -F 499 --call-graph dwarf,4096 -o "tcp://127.0.0.1:$port" -- \
		"$wl/nofp" 0.5 $depth >/dev/null 2>tcp-rec.err
	wait_for $recv_pid 10
fi
f=$(ls tcp/*/*.data 2>/dev/null | head -n1)
if [ -n "$f" ]; then
	unwound "$f" "TCP to tinyperf recv"
else
	fail "TCP: no file from recv: $(head -c 300 tcp.err tcp-rec.err)"
fi

# a 115200-baud serial line (tests/transport/relay.py between two ptys, no damage): 512 bytes
# of stack at 10 Hz fit its 11.5 KB/s (752 bytes a sample, in frames)
rm -f ser.info
python3 "$src/tests/transport/relay.py" --info ser.info --report ser.json --timeout 60 2>ser.relay-err &
relay=$!
pids="$pids $relay"
wait_file ser.info 'B=' 5
A=$(sed -n 's/^A=\([^ ]*\) .*/\1/p' ser.info)
B=$(sed -n 's/.* B=\(.*\)$/\1/p' ser.info)
"$host" recv -o "$work/ser" --serial "$B,115200" >ser.out 2>ser.err &
rpid=$!
pids="$pids $rpid"
"$tp" record -e cpu-clock -F 10 --call-graph dwarf,512 -o "serial:$A,115200" -- "$wl/nofp" 4 $depth \
	>/dev/null 2>ser-rec.err
wait_for $relay 30
wait_for $rpid 10
f=$(ls ser/*/*.data 2>/dev/null | head -n1)
sent=$(printed_samples ser-rec.err)
if [ -n "$f" ] && [ "$(perf script -i "$f" -F tid 2>/dev/null | grep -c .)" = "$sent" ] &&
   [ "$(attr "$f" sample_stack_user)" = 512 ]; then
	ok "serial 115200, dwarf,512 at 10 Hz: all $sent samples arrived"
	unwound "$f" "serial 115200 (dwarf,512)"
else
	fail "serial: file '$f', $sent samples sent: $(head -c 300 ser.err ser-rec.err)"
fi

done_tests
