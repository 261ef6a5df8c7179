#!/bin/sh
# make demo: set everything up, build the static recorder for this machine and for the
# six board targets, and show what was built.
# (It records a real workload and shows the host report once 'record' and 'report' exist.)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_OUT:-$src/out}
export TP_DL_DIR="${TP_DL_DIR:-$out/dl}" MATRIX_OUT="$out"
MAKE=${MAKE:-make}

"$src/scripts/deps.sh" all
echo "== building the static recorder for this machine (boards/host_defconfig)"
$MAKE -s -C "$src" O="$out/demo" host_defconfig >/dev/null
$MAKE -s -C "$src" O="$out/demo" tinyperf.stripped
"$out/demo/tinyperf" --version
file -b "$out/demo/tinyperf.stripped"
echo
echo "== the recorder for every board target (stripped sizes against the budgets)"
"$src/scripts/matrix.sh" sizes
