#!/bin/sh
# SPDX-License-Identifier: MIT
# The build-id cache, archives and diff, end to end on this machine: tinyperf buildid-cache
# (add, list, remove, purge, --max-size eviction, two adders at once), Linux perf resolving
# through the cache, tinyperf archive holding only the hit DSOs (and falling back from zstd to
# what a libarchive without it writes), hostile archives refused
# (built with python3's tarfile), a report from an unpacked archive with a clean HOME and no
# sysroot, the recorder's --buildid-cache, and diff of two builds of a workload.
#   run.sh BINDIR [WORKDIR]   BINDIR holds the host tinyperf (e.g. out/host/host-san).
# The recorder: $TP_REC if set (built with CONFIG_REC_BUILDID_CACHE=y), else built here.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-cache}
. "$src/tests/lib.sh"
tp=$(cd "${1:?usage: run.sh BINDIR [WORKDIR]}" && pwd)/tinyperf
work=${2:-$(mktemp -d)}
rm -rf "$work/c" "$work/bin" "$work/dev" "$work/home" "$work/unpack" "$work/outside" "$work/hz"
mkdir -p "$work/bin" "$work/dev" "$work/outside"
cc=${CC:-cc}
W="-O2 -g -fno-omit-frame-pointer"

# the recorder, with the cache option
rec=${TP_REC:-}
if [ -z "$rec" ]; then
	echo "CONFIG_REC_BUILDID_CACHE=y" >"$work/bidcache.config"
	if make -C "$src" O="$work/rec" host_defconfig KCONFIG_FRAGMENTS="$work/bidcache.config" \
		>"$work/rec.log" 2>&1 && make -C "$src" O="$work/rec" >>"$work/rec.log" 2>&1; then
		rec=$work/rec/tinyperf
	else
		fail "build the recorder with CONFIG_REC_BUILDID_CACHE=y: $(tail -n 3 "$work/rec.log" | tr '\n' ' ')"
		done_tests
		exit 1
	fi
fi
"$tp" --version >/dev/null || { fail "no tinyperf in $1"; done_tests; exit 1; }

build() { # OUT VARIANT [CFLAGS...]
	o=$1 v=$2; shift 2
	$cc $W -DVARIANT="$v" "$@" -o "$o" "$src/tests/cache/shift.c"
}
C=$work/c
bc() { "$tp" buildid-cache --buildid-dir "$C" "$@"; }
# entries: the number of entries --list shows; total: its byte total
entries() { bc -l | sed -n 's/^# \([0-9]*\) entr.*/\1/p'; }
total() { bc -l | sed -n 's/^# [0-9]* entr[a-z]*, \([0-9]*\) bytes.*/\1/p'; }
bid() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }

# ---- add, list, remove, purge ----
build "$work/bin/prog" 1
bc -q -a "$work/bin/prog" -a /proc/kallsyms
expect_eq "add: a binary and /proc/kallsyms make 2 entries" 2 "$(entries)"
id=$(bid "$work/bin/prog")
if bc -l | grep -q "^  $id .* elf .*$work/bin/prog\$" &&
   [ -f "$C/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)/elf" ]; then
	ok "list: $id with its size and name; perf's .build-id/xx/yyyy/elf exists"
else
	fail "list/layout: $(bc -l | tr '\n' '|')"
fi
out=$(bc -a "$work/bin/prog")
check "add again: already cached" sh -c "echo '$out' | grep -q '1 already cached'"
bc -q -r "$id"
expect_eq "remove by build-id" 1 "$(entries)"
check "remove: the entry's directories are gone" test ! -e "$C$work/bin/prog"
bc -q -a "$work/bin/prog"
bc -q --purge-older-than 1d
expect_eq "purge-older-than 1d keeps fresh entries" 2 "$(entries)"
find "$C" -path "$C/.tinyperf" -prune -o -exec touch -h -a -m -d "3 days ago" {} + 2>/dev/null
bc -q --purge-older-than 2d
expect_eq "purge-older-than 2d removes entries unused for 3 days" 0 "$(entries)"

# ---- --max-size: LRU eviction across repeated additions ----
i=0
over=""
while [ $i -lt 8 ]; do
	build "$work/bin/pad$i" 1 -DPAD=100 -Wl,--build-id=0x$(printf '%040x' $((0xbeef00 + i)))
	bc -q -a "$work/bin/pad$i" --max-size 350K
	t=$(total)
	[ "$t" -le $((350 * 1024)) ] || over="$over $i:$t"
	i=$((i + 1))
	sleep 1	# distinct last-use times
done
if [ -z "$over" ] && [ "$(entries)" -ge 2 ] && bc -l | grep -q "pad7\$" && ! bc -l | grep -q "pad0\$"; then
	ok "max-size 350K: $(entries) entries, $(total) bytes after 8 additions of ~100K; oldest evicted first"
else
	fail "max-size: over the limit at:$over; list: $(bc -l | tr '\n' '|')"
fi
bc -q -a "$work/bin/pad0"	# the limit is remembered
check "max-size is kept for later additions" test "$(total)" -le $((350 * 1024))
bc -q --max-size 1.5X 2>"$work/max-size.err"
rc=$?
expect_eq "--max-size 1.5X: exit 2, a line saying what a size is" "2 1" \
	"$rc $(grep -c "^tinyperf: buildid-cache: --max-size '1.5X': expected bytes or a number with K, M, G" "$work/max-size.err")"
bc -q --max-size 0 -P
expect_eq "purge-all" 0 "$(entries)"

# ---- two adders at once ----
mkdir -p "$work/bin/many"
i=0
while [ $i -lt 20 ]; do
	build "$work/bin/many/b$i" 1 -Wl,--build-id=0x$(printf '%040x' $((0xc0de00 + i)))
	i=$((i + 1))
done
bc -q -a "$work/bin/many" & p1=$!
bc -q --copy -a "$work/bin/many" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
tmps=$(find "$C" -name '*.tmp.*' | wc -l)
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$(entries)" = 20 ] && [ "$tmps" = 0 ] &&
   [ "$(find "$C" -name elf -size +1k | wc -l)" = 20 ]; then
	ok "two adders of one directory at once: both exit 0, 20 whole entries, no temp files"
else
	fail "concurrent adders: rc $r1/$r2, $(entries) entries, $tmps temp files"
fi
bc -q -P

# ---- perf report through the cache ----
"$rec" record -q -e cpu-clock -g -o "$work/v1.data" -- "$work/bin/prog" 1
bc -q -a "$work/bin/prog" -a /proc/kallsyms
mv "$work/bin/prog" "$work/bin/prog.away"
top=$(perf --buildid-dir "$C" report -i "$work/v1.data" --stdio --no-children --sort sym 2>/dev/null |
	grep -E '^ +[0-9.]+%' | head -n1)
mv "$work/bin/prog.away" "$work/bin/prog"
if echo "$top" | grep -q hot_a; then
	ok "perf report finds the moved binary through the cache: $(echo "$top" | tr -s ' ')"
else
	fail "perf report --buildid-dir: top entry '$top', expected hot_a"
fi

# ---- archive: only the hit DSOs ----
build "$work/bin/prog-m" 1 -Wl,--no-as-needed -lm	# libm mapped, never hit
"$rec" record -q -e cpu-clock -g -o "$work/arc.data" -- "$work/bin/prog-m" 1
"$tp" archive "$work/arc.data" --buildid-dir "" >"$work/arc.out" 2>&1
rc=$?
tar tf "$work/arc.data.tar.zst" >"$work/arc.list" 2>/dev/null
# the DSOs samples hit, at the ip or on the callchain, as Linux perf sees them
perf script -i "$work/arc.data" -F ip,dso 2>/dev/null | grep -o '([^)]*)' | tr -d '()' | sort -u \
	>"$work/arc.dsos"
hits=$(perf buildid-list -i "$work/arc.data" 2>/dev/null | while read -r i name; do
	grep -qxF "$name" "$work/arc.dsos" && echo "$i"; done | sort)
in_tar=$(sed -n 's|^\.debug/\.build-id/\(..\)/\(.*\)$|\1\2|p' "$work/arc.list" | sort)
mapped=$("$tp" dump -i "$work/arc.data" 2>/dev/null | grep -c 'libm\.so')
# libm is mapped and almost never hit; in the rare run where a sample lands in it (perf
# agrees), the archive must hold it: in the tar exactly when perf script shows it hit
libm_hit=0; grep -q 'libm' "$work/arc.dsos" && libm_hit=1
libm_tar=0; grep -q 'libm' "$work/arc.list" && libm_tar=1
# the kernel likewise: a short run can have no kernel sample at all (1 run in 10 here), and
# then the archive holds no kallsyms; when perf script shows it hit, the tar must hold it
k_hit=0; grep -qxF '[kernel.kallsyms]' "$work/arc.dsos" && k_hit=1
k_tar=0; grep -q 'kallsyms$' "$work/arc.list" && k_tar=1
if [ $rc -eq 0 ] && [ -n "$hits" ] && [ "$hits" = "$in_tar" ] && [ "$mapped" -gt 0 ] &&
   [ $libm_hit -eq $libm_tar ] && [ $k_hit -eq $k_tar ] && grep -q "^arc.data\$" "$work/arc.list" &&
   grep -q "prog-m/.*/elf\$" "$work/arc.list"; then
	ok "archive: perf.data + the $(echo "$in_tar" | wc -l) DSOs perf script shows hit (ip or callchain), libm (mapped) $([ $libm_hit -eq 1 ] && echo hit and kept || echo unhit and left out), kernel $([ $k_hit -eq 1 ] && echo hit and kept || echo unhit and left out); $(cat "$work/arc.out")"
else
	fail "archive: rc $rc, hits [$(echo $hits)] vs tar [$(echo $in_tar)], libm mapped $mapped, hit $libm_hit, in tar $libm_tar; kernel hit $k_hit, in tar $k_tar: $(tr '\n' '|' <"$work/arc.out")"
fi

# ---- unpack on a clean HOME, no sysroot, the binary gone ----
mkdir -p "$work/home" "$work/unpack"
(cd "$work/unpack" && HOME=$work/home "$tp" archive --unpack "$work/arc.data.tar.zst" >"$work/unpack.out" 2>&1)
rc=$?
"$tp" report -i "$work/arc.data" --no-children -g none -q --sort dso,sym >"$work/report.host" 2>/dev/null
mv "$work/bin/prog-m" "$work/bin/prog-m.away"
(cd "$work/unpack" && HOME=$work/home "$tp" report -i arc.data --no-children -g none --sort dso,sym \
	>"$work/report.unpacked" 2>"$work/report.unpacked.err")
mv "$work/bin/prog-m.away" "$work/bin/prog-m"
grep -v '^#' "$work/report.unpacked" | sed '/^$/d' >"$work/report.unpacked.rows"
sed '/^$/d' "$work/report.host" >"$work/report.host.rows"
if [ $rc -eq 0 ] && grep -q "prog-m: .* from $work/home/.debug/" "$work/report.unpacked" &&
   grep -q '\[\.\] hot_a' "$work/report.unpacked.rows" && grep -q '\[\.\] hot_b' "$work/report.unpacked.rows" &&
   cmp -s "$work/report.host.rows" "$work/report.unpacked.rows"; then
	ok "unpack into a clean HOME: report names hot_a/hot_b from ~/.debug, the same rows as on the recording host"
else
	fail "unpacked report: rc $rc; $(tr '\n' '|' <"$work/unpack.out"); diff: $(diff "$work/report.host.rows" "$work/report.unpacked.rows" | head -n 6 | tr '\n' '|')"
fi

# ---- a libarchive without zstd (Buildroot's host-libarchive), or without more ----
# tests/cache/nofilter.c, preloaded, makes archive_write_add_filter_<name> answer as a
# libarchive built without that library does; the archive falls back zstd -> xz -> gzip ->
# none, says which in one line, and what it wrote (by its magic) unpacks.
if cc -shared -fPIC -Wall -Wextra -Werror -o "$work/nofilter.so" "$src/tests/cache/nofilter.c" 2>"$work/nofilter.log"; then
	for no in "zstd:xz:fd377a585a00:0" "zstd xz:gzip:1f8b:0" "zstd xz gzip:no compression:7573746172:257"; do
		lacks=${no%%:*}; r=${no#*:}; want=${r%%:*}; r=${r#*:}; magic=${r%%:*}; off=${r#*:}
		case $want in xz) sfx=.xz ;; gzip) sfx=.gz ;; *) sfx= ;; esac
		rm -rf "$work/fb" && mkdir -p "$work/fb/cache" && cp "$work/arc.data" "$work/fb/"
		TP_TEST_NO_FILTERS=$lacks LD_PRELOAD="$work/nofilter.so" ASAN_OPTIONS=verify_asan_link_order=0 \
			"$tp" archive "$work/fb/arc.data" --buildid-dir "" >"$work/fb.out" 2>"$work/fb.err"
		rc=$?
		got=$(od -An -tx1 -j "$off" -N $((${#magic} / 2)) "$work/fb/arc.data.tar$sfx" 2>/dev/null | tr -d ' \n')
		(cd "$work/fb" && mv arc.data arc.data.orig &&
			"$tp" archive --unpack "arc.data.tar$sfx" --to "$work/fb/cache" >"$work/fb.unpack" 2>&1)
		urc=$?
		if [ $rc -eq 0 ] && [ "$got" = "$magic" ] && [ "$(wc -l <"$work/fb.err")" -eq 1 ] &&
		   grep -q "cannot write zstd: $want instead" "$work/fb.err" && [ $urc -eq 0 ] &&
		   cmp -s "$work/fb/arc.data" "$work/fb/arc.data.orig"; then
			ok "archive without $(echo "$lacks" | sed 's/ /, /g'): arc.data.tar$sfx ($want by its magic), unpacked; '$(cat "$work/fb.err")'"
		else
			fail "archive without $lacks: rc $rc, magic '$got' (want $magic), unpack rc $urc, stderr: $(tr '\n' '|' <"$work/fb.err")"
		fi
	done
	# asked for by name: no silent change of what the user chose, one line on what can be
	msg=$(TP_TEST_NO_FILTERS=zstd LD_PRELOAD="$work/nofilter.so" ASAN_OPTIONS=verify_asan_link_order=0 \
		"$tp" archive "$work/fb/arc.data" --zstd -o "$work/fb/asked.tar.zst" --buildid-dir "" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] && [ ! -e "$work/fb/asked.tar.zst" ] &&
	   echo "$msg" | grep -q "cannot write zstd: choose --xz, --gzip or --no-compress"; then
		ok "archive --zstd without zstd: refused in one line: '$msg'"
	else
		fail "archive --zstd without zstd: rc $rc, '$msg'"
	fi
	# reading takes whatever the library reads: the zstd archive made above, writers refused
	rm -rf "$work/fb/cache2" && mkdir -p "$work/fb/rd"
	(cd "$work/fb/rd" && TP_TEST_NO_FILTERS="zstd xz gzip" LD_PRELOAD="$work/nofilter.so" \
		ASAN_OPTIONS=verify_asan_link_order=0 \
		"$tp" archive --unpack "$work/arc.data.tar.zst" --to "$work/fb/cache2" >"$work/fb.rd" 2>&1)
	check "archive --unpack of a .tar.zst with every write filter refused" cmp -s "$work/fb/rd/arc.data" "$work/arc.data"
else
	fail "build tests/cache/nofilter.c: $(head -n 3 "$work/nofilter.log" | tr '\n' ' ')"
fi

# ---- hostile archives ----
python3 - "$work/hz" <<'EOF'
import io, os, sys, tarfile
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
def mk(name, members):
    with tarfile.open(os.path.join(d, name), 'w:gz') as t:
        for m in members:
            ti = tarfile.TarInfo(m[0])
            if m[1] == 'f':
                ti.size = 4
                t.addfile(ti, io.BytesIO(b'evil'))
            else:
                ti.type = {'l': tarfile.SYMTYPE, 'h': tarfile.LNKTYPE, 'd': tarfile.DIRTYPE}[m[1]]
                ti.linkname = m[2] if len(m) > 2 else ''
                t.addfile(ti)
out = os.path.join(os.path.dirname(d), 'outside')
mk('absolute.tar.gz', [('.debug/', 'd'), (out + '/abs', 'f')])
mk('dotdot.tar.gz', [('.debug/', 'd'), ('.debug/../../outside/dd', 'f')])
mk('symlink-escape.tar.gz', [('.debug/', 'd'), ('.debug/esc', 'l', '../../../outside'),
                             ('.debug/esc/f', 'f')])
mk('symlink-absolute.tar.gz', [('.debug/', 'd'), ('.debug/.build-id/ab/cd', 'l', out)])
mk('hardlink-escape.tar.gz', [('.debug/', 'd'), ('.debug/h', 'h', '../outside/x')])
EOF
for t in absolute dotdot symlink-escape symlink-absolute hardlink-escape; do
	mkdir -p "$work/hz/cache-$t"
	msg=$(cd "$work/hz" && "$tp" archive --unpack "$t.tar.gz" --to "$work/hz/cache-$t/c" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$msg" | grep -q "refusing the archive" &&
	   [ -z "$(ls -A "$work/outside")" ] && [ ! -e "$work/hz/cache-$t/c" ]; then
		ok "hostile archive ($t) refused, nothing written: $(echo "$msg" | sed 's/.*refusing the archive: //')"
	else
		fail "hostile archive ($t): rc $rc, '$msg', outside: $(ls -A "$work/outside")"
	fi
done

# ---- the recorder's --buildid-cache, two builds, diff ----
D=$work/dev/cache
"$rec" record -q -e cpu-clock --buildid-cache "$D" -o "$work/old.data" -- "$work/bin/prog" 1 2>"$work/rec1.err"
build "$work/bin/prog" 2	# rebuilt in place: the old binary is gone from "disk"
"$rec" record -q -e cpu-clock --buildid-cache "$D" -o "$work/new.data" -- "$work/bin/prog" 1 2>"$work/rec2.err"
n=$("$tp" buildid-cache --buildid-dir "$D" -l | grep -c "$work/bin/prog\$")
if [ "$n" = 2 ] && [ -f "$D/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)/elf" ]; then
	ok "record --buildid-cache: both builds of prog in the device's cache (perf layout)"
else
	fail "record --buildid-cache: $n entries for prog; $(cat "$work/rec1.err" "$work/rec2.err" | tr '\n' '|')"
fi
top_old=$("$tp" report -i "$work/old.data" --buildid-dir "$D" -q -g none --sort sym | head -n1)
top_new=$("$tp" report -i "$work/new.data" --buildid-dir "$D" -q -g none --sort sym | head -n1)
if echo "$top_old" | grep -q hot_a && echo "$top_new" | grep -q hot_b; then
	ok "both reports right from the cache after the rebuild: old top hot_a, new top hot_b"
else
	fail "reports from the cache: old '$top_old', new '$top_new'"
fi
"$tp" diff --buildid-dir "$D" "$work/old.data" "$work/new.data" >"$work/diff.out" 2>"$work/diff.err"
rc=$?
da=$(awk '$NF == "hot_a" {print $3}' "$work/diff.out" | tr -d '%+')
db=$(awk '$NF == "hot_b" {print $3}' "$work/diff.out" | tr -d '%+')
srcs=$(grep -c "prog: .* from $D/.build-id/" "$work/diff.out")
if [ $rc -eq 0 ] && [ "$srcs" = 2 ] && awk -v a="$da" -v b="$db" 'BEGIN { exit !(a < -35 && b > 35) }'; then
	ok "diff old new: hot_a $da points, hot_b +$db points, each side from its own build-id"
else
	fail "diff: rc $rc, hot_a '$da', hot_b '$db', sources $srcs: $(head -n 20 "$work/diff.out" | tr '\n' '|') $(cat "$work/diff.err")"
fi
if [ "$(awk '$NF == "hot_a" || $NF == "hot_b"' "$work/diff.out" | head -n2 | awk '{print $NF}' | sort | tr '\n' ' ')" = "hot_a hot_b " ]; then
	ok "diff: the two shifted symbols lead the table"
else
	fail "diff order: $(grep -v '^#' "$work/diff.out" | head -n 3 | tr '\n' '|')"
fi

done_tests
