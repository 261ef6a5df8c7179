# SPDX-License-Identifier: MIT
# Sourced by peer.sh (its tmp, wl, tp, rec, prec and trec): symbols from elsewhere.
#   a stripped binary resolves from --sysroot holding the unstripped copy;
#   a rebuilt binary in the sysroot is refused, named, and its samples stay unresolved
#     (but for the PLT stubs the recording embedded, if a sample hit one);
#   the same for a binary without a build-id, recorded by tinyperf (its text hash);
#   kernel samples resolve against a kallsyms file of a kernel relocated elsewhere.
# ~/.debug may hold copies from earlier recordings: --buildid-dir '' keeps it out.
# shellcheck shell=sh

dev=$tmp/dev			# where the program ran on the "device"
good=$tmp/sysroot		# a sysroot with its unstripped copy
bad=$tmp/sysroot-rebuilt	# a sysroot with a rebuilt (different) one
mkdir -p "$dev/bin" "$good$dev/bin" "$bad$dev/bin"
cc=${CC:-cc}
build() { # OUT EXTRA-FLAGS...: the spin workload
	out=$1
	shift
	$cc -g -fno-omit-frame-pointer -pthread "$@" -o "$out" "$src/tests/workloads/spin.c"
}

sym_report() { # FILE ARGS...: dso,sym entries by self, with the header
	f=$1
	shift
	"$tp" report -i "$f" --sort dso,sym --no-children -g none --buildid-dir '' --offline "$@" \
		2>/dev/null
}

ksym_report() { # FILE ARGS...: sym entries by self, with the header
	f=$1
	shift
	"$tp" report -i "$f" --sort sym --no-children -g none --buildid-dir '' --offline "$@" \
		2>/dev/null
}

check_sysroot() { # NAME FILE PROOF: stripped unresolved alone, resolved with the sysroot
	name=$1 f=$2 proof=$3
	if sym_report "$f" | grep -q '\[\.\] leaf$'; then
		fail "$name: the stripped binary alone should not name leaf"
	else
		ok "$name: the stripped binary alone leaves its samples unresolved"
	fi
	sym_report "$f" --sysroot "$good" >"$tmp/sr.rep"
	check "$name: --sysroot with the unstripped copy names leaf" grep -q '\[\.\] leaf$' "$tmp/sr.rep"
	check "$name: the header says where leaf came from ($proof)" \
		grep -q "^#   $dev/bin/app: .* from $good$dev/bin/app.*$proof" "$tmp/sr.rep"
}

check_refused() { # NAME FILE WHAT: the rebuilt copy is refused, named, and not used
	name=$1 f=$2 what=$3
	sym_report "$f" --sysroot "$bad" >"$tmp/rb.rep"
	line=$(grep "^#   $dev/bin/app: " "$tmp/rb.rep")
	# a recording whose samples hit one of app's PLT stubs embeds that stub's name: then the
	# embedded symbols serve app, and the line still names the refused copy
	case $line in
	*"$what"*"$bad$dev/bin/app"*"samples unresolved"* | \
	*"from the recording (embedded), "*"; not used: $what"*"$bad$dev/bin/app"*)
		ok "$name: the rebuilt binary is refused, named: ${line#\#   }";;
	*)
		fail "$name: expected a '$what' line naming $bad$dev/bin/app, got '$line'";;
	esac
	if grep -q '\[\.\] \(leaf\|mid\|worker\)$' "$tmp/rb.rep"; then
		fail "$name: samples of the refused binary got names: $(grep -m1 '\[\.\] leaf' "$tmp/rb.rep")"
	elif grep -q "app *\[\.\] 0x" "$tmp/rb.rep"; then
		ok "$name: its samples show as unresolved addresses"
	else
		fail "$name: no unresolved app entries in: $(grep app "$tmp/rb.rep" | head -n 2 | tr '\n' ' ')"
	fi
}

# with a build-id, recorded by perf
build "$good$dev/bin/app" -O2
strip -o "$dev/bin/app" "$good$dev/bin/app"
build "$bad$dev/bin/app" -O1
if prec strip -g -e cpu-clock -F 2000 -o "$tmp/strip.data" -- "$dev/bin/app" 0.3; then
	check_sysroot strip "$tmp/strip.data" "build-id verified"
	check_refused strip "$tmp/strip.data" "build-id mismatch"
fi

# without a build-id, recorded by tinyperf: its text hash proves the copy
if [ -n "$rec" ]; then
	build "$good$dev/bin/app" -O2 -Wl,--build-id=none
	strip -o "$dev/bin/app" "$good$dev/bin/app"
	build "$bad$dev/bin/app" -O1 -Wl,--build-id=none
	if trec nobid -e cpu-clock -g -o "$tmp/nobid.data" -- "$dev/bin/app" 0.3; then
		check_sysroot nobid "$tmp/nobid.data" "text hash verified"
		check_refused nobid "$tmp/nobid.data" "text hash mismatch"
	fi
fi

# the kernel: a captured kallsyms, every address moved by 16 MiB as another boot's KASLR
# would; the recording's _text reference must put each sample back on the same symbol
if prec ksym -e cpu-clock -F 4000 -o "$tmp/ksym.data" -- "$wl/sysc" 0.3 &&
   python3 -c '
import sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    a, rest = line.split(" ", 1)
    out.write("%016x %s" % (int(a, 16) + (16 << 20), rest))' /proc/kallsyms "$tmp/kallsyms.moved"; then
	ksym_report "$tmp/ksym.data" --kallsyms /proc/kallsyms | grep '\[k\]' >"$tmp/k1"
	ksym_report "$tmp/ksym.data" --kallsyms "$tmp/kallsyms.moved" >"$tmp/k2.rep"
	grep '\[k\]' "$tmp/k2.rep" >"$tmp/k2"
	if [ -s "$tmp/k1" ] && ! grep -q '\[k\] 0x' "$tmp/k1" && cmp -s "$tmp/k1" "$tmp/k2"; then
		ok "ksym: a kallsyms relocated by 16 MiB names the kernel samples as the live one ($(wc -l <"$tmp/k1") symbols)"
	else
		fail "ksym: relocated kallsyms: $(diff "$tmp/k1" "$tmp/k2" | head -n 4 | tr '\n' ' ')"
	fi
	check "ksym: the header says the kallsyms was relocated" \
		grep -q "^#   \[kernel.kallsyms\]: kallsyms from $tmp/kallsyms.moved, relocated by -16777216" "$tmp/k2.rep"
	perf_k=$("$PERF" report --stdio --sort sym --no-children -g none -i "$tmp/ksym.data" 2>/dev/null |
		 grep '\[k\]' | sed 's/^ *[0-9.]*% *//; s/ *$//' | sort)
	our_k=$(sed 's/^ *[0-9.]*% *//; s/ *$//' "$tmp/k2" | sort)
	expect_eq "ksym: the same kernel symbols as perf with the live kernel" "$perf_k" "$our_k"
else
	fail "ksym: recording, or moving /proc/kallsyms (python3)"
fi
