#!/bin/sh
# Build the reader's libFuzzer target with clang (ASan + UBSan) and run it for a bounded
# time from the seed corpus, then the EHABI unwinder's for a third of that (at least 20 s). New inputs go to a scratch corpus, never into the tree; a crash
# leaves crash-* / leak-* / timeout-* files in the output directory and fails the run.
# The seeds in tests/fuzz/corpus/ are tiny valid recordings, both byte orders, file and
# pipe, written by `test-reader --emit-seeds tests/fuzz/corpus` (tests/unit/reader/tools.c).
#   usage: tests/fuzz/run.sh [SECONDS]     (env: FUZZ_OUT, default out/fuzz; CLANG)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=${FUZZ_OUT:-$src/out/fuzz}
clang=${CLANG:-clang}
T_NAME=fuzz-reader
. "$src/tests/lib.sh"

mkdir -p "$out/corpus" || exit 1
# the libraries the host tool links (host-tools/host.mk's TP_HOST_LIBS), read from there so
# that a library a new layer brings in is linked here too
# (evaluated by make: the line has make functions, e.g. HOST_CAPSTONE's $(if ...))
libs=$(printf 'include %s\nprint-libs:\n\t@echo $(TP_HOST_LIBS)\n' "$src/host-tools/host.mk" |
	${MAKE:-make} -s --no-print-directory -f - print-libs)
# the same sources as the host library build (host-tools/host.mk), without main and commands
# (and without the shim's tp_strerror: the host library has its own)
srcs="$src/tests/fuzz/fuzz-reader.c $(ls "$src"/host-tools/lib/*/*.c "$src"/perfdata/*.c \
	"$src"/libc-shim/common/*.c "$src"/libc-shim/hosted/*.c 2>/dev/null |
	grep -v -e '/libc-shim/common/strerror\.c$' -e '/annotate/disasm-none\.c$')"
# (disasm-none.c is the HOST_CAPSTONE=n stand-in for disasm.c: one of the two is linked)
# shellcheck disable=SC2086
if ! "$clang" -std=c11 -g -O1 -I"$src" -DCONFIG_SHIM_HOSTED=1 -DTP_VERSION='"fuzz"' \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-o "$out/fuzz-reader" $srcs $libs 2>"$out/build.log"; then
	fail "build with $clang -fsanitize=fuzzer: $(grep -m1 -i error "$out/build.log")"
	done_tests
	exit 1
fi
ok "build $out/fuzz-reader"
cd "$out" || exit 1
rm -f crash-* leak-* timeout-* oom-*
if ./fuzz-reader -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 corpus "$src/tests/fuzz/corpus" >fuzz.log 2>&1; then
	ok "fuzz for ${secs}s: $(grep -m1 'stat::number_of_executed_units' fuzz.log | awk '{print $2}') runs, no crash"
else
	fail "fuzz found a problem: $(ls crash-* leak-* timeout-* oom-* 2>/dev/null | tr '\n' ' ') (see $out/fuzz.log)"
	grep -m5 -E 'ERROR|SUMMARY|runtime error' fuzz.log
fi

# the ARM EHABI unwinder (tests/fuzz/fuzz-ehabi.c): its own sources only, a third of the time
# (at least 20 s); seeds from `test-ehabi --emit-seeds tests/fuzz/corpus/ehabi`
esecs=$((secs / 3 > 20 ? secs / 3 : 20))
mkdir -p "$out/ehabi/corpus" || exit 1
if "$clang" -std=c11 -g -O1 -I"$src" -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -o "$out/fuzz-ehabi" "$src/tests/fuzz/fuzz-ehabi.c" \
	"$src"/host-tools/lib/unwind/ehabi*.c 2>"$out/ehabi/build.log"; then
	ok "build $out/fuzz-ehabi"
	cd "$out/ehabi" && rm -f crash-* leak-* timeout-* oom-*
	if ../fuzz-ehabi -max_total_time="$esecs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 corpus "$src/tests/fuzz/corpus/ehabi" >fuzz.log 2>&1; then
		ok "fuzz-ehabi for ${esecs}s: $(grep -m1 'stat::number_of_executed_units' fuzz.log | awk '{print $2}') runs, no crash"
	else
		fail "fuzz-ehabi found a problem: $(ls crash-* leak-* timeout-* oom-* 2>/dev/null | tr '\n' ' ') (see $out/ehabi/fuzz.log)"
		grep -m5 -E 'ERROR|SUMMARY|runtime error' fuzz.log
	fi
else
	fail "build fuzz-ehabi with $clang: $(grep -m1 -i error "$out/ehabi/build.log")"
fi
done_tests
