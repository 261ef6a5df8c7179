#!/bin/sh
# SPDX-License-Identifier: MIT
# The vdso of a 32-bit process, recorded by Linux perf on this x86_64 machine: perf names it
# "[vdso32]" (its file is 32-bit ELF), tinyperf too:
#   script: the DSO of every frame = perf script's, in order, with [vdso32] among them;
#   the symbol of every [vdso32] frame is the one the process's own vdso image (written by
#     the workload itself) has at that address, by nm (perf 6.1 looks these addresses up in
#     the 64-bit vdso and prints names such as __vdso_getrandom: not the peer for them);
#   report --sort dso: a [vdso32] entry.
# The workload is tests/report/vdso32-wl.c, built -m32 -static against Debian's musl for
# i386 (what the i386 recorder builds use: $TP_DL_DIR/musl-i386).
#
#   usage: vdso32.sh TINYPERF
set -u
T_NAME=report-vdso32
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

tp=${1:?usage: vdso32.sh TINYPERF}
PERF=${PERF:-perf}
if ! ia32_ok; then
	skip "a 32-bit process's [vdso32]: $IA32_OFF"
	done_tests
	exit
fi
musl=${TP_DL_DIR:-$here/../../out/dl}/musl-i386/usr
lib=$musl/lib/i386-linux-musl
if ! command -v "$PERF" >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1 || [ ! -x "$tp" ] ||
   [ ! -f "$lib/libc.a" ]; then
	fail "setup: need $PERF, nm, $tp and i386 musl in $musl (make qemu-i386_defconfig && make gets it)"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
cc=${CC:-cc}
if ! "$cc" -m32 -static -nostdinc -nostdlib -fno-stack-protector -fno-pie -no-pie -O1 \
	-Wall -Wextra -Werror -isystem "$musl/include/i386-linux-musl" \
	-isystem "$("$cc" -print-file-name=include)" -o "$tmp/wl" \
	"$lib/crt1.o" "$lib/crti.o" "$here/vdso32-wl.c" "$lib/libc.a" \
	"$("$cc" -m32 -print-libgcc-file-name)" "$lib/crtn.o" 2>"$tmp/cc.err"; then
	fail "setup: building vdso32-wl.c -m32: $(head -n 2 "$tmp/cc.err" | tr '\n' ' ')"
	done_tests
	exit 1
fi
# perf keeps the vdso images in its build-id cache (a 32-bit one under [vdso]/ID/vdso, with
# .build-id/ID linked to it): a cache of this test's own, which tinyperf is pointed at, so
# that nothing depends on what ~/.debug holds
if ! "$PERF" --buildid-dir "$tmp/debug" record -q -e cpu-clock -F 2000 -g -o "$tmp/v.data" -- \
	"$tmp/wl" 500 "$tmp/vdso.so" >/dev/null 2>"$tmp/rec.err"; then
	fail "perf record: $(tail -n 1 "$tmp/rec.err")"
	done_tests
	exit 1
fi

"$PERF" --buildid-dir "$tmp/debug" script -F ip,sym,dso -i "$tmp/v.data" >"$tmp/p" 2>/dev/null
"$tp" script --buildid-dir "$tmp/debug" -F ip,sym,dso -i "$tmp/v.data" >"$tmp/t" 2>"$tmp/t.err"
dsos() { awk 'NF { print $NF }' "$1"; }
dsos "$tmp/p" >"$tmp/p.dsos"
dsos "$tmp/t" >"$tmp/t.dsos"
n32=$(grep -c '^(\[vdso32\])$' "$tmp/p.dsos")
if [ "$n32" -gt 0 ] && cmp -s "$tmp/p.dsos" "$tmp/t.dsos"; then
	ok "script: every frame's DSO = perf's ($(wc -l <"$tmp/p.dsos") frames, $n32 in [vdso32])"
else
	fail "script: DSOs (perf has $n32 [vdso32] frames): $(diff "$tmp/p.dsos" "$tmp/t.dsos" | head -n 4 | tr '\n' ' ')"
fi
expect_eq "script: no warnings" "" "$(head -c 300 "$tmp/t.err")"

# the symbol at each [vdso32] address, from nm of the image: the last symbol at or before it
nm -D --defined-only "$tmp/vdso.so" 2>/dev/null | awk '$2 ~ /^[Tt]$/ { sub(/@.*/, "", $3); print $1, $3 }' |
	sort -u >"$tmp/nm"
awk '$NF == "([vdso32])" { print $1, $2 }' "$tmp/t" | sort -u >"$tmp/t.syms"
bad=$(awk 'function hex(h,  v, i) { v = 0; for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
	NR == FNR { a[NR] = hex($1); s[NR] = $2; n = NR; next }
	{ ip = hex($1); want = "[unknown]"
	  for (i = 1; i <= n; i++) if (a[i] <= ip) want = s[i]
	  got = $2; sub(/\+0x[0-9a-f]*$/, "", got)
	  if (got != want && got != "[unknown]") print $1 " " got " (nm: " want ")" }' \
	"$tmp/nm" "$tmp/t.syms" | head -n 3)
named=$(awk '$2 != "[unknown]"' "$tmp/t.syms" | wc -l)
if [ -s "$tmp/nm" ] && [ "$named" -gt 0 ] && [ -z "$bad" ]; then
	ok "script: [vdso32] symbols = nm of the 32-bit vdso image ($named addresses named)"
else
	fail "script: [vdso32] symbols: ${bad:-none named} ($(wc -l <"$tmp/nm") symbols in the image)"
fi
check "report --sort dso: a [vdso32] entry" \
	sh -c "'$tp' report --buildid-dir '$tmp/debug' --sort dso -g none -i '$tmp/v.data' 2>/dev/null | grep -q '%  *\[vdso32\]\$'"
done_tests
