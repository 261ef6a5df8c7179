# SPDX-License-Identifier: MIT
# Shared helpers for tinyperf's shell tests: one [OK]/[FAIL] line per case and a closing
# "NAME: N passed, N failed" line that tests/run.sh adds up.
# shellcheck shell=sh
T_PASS=0
T_FAIL=0
T_SKIP=0
T_NAME=${T_NAME:-$(basename "$0" .sh)}

ok() { T_PASS=$((T_PASS + 1)); echo "[OK] $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "[FAIL] $*"; }
# skip WHAT: WHY: a case this machine cannot run, named, and counted apart
skip() { T_SKIP=$((T_SKIP + 1)); echo "[SKIP] $*"; }
# check NAME CONDITION-COMMAND...: OK when the command succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else fail "$n"; fi; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: expected '$2', got '$3'"; fi; }
done_tests() {
	echo "$T_NAME: $T_PASS passed, $T_FAIL failed$([ "$T_SKIP" -eq 0 ] || echo ", $T_SKIP skipped")"
	[ "$T_FAIL" -eq 0 ]
}

# ia32_ok: 0 when this machine runs 32-bit x86 programs. An x86_64 kernel may not: built
# without IA-32 emulation, booted with ia32_emulation=0, or a guest whose hypervisor runs
# 64-bit user code only (seen: "pvm-pv: IA-32 emulation off"); there an i386 program's execve
# fails with ENOEXEC. Tried once on a 93-byte i386 ELF that exits 0 (no cross compiler
# needed); the answer is kept in TP_IA32 for the tests started after.
IA32_OFF="this kernel runs no 32-bit x86 programs (IA-32 emulation off)"	# why, when it fails
ia32_ok() {
	if [ -z "${TP_IA32:-}" ]; then
		TP_IA32=no
		if [ "$(uname -m)" = x86_64 ] && _p=$(mktemp) && python3 -c '
import struct, sys
code = bytes([0xb8, 1, 0, 0, 0, 0x31, 0xdb, 0xcd, 0x80])   # exit(0): eax 1, ebx 0, int $0x80
base, eh, ph = 0x08048000, 52, 32
hdr = (b"\x7fELF" + bytes([1, 1, 1]) + bytes(9) +
       struct.pack("<HHIIIIIHHHHHH", 2, 3, 1, base + eh + ph, eh, 0, 0, eh, ph, 1, 0, 0, 0))
seg = struct.pack("<8I", 1, 0, base, base, eh + ph + len(code), eh + ph + len(code), 5, 0x1000)
open(sys.argv[1], "wb").write(hdr + seg + code)' "$_p" && chmod 755 "$_p" && "$_p" 2>/dev/null; then
			TP_IA32=yes
		fi
		rm -f "${_p:-}"
		export TP_IA32
	fi
	[ "$TP_IA32" = yes ]
}
