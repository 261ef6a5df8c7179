#!/bin/sh
# SPDX-License-Identifier: MIT
# make check: install what is missing, build every target, run every test layer.
# Each part's output goes to the terminal and to out/check/<part>.log; the parts' own
# "NAME: N passed, N failed" lines are added up, a part that fails without such a line
# counts as one failure. Ends with the time each part took and "check: N passed, N failed".
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${CHECK_OUT:-$src/out}
logs=$out/check
mkdir -p "$logs"
export TP_DL_DIR="${TP_DL_DIR:-$out/dl}"
export MATRIX_OUT="$out"
# the recorder's cache of kernel functions named in this boot (recorder/track/ksyms-cache.h) off:
# where a test's kernel symbols come from must not depend on the recordings before it
# (tests/embed/run.sh tests the cache with a file of its own)
export TINYPERF_KSYMS_CACHE=
MAKE=${MAKE:-make}
jobs=$(nproc 2>/dev/null || echo 2)

total_pass=0
total_fail=0
total_skip=0
times=""
failed_lines=""

logname() { echo "$logs/$(echo "$1" | tr -c 'a-zA-Z0-9\n' '-').log"; }

# add up a finished part: NAME LOG RC START
account() {
	name=$1 log=$2 rc=$3 start=$4
	cat "$log"
	p=0 f=0
	for n in $(sed -n 's/^[A-Za-z0-9_.-]*: \([0-9]*\) passed, \([0-9]*\) failed\(, [0-9]* skipped\)\{0,1\}$/\1:\2/p' "$log"); do
		p=$((p + ${n%%:*})); f=$((f + ${n##*:}))
	done
	# [SKIP] lines: done_tests' own, and the parts' that say what this machine cannot run
	k=$(grep -c '^\[SKIP\]' "$log")
	total_skip=$((total_skip + k))
	if [ $((p + f)) -eq 0 ]; then	# a part of one check, or of skips alone: then none ran
		if [ $rc -ne 0 ]; then f=1; elif [ "$k" -eq 0 ]; then p=1; fi
	elif [ $rc -ne 0 ] && [ $f -eq 0 ]; then
		f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	# the failed checks' own lines, repeated at the very end (CI shows only the tail)
	if [ $f -ne 0 ]; then
		fl=$(grep '^\[FAIL\]' "$log" | cut -c1-300 | head -n 5)
		[ -n "$fl" ] || fl="[FAIL] exit $rc: $(tail -n 2 "$log" | tr '\n' ' ' | cut -c1-250)"
		failed_lines="$failed_lines$name:
$fl
"
	fi
	secs=$(($(date +%s) - start))
	verdict=ok; [ $f -ne 0 ] && verdict=FAILED
	times="$times$(printf '%-44s %5ss  %4s passed %3s failed  %s' "$name" "$secs" "$p" "$f" "$verdict")$([ "$k" -eq 0 ] || echo ", $k skipped")
"
	echo "---- $name: $verdict ($p passed, $f failed$([ "$k" -eq 0 ] || echo ", $k skipped"), ${secs}s)"
}

part() { # NAME COMMAND...
	name=$1; shift
	echo
	echo "==== $name"
	start=$(date +%s)
	log=$(logname "$name")
	"$@" >"$log" 2>&1
	account "$name" "$log" $? "$start"
}

check_start=$(date +%s)
part "dependencies (Debian packages)" "$src/scripts/deps.sh" all
part "build: 6 targets x {musl, freestanding, core, skeletons}, sizes" "$src/scripts/matrix.sh" sizes
part "build: toolchain-libc variant (static glibc)" env MATRIX_LIBCS=toolchain \
	MATRIX_BOARDS="qemu-x86_64 qemu-armv7 qemu-mips" "$src/scripts/matrix.sh" build
part "tests/arch under qemu-user and natively" "$src/scripts/matrix.sh" test-arch
part "kconfig: round trips, help texts, menuconfig" "$src/tests/kconfig/run.sh"
part "bad build invocations" "$src/tests/build/bad-invocations.sh"
part "layers: include rules of each folder, no cycle, no file over 600 lines" \
	python3 "$src/tests/build/layers.py" "$src"
part "license: SPDX-License-Identifier: MIT on every source file" \
	python3 "$src/scripts/spdx.py" --check "$src"
part "build variables: CC/CFLAGS/LDFLAGS, V=1, O=, install; Buildroot's and Yocto's sets, as nobody" \
	"$src/tests/build/build-vars.sh"
part "packaging: Buildroot options and PACKAGECONFIG = Kconfig symbols, hashes, BitBake syntax" \
	python3 "$src/tests/build/packaging.py" "$src"
part "make dist: reproducible, every tracked file, dist-hashes, the tarball builds" \
	"$src/tests/build/dist.sh"
part "build: each optional feature off (and the extras on), with LTO, without, at -O0" \
	"$src/tests/build/features.sh" "$out/features"
part "record on this kernel (x86_64 musl), read by Linux perf" \
	"$src/tests/record/run.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/record-x86_64-musl"
part "record: the core build (issue 3's features only, core-musl.config), read by Linux perf" \
	env T_NAME=record-core "$src/tests/record/run.sh" "$out/qemu-x86_64-core-musl/tinyperf" "$out/record-core"
part "record: messages (kptr_restrict vs paranoid as nobody, tracefs left as found, usage errors)" \
	"$src/tests/record/messages.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/record-messages"
part "stat vs Linux perf stat: counts, layout, -x, -I, -r, -A, exit status, permission" \
	"$src/tests/stat/run.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/stat"
part "flight recorder: overwrite, SIGUSR2 snapshots, rotation" "$src/tests/flight/run.sh" "$out/qemu-x86_64-musl/tinyperf"
part "record smoke: x86_64 freestanding and i386 (32-bit) builds" sh -c '
	T_NAME=record-x86_64-freestanding RECORD_QUICK=1 "$1/tests/record/run.sh" "$2/qemu-x86_64-freestanding/tinyperf" "$2/record-fs"
	a=$?
	. "$1/tests/lib.sh"
	if ia32_ok; then
		T_NAME=record-i386-musl RECORD_QUICK=1 "$1/tests/record/run.sh" "$2/qemu-i386-musl/tinyperf" "$2/record-i386"
	else	# the qemu-i386 guest of the full-system part records with it on a real kernel
		echo "[SKIP] record-i386-musl: $IA32_OFF"
	fi
	b=$?
	[ $a -eq 0 ] && [ $b -eq 0 ]' sh "$src" "$out"
part "packed recorder (x86_64 core): memory file, \$TMPDIR, errors" \
	"$src/tests/pack/run.sh" "$out/qemu-x86_64-core-freestanding" "$out/pack"
part "host tools + unit tests, built with ASan/UBSan" \
	$MAKE -C "$src" -j"$jobs" O="$out/host" HOST_SANITIZE=1 host-tests
part "host unit tests (ASan/UBSan)" "$src/tests/unit/run.sh" "$out/host/host-san"
part "record: 20 SIGKILLs at random moments, what reached the disk is read" \
	"$src/tests/record/killed.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" \
	"$out/record-killed"
part "record --call-graph dwarf (x86_64 musl), unwound by Linux perf; file, pipe, flight, TCP, serial" \
	"$src/tests/record/dwarf.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/record-dwarf"
part "report/script vs Linux perf (peer), perf's and tinyperf's files" \
	"$src/tests/report/peer.sh" "$out/host/host-san/tests" "$out/qemu-x86_64-musl/tinyperf"
part "annotate vs perf annotate (x86_64) and objdump (armv7 Thumb-2, aarch64, MIPS BE ...)" \
	"$src/tests/annotate/run.sh" "$out/host/host-san/tinyperf" \
	"$out/host/host-san/tests/test-annotate" "$out/qemu-x86_64-musl/tinyperf"
part "unwinding dwarf-mode stacks vs Linux perf (script chains, report -g paths, hits)" \
	"$src/tests/unwind/run.sh" "$out/host/host-san/tinyperf"
part "source lines and inlined frames (--lines, --inline, --sort srcline)" \
	"$src/tests/report/lines.sh" "$out/host/host-san/tinyperf"
part "the vdso of a 32-bit process: [vdso32], as perf" \
	"$src/tests/report/vdso32.sh" "$out/host/host-san/tinyperf"
part "render: flame graph SVG (widths = folded, diff, escaping, empty, Chromium)" \
	env RENDER_OUT="$out/render" "$src/tests/render/run.sh" "$out/host/host-san/tinyperf" "$logs/render"
part "transport: stdout, TCP, serial (pty), coalescing, recv" \
	"$src/tests/transport/run.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/transport"
part "recv under abuse: 700 hostile connections + 8 recorders, --allow, timeouts, fds" \
	"$src/tests/transport/abuse.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/transport-abuse"
part "top: live view in tmux over TCP and a serial pty, --stdio, -i -, -o" \
	"$src/tests/top/run.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/top"
part "embedded symbols: report with no sysroot/cache/kernel, sysroot wins, TCP, flight" \
	"$src/tests/embed/run.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/embed"
part "embedded symbols from MiniDebugInfo (.gnu_debugdata, xz), option on vs off" \
	"$src/tests/embed/minidebug.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/host/host-san/tinyperf" "$out/embed-mdi"
part "full system: record inside 6 qemu guests (real kernels), report on the host" \
	env QEMU_OUT="$out/qemu" "$src/tests/qemu/run.sh"
part "broken perf.data corpus (tinyperf dump)" "$src/tests/corpus/run.sh" "$out/host/host-san/tinyperf"
part "hostile files: FIFO, socket, /dev/zero, 4 GiB sparse (report, archive)" \
	"$src/tests/report/hostile.sh" "$out/host/host-san/tinyperf"
part "build-id cache, archive, diff (+ Linux perf)" "$src/tests/cache/run.sh" "$out/host/host-san" "$out/cache"
# every libFuzzer target (tests/fuzz/fuzz-*.c), 25 s each, two at a time on 2 cores: 197 s for
# 10 targets with their build (measured), about 4 min for 12
part "fuzz every parser of untrusted bytes (25 s per target)" env FUZZ_O="$out" \
	"$src/tests/fuzz/run.sh" 25
# last and alone: it records -a, so every other part's programs would be tracked too, and the
# recorder's arena keeps the peak of its per-process maps and DSOs (bounded, not a leak): more
# processes or maps than before step RSS up for good (56 kB at 360 s, while killed.sh's perf
# and ASan report ran, failed the flat-RSS check in one CI run)
part "flight recorder soak: 10 min -a -F 1000, churn, flat RSS" \
	"$src/tests/flight/soak.sh" "$out/qemu-x86_64-musl/tinyperf" "$out/flight-soak" 600

echo
echo "==== time per part"
printf '%s' "$times"
echo "total: $(($(date +%s) - check_start))s"
[ -z "$failed_lines" ] || printf '==== what failed (the log of each part is in %s)\n%s' "$logs" "$failed_lines"
echo "check: $total_pass passed, $total_fail failed$([ "$total_skip" -eq 0 ] || echo ", $total_skip skipped")"
[ "$total_fail" -eq 0 ]
