#!/bin/sh
# SPDX-License-Identifier: MIT
# Toolchain checks for a build, idempotent, cached in a download dir. A build never installs
# a package (it may run under Buildroot, Yocto or as someone else's root): what is missing is
# named, with the Debian package and 'make deps', which installs.
#   toolchain.sh cc CC MACRO DEBPKG         check the cross compiler
#   toolchain.sh musl DEBARCH TRIPLET CC DLDIR FROM_SOURCE
#                                            fetch into DLDIR (apt-get download, no install,
#                                            private lists) and extract, or build, a static
#                                            musl; prints MUSL_INC= and MUSL_LIB= on stdout
# Every failure is one line on stderr saying what to do, and a non-zero exit.
set -eu

# The message also goes to $TP_ERR_FILE, from where the Makefile stops with it as its one line.
die() {
	[ -n "${TP_ERR_FILE:-}" ] && echo "tinyperf: $*" > "$TP_ERR_FILE"
	[ -n "${TP_ERR_FILE:-}" ] || echo "tinyperf: $*" >&2
	exit 1
}
log() { [ -n "${QUIET:-}" ] || echo "  TOOLCHAIN $*" >&2; }

cmd_cc() {
	cc=$1 macro=$2 pkg=$3
	set -- $cc
	if ! command -v "$1" >/dev/null 2>&1; then
		case "$1" in
		*-linux-gnu*-gcc|gcc) [ -n "$pkg" ] || die "compiler '$1' not found: set CROSS_COMPILE= or CC="
			die "compiler '$1' not found: install Debian's $pkg ('sudo make deps' installs every cross compiler), or set CROSS_COMPILE= / CC=" ;;
		*) die "compiler '$1' not found: install it, or fix CROSS_COMPILE= / CC=" ;;
		esac
	fi
	# The compiler must target the configured arch: catch CROSS_COMPILE=aarch64-... with an armv7 .config.
	if ! $cc -dM -E - </dev/null 2>/dev/null | grep -q "define $macro "; then
		machine=$($cc -dumpmachine 2>/dev/null || echo unknown)
		die "compiler '$cc' targets $machine, but .config wants an arch defining $macro: fix CROSS_COMPILE= / CC= or run 'make <board>_defconfig'"
	fi
}

# Private apt state for a foreign arch: no dpkg --add-architecture, no change to the system.
apt_foreign() {
	arch=$1 dir=$2; shift 2
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	set -- -oAPT::Architecture="$arch" -oAPT::Architectures="$arch" \
		-oDir::State::Lists="$dir/lists" -oDir::Cache="$dir/cache" -oDebug::NoLocking=1 "$@"
	echo "$@"
}

cmd_musl() {
	debarch=$1 triplet=$2 cc=$3 dl=$4 fromsrc=$5
	mkdir -p "$dl"
	dl=$(cd "$dl" && pwd)
	if [ "$fromsrc" = y ] || [ -z "$debarch" ]; then
		musl_from_source "$triplet" "$cc" "$dl"
		return
	fi
	root=$dl/musl-$debarch
	if [ ! -f "$root/.ok" ]; then
		command -v apt-get >/dev/null || die "apt-get is needed to fetch musl-dev:$debarch: use CONFIG_SHIM_FREESTANDING or a toolchain libc"
		opts=$(apt_foreign "$debarch" "$dl/apt-$debarch")
		log "fetch musl-dev:$debarch"
		# shellcheck disable=SC2086
		# A security index caught mid-sync makes update fail while the main lists are
		# fine: judge by whether the download below works.
		apt-get $opts update -q >"$dl/apt-$debarch.log" 2>&1 || true
		rm -rf "$dl/deb-$debarch" && mkdir -p "$dl/deb-$debarch"
		# shellcheck disable=SC2086
		(cd "$dl/deb-$debarch" && apt-get $opts download "musl-dev:$debarch" >/dev/null 2>&1) ||
			die "could not download musl-dev:$debarch from Debian (see $dl/apt-$debarch.log): check the network, or choose another libc in menuconfig"
		rm -rf "$root.tmp" && mkdir -p "$root.tmp/deb"
		# a .deb is an ar archive around data.tar.*: no dpkg needed to open it
		(cd "$root.tmp/deb" && ar x "$dl/deb-$debarch"/musl-dev_*.deb && tar -xf data.tar.* -C "$root.tmp") ||
			die "could not unpack $(ls "$dl/deb-$debarch"/musl-dev_*.deb): ar and tar (xz-utils) are needed"
		rm -rf "$root.tmp/deb"
		[ -f "$root.tmp/usr/lib/$triplet/libc.a" ] || die "musl-dev:$debarch has no usr/lib/$triplet/libc.a"
		touch "$root.tmp/.ok"
		rm -rf "$root" && mv "$root.tmp" "$root"
	fi
	echo "MUSL_INC := $root/usr/include/$triplet"
	echo "MUSL_LIB := $root/usr/lib/$triplet"
}

# Debian's musl source package, compiled with the cross gcc (about a minute on 2 cores).
musl_from_source() {
	triplet=$1 cc=$2 dl=$3
	prefix=$dl/musl-$triplet
	if [ ! -f "$prefix/.ok" ]; then
		src=$dl/musl-src
		if ! ls "$src"/musl_*.orig.tar.gz >/dev/null 2>&1; then
			command -v apt-get >/dev/null || die "apt-get is needed to fetch musl's source: use CONFIG_SHIM_FREESTANDING instead"
			mkdir -p "$src/lists/partial" "$src/parts" "$src/cache/archives/partial"
			suites=$(sed -n 's/^Suites: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
			uris=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
			[ -n "$uris" ] || uris=$(awk '$1=="deb"{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
			[ -n "$suites" ] || suites=$(awk '$1=="deb"{print $3; exit}' /etc/apt/sources.list 2>/dev/null)
			[ -n "$uris" ] && [ -n "$suites" ] || die "cannot find the Debian mirror in /etc/apt to fetch musl's source"
			printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
				"$uris" "$suites" > "$src/parts/src.sources"
			o="-oDir::Etc::SourceParts=$src/parts -oDir::Etc::SourceList=/dev/null -oDir::State::Lists=$src/lists -oDir::Cache=$src/cache -oDebug::NoLocking=1"
			log "fetch musl source package"
			# shellcheck disable=SC2086
			apt-get $o update -q >/dev/null 2>&1 || die "apt-get update (deb-src) failed: check the network / Debian mirror"
			# shellcheck disable=SC2086
			(cd "$src" && apt-get $o source --download-only musl >/dev/null 2>&1) ||
				die "could not download Debian's musl source package: check the network"
		fi
		tarball=$(ls "$src"/musl_*.orig.tar.gz | head -n1)
		build=$dl/musl-build-$triplet
		rm -rf "$build" "$prefix" && mkdir -p "$build"
		tar -xzf "$tarball" -C "$build" --strip-components=1
		log "build musl for $triplet (about a minute)"
		set -- $cc
		cross=${1%gcc}
		(cd "$build" && CC="$cc" ./configure --target="$triplet" CROSS_COMPILE="$cross" \
			--prefix="$prefix" --disable-shared CFLAGS="-Os" >"$build.log" 2>&1 &&
			make -j"$(nproc 2>/dev/null || echo 2)" >>"$build.log" 2>&1 && make install >>"$build.log" 2>&1) ||
			die "building musl for $triplet failed: see $build.log"
		touch "$prefix/.ok"
		rm -rf "$build"
	fi
	echo "MUSL_INC := $prefix/include"
	echo "MUSL_LIB := $prefix/lib"
}

case "${1:-}" in
cc) shift; cmd_cc "$@" ;;
musl) shift; cmd_musl "$@" ;;
*) die "usage: toolchain.sh cc|musl ..." ;;
esac
