#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every host unit test binary (tests/unit/test-*.c, built by 'make host-tests') and every
# peer script (tests/unit/*-peer.sh) with the binaries of BINDIR (default out/host/host-san).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${1:-$src/out/host/host-san}" && pwd)
rc=0
found=0
for t in "$bin"/tests/test-*; do
	[ -x "$t" ] || continue
	found=1
	echo "== $(basename "$t")"
	(cd "$bin/tests" && "$t") || rc=1
done
for p in "$src"/tests/unit/*-peer.sh; do
	[ -f "$p" ] || continue
	echo "== $(basename "$p")"
	sh "$p" "$bin/tests" || rc=1
done
[ $found -eq 1 ] || { echo "unit: no test binaries in $bin/tests: run 'make HOST_SANITIZE=1 host-tests'"; exit 1; }
exit $rc
