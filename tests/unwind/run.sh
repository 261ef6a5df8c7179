#!/bin/sh
# SPDX-License-Identifier: MIT
# The host unwinder against Linux perf on perf's own dwarf-mode files (issue 18, host part):
# uw-work.c (+ the shared library uw-lib.c), built -O2 without frame pointers as a PIE, spends
# its time at the bottom of a 48-deep recursion, in the library, in a second thread and in a
# SIGALRM handler. `perf record --call-graph dwarf` records it (cpu-clock), then
#   - tinyperf script gives every sample the chain perf script gives it (addresses and DSOs,
#     chains.py; at least 99 % equal, differences counted by kind);
#   - tinyperf report -g --stdio, --no-children and --children, gives perf report's call paths
#     (graphs.py; perf's alias names and unresolved-address format counted apart);
#   - report names a libc function with several aliases (uw-alias.c) as perf does;
#   - each of the workload's cases is in the chains: the recursion to main, the thread to
#     its start, the handler through the signal frame to main, the library to its caller;
#   - the same workload as a static i386 program, which Debian's perf cannot unwind at all:
#     at least 95 % of its samples unwound to _start or the thread's clone;
#   - a rebuilt copy of the library in a sysroot is refused for unwinding with one header
#     line naming it, and no chain goes through it;
#   - buildid-list -H and archive count the DSOs only unwound frames reach.
# Usage: run.sh TINYPERF
set -u
T_NAME=unwind
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

tp=${1:?usage: run.sh TINYPERF}
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1 ||
   [ ! -x "$tp" ]; then
	fail "setup: need $PERF, python3 and $tp"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT

cflags="-O2 -fomit-frame-pointer -Wall -Wextra -Werror"
if ! ${CC:-cc} $cflags -fPIC -shared -o "$tmp/libuwlib.so" "$here/uw-lib.c" ||
   ! ${CC:-cc} $cflags -fPIE -pie -I"$here" -o "$tmp/uw-work" "$here/uw-work.c" \
	-L"$tmp" -luwlib -Wl,-rpath,"$tmp" -lpthread; then
	fail "setup: building the workload"
	done_tests
	exit 1
fi
check "the workload is a PIE" sh -c "readelf -h '$tmp/uw-work' | grep -q 'DYN'"

if ! "$PERF" record -q -N -e cpu-clock -F 1999 --call-graph dwarf -o "$tmp/d.data" \
	-- "$tmp/uw-work" 0.8 >/dev/null 2>"$tmp/rec.err"; then
	fail "perf record --call-graph dwarf: $(tail -n 1 "$tmp/rec.err")"
	done_tests
	exit 1
fi

# ---- every sample's chain: tinyperf script vs perf script ----
"$PERF" script -i "$tmp/d.data" >"$tmp/p.scr" 2>/dev/null
"$tp" script -i "$tmp/d.data" >"$tmp/t.scr" 2>"$tmp/t.err"
python3 "$here/chains.py" "$tmp/p.scr" "$tmp/t.scr" 99 "$tmp/cut.txt" >"$tmp/chains.out"
rc=$?
sed 's/^/  /' "$tmp/chains.out"
if [ $rc -eq 0 ]; then
	ok "script: chains equal perf script's: $(head -n 1 "$tmp/chains.out")"
else
	fail "script: chains: $(head -n 1 "$tmp/chains.out")"
fi

# ---- call paths: tinyperf report -g vs perf report -g ----
# on the same recording without the samples whose chains differ for an explained reason (now
# and then one at exit in crtstuff's __do_global_dtors_aux, which has no FDE: perf guesses on
# with the frame pointer, tinyperf stops): one sample's extra frames change the percentages
# and branches of every --children entry they pass through. tinyperf with --inline, which perf
# has on by default (with libc6-dbg, a signal in pthread_join's futex wait has perf add
# "__futex_abstimed_wait_common64 (inlined)": a branch shown on a short, loaded run)
rep=$tmp/d.data
if [ -s "$tmp/cut.txt" ]; then
	rep=$tmp/d.cut.data
	out=$(python3 "$here/dropsamples.py" "$tmp/d.data" "$rep" "$tmp/cut.txt")
	rc=$?
	check "report -g: the samples with an explained chain difference left out: $out" [ $rc -eq 0 ]
fi
for mode in --no-children --children; do
	"$PERF" report -i "$rep" -g --stdio $mode >"$tmp/p.rep" 2>/dev/null
	"$tp" report -i "$rep" -g --stdio --inline $mode >"$tmp/t.rep" 2>/dev/null
	python3 "$here/graphs.py" "$tmp/p.rep" "$tmp/t.rep" 1 >"$tmp/graphs.out"
	rc=$?
	sed 's/^/  /' "$tmp/graphs.out"
	if [ $rc -eq 0 ]; then
		ok "report -g $mode: perf's call paths: $(head -n 1 "$tmp/graphs.out")"
	else
		fail "report -g $mode: $(head -n 1 "$tmp/graphs.out")"
	fi
done

# perf names a frame by its DWARF name, "(inlined)", where the ELF symbol is another alias, of
# any version or none (a recorded sample in _pthread_cleanup_pop@GLIBC_2.2.5, which the main
# thread's pthread_join calls: "__GI___pthread_cleanup_pop (inlined)"), and its --children
# adds an entry for that name: both explained, not differences
python3 "$here/graphs.py" "$here/alias/perf.txt" "$here/alias/tinyperf.txt" 0 >"$tmp/alias.out"
check "report -g: perf's inline name of an unversioned or non-default alias is explained: $(head -n 1 "$tmp/alias.out")" \
	grep -q ', 0 differ; explained: [1-9]' "$tmp/alias.out"

# the ELF alias each picks, on a recording of the functions above: perf's choose_best_symbol
# rules (_pthread_cleanup_pop@GLIBC_2.2.5 over @@GLIBC_2.34 with libc6-dbg's .symtab)
if ${CC:-cc} $cflags -o "$tmp/uw-alias" "$here/uw-alias.c" -lpthread &&
   "$PERF" record -q -N -e cpu-clock -F 1999 -o "$tmp/alias.data" \
	-- "$tmp/uw-alias" 20000000 >/dev/null 2>"$tmp/rec.err"; then
	for r in p:"$PERF" t:"$tp"; do
		"${r#?:}" report -i "$tmp/alias.data" --no-children --stdio -g none --sort dso,sym \
			2>/dev/null | grep -v '^#' | grep 'libc\.so' | sort >"$tmp/${r%%:*}.alias"
	done
	n=$(grep -c '_pthread_cleanup_pop' "$tmp/p.alias")
	check "report: libc's aliases named as perf names them ($(wc -l <"$tmp/p.alias") libc entries, $n _pthread_cleanup_pop*)" \
		sh -c "[ $n -ge 1 ] && cmp -s '$tmp/p.alias' '$tmp/t.alias'"
	sed 's/^/  /' "$tmp/p.alias"
else
	fail "libc aliases: building or recording: $(tail -n 1 "$tmp/rec.err")"
fi

# ---- the workload's cases, each unwound to its outermost caller ----
# one sample per line: its frames' names, callee first
awk '/^[^ \t]/ { if (s != "") print s; s = ""; next }
     /^[ \t]/ { s = s " " $2 } END { if (s != "") print s }' "$tmp/t.scr" |
	sed 's/+0x[0-9a-f]*//g' >"$tmp/t.names"
deep=$(awk '{ n = 0; for (i = 1; i <= NF; i++) n += ($i ~ /^recurse/) } n >= 40 && / main / { c++ }
	END { print c + 0 }' "$tmp/t.names")
check "recursion: $deep samples with 40+ recurse frames unwound to main" [ "$deep" -gt 0 ]
thr=$(grep -c ' thread_main start_thread' "$tmp/t.names")
check "thread: $thr samples unwound from the second thread to start_thread" [ "$thr" -gt 0 ]
lib=$(grep -c 'uw_lib_work main_loop main ' "$tmp/t.names")
check "shared library: $lib samples unwound from libuwlib.so to main" [ "$lib" -gt 0 ]
sig=$(grep -c '^ spin on_alarm .* main_loop main ' "$tmp/t.names")
check "signal handler: $sig samples unwound through the signal frame to main" [ "$sig" -gt 0 ]

# ---- a 32-bit process: Debian's perf cannot unwind it ("unwind: target platform=x86 is not
# supported", its libunwind has no i386 remote unwinder); tinyperf must, to main ----
if ! ia32_ok; then
	skip "i386 process: $IA32_OFF"
elif i686-linux-gnu-gcc $cflags -static -I"$here" -o "$tmp/w32" "$here/uw-work.c" "$here/uw-lib.c" \
	-lpthread 2>"$tmp/w32.err" &&
   "$PERF" record -q -N -e cpu-clock -F 999 --call-graph dwarf -o "$tmp/w32.data" \
	-- "$tmp/w32" 0.4 >/dev/null 2>"$tmp/rec.err"; then
	"$tp" script -i "$tmp/w32.data" >"$tmp/t32.scr" 2>/dev/null
	awk '/^[^ \t]/ { if (s != "") print s; s = ""; next }
	     /^[ \t]/ { s = s " " $2 } END { if (s != "") print s }' "$tmp/t32.scr" |
		sed 's/+0x[0-9a-f]*//g' >"$tmp/t32.names"
	n=$(wc -l <"$tmp/t32.names")
	# unwound to the outermost frame of the thread: _start, or the clone of the second
	good=$(grep -c -E ' _start$| start_thread __?clone3?$' "$tmp/t32.names")
	# a SIGALRM sample ends in the 32-bit vdso's sigreturn: this host has no copy of it
	vdso=$(awk '/^[^ \t]/ { if (l ~ /\(\[vdso32\]\)$/) c++; l = ""; next }
		/^[ \t]/ { l = $0 } END { if (l ~ /\(\[vdso32\]\)$/) c++; print c + 0 }' "$tmp/t32.scr")
	check "i386 process (static, 32-bit): $good of $n samples unwound to _start or the clone, $vdso more to the [vdso32] of a signal" \
		[ "$n" -gt 0 -a $(((good + vdso) * 100)) -ge $((n * 95)) -a "$good" -gt 0 ]
else
	fail "i386 process: building or recording: $(tail -n 1 "$tmp/w32.err" "$tmp/rec.err" | tr '\n' ' ')"
fi

# ---- the identity rule: a rebuilt library in a sysroot is not unwound through ----
mkdir -p "$tmp/root$tmp"
cp "$tmp/uw-work" "$tmp/root$tmp/"
${CC:-cc} $cflags -DUW_REBUILT -fPIC -shared -Wl,--build-id=sha1 -o "$tmp/root$tmp/libuwlib.so" \
	"$here/uw-lib.c"
"$tp" report -i "$tmp/d.data" --sysroot "$tmp/root" --buildid-dir '' --stdio \
	>"$tmp/r.rep" 2>&1
n=$(grep -c "libuwlib.so: .*stacks not unwound through it" "$tmp/r.rep")
expect_eq "rebuilt library: one header line says it is not unwound through" 1 "$n"
"$tp" script -i "$tmp/d.data" --sysroot "$tmp/root" --buildid-dir '' >"$tmp/r.scr" 2>/dev/null
n=$(awk '/^[^ \t]/ { lib = 0; next } /libuwlib\.so\)$/ { lib = 1; next }
	/^[ \t]/ && lib { c++ } END { print c + 0 }' "$tmp/r.scr")
expect_eq "rebuilt library: no frame is unwound past it" 0 "$n"

# ---- hits: every DSO of an unwound frame ----
"$tp" buildid-list -H -i "$tmp/d.data" >"$tmp/bl" 2>/dev/null
missing=""
for d in $(sed -n 's/.*(\(\/[^)]*\))$/\1/p' "$tmp/t.scr" | sort -u); do
	grep -q " $d\$" "$tmp/bl" || missing="$missing $d"
done
expect_eq "buildid-list -H lists every DSO of the unwound chains" "" "$missing"
"$tp" archive -i "$tmp/d.data" -o "$tmp/a.tar" --no-compress >"$tmp/a.out" 2>&1
want=$(sed -n 's/.*(\(\/[^)]*\))$/\1/p' "$tmp/t.scr" | sort -u | wc -l)
got=$(sed -n 's/.* of \([0-9]*\) hit DSOs.*/\1/p' "$tmp/a.out")
# the kernel (its kallsyms) is a hit DSO of the archive besides the user ones
check "archive counts the DSOs of unwound frames as hits ($want user DSOs, archive: $got)" \
	[ "${got:-0}" -ge "$want" ]

done_tests
