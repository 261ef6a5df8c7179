#!/bin/sh
# SPDX-License-Identifier: MIT
# A bad invocation stops with exactly one clear line that says what to do, and a non-zero exit.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=bad-invocations
. "$src/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TP_DL_DIR="${TP_DL_DIR:-$src/out/dl}"

# expect_one_line NAME PATTERN make-args...: non-zero exit, one line of output, matching PATTERN
expect_one_line() {
	n=$1 pat=$2; shift 2
	make -s -C "$src" "$@" >"$tmp/out" 2>&1
	rc=$?
	lines=$(grep -c . "$tmp/out")
	if [ $rc -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$tmp/out"; then
		ok "$n: $(cat "$tmp/out")"
	else
		fail "$n: expected exit != 0 and one line matching '$pat', got exit $rc and $lines line(s): $(tr '\n' '|' <"$tmp/out")"
	fi
}

expect_one_line "unknown board" "no board 'nosuch'" O="$tmp/a" nosuch_defconfig
expect_one_line "build without .config" "run 'make <board>_defconfig' first" O="$tmp/empty"
make -s -C "$src" O="$tmp/arm" qemu-armv7_defconfig >/dev/null
expect_one_line "cross compiler for another arch" "targets aarch64" O="$tmp/arm" CROSS_COMPILE=aarch64-linux-gnu-
expect_one_line "missing cross compiler that cannot be installed" "compiler 'nosuch-linux-gnu-gcc' not found" \
	O="$tmp/arm" CROSS_COMPILE=nosuch-linux-gnu-
expect_one_line "CC that does not exist" "compiler 'no-such-cc' not found" O="$tmp/arm" CC=no-such-cc
expect_one_line "ARCH that contradicts .config" "ARCH=mips does not match the configured arch armv7" \
	O="$tmp/arm" ARCH=mips
expect_one_line "savedefconfig without .config" "no .config to save" O="$tmp/none" savedefconfig
expect_one_line "make host without the libraries' headers" \
	"make host needs the headers of libdw-dev libelf-dev libarchive-dev libcapstone-dev zlib1g-dev libncurses-dev" \
	O="$tmp/h" HOSTCC="gcc -nostdinc" host
expect_one_line "no Kconfig engine" "no Kconfig engine: install python3-kconfiglib" O="$tmp/ke" \
	KCONFIG_CONF=/nonexistent/kconfig-conf KCONFIG_PYTHON= qemu-armv7_defconfig
expect_one_line "KCONFIG_ENGINE=frontends without it" "kconfig-conf-gone is not on PATH" O="$tmp/ke" \
	KCONFIG_ENGINE=frontends KCONFIG_CONF=kconfig-conf-gone qemu-armv7_defconfig

# Debian's default cross compiler missing, as root: the build names the package and 'make deps',
# and installs nothing (dpkg and apt-get are shims here that record being called)
mkdir -p "$tmp/bin"
for p in /usr/bin/* /bin/*; do
	case ${p##*/} in arm-linux-gnueabihf-*|dpkg*|apt*) continue ;; esac
	[ -e "$tmp/bin/${p##*/}" ] || ln -s "$p" "$tmp/bin/${p##*/}"
done
for n in dpkg dpkg-query apt-get apt; do
	printf '#!/bin/sh\necho "%s $*" >>%s/calls\nexit 1\n' "$n" "$tmp" >"$tmp/bin/$n"
	chmod 755 "$tmp/bin/$n"
done
PATH=$tmp/bin expect_one_line "Debian's cross compiler missing" \
	"compiler 'arm-linux-gnueabihf-gcc' not found: install Debian's gcc-arm-linux-gnueabihf ('sudo make deps'" O="$tmp/arm"
expect_eq "... and no dpkg or apt-get called" "" "$(cat "$tmp/calls" 2>/dev/null)"

done_tests
