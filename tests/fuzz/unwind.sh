#!/bin/sh
# Fuzz the host unwinder (fuzz-unwind.c) for SECS seconds (default 30) from the seeds in
# tests/fuzz/corpus-unwind: hand-written CFI of x86_64, ARM and MIPS and the stacks that go with
# it. Needs clang with libFuzzer. Usage: unwind.sh [SECS]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-30}
out=${FUZZ_OUT:-$src/out/fuzz}/unwind
clang=${CLANG:-clang}
T_NAME=fuzz-unwind
. "$src/tests/lib.sh"

mkdir -p "$out/corpus" || exit 1
# (evaluated by make: the line has make functions, e.g. HOST_CAPSTONE's $(if ...))
libs=$(printf 'include %s\nprint-libs:\n\t@echo $(TP_HOST_LIBS)\n' "$src/host-tools/host.mk" |
	${MAKE:-make} -s --no-print-directory -f - print-libs)
srcs="$src/tests/fuzz/fuzz-unwind.c $(ls "$src"/host-tools/lib/*/*.c "$src"/perfdata/*.c \
	"$src"/libc-shim/common/*.c "$src"/libc-shim/hosted/*.c 2>/dev/null |
	grep -v -e '/libc-shim/common/strerror\.c$' -e '/annotate/disasm-none\.c$')"
# (disasm-none.c is the HOST_CAPSTONE=n stand-in for disasm.c: one of the two is linked)
if ! "$clang" -std=c11 -g -O1 -I"$src" -DCONFIG_SHIM_HOSTED=1 -DTP_VERSION='"fuzz"' \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-o "$out/fuzz-unwind" $srcs $libs 2>"$out/build.log"; then
	fail "build with $clang -fsanitize=fuzzer: $(grep -m1 -i error "$out/build.log")"
	done_tests
	exit 1
fi
ok "build $out/fuzz-unwind"
cd "$out" || exit 1
rm -f crash-* leak-* timeout-* oom-*
if ./fuzz-unwind -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
	-print_final_stats=1 corpus "$src/tests/fuzz/corpus-unwind" >fuzz.log 2>&1; then
	ok "fuzz for ${secs}s: $(grep -m1 'stat::number_of_executed_units' fuzz.log | awk '{print $2}') runs, no crash"
else
	fail "fuzz found a problem: $(ls crash-* leak-* timeout-* oom-* 2>/dev/null | tr '\n' ' ') (see $out/fuzz.log)"
	grep -m5 -E 'ERROR|SUMMARY|runtime error' fuzz.log
fi
done_tests
