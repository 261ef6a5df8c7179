#!/bin/sh
# SPDX-License-Identifier: MIT
# The packed recorder (CONFIG_REC_PACK, recorder/pack/unpack.c), run natively:
#   it is smaller than the stripped recorder it carries, and records what Linux perf reads;
#   it runs from a memory file (/proc/PID/exe: /memfd:tinyperf) under its own name (comm);
#   without a usable memory file (vm.memfd_noexec = 2 on Linux 6.3+, else /proc unmounted)
#   it runs from $TMPDIR/.tinyperf-unpacked-PID, which is gone once it started;
#   with neither, setuid, and with a corrupt payload, one line saying what to do, exit 127.
# The mount and pid namespaces (unshare) keep every change to this test.
#   run.sh BUILD_DIR [WORKDIR]   (BUILD_DIR: an O= build with CONFIG_REC_PACK=y, x86)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-pack}
. "$src/tests/lib.sh"
o=$(cd "${1:?usage: run.sh BUILD_DIR [WORKDIR]}" && pwd)
work=${2:-$(mktemp -d)}
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
export TINYPERF_KSYMS_CACHE=
pk=$work/tp-packed		# a name of its own: its comm must be this one
cp "$o/tinyperf.packed" "$pk" 2>/dev/null || { fail "no $o/tinyperf.packed (CONFIG_REC_PACK=y?)"; done_tests; exit 1; }
wl=$("$src/tests/workloads/build.sh" "$work/wl")

s=$(stat -c %s "$o/tinyperf.stripped") p=$(stat -c %s "$pk")
if [ "$p" -lt "$s" ]; then
	ok "packed: $p bytes, the stripped recorder it carries $s ($((100 - p * 100 / s)) % smaller)"
else
	fail "packed: $p bytes, not smaller than the stripped $s"
fi

# record_check NAME FILE ERR: the recording exited 0 and Linux perf reads it, spin on top
record_check() {
	if [ "$rc" -eq 0 ] && perf report --stdio -i "$2" --sort sym 2>/dev/null | grep -q '\[\.\] \(leaf\|mid\)'; then
		ok "$1: records, perf reads it, spin's leaf/mid on top"
	else
		fail "$1: exit $rc, $(head -c 300 "$3"), perf: $(perf report --stdio -i "$2" --sort sym 2>&1 | grep -m2 '%')"
	fi
}

# ---- a memory file ----
"$pk" record -q -e cpu-clock -F 999 -o "$work/mem.data" -- "$wl/spin" 0.6 2>"$work/mem.err" &
pid=$!
sleep 0.3
exe=$(readlink "/proc/$pid/exe") comm=$(cat "/proc/$pid/comm")
wait $pid
rc=$?
record_check memfd "$work/mem.data" "$work/mem.err"
case $exe in
/memfd:tinyperf*) ok "memfd: runs from a memory file ($exe), named $comm" ;;
*) fail "memfd: /proc/PID/exe is '$exe'" ;;
esac
expect_eq "memfd: the process is named after argv[0], not its descriptor" tp-packed "$comm"

# ---- no memory file: $TMPDIR ----
mkdir -p "$work/tmpdir"
if [ -e /proc/sys/vm/memfd_noexec ]; then
	how="vm.memfd_noexec = 2"
	# shellcheck disable=SC2016
	unshare -pf --mount-proc sh -c '
		echo 2 >/proc/sys/vm/memfd_noexec || exit 99
		TMPDIR=$2 "$1" record -q -e cpu-clock -F 999 -o "$3/file.data" -- "$4/spin" 0.6 2>"$3/file.err" &
		pid=$!
		sleep 0.3
		readlink /proc/$pid/exe >"$3/file.exe"; cat /proc/$pid/comm >"$3/file.comm"
		wait $pid' sh "$pk" "$work/tmpdir" "$work" "$wl"
	rc=$?
	record_check "no memory file ($how)" "$work/file.data" "$work/file.err"
	exe=$(cat "$work/file.exe" 2>/dev/null) comm=$(cat "$work/file.comm" 2>/dev/null)
else
	how="/proc unmounted"
	# shellcheck disable=SC2016
	unshare -m sh -c 'umount -l /proc && TMPDIR=$2 "$1" --version' sh "$pk" "$work/tmpdir" \
		>"$work/file.out" 2>"$work/file.err"
	rc=$?
	exe="" comm=""		# not to be seen without /proc
	if [ $rc -eq 0 ] && grep -q '^tinyperf ' "$work/file.out"; then
		ok "no memory file ($how): runs from \$TMPDIR: $(cat "$work/file.out")"
	else
		fail "no memory file ($how): exit $rc: $(head -c 300 "$work/file.err")"
	fi
fi
if [ -n "$exe" ]; then
	case $exe in
	"$work/tmpdir/.tinyperf-unpacked-"*"(deleted)") ok "no memory file ($how): ran from \$TMPDIR/.tinyperf-unpacked-PID, removed as it started" ;;
	*) fail "no memory file ($how): /proc/PID/exe was '$exe'" ;;
	esac
	expect_eq "no memory file: the process is named after argv[0]" tp-packed "$comm"
fi
expect_eq "no memory file: nothing left in \$TMPDIR" "" "$(ls -A "$work/tmpdir")"

# ---- neither: /proc unmounted, /tmp and /dev/shm noexec, no $TMPDIR ----
# (the program from a tmpfs on /mnt: $work may be under /tmp)
# shellcheck disable=SC2016
unshare -m sh -c 'mkdir -p /mnt && mount -t tmpfs none /mnt && cp "$1" /mnt/tp-packed &&
	umount -l /proc && mount -t tmpfs -o noexec none /tmp &&
	mount -t tmpfs -o noexec none /dev/shm && TMPDIR= /mnt/tp-packed --version' sh "$pk" \
	>"$work/none.out" 2>"$work/none.err"
rc=$?
if [ $rc -eq 127 ] && [ "$(wc -l <"$work/none.err")" -eq 1 ] &&
   grep -q '^tinyperf: cannot unpack the recorder: no memory file (error [0-9]*) and no writable, executable .*install the unpacked tinyperf$' "$work/none.err"; then
	ok "no memory file, no executable \$TMPDIR, /tmp or /dev/shm: exit 127, one line: $(cat "$work/none.err")"
else
	fail "nowhere to unpack: exit $rc, '$(cat "$work/none.err" "$work/none.out")'"
fi

# ---- setuid: refused (the unpacked recorder would run without the privilege; and a root
# program must not execute a file from the caller's $TMPDIR) ----
sd=$(mktemp -d /tmp/tinyperf-suid.XXXXXX)
chmod 755 "$sd"
cp "$pk" "$sd/tp-packed" && chmod 4755 "$sd/tp-packed"
case ,$(findmnt -no OPTIONS -T "$sd"), in
*,nosuid,*)
	echo "(setuid: $sd is on a nosuid mount here, not checked)" ;;
*)
	TMPDIR="$work/tmpdir" setpriv --reuid=65534 --regid=65534 --clear-groups "$sd/tp-packed" --version \
		>"$work/suid.out" 2>"$work/suid.err"
	rc=$?
	expect_eq "setuid root, run by uid 65534: refused, exit 127, one line" \
		"127:tinyperf: a packed recorder cannot run setuid or with file capabilities (the unpacked recorder would not get them): install the unpacked tinyperf" \
		"$rc:$(cat "$work/suid.err" "$work/suid.out")" ;;
esac
rm -rf "$sd"

# ---- a corrupt payload ----
python3 - "$pk" "$o/obj/pack/tinyperf.xz" "$work/corrupt" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
x = open(sys.argv[2], "rb").read()
i = b.find(x[:256])
if i < 0:
    sys.exit("payload not found in the packed file")
b[i + len(x) // 2] ^= 0x55
open(sys.argv[3], "wb").write(b)
EOF
chmod +x "$work/corrupt"
"$work/corrupt" --version >"$work/corrupt.out" 2>"$work/corrupt.err"
rc=$?
expect_eq "a corrupt payload: exit 127, one line" \
	"127:tinyperf: cannot unpack the recorder: its payload is corrupt: install it again" \
	"$rc:$(cat "$work/corrupt.err" "$work/corrupt.out")"
done_tests
