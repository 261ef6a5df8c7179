#!/bin/sh
# SPDX-License-Identifier: MIT
# tinyperf annotate against its peers:
#   x86_64, this machine: tests/workloads/spin recorded by Linux perf and by the tinyperf
#     recorder; on each file, tinyperf annotate leaf lists the same instruction addresses as
#     perf annotate --stdio leaf, marks the same hottest one (if perf's top two are within
#     0.5 percent of each other, either is accepted, and the log says so), and the
#     percentages of perf's top 3 lines agree to 0.5;
#   the binary must be the verified one: with only a rebuilt copy of spin in the sysroot,
#     annotate prints one line that says so and exits non-zero (perf's file: the samples
#     stay unnamed; tinyperf's: named from the embedded symbols, still not disassembled);
#   every target arch's disassembly: tests/annotate/cross.c built with Debian's cross
#     compilers (armv7 Thumb-2 with an ARM-state function and a literal pool, aarch64,
#     MIPS big- and little-endian, i386, x86_64), each function disassembled by the
#     library (test-annotate --disasm) and by objdump from binutils-multiarch: the same
#     addresses and mnemonics, instruction for instruction, up to the aliases the two
#     spell differently (listed at canon() below); and annotate itself on a recording of
#     each arch that the harness writes (test-annotate --record: a MMAP2 of the binary with
#     its build-id, samples at three of hot's instructions), the binary in a sysroot: the
#     percentages at those instructions and objdump's addresses. No recordings from
#     tests/qemu here: those take minutes.
#
#   usage: run.sh TINYPERF TEST-ANNOTATE [RECORDER]
#     TINYPERF: the host tool; TEST-ANNOTATE: the unit test binary (its --disasm harness);
#     RECORDER: a tinyperf recorder for this machine (x86_64), else that part is skipped
#     with a failure. KEEP=1 keeps the files.
set -u
T_NAME=annotate
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

tp=${1:?usage: run.sh TINYPERF TEST-ANNOTATE [RECORDER]}
harness=${2:?usage: run.sh TINYPERF TEST-ANNOTATE [RECORDER]}
rec=${3:-}
PERF=${PERF:-perf}
OBJDUMP=${OBJDUMP:-objdump}
if [ ! -x "$tp" ] || [ ! -x "$harness" ] || ! command -v "$PERF" >/dev/null 2>&1 ||
   ! command -v "$OBJDUMP" >/dev/null 2>&1; then
	fail "setup: need $tp, $harness, $PERF and $OBJDUMP"
	done_tests
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
wl=$("$here/../workloads/build.sh" "$tmp/wl") || { fail "setup: building the workloads"; done_tests; exit 1; }

# "PERCENT ADDRESS" for each instruction line of an annotate --stdio listing
lines() { sed -n 's/^ *\([0-9][0-9.]*\) : *\([0-9a-f][0-9a-f]*\):.*/\1 \2/p' "$1"; }

# compare NAME DATA: tinyperf annotate leaf vs perf annotate --stdio leaf
compare() {
	name=$1 data=$2
	"$PERF" annotate --stdio -i "$data" leaf >"$tmp/$name.perf" 2>"$tmp/$name.perf.err"
	"$tp" annotate -i "$data" leaf >"$tmp/$name.tp" 2>"$tmp/$name.tp.err"
	rc=$?
	expect_eq "$name: tinyperf annotate leaf exits 0 (stderr: $(head -c 200 "$tmp/$name.tp.err"))" 0 "$rc"
	lines "$tmp/$name.perf" | awk '!seen[$2]++' >"$tmp/$name.p"	# leaf only: its first listing
	lines "$tmp/$name.tp" | awk '!seen[$2]++' >"$tmp/$name.t"
	if [ ! -s "$tmp/$name.p" ]; then
		fail "$name: perf annotate printed no instruction of leaf: $(tail -n 1 "$tmp/$name.perf.err")"
		return
	fi
	expect_eq "$name: the instruction addresses of leaf = perf annotate's" \
		"$(cut -d' ' -f2 "$tmp/$name.p" | tr '\n' ' ')" "$(cut -d' ' -f2 "$tmp/$name.t" | tr '\n' ' ')"
	sort -k1,1 -rn "$tmp/$name.p" >"$tmp/$name.ps"
	sort -k1,1 -rn "$tmp/$name.t" >"$tmp/$name.ts"
	set -- $(head -n 2 "$tmp/$name.ps" | tr '\n' ' ')
	p1=$1 a1=$2 p2=${3:-0} a2=${4:-none}
	t1=$(head -n 1 "$tmp/$name.ts" | cut -d' ' -f2)
	if [ "$t1" = "$a1" ]; then
		ok "$name: the hottest instruction is perf's ($a1, $p1 %)"
	elif [ "$t1" = "$a2" ] && awk -v a="$p1" -v b="$p2" 'BEGIN { exit !(a - b <= 0.5) }'; then
		ok "$name: the hottest instruction is perf's second ($a2): perf's top two are within 0.5 % ($p1, $p2)"
	else
		fail "$name: hottest instruction: expected $a1 (perf: $p1 %), got $t1"
	fi
	bad=$(head -n 3 "$tmp/$name.ps" | while read -r pp addr; do
		tt=$(awk -v a="$addr" '$2 == a { print $1 }' "$tmp/$name.t")
		awk -v p="$pp" -v t="${tt:-none}" 'BEGIN { d = p - t; if (t == "none" || d > 0.5 || d < -0.5) exit 1 }' ||
			echo "$addr: perf $pp, tinyperf ${tt:-none};"
	done)
	expect_eq "$name: perf's top 3 instructions have its percentages to 0.5" "" "$bad"
}

# ---- x86_64, this machine ----
if "$PERF" record -q -N -e cpu-clock -F 4000 -o "$tmp/perf.data" -- "$wl/spin" 1 \
	>/dev/null 2>"$tmp/perf.rec.err"; then
	compare perf-file "$tmp/perf.data"
else
	fail "perf record: $(tail -n 1 "$tmp/perf.rec.err")"
fi
if [ -n "$rec" ] && [ -x "$rec" ]; then
	if "$rec" record -e cpu-clock -F 4000 -o "$tmp/tp.data" -- "$wl/spin" 1 \
		>/dev/null 2>"$tmp/tp.rec.err"; then
		compare tinyperf-file "$tmp/tp.data"
	else
		fail "tinyperf record: $(tail -n 1 "$tmp/tp.rec.err")"
	fi
else
	fail "setup: no tinyperf recorder given (RECORDER): the tinyperf-file checks did not run"
fi

# ---- without the verified binary: a rebuilt spin (-O1) at the same path in a sysroot ----
mkdir -p "$tmp/sysroot$wl" "$tmp/nocache"
${CC:-cc} -O1 -g -pthread -o "$tmp/sysroot$wl/spin" "$here/../workloads/spin.c"
for f in perf tp; do
	[ -f "$tmp/$f.data" ] || continue
	"$tp" annotate -i "$tmp/$f.data" --sysroot "$tmp/sysroot" --buildid-dir "$tmp/nocache" \
		--offline leaf >"$tmp/$f.nobin" 2>"$tmp/$f.nobin.err"
	rc=$?
	check "$f.data, only a rebuilt spin: exit status non-zero (got $rc)" [ "$rc" -ne 0 ]
	expect_eq "$f.data, only a rebuilt spin: one line on stderr" 1 "$(wc -l <"$tmp/$f.nobin.err")"
	check "$f.data, only a rebuilt spin: the line says so ($(head -c 160 "$tmp/$f.nobin.err"))" \
		grep -q "spin.*no verified binary" "$tmp/$f.nobin.err"
	expect_eq "$f.data, only a rebuilt spin: nothing on stdout" 0 "$(wc -c <"$tmp/$f.nobin")"
done

# ---- every arch's disassembly against objdump ----
# What the two spell differently for the same instruction, made one on both sides:
#   objdump's ".n" (a narrow Thumb encoding) is not part of the mnemonic;
#   AArch64: Capstone 4 names movz/movn, objdump their preferred alias mov;
#   MIPS: "addiu rt, zero, imm" is objdump's li; x86: 66 90 is Capstone's nop, objdump's
#   xchg %ax,%ax.
canon() { # FILE (address<TAB>mnemonic<TAB>operands) -> "address mnemonic"
	awk -F'\t' '{
		m = $2; o = $3
		sub(/\.n$/, "", m)
		if (m == "movz" || m == "movn") m = "mov"
		if (m == "addiu" && (o ~ /, \$zero, / || o ~ /,zero,/)) m = "li"
		if (m == "xchg" && o == "%ax,%ax") m = "nop"
		print $1, m
	}' "$1"
}
objdump_fn() { # ELF START END
	"$OBJDUMP" -d --no-show-raw-insn --start-address="$2" --stop-address="$3" "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ {
			a = $1; sub(/^ */, "", a); sub(/:$/, "", a)
			m = $2; sub(/ +$/, "", m); o = $3
			if (o == "" && m ~ / /) {	# x86: "mov    %rdi,%rax" in one field
				o = m; sub(/^[^ ]+ +/, "", o); sub(/ .*/, "", m)
			}
			sub(/[ \t]*[#@;].*$/, "", o)
			print a "\t" m "\t" o
		}'
}
steps_of_4() { # FILE: each address 4 above the one before
	prev=
	for a in $(cut -f1 "$1"); do
		[ -z "$prev" ] || [ $((0x$a - 0x$prev)) -eq 4 ] || return 1
		prev=$a
	done
	[ -n "$prev" ]
}
for t in "armv7-thumb2 arm-linux-gnueabihf-gcc -mthumb" "aarch64 aarch64-linux-gnu-gcc" \
	 "mips-be mips-linux-gnu-gcc" "mipsel mipsel-linux-gnu-gcc" "i386 i686-linux-gnu-gcc" \
	 "x86_64 ${CC:-cc}"; do
	set -- $t
	arch=$1 cc=$2
	shift 2
	elf=$tmp/cross-$arch
	if ! command -v "$cc" >/dev/null 2>&1 ||
	   ! "$cc" -O2 -g "$@" -nostdlib -static -Wl,-e,_start -o "$elf" "$here/cross.c" 2>"$elf.err"; then
		fail "$arch: building cross.c with $cc: $(tail -n 1 "$elf.err")"
		continue
	fi
	for fn in hot pick in_arm _start; do
		# (readelf prints a Thumb function's address with bit 0 set: the library finds
		# that out by itself, it is given the even address)
		set -- $(readelf -sW "$elf" | awk -v f="$fn" '$4 == "FUNC" && $8 == f { print $2, $3 }')
		if [ $# -ne 2 ]; then
			fail "$arch: no function $fn in $elf"
			continue
		fi
		start=$(( (0x$1) & ~1 ))
		end=$((start + $2))
		"$harness" --disasm "$elf" "$start" "$2" >"$elf.$fn.t" 2>"$elf.$fn.err" ||
			{ fail "$arch $fn: test-annotate --disasm: $(cat "$elf.$fn.err")"; continue; }
		objdump_fn "$elf" "$start" "$end" >"$elf.$fn.o"
		canon "$elf.$fn.t" >"$elf.$fn.tc"
		canon "$elf.$fn.o" >"$elf.$fn.oc"
		if [ -s "$elf.$fn.oc" ] && cmp -s "$elf.$fn.tc" "$elf.$fn.oc"; then
			ok "$arch $fn: $(wc -l <"$elf.$fn.oc") instructions, addresses and mnemonics = objdump's"
		else
			fail "$arch $fn: expected objdump's (<), got ($(diff "$elf.$fn.oc" "$elf.$fn.tc" | grep '^[<>]' | head -n 4 | tr '\n' ';'))"
		fi
	done
	# annotate itself on a recording of this arch (made by the harness: 60, 30 and 10
	# samples at hot's 2nd, 4th and last instructions, the binary in a sysroot and
	# identified by its build-id): those percentages there, objdump's addresses
	bid=$(readelf -n "$elf" | sed -n 's/.*Build ID: *//p')
	set -- $(cut -f1 "$elf.hot.t" | sed -n '2p;4p;$p')
	mkdir -p "$tmp/sr-$arch/usr/bin"
	cp "$elf" "$tmp/sr-$arch/usr/bin/cross"
	if [ $# -eq 3 ] && [ -n "$bid" ] &&
	   "$harness" --record "$elf" /usr/bin/cross "$bid" "$elf.data" "0x$1:60" "0x$2:30" "0x$3:10" \
		2>"$elf.rec.err"; then
		"$tp" annotate -i "$elf.data" --sysroot "$tmp/sr-$arch" --buildid-dir "$tmp/nocache" \
			--offline hot >"$elf.ann" 2>"$elf.ann.err"
		expect_eq "$arch: annotate hot on a recording: exit 0 ($(head -c 160 "$elf.ann.err"))" 0 $?
		expect_eq "$arch: annotate hot: 60/30/10 % at the sampled instructions" \
			"60.00 $1 30.00 $2 10.00 $3" \
			"$(lines "$elf.ann" | awk '$1 != "0.00"' | tr '\n' ' ' | sed 's/ $//')"
		expect_eq "$arch: annotate hot: the instruction addresses are objdump's" \
			"$(cut -d' ' -f1 "$elf.hot.oc" | tr '\n' ' ')" \
			"$(lines "$elf.ann" | cut -d' ' -f2 | tr '\n' ' ')"
	else
		fail "$arch: making a recording of hot: $(head -c 200 "$elf.rec.err")"
	fi
	if [ "$arch" = armv7-thumb2 ]; then
		# the states the mapping symbols give: in_arm in ARM state, the rest Thumb, and
		# pick's literal pool kept as data
		check "$arch: in_arm decoded in ARM state (4-byte instructions)" \
			steps_of_4 "$elf.in_arm.t"
		check "$arch: pick's literal pool is data (.word)" grep -q '	\.word	' "$elf.pick.t"
	fi
done

done_tests
