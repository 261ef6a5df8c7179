#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages a build or the test suite needs, idempotently:
# nothing is downloaded when everything is already there. Only 'make deps', 'make demo' and
# 'make check' run this: a build never installs (it names what is missing and stops).
#   deps.sh kconfig | build | host | all
set -eu

# both Kconfig engines: tests/kconfig/run.sh compares them (the Makefile takes either)
kconfig_pkgs="kconfig-frontends-nox python3-kconfiglib"
build_pkgs="make gcc libc6-dev file binutils xz-utils gcc-i686-linux-gnu libc6-dev-i386-cross \
gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu gcc-mipsel-linux-gnu gcc-mips-linux-gnu \
libc6-dev-armhf-cross libc6-dev-mips-cross libc6-dev-arm64-cross libc6-dev-mipsel-cross"
host_pkgs="libdw-dev libelf-dev libarchive-dev libcapstone-dev zlib1g-dev libncurses-dev \
pkg-config clang libclang-rt-14-dev"
test_pkgs="qemu-user-static linux-perf python3 procps hyperfine time"
# tests/build/dist.sh: make dist is git archive
test_pkgs="$test_pkgs git"
# tests/annotate: objdump for every target arch, the peer of annotate's disassembly
test_pkgs="$test_pkgs binutils-multiarch"
# tests/top: tinyperf top's screen is driven and read in a tmux pane
test_pkgs="$test_pkgs tmux"
# tests/record: the recorder's mappings, traced (its fd table after an EACCES retry)
test_pkgs="$test_pkgs strace"
# tests/qemu: the system emulators, the initramfs, the x86_64 PVH kernel (xz), and the
# big-endian MIPS kernel build (bison flex bc)
test_pkgs="$test_pkgs qemu-system-arm qemu-system-mips qemu-system-x86 cpio xz-utils bison flex bc"
# (xz-utils is a build package too: CONFIG_REC_PACK compresses the recorder with xz)
# tests/render: the pictures in a headless browser (playwright-core comes from npm), and
# the pprof file read by go tool pprof and by protoc with pprof's own profile.proto
test_pkgs="$test_pkgs chromium golang-go protobuf-compiler golang-github-google-pprof-dev"
# npm only where there is none: a machine whose Node.js is not Debian's has its own npm, and
# Debian's npm package then cannot be installed beside it
command -v npm >/dev/null 2>&1 || test_pkgs="$test_pkgs npm"

case "${1:-all}" in
kconfig) want=$kconfig_pkgs ;;
build) want="$kconfig_pkgs $build_pkgs" ;;
host) want=$host_pkgs ;;
all) want="$kconfig_pkgs $build_pkgs $host_pkgs $test_pkgs" ;;
*) echo "tinyperf: usage: deps.sh kconfig|build|host|all" >&2; exit 2 ;;
esac

missing=
for p in $want; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "tinyperf: missing Debian packages:$missing: run 'sudo apt-get install$missing' (or 'sudo make deps')" >&2
	exit 1
fi
echo "  DEPS    apt-get install$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null ||
		{ echo "tinyperf: apt-get could not install$missing: check the network and /etc/apt/sources.list" >&2; exit 1; }
fi
