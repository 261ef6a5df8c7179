#!/bin/sh
# SPDX-License-Identifier: MIT
# make dist: the release tarball the Buildroot package and the Yocto recipe fetch. It is
# reproducible, holds every tracked file (tests/ data included), 'make dist-hashes' writes its
# sha256 into both hash files, and unpacked it builds the host tools and a recorder, which run.
# Once the tag v<VERSION> exists, the committed hashes must be those of the tag's tarball.
# Works on a clone of the checkout (the committed tree), or, where the tree is not a git
# checkout, on a one-commit repository made from it.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=dist
. "$src/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TP_DL_DIR="${TP_DL_DIR:-$src/out/dl}"
jobs=$(nproc 2>/dev/null || echo 2)
version=$(sed -n 's/^VERSION := //p' "$src/Makefile")
name=tinyperf-$version
repo=$tmp/repo

if git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	git clone -q "$src" "$repo"
	echo "(a clone of $(git -C "$src" rev-parse --short HEAD))"
else
	mkdir "$repo"
	(cd "$src" && tar -cf - --exclude=./out --exclude=./.git .) | tar -xf - -C "$repo"
	git -C "$repo" init -q && git -C "$repo" add -A &&
		git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m tree
	echo "(not a git checkout: a one-commit repository of the tree)"
fi

# 1. reproducible, and the printed line is the file's sha256
make -s -C "$repo" O="$tmp/d1" dist >"$tmp/d1.out" 2>&1
sleep 1	# (a second later: gzip or tar must not stamp the time)
make -s -C "$repo" O="$tmp/d2" dist >"$tmp/d2.out" 2>&1
h1=$(sha256sum "$tmp/d1/$name.tar.gz" 2>/dev/null | cut -d' ' -f1)
h2=$(sha256sum "$tmp/d2/$name.tar.gz" 2>/dev/null | cut -d' ' -f1)
check "make dist writes $name.tar.gz" test -s "$tmp/d1/$name.tar.gz"
expect_eq "make dist prints the hash line of the tarball" "sha256  $h1  $name.tar.gz" \
	"$(grep '^sha256 ' "$tmp/d1.out")"
expect_eq "two make dist of one commit: the same sha256" "$h1" "$h2"

# 2. every tracked file, under tinyperf-<version>/, and nothing else
git -C "$repo" ls-files | sort >"$tmp/tracked"
tar -tzf "$tmp/d1/$name.tar.gz" | grep -v '/$' | sed "s|^$name/||" | sort >"$tmp/in-tar"
expect_eq "the tarball holds every tracked file and only those ($(wc -l <"$tmp/tracked") files)" \
	"" "$(diff "$tmp/tracked" "$tmp/in-tar" | head -n 5 | tr '\n' ' ')"
check "the tarball has the tests' data (tests/corpus, tests/configs)" \
	sh -c "grep -q '^tests/corpus/' '$tmp/in-tar' && grep -q '^tests/configs/' '$tmp/in-tar'"

# 3. dist-hashes writes the tarball's sha256 into both hash files
make -s -C "$repo" O="$tmp/d3" dist-hashes >"$tmp/d3.out" 2>&1
h3=$(sha256sum "$tmp/d3/$name.tar.gz" 2>/dev/null | cut -d' ' -f1)
check "dist-hashes: buildroot/package/tinyperf/tinyperf.hash holds $h3" \
	grep -qx "sha256  $h3  $name.tar.gz" "$repo/buildroot/package/tinyperf/tinyperf.hash"
check "dist-hashes: the recipe holds the same" \
	grep -qx "SRC_URI\[sha256sum\] = \"$h3\"" "$repo/yocto/meta-tinyperf/recipes-devtools/tinyperf/tinyperf_$version.bb"

# 4. the committed hash is the release's, once the release is tagged
if git -C "$src" rev-parse --verify -q "v$version^{commit}" >/dev/null 2>&1; then
	make -s -C "$src" O="$tmp/d4" DIST_REF="v$version" dist >/dev/null 2>&1
	h4=$(sha256sum "$tmp/d4/$name.tar.gz" 2>/dev/null | cut -d' ' -f1)
	check "tinyperf.hash holds the sha256 of 'make dist' of v$version" \
		grep -qx "sha256  $h4  $name.tar.gz" "$src/buildroot/package/tinyperf/tinyperf.hash"
else
	echo "(no tag v$version here: the committed release hash is checked once it exists)"
fi

# 5. unpacked, it builds: the host tools and the x86_64 freestanding recorder; outside a git
# checkout, make dist says so in one line
tar -xzf "$tmp/d1/$name.tar.gz" -C "$tmp"
x=$tmp/$name
if nice -n 10 make -s -C "$x" -j"$jobs" O="$tmp/xh" host >"$tmp/xh.log" 2>&1; then
	expect_eq "the tarball's make host runs: --version" "tinyperf $version (host tools)" \
		"$("$tmp/xh/host/tinyperf" --version 2>&1)"
else
	fail "the tarball's make host: $(tail -n 3 "$tmp/xh.log" | tr '\n' ' ')"
fi
if make -s -C "$x" O="$tmp/xr" qemu-x86_64_defconfig \
	KCONFIG_FRAGMENTS="$x/tests/configs/freestanding.config" >"$tmp/xr.log" 2>&1 &&
	nice -n 10 make -s -C "$x" -j"$jobs" O="$tmp/xr" >>"$tmp/xr.log" 2>&1; then
	check "the tarball's recorder (x86_64 freestanding) runs: --version" \
		sh -c "'$tmp/xr/tinyperf' --version | grep -q '^tinyperf $version (x86_64, freestanding)'"
else
	fail "the tarball's recorder build: $(tail -n 3 "$tmp/xr.log" | tr '\n' ' ')"
fi
make -s -C "$x" O="$tmp/xd" dist >"$tmp/xd.out" 2>&1
rc=$?
check "make dist outside a git checkout: exit != 0, one line saying so" \
	sh -c "[ $rc -ne 0 ] && [ \$(grep -c . '$tmp/xd.out') -eq 1 ] && grep -q 'needs a git checkout' '$tmp/xd.out'"

done_tests
