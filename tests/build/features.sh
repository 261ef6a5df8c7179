#!/bin/sh
# SPDX-License-Identifier: MIT
# Every optional feature of recorder/Kconfig switched off (and the off-by-default ones on,
# the packed recorder among them, which must record as well),
# with LTO, without, and at -O0 (CFLAGS=-O0, as a debug build sets it): each configuration
# links (a call into a left-out file must fold away in every case), records /bin/true into a perf.data that Linux perf reads, and refuses the
# options of what it left out with one line. x86_64 freestanding, run natively.
#   features.sh [WORKDIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=build-features
. "$src/tests/lib.sh"
work=${1:-$(mktemp -d)}
mkdir -p "$work"
export TP_DL_DIR="${TP_DL_DIR:-$src/out/dl}"
export TINYPERF_KSYMS_CACHE=

# record_true BINARY (in $o): records /bin/true into a file Linux perf reads without a word
record_true() {
	"$o/$1" record -q -e cpu-clock -o "$o/$1.data" -- /bin/true 2>"$o/rec.err"
	rc=$?
	if [ $rc -ne 0 ] || ! perf report --stdio -i "$o/$1.data" >/dev/null 2>"$o/report.err" ||
	   [ -s "$o/report.err" ]; then
		fail "$name, $how: $1 record -- /bin/true exited $rc, perf report: $(head -c 200 "$o/rec.err" "$o/report.err" | tr '\n' ' ')"
		return 1
	fi
}

# NAME "OPTION-LINES" "A LONG OPTION THE BUILD MUST REFUSE, or nothing"
one() {
	name=$1 lines=$2 refused=$3
	for lto in y n O0; do
		o=$work/$name-lto$lto
		mkdir -p "$o"
		{
			echo "CONFIG_SHIM_FREESTANDING=y"
			printf '%s\n' "$lines"
			[ $lto = y ] || echo "# CONFIG_REC_LTO is not set"
		} >"$o/frag.config"
		case $lto in y) how="LTO"; set -- ;; n) how="no LTO"; set -- ;;
		O0) how="-O0"; set -- CFLAGS="-O0 -g" ;; esac
		if ! make -s -C "$src" O="$o" qemu-x86_64_defconfig KCONFIG_FRAGMENTS="$o/frag.config" \
			>"$o/build.log" 2>&1 || ! make -s -C "$src" O="$o" "$@" all >>"$o/build.log" 2>&1; then
			fail "$name, $how: build: $(grep -m 2 -e error -e undefined "$o/build.log" | tr '\n' ' ')"
			continue
		fi
		record_true tinyperf || continue
		# packed (CONFIG_REC_PACK): the file for the device unpacks the same recorder
		packed=""
		if [ -e "$o/tinyperf.packed" ]; then
			record_true tinyperf.packed || continue
			packed=", packed $(stat -c %s "$o/tinyperf.packed") bytes records too"
		fi
		if [ -n "$refused" ]; then
			"$o/tinyperf" record "$refused" -a -o "$o/x.data" >/dev/null 2>"$o/off.err"
			rc=$?
			if [ $rc -ne 2 ] || ! head -n 1 "$o/off.err" | grep -q "option '$refused' is not in this build"; then
				fail "$name, $how: $refused: exit $rc, $(head -n 1 "$o/off.err")"
				continue
			fi
		fi
		ok "$name, $how: links ($(stat -c %s "$o/tinyperf") bytes), records, perf reads it${refused:+, $refused refused}$packed"
	done
}

one default "" "--buildid-cache"
one no-streams "# CONFIG_REC_STREAMS is not set" "--coalesce"
one no-embed "# CONFIG_REC_EMBED_SYMBOLS is not set" "--no-embed-symbols"
one no-flight "# CONFIG_REC_FLIGHT is not set" "--overwrite"
one no-ksyms-cache "# CONFIG_REC_KSYMS_CACHE is not set" ""
one no-dwarf "# CONFIG_REC_CALLGRAPH_DWARF is not set" "--call-graph"
one no-stat-extra "# CONFIG_REC_STAT_EXTRA is not set" ""
one bare "# CONFIG_REC_TRACEPOINTS is not set
# CONFIG_REC_LIST is not set
# CONFIG_REC_HELP is not set
# CONFIG_REC_STREAMS is not set
# CONFIG_REC_EMBED_SYMBOLS is not set
# CONFIG_REC_FLIGHT is not set
# CONFIG_REC_STAT is not set
# CONFIG_REC_CALLGRAPH_DWARF is not set" "--switch-output"
one extras "CONFIG_REC_EMBED_MINIDEBUGINFO=y
CONFIG_REC_BUILDID_CACHE=y
CONFIG_REC_PACK=y" ""
done_tests
