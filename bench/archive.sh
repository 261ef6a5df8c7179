#!/bin/sh
# SPDX-License-Identifier: MIT
# tinyperf archive against perf archive on the same recording, in the same run: wall time
# (median of RUNS, alternating), archive size, members, and unpack time. The recording is
# made by perf record (so perf's own build-id cache, which perf archive packs from, is filled)
# of a workload that runs several programs (python3, ls, gzip, awk), with call graphs, its
# children followed (not system-wide: other users of the machine would change the figures).
# Without a perf
# archive (Debian's linux-perf may lack the script) only tinyperf's figures are printed.
#   bench/archive.sh TINYPERF [SECONDS] [RUNS]
set -eu
tp=${1:?usage: bench/archive.sh TINYPERF [SECONDS] [RUNS]}
secs=${2:-5}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pc=$work/perf-cache	# perf's cache for this run only, not ~/.debug

row() { printf '%-34s %16s %16s %10s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "-" }'; }
now() { date +%s.%N; }
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "recording ${secs}s of a few programs with -g (perf record) ..."
perf --buildid-dir "$pc" record -q -g -o "$work/rec.data" -- sh -c "
	end=\$((\$(date +%s) + $secs))
	while [ \$(date +%s) -lt \$end ]; do
		python3 -c 'sum(range(200000))'; ls -lR /usr/lib >/dev/null 2>&1
		gzip -c /usr/bin/perf >/dev/null; awk 'BEGIN { for (i = 0; i < 300000; i++) s += i }'
	done" >/dev/null 2>&1
have_perf_archive=0
if perf archive -h >/dev/null 2>&1 || [ -x /usr/lib/perf-core/perf-archive ] ||
   [ -x /usr/libexec/perf-core/perf-archive ]; then
	have_perf_archive=1
fi

t_tp=""
t_perf=""
i=0
while [ $i -lt "$runs" ]; do
	rm -f "$work/rec.data.tar.zst" "$work/rec.data.tar.bz2"
	a=$(now)
	"$tp" archive "$work/rec.data" --buildid-dir "$pc" >"$work/tp.out" 2>"$work/tp.err"
	b=$(now)
	t_tp="$t_tp $(echo "$b - $a" | bc)"
	if [ $have_perf_archive = 1 ]; then
		a=$(now)
		(cd "$work" && perf --buildid-dir "$pc" archive rec.data >/dev/null 2>&1) || have_perf_archive=0
		b=$(now)
		t_perf="$t_perf $(echo "$b - $a" | bc)"
	fi
	i=$((i + 1))
done
mt=$(echo $t_tp | tr ' ' '\n' | median)
st=$(stat -c %s "$work/rec.data.tar.zst")
nt=$(tar tf "$work/rec.data.tar.zst" | grep -vc '/$')
a=$(now); mkdir -p "$work/u1"
HOME=$work/u1 "$tp" archive --unpack "$work/rec.data.tar.zst" --data-dir "$work/u1" >/dev/null
ut=$(echo "$(now) - $a" | bc)

echo "recording: $(stat -c %s "$work/rec.data") bytes, $(perf buildid-list -i "$work/rec.data" --with-hits 2>/dev/null | grep -vc '^ ') DSOs hit (perf's count)"
echo "tinyperf:  $(cat "$work/tp.out")"
[ -s "$work/tp.err" ] && echo "           ($(grep -c warning "$work/tp.err") warnings: $(head -n1 "$work/tp.err"))"
echo
row "measure" "tinyperf" "perf archive" "perf/ours"
if [ $have_perf_archive = 1 ]; then
	mp=$(echo $t_perf | tr ' ' '\n' | median)
	sp=$(stat -c %s "$work/rec.data.tar.bz2")
	np=$(tar tjf "$work/rec.data.tar.bz2" | grep -vc '/$')
	a=$(now); mkdir -p "$work/u2"
	tar xjf "$work/rec.data.tar.bz2" -C "$work/u2"
	up=$(echo "$(now) - $a" | bc)
	row "archive: wall (median of $runs, s)" "$(printf %.2f "$mt")" "$(printf %.2f "$mp")" "$(ratio "$mt" "$mp")"
	row "archive: size (bytes)" "$st" "$sp" "$(ratio "$st" "$sp")"
	row "archive: members" "$nt" "$np" ""
	row "unpack: wall (s)" "$(printf %.2f "$ut")" "$(printf %.2f "$up")" "$(ratio "$ut" "$up")"
	echo
	echo "perf archive packs its cache entries (bzip2) without perf.data; tinyperf packs"
	echo "perf.data and the files of the hit DSOs (ip or callchain), zstd, keyed by build-id."
else
	row "archive: wall (median of $runs, s)" "$(printf %.2f "$mt")" "-" ""
	row "archive: size (bytes)" "$st" "-" ""
	row "archive: members" "$nt" "-" ""
	row "unpack: wall (s)" "$(printf %.2f "$ut")" "-" ""
	echo
	echo "perf archive is not installed here (Debian's linux-perf may lack it): tinyperf alone."
fi
