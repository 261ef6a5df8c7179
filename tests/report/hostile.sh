#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile files where the host tools look for binaries (issue 24, item 3), with a recording
# Linux perf made of a small program built here:
#   report and archive with a FIFO, a UNIX socket and a symlink to /dev/zero at the
#     program's path in the sysroot (and a FIFO in a --debug-dir) finish in under 2 s,
#     name the skipped path and still report (archive still writes its tar);
#   the same for report and archive with --kallsyms at a FIFO and at /dev/zero;
#   report on a 4 GiB sparse file refuses in under 1 s, peak RSS under 50 MB, one line,
#     non-zero exit.
# Every command runs under timeout 10: a hang is a failure, not a stuck test.
#
#   usage: hostile.sh TINYPERF
set -u
T_NAME=hostile
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

tp=${1:?usage: hostile.sh TINYPERF}
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1 ||
   [ ! -x /usr/bin/time ] || [ ! -x "$tp" ]; then
	fail "setup: need $PERF, python3, /usr/bin/time and $tp"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
export HOME="$tmp/home"		# no ~/.debug of the caller's: the sysroot is where to look
mkdir -p "$tmp/bin" "$HOME"

cat >"$tmp/prog.c" <<'EOF'
#include <sys/syscall.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}
int main(void)
{
	spin(200000000UL);
	for (int i = 0; i < 1000000; i++)	/* time in the kernel: samples --kallsyms names */
		syscall(SYS_getppid);
	return 0;
}
EOF
prog=$tmp/bin/prog
if ! ${CC:-cc} -O1 -g -o "$prog" "$tmp/prog.c" ||
   ! "$PERF" record -N -q -e cpu-clock -o "$tmp/perf.data" -- "$prog" >"$tmp/rec.log" 2>&1; then
	fail "setup: build and perf record the program"; cat "$tmp/rec.log"
	done_tests
	exit 1
fi
# the --kallsyms checks need kernel samples: without them report never opens the file
"$PERF" report -i "$tmp/perf.data" --stdio --sort dso 2>/dev/null >"$tmp/dsos.txt"
check "setup: the recording has kernel samples" grep -q '\[kernel\.kallsyms\]' "$tmp/dsos.txt"

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run NAME COMMAND...: output in $tmp/NAME.out, exit status in $rc, milliseconds in $ms
run() {
	name=$1; shift
	t0=$(now_ms)
	timeout 10 "$@" >"$tmp/$name.out" 2>&1
	rc=$?
	ms=$(($(now_ms) - t0))
}

# one sysroot per kind of special file, at the program's path
mkhostile() { # KIND DIR PATH
	mkdir -p "$(dirname "$3")"
	case $1 in
	fifo)	mkfifo "$3" ;;
	socket)	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$3" ;;
	zero)	ln -s /dev/zero "$3" ;;
	esac
}

# checks of the last run: WHAT, the path it must name as skipped (empty: none), and whether
# it must still report samples
fast_ok() { # WHAT [PATH [report]]
	expect_eq "$1: exit status" 0 "$rc"
	check "$1: under 2 s ($ms ms)" [ "$ms" -lt 2000 ]
	[ -n "${2:-}" ] &&
		check "$1: names the skipped $2" grep -q "$2.*skipped" "$tmp/$name.out"
	[ -n "${3:-}" ] &&
		check "$1: still reports the samples" grep -q "^# Samples: [1-9]" "$tmp/$name.out"
	return 0
}

for kind in fifo socket zero; do
	sys=$tmp/sys-$kind
	mkhostile $kind "$sys" "$sys$prog"
	run report-$kind "$tp" report -i "$tmp/perf.data" --sysroot "$sys"
	fast_ok "report, $kind in the sysroot" "$sys$prog" report
	run archive-$kind "$tp" archive -i "$tmp/perf.data" -o "$tmp/$kind.tar" --no-compress \
		--sysroot "$sys"
	fast_ok "archive, $kind in the sysroot" "$sys$prog"
	check "archive, $kind in the sysroot: writes the archive" [ -s "$tmp/$kind.tar" ]
done

# a FIFO in a debug dir, under the program's name (the sysroot empty)
dd=$tmp/debug
mkdir -p "$tmp/sys-empty"
mkhostile fifo "$dd" "$dd/prog"
mkhostile fifo "$dd" "$dd$prog"
run report-debugdir "$tp" report -i "$tmp/perf.data" --sysroot "$tmp/sys-empty" --debug-dir "$dd"
fast_ok "report, FIFO in a --debug-dir" "$dd" report

# --kallsyms at a FIFO or at /dev/zero: once an open() that never returned, or a read
# that never ended (archive says it has no kallsyms, without the path)
for kind in fifo zero; do
	ks=$tmp/kallsyms-$kind
	mkhostile $kind "$tmp" "$ks"
	run kallsyms-$kind "$tp" report -i "$tmp/perf.data" --kallsyms "$ks"
	fast_ok "report, --kallsyms at a $kind" "$ks" report
	run archive-kallsyms-$kind "$tp" archive -i "$tmp/perf.data" -o "$tmp/k-$kind.tar" \
		--no-compress --kallsyms "$ks"
	fast_ok "archive, --kallsyms at a $kind"
done

# perf's own build-id cache holds directories where older layouts had files
# (.build-id/xx/yyyy -> ../../path/bid/): not hostile, so no "skipped" line for them
# (a stripped copy, so that the search goes on past the cache to the other candidates)
mkdir -p "$tmp/stripped"
strip -o "$tmp/stripped/prog" "$prog"
"$PERF" buildid-cache -a "$tmp/stripped/prog" >/dev/null 2>&1
run perf-cache "$tp" report -i "$tmp/perf.data"
check "report with perf's build-id cache in ~/.debug: no line about its directories" \
	sh -c "[ -d '$HOME/.debug/.build-id' ] && ! grep -q 'not a regular\|skipped' '$tmp/perf-cache.out'"
check "report with perf's build-id cache in ~/.debug: names spin" grep -q spin "$tmp/perf-cache.out"
run perf-cache-archive "$tp" archive -i "$tmp/perf.data" -o "$tmp/cache.tar" --no-compress
check "archive with perf's build-id cache in ~/.debug: no line about its directories" \
	sh -c "[ \$(grep -c 'not a regular\|skipped' '$tmp/perf-cache-archive.out') -eq 0 ]"

# 4 GiB of nothing: refused from its first bytes, never mapped or read whole
truncate -s 4G "$tmp/sparse"
run sparse /usr/bin/time -f %M -o "$tmp/sparse.rss" "$tp" report -i "$tmp/sparse"
rss=$(tail -n 1 "$tmp/sparse.rss" 2>/dev/null)
case $rss in ''|*[!0-9]*) rss=999999999 ;; esac
grep -v "^Command exited with non-zero status" "$tmp/sparse.out" >"$tmp/sparse.lines"
check "report, 4 GiB sparse file: non-zero exit ($rc), not killed by the timeout" \
	[ "$rc" -ne 0 -a "$rc" -ne 124 ]
check "report, 4 GiB sparse file: under 1 s ($ms ms)" [ "$ms" -lt 1000 ]
check "report, 4 GiB sparse file: peak RSS under 50 MB ($rss KB)" [ "$rss" -lt 51200 ]
expect_eq "report, 4 GiB sparse file: one line" 1 "$(wc -l <"$tmp/sparse.lines")"
check "report, 4 GiB sparse file: says bad magic" grep -q "bad magic" "$tmp/sparse.lines"
rm -f "$tmp/sparse"

done_tests
