#!/bin/sh
# SPDX-License-Identifier: MIT
# Where a recorder build's bytes go, for size work: the code bytes of each source file (from
# the DWARF line table, objdump --dwarf=decodedline; code LTO inlined elsewhere counts for
# the file it came from), .text, .rodata and the stripped file (or, packed, the packed file)
# against its budget. Several
# builds print side by side.
#   bench/size.sh BUILD_DIR...     e.g. bench/size.sh out/qemu-*-core-freestanding
# A BUILD_DIR is an O= directory of the recorder (tinyperf with its debug info, and
# tinyperf.stripped). Budgets as scripts/matrix.sh: freestanding (fs) 32 KiB, musl 64 KiB.
set -eu
[ $# -ge 1 ] || { echo "usage: bench/size.sh BUILD_DIR..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/all"
cols=
for d in "$@"; do
	d=${d%/}
	if [ ! -f "$d/tinyperf" ] || [ ! -f "$d/tinyperf.stripped" ]; then
		echo "bench/size.sh: $d has no tinyperf and tinyperf.stripped: build it first (make O=$d tinyperf.stripped)" >&2
		exit 1
	fi
	col=$(basename "$d")
	col=${col#qemu-}
	case $col in *freestanding) budget=32768 ;; *) budget=65536 ;; esac
	col=$(echo "$col" | sed 's/freestanding$/fs/')
	cols="$cols $col"
	# rows "address file" (end-of-sequence rows with file "-"), in address order; a row's
	# bytes run to the next row's address
	objdump --dwarf=decodedline "$d/tinyperf" |
		awk 'function hex(s,  i, v) { v = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		NF >= 3 && $3 ~ /^0x/ { printf "%.0f %s\n", hex($3), ($2 == "-" ? "-" : $1) }' |
		sort -n -k1,1 -s |
		awk -v c="$col" 'NR > 1 && f != "-" && $1 > a && $1 - a < 65536 { b[f] += $1 - a }
			{ a = $1; f = $2 }
			END { for (k in b) printf "%s\t%s\t%d\n", c, k, b[k] }' >>"$work/all"
	# packed (CONFIG_REC_PACK): the budget is the packed file's, the device's file
	p=0
	grep -q '^CONFIG_REC_PACK=y' "$d/.config" 2>/dev/null && p=$(stat -c %s "$d/tinyperf.packed" 2>/dev/null || echo 0)
	size -A "$d/tinyperf" | awk -v c="$col" -v s="$(stat -c %s "$d/tinyperf.stripped")" -v p="$p" -v bud=$budget '
		$1 == ".text" { t = $2 } $1 == ".rodata" { r = $2 }
		END { printf "%s\t~.text\t%d\n%s\t~.rodata\t%d\n%s\t~stripped file\t%d\n", c, t, c, r, c, s
		      if (p) { printf "%s\t~packed file\t%d\n", c, p; s = p }
		      printf "%s\t~budget\t%d\n%s\t~cut to fit (%% of file)\t%.1f\n", c, bud, c, (s > bud ? (s - bud) * 100 / s : 0) }' \
		>>"$work/all"
done
awk -F '\t' -v cols="$cols" '
	BEGIN { n = split(cols, c, " ") }
	{ v[$2, $1] = $3; seen[$2] = 1; if ($2 !~ /^~/) tot[$2] += $3 }
	END {
		printf "%-24s", "source file (code bytes)"
		for (i = 1; i <= n; i++) printf " %15s", c[i]
		printf "\n"
		# files by their total over the builds, largest first; the totals last
		m = 0
		for (k in seen) if (k !~ /^~/) key[++m] = k
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (tot[key[j]] > tot[key[i]]) { t = key[i]; key[i] = key[j]; key[j] = t }
		key[++m] = "~.text"; key[++m] = "~.rodata"; key[++m] = "~stripped file"
		if (("~packed file", c[1]) in v) key[++m] = "~packed file"
		key[++m] = "~budget"; key[++m] = "~cut to fit (% of file)"
		for (i = 1; i <= m; i++) {
			name = key[i]; sub(/^~/, "", name)
			printf "%-24s", name
			for (j = 1; j <= n; j++) printf " %15s", ((key[i], c[j]) in v ? v[key[i], c[j]] : "-")
			printf "\n"
		}
	}' "$work/all"
