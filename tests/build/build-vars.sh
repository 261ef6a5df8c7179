#!/bin/sh
# SPDX-License-Identifier: MIT
# The build honours what Buildroot and Yocto pass: CC/CFLAGS/LDFLAGS from the command line and
# from the environment (mandatory flags kept apart), V=1, O= (the source tree stays clean),
# install with DESTDIR/PREFIX (unstripped) and install-strip, savedefconfig into O=, and with
# CONFIG_REC_PACK the packed recorder installed. Then Buildroot's and Yocto's exact sets of
# CC/CFLAGS/LDFLAGS on every target at every -O level, every libc variant and the host tools,
# as nobody, out of tree, with no dpkg/apt-get and with either Kconfig engine (hardening.sh
# says which cells and why: 46 recorder builds and the host tools). BUILD_VARS_FULL=1: the
# whole cross product (180 recorder builds).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=build-vars
. "$src/tests/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"	# the builds as nobody write below it
trap 'rm -rf "$tmp"' EXIT
export TP_DL_DIR="${TP_DL_DIR:-$src/out/dl}"
m() { make -s -C "$src" O="$tmp/o" "$@"; }
mv() { make --no-print-directory -C "$src" O="$tmp/o" "$@"; }  # V=1 needs make's echo

before=$(cd "$src" && git status --porcelain --ignored 2>/dev/null | grep '^[?!][?!] ' | grep -v ' out/' | sort)
m qemu-armv7_defconfig >/dev/null
mv V=1 CFLAGS="-O1 -DTP_MARK_CMDLINE" tinyperf >"$tmp/v1" 2>&1
if grep -q -- '-DTP_MARK_CMDLINE' "$tmp/v1" && grep -q -- '-Werror' "$tmp/v1" && grep -q 'arm-linux-gnueabihf-gcc' "$tmp/v1"; then
	ok "V=1 shows whole command lines; CFLAGS from the command line kept with the mandatory flags"
else
	fail "V=1 / command-line CFLAGS: $(head -c 300 "$tmp/v1")"
fi
CFLAGS="-Os -DTP_MARK_ENV" mv V=1 tinyperf >"$tmp/v2" 2>&1
if grep -q -- '-DTP_MARK_ENV' "$tmp/v2" && grep -q -- '-Werror' "$tmp/v2"; then
	ok "CFLAGS from the environment honoured (and the objects rebuilt for them)"
else
	fail "environment CFLAGS not used: $(grep -c CC "$tmp/v2") compiles"
fi
LDFLAGS="-Wl,-Map=$tmp/map" m tinyperf >/dev/null 2>&1
check "LDFLAGS from the environment reach the link" test -s "$tmp/map"
CC="arm-linux-gnueabihf-gcc -DTP_MARK_CC" mv V=1 tinyperf >"$tmp/v3" 2>&1
check "CC from the environment used as the compiler" grep -q -- 'gcc -DTP_MARK_CC' "$tmp/v3"
file -b "$tmp/o/tinyperf" | grep -q 'ARM' && ok "O= build output is an ARM binary" || fail "O= output: $(file -b "$tmp/o/tinyperf")"

m install DESTDIR="$tmp/root" PREFIX=/usr >/dev/null
if [ -x "$tmp/root/usr/bin/tinyperf" ] && readelf -S "$tmp/root/usr/bin/tinyperf" | grep -q '\.symtab'; then
	ok "install DESTDIR= PREFIX=/usr: usr/bin/tinyperf, unstripped"
else
	fail "install: $(ls -R "$tmp/root" 2>&1 | head -5)"
fi
m install-strip DESTDIR="$tmp/root2" PREFIX=/opt/tp >/dev/null
if [ -x "$tmp/root2/opt/tp/bin/tinyperf" ] && ! readelf -S "$tmp/root2/opt/tp/bin/tinyperf" | grep -q '\.symtab'; then
	ok "install-strip: stripped"
else
	fail "install-strip did not strip"
fi
m savedefconfig >/dev/null
check "savedefconfig writes O=/defconfig" cmp -s "$tmp/o/defconfig" "$src/boards/qemu-armv7_defconfig"
# packed (CONFIG_REC_PACK): install puts tinyperf.packed in place (it runs in features.sh, qemu/)
echo CONFIG_REC_PACK=y >"$tmp/pack.config"
m qemu-armv7_defconfig KCONFIG_FRAGMENTS="$tmp/pack.config" >/dev/null
m install DESTDIR="$tmp/root3" PREFIX=/usr >/dev/null 2>&1
if cmp -s "$tmp/root3/usr/bin/tinyperf" "$tmp/o/tinyperf.packed" &&
   [ "$(stat -c %s "$tmp/o/tinyperf.packed")" -lt "$(stat -c %s "$tmp/o/tinyperf.stripped")" ]; then
	ok "REC_PACK=y: install puts tinyperf.packed in place ($(stat -c %s "$tmp/o/tinyperf.packed") bytes, stripped $(stat -c %s "$tmp/o/tinyperf.stripped"))"
else
	fail "REC_PACK=y install: $(ls -l "$tmp/root3/usr/bin" "$tmp/o" 2>&1 | tr '\n' ' ' | head -c 300)"
fi

. "$src/tests/build/hardening.sh"
hv_start=$(date +%s)
hv_matrix
echo "build variables: Buildroot/Yocto matrix took $(($(date +%s) - hv_start)) s"

after=$(cd "$src" && git status --porcelain --ignored 2>/dev/null | grep '^[?!][?!] ' | grep -v ' out/' | sort)
expect_eq "the O= builds leave the source tree as it was" "$before" "$after"

done_tests
