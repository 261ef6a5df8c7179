#!/bin/sh
# SPDX-License-Identifier: MIT
# Full-system tests: the stripped static recorder inside real Debian kernels under
# qemu-system (TCG), one guest per board, the results checked on the host.
#   tests/qemu/run.sh                   the six boards with a Debian kernel
#   QEMU_BOARDS="qemu-armv7 qemu-mips" tests/qemu/run.sh    those boards ("all": every board,
#                                       big-endian MIPS included: its kernel is built once)
# Other knobs: QEMU_JOBS (guests at once, default 2), QEMU_LIBC (musl | freestanding: the
# recorder's tests/configs/ variant), QEMU_OUT (default out/qemu), TP_DL_DIR (downloads,
# default out/dl), QEMU_REFRESH=1 (resolve and fetch the kernels again).
# Prints [OK]/[FAIL] lines per board and check ([SKIP]: not possible on that board, [WARN]:
# passed with a defect worth knowing, neither counted), a summary table, how long each board
# took, and "qemu: N passed, N failed"; exits non-zero on a failure.
#
# Pieces (tests/qemu/): boards.sh the board table; kernel.sh / kernel-mips-be.sh the kernels;
# build.sh the recorder, workloads and init for an arch; init.c PID 1 in the guest; guest.sh
# the in-guest steps and the initramfs; boot.sh the QEMU command and boot-with-retry;
# check.sh the host checks (receive, report, identity).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${QEMU_OUT:-$src/out/qemu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
TP_DL_DIR=${TP_DL_DIR:-$src/out/dl}
mkdir -p "$TP_DL_DIR"
TP_DL_DIR=$(cd "$TP_DL_DIR" && pwd)
export TP_DL_DIR QEMU_OUT="$out"
libc=${QEMU_LIBC:-musl}
jobs=${QEMU_JOBS:-2}
T_NAME=qemu
. "$src/tests/lib.sh"
. "$here/boards.sh"
. "$here/guest.sh"
. "$here/boot.sh"
. "$here/check.sh"
skip() { echo "[SKIP] $*"; }
warn() { echo "[WARN] $*"; }
now() { date +%s; }

boards=${QEMU_BOARDS:-$QEMU_DEFAULT_BOARDS}
[ "$boards" = all ] && boards=$QEMU_ALL_BOARDS

# the kernel's directory for the loaded board
kernel_dir() {
	case $B_KPKG in
	build:*) echo "$out/kernels/${B_KPKG#build:}" ;;
	*) echo "$out/kernels/$B_DEBARCH" ;;
	esac
}
build_dir() { echo "$out/build/$B_CONFIG-$libc${B_WL_CFLAGS:+-$(echo "$B_WL_CFLAGS" | tr -dc 'a-z0-9')}"; }

# ---- one board in a worker (run.sh --board BOARD): boot, then check; all into files ----
if [ "${1:-}" = --board ]; then
	board_load "$2" || exit 2
	B_NAME=$2
	d=$out/run/$B_NAME
	C_TP=$out/host/host-san/tinyperf
	rm -f "$d/summary" "$d/checks.txt" "$d/times"
	t0=$(now)
	boot_board "$(kernel_dir)/kernel" "$out/initramfs-$B_NAME.cpio.gz" "$d"
	t1=$(now)
	{
		if [ -f "$d/boot.ok" ]; then
			[ "$(cat "$d/attempts")" = 1 ] ||
				warn "$B_NAME boot: flaky: the first boot failed ($(cat "$d/reason.try1")); retried, console: $d/console.try1.log"
			ok "$B_NAME boot: Linux $(cut -d' ' -f3 "$d/files/version" 2>/dev/null) up, recorded, powered off in $(cat "$d/boot.secs")s$([ "$(cat "$d/attempts")" = 1 ] || echo ' (second attempt)')"
			check_board "$d" "$(build_dir)/sysroot"
			case " $B_EVENTS " in *" cycles "*)	# stat's IPC: a short -icount boot
				bm=$B_MACHINE B_MACHINE="$B_MACHINE -icount shift=0"
				if boot_board "$(kernel_dir)/kernel" "$out/initramfs-$B_NAME-ipc.cpio.gz" "$d/ipc"; then
					check_stat_ipc "$d/ipc/files"
				else
					fail "$B_NAME stat-ipc boot (-icount): $(cat "$d/ipc/reason"); console: $d/ipc/console.log"
				fi
				B_MACHINE=$bm ;;
			esac
		else
			fail "$B_NAME boot: $(cat "$d/reason") (twice; first: $(cat "$d/reason.try1" 2>/dev/null)); console: $d/console.log"
			echo "---- $B_NAME console, last 40 lines:"
			tail -n 40 "$d/console.log" 2>/dev/null | tr -cd '\11\12\15\40-\176'
			echo "----"
		fi
	} >"$d/checks.txt" 2>&1
	t2=$(now)
	printf '%s %s %s\n' "$((t1 - t0))" "$((t2 - t1))" "$(cat "$d/attempts")" >"$d/times"
	# the summary row: board boot samples lost top build-id kernel tracepoint chains serial
	if [ -f "$d/boot.ok" ]; then
		printf '%-14s %5ss  %-31s %-5s %-6s %-5s %-9s %-5s %-9s %s\n' "$B_NAME" "$(cat "$d/boot.secs")" \
			"$(echo "$C_SAMPLES" | tr ' ' '\n' | awk -F: '{ v[$1] = $2 } END {
				printf "%s/%s/%s/%s", v["spin-g"], v["sysc-g"], v["spin-a"], v["sched"] }')" \
			"${C_LOST:-0}" "$C_SPIN_TOP" "$C_BID" "$C_KSYM" "$C_TRACE" "$C_CHAIN" "$(echo $C_SERIAL)"
	else
		printf '%-14s %6s  boot failed twice\n' "$B_NAME" "-"
	fi >"$d/summary"
	exit 0
fi

# ---- 1. tools and downloads (not counted in the time) ----
echo "==== qemu: boards: $boards"
missing=
for t in cpio gzip xz perf readelf timeout; do command -v $t >/dev/null || missing="$missing $t"; done
for b in $boards; do
	board_load "$b" || { fail "$b: no such board (known: $QEMU_ALL_BOARDS)"; done_tests; exit 1; }
	command -v "$B_QEMU" >/dev/null || missing="$missing $B_QEMU"
done
if [ -n "$missing" ]; then
	fail "missing tools:$missing (sudo scripts/deps.sh all installs them)"
	done_tests
	exit 1
fi

t_dl=$(now)
kfail=
for b in $boards; do
	board_load "$b"
	kd=$(kernel_dir)
	case $B_KPKG in
	build:*) [ -f "$kd/.ok" ] && continue
		 "$here/kernel-${B_KPKG#build:}.sh" "$kd" || kfail="$kfail $b" ;;
	*) "$here/kernel.sh" "$B_DEBARCH" "$B_KPKG" "$B_KBOOT" "$kd" || kfail="$kfail $b" ;;
	esac
done
dl_secs=$(($(now) - t_dl))

# ---- 2. builds: host tools, then per arch the recorder, workloads, init; the initramfs ----
t_start=$(now)
MAKE=${MAKE:-make}
# (with ASan/UBSan, as make check builds them: they read data from another arch here)
if ! $MAKE -C "$src" O="$out/host" HOST_SANITIZE=1 -j"$(nproc 2>/dev/null || echo 2)" host \
	</dev/null >"$out/host.log" 2>&1; then
	fail "the host tools do not build: $(grep -m1 'error' "$out/host.log") (log: $out/host.log)"
	if [ -x "$out/host/host-san/tinyperf" ]; then
		echo "   (the checks use the last host tinyperf that built)"
	else
		echo "   (the checks that need the host tinyperf will fail)"
	fi
fi
ready=
for b in $boards; do
	board_load "$b"
	B_NAME=$b
	tb=$(now)
	case " $kfail " in *" $b "*) fail "$b kernel: not available (see the messages above)"; continue ;; esac
	bd=$(build_dir)
	if ! "$here/build.sh" "$B_CONFIG" "$libc" "$B_WL_CFLAGS" "$bd" "$B_NOFP_CFLAGS" >"$out/build-$b.log" 2>&1; then
		fail "$b build: $(tail -n 3 "$out/build-$b.log" | tr '\n' ' ')"
		continue
	fi
	if ! guest_initramfs "$bd" "$(kernel_dir)" "$out/initramfs-$b.cpio.gz" 2>"$out/initramfs-$b.log"; then
		fail "$b initramfs: $(cat "$out/initramfs-$b.log")"
		continue
	fi
	case " $B_EVENTS " in *" cycles "*)
		guest_initramfs "$bd" "$(kernel_dir)" "$out/initramfs-$b-ipc.cpio.gz" guest_ipc_steps \
			2>>"$out/initramfs-$b.log" || fail "$b initramfs (-icount boot): $(cat "$out/initramfs-$b.log")" ;;
	esac
	mkdir -p "$out/run/$b"
	echo "$(($(now) - tb))" >"$out/run/$b/prep.secs"
	# the command as a shell line, for booting the board by hand (boards/README.md)
	qemu_cmd "$(kernel_dir)/kernel" "$out/initramfs-$b.cpio.gz" "$out/run/$b" |
		sed "s/'/'\\\\''/g; /[ ,=]/s/.*/'&'/" | tr '\n' ' ' >"$out/run/$b/qemu.cmd.txt"
	ready="$ready $b"
done
t_built=$(now)
echo "built in $((t_built - t_start))s (before that, not counted: downloads and kernel builds, ${dl_secs}s)"

# ---- 3. guests, $jobs at a time, slowest first; each checks its own results ----
order=
for b in qemu-i386 qemu-armv7 qemu-mips64el qemu-mipsel qemu-mips qemu-x86_64 qemu-aarch64; do
	case " $ready " in *" $b "*) order="$order $b" ;; esac
done
for b in $ready; do case " $order " in *" $b "*) ;; *) order="$order $b" ;; esac; done
if [ -n "$order" ]; then
	printf '%s\n' $order | xargs -P "$jobs" -I{} sh "$here/run.sh" --board {}
fi
t_booted=$(now)

# ---- 4. report ----
for b in $order; do
	echo
	echo "== $b: $(cat "$out/run/$b/qemu.cmd.txt" 2>/dev/null | cut -c1-100)..."
	[ -f "$out/run/$b/summary" ] ||
		echo "[FAIL] $b: the checks stopped half-way (a harness bug): see $out/run/$b/checks.txt" >>"$out/run/$b/checks.txt"
	cat "$out/run/$b/checks.txt"
	while IFS= read -r line; do
		case $line in
		"[OK] "*) T_PASS=$((T_PASS + 1)) ;;
		"[FAIL] "*) T_FAIL=$((T_FAIL + 1)) ;;
		esac
	done <"$out/run/$b/checks.txt"
done
echo
echo "==== summary (samples: spin-g/sysc-g/spin-a/sched; chains: leaf samples with callers; dw: to main, --call-graph dwarf)"
printf '%-14s %6s  %-31s %-5s %-6s %-5s %-9s %-5s %-9s %s\n' board boot samples lost top build kernel trace chains serial
for b in $order; do cat "$out/run/$b/summary" 2>/dev/null || printf '%-14s checks incomplete\n' "$b"; done
echo
echo "==== time per board (prepare = build + initramfs; boot = qemu, retries included; check = host)"
for b in $order; do
	set -- $(cat "$out/run/$b/times" 2>/dev/null || echo "? ? ?")
	printf '%-14s prepare %3ss  boot %3ss  check %3ss%s\n' "$b" "$(cat "$out/run/$b/prep.secs")" "$1" "$2" \
		"$([ "$3" = 2 ] && echo '  (booted twice)')"
done
warns=$(for b in $order; do cat "$out/run/$b/checks.txt"; done | grep -c '^\[WARN\]')
[ "$warns" = 0 ] || echo "warnings: $warns (see the [WARN] lines above)"
echo "total: $(($(now) - t_start))s (builds $((t_built - t_start))s, guests and checks $((t_booted - t_built))s, $jobs at a time); downloads ${dl_secs}s not counted"
done_tests
