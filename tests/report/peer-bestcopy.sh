# SPDX-License-Identifier: MIT
# Sourced by peer.sh (its tmp, src, tp, rec, PERF, prec, trec): symbols from the best copy.
# Identity decides which binary, richness which copy (issue 20):
#   perf record caches the stripped binary it ran in HOME/.debug; with the unstripped copy in
#     a sysroot, report --sysroot names what perf report --symfs names (same top entries and
#     percentages) and its header names the sysroot copy;
#   archive, then archive --unpack into an empty HOME with the binary gone: the same names;
#   a rebuilt (richer) copy in the sysroot is named in the header as not used, and why;
#   buildid-cache --add of the unstripped copy after the stripped one: it joins as debug;
#   a tinyperf recording of the unstripped binary, the host holding only a stripped copy: the
#     names come from the recording, a static function missing from .dynsym included.
# shellcheck shell=sh

bdev=$tmp/bdev			# where the program runs: stripped
bsr=$tmp/bsysroot		# the sysroot: the unstripped copy at the same path
bhome=$tmp/bhome		# perf record's HOME (its ~/.debug)
mkdir -p "$bdev/bin" "$bsr$bdev/bin" "$bhome"
cat >"$tmp/best.c" <<'EOF'
/* a static function and a global one share the time; -rdynamic puts only the global one in
 * .dynsym, so a stripped copy names it and not the static one */
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
static __attribute__((noinline)) unsigned long hot_static(unsigned long x)
{
	for (int i = 0; i < 3000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
__attribute__((noinline)) unsigned long hot_global(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec a, b;
	unsigned long x = 1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100; i++)
			x = hot_static(x) ^ hot_global(x);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
	sink = x;
	return 0;
}
EOF
${CC:-cc} -O2 -g -rdynamic -o "$bsr$bdev/bin/best" "$tmp/best.c"
strip -o "$bdev/bin/best" "$bsr$bdev/bin/best"

best_rows() { # REPORT: the program's "pct<TAB>dso<TAB>sym" rows of a --sort dso,sym table
	awk -f "$tmp/table.awk" "$1" | awk -F '\t' '$2 == "best"'
}
# (kernel and ld.so rows differ for reasons of their own: perf --symfs looks for the
# kernel's symbols under the sysroot too)
best_top() { # NAME PERF-REPORT OUR-REPORT: perf's top 5 in ours, each within 0.01
	best_rows "$2" >"$tmp/bp.rows"
	best_rows "$3" >"$tmp/bt.rows"
	diffs=$(awk -v N=5 -f "$tmp/top.awk" "$tmp/bp.rows" "$tmp/bt.rows")
	if [ -z "$diffs" ] && grep -q 'hot_static' "$tmp/bt.rows" && grep -q 'hot_global' "$tmp/bt.rows"; then
		ok "$1: hot_static and hot_global named, perf's top 5 with the same percentages"
	else
		fail "$1: ${diffs:-hot_static or hot_global missing}: $(head -n 3 "$tmp/bt.rows" | tr '\t\n' ' |')"
	fi
}

# perf record caches what it ran (no -N): the stripped copy, under the right build-id
if HOME=$bhome "$PERF" record -q -e cpu-clock -F 4000 -o "$tmp/best.data" -- "$bdev/bin/best" 0.4 \
	>"$tmp/best.out" 2>"$tmp/best.err"; then
	cached=$(find "$bhome/.debug" -path "*$bdev/bin/best/*/elf" 2>/dev/null | head -n 1)
	if [ -n "$cached" ] && ! readelf -S "$cached" | grep -q '\.symtab'; then
		ok "best: perf record cached the stripped copy it ran ($cached)"
	else
		fail "best: expected perf record to cache a stripped copy, got '$cached'"
	fi
	HOME=$bhome "$PERF" report --stdio --sort dso,sym --no-children -i "$tmp/best.data" \
		--symfs "$bsr" >"$tmp/best-perf.rep" 2>/dev/null
	HOME=$bhome "$tp" report --stdio --sort dso,sym --no-children -i "$tmp/best.data" \
		--sysroot "$bsr" --offline >"$tmp/best-tp.rep" 2>"$tmp/best-tp.err"
	best_top "best: report --sysroot vs perf report --symfs" "$tmp/best-perf.rep" "$tmp/best-tp.rep"
	check "best: the header names the sysroot copy, not the cached one" \
		grep -q "^#   $bdev/bin/best: debuginfo from $bsr$bdev/bin/best, build-id verified" "$tmp/best-tp.rep"

	# a sysroot whose copy was rebuilt since: richer, but another binary; the cached stripped
	# copy serves, and the header says which richer copy was not used, and why
	mkdir -p "$tmp/bsr-rebuilt$bdev/bin"
	${CC:-cc} -O1 -g -rdynamic -o "$tmp/bsr-rebuilt$bdev/bin/best" "$tmp/best.c"
	HOME=$bhome "$tp" report --stdio --sort dso,sym --no-children -i "$tmp/best.data" \
		--sysroot "$tmp/bsr-rebuilt" --offline >"$tmp/best-rb.rep" 2>"$tmp/best-rb.err"
	check "best: a rebuilt richer copy is named as not used, with why" grep -q \
		"^#   $bdev/bin/best: .*, build-id verified; a richer copy not used: build-id mismatch for $tmp/bsr-rebuilt$bdev/bin/best" \
		"$tmp/best-rb.rep"
	expect_eq "best: ... and is no warning: the file used is the right one" "" "$(cat "$tmp/best-rb.err")"

	# archive on this host, then unpack where the binary is gone and HOME is empty
	if HOME=$bhome "$tp" archive "$tmp/best.data" --sysroot "$bsr" >"$tmp/barc.out" 2>&1; then
		mkdir -p "$tmp/bhome2" "$tmp/bunpack"
		mv "$bdev/bin/best" "$bdev/bin/best.away"
		(cd "$tmp/bunpack" && HOME=$tmp/bhome2 "$tp" archive --unpack "$tmp/best.data.tar.zst" \
			>"$tmp/bunpack.out" 2>&1 &&
		 HOME=$tmp/bhome2 "$tp" report --stdio --sort dso,sym --no-children -i best.data \
			--offline >"$tmp/best-unp.rep" 2>/dev/null)
		mv "$bdev/bin/best.away" "$bdev/bin/best"
		best_top "best: after archive --unpack, no sysroot, binary gone" "$tmp/best-perf.rep" \
			"$tmp/best-unp.rep"
	else
		fail "best: archive: $(tr '\n' ' ' <"$tmp/barc.out")"
	fi

	# the cache: the stripped copy, then the unstripped one joins as its debug file
	mkdir -p "$tmp/bhome3"
	HOME=$tmp/bhome3 "$tp" buildid-cache --add "$bdev/bin/best" >/dev/null 2>&1
	added=$(HOME=$tmp/bhome3 "$tp" buildid-cache -v --add "$bsr$bdev/bin/best" 2>&1)
	case $added in
	*" as debug "*) ok "best: buildid-cache --add of the unstripped copy: $added" ;;
	*) fail "best: the unstripped copy should join the stripped one as debug, got '$added'" ;;
	esac
	HOME=$tmp/bhome3 "$tp" report --stdio --sort dso,sym --no-children -i "$tmp/best.data" \
		--offline >"$tmp/best-c3.rep" 2>/dev/null
	best_top "best: a cache of the stripped elf and the unstripped debug" "$tmp/best-perf.rep" \
		"$tmp/best-c3.rep"
else
	fail "best: perf record: $(tail -n 1 "$tmp/best.err")"
fi

# embedded: the device ran the unstripped binary; the host has only a stripped copy
if [ -n "$rec" ]; then
	edev=$tmp/edev esr=$tmp/esysroot
	mkdir -p "$edev/bin" "$esr$edev/bin"
	cp "$bsr$bdev/bin/best" "$edev/bin/best"
	strip -o "$esr$edev/bin/best" "$edev/bin/best"
	if trec bemb -e cpu-clock -F 4000 -o "$tmp/bemb.data" -- "$edev/bin/best" 0.4; then
		"$tp" report --stdio --sort dso,sym --no-children -i "$tmp/bemb.data" --sysroot "$esr" \
			--buildid-dir '' --offline >"$tmp/bemb.rep" 2>/dev/null
		"$PERF" report --stdio --sort dso,sym --no-children -i "$tmp/bemb.data" \
			--symfs / >"$tmp/bemb-perf.rep" 2>/dev/null
		best_top "best: embedded names over a stripped host copy (perf with the unstripped one)" \
			"$tmp/bemb-perf.rep" "$tmp/bemb.rep"
		check "best: the header names the host copy and the recording's names" \
			grep -q "^#   $edev/bin/best: dynsym from $esr$edev/bin/best, build-id verified; names it lacks from the recording (embedded)" "$tmp/bemb.rep"
	fi
fi
