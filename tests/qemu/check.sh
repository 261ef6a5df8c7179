# SPDX-License-Identifier: MIT
# Host-side checks of one board's recordings. Sourced by run.sh after board_load and
# guest.sh; prints one [OK]/[FAIL]/[SKIP]/[WARN] line per check, "<board> <what>: ...".
#
# Swappable pieces, each a few functions:
#   receive   serial captures -> perf.data: 'tinyperf recv --from-file'      (recv_capture)
#   report    'tinyperf report --sysroot --kallsyms' (tp_report*, used when the host tool has
#             it) and Linux perf with --symfs and --kallsyms, the peer (rep_*), which also
#             does what needs every sample: callchains, tracepoints, the kernel IP lookup
#   identity  build-ids: Linux perf and tinyperf buildid-list against readelf -n of the
#             unstripped copy; tinyperf report's "build-id verified"
#   pictures  tinyperf flamegraph and pprof of a recording (check_render), checked with
#             tests/render's svgcheck.py and go tool pprof
#   unwind    'tinyperf script --sysroot' on the --call-graph dwarf recording (tp_unwound,
#             check_dwarf), also against sysroot copies: EHABI-only and rebuilt (armv7)
# shellcheck shell=sh

# ---- report (Linux perf) ----

# isolate perf from the host's build-id cache and its own kernel
rep_env() { PERF_BUILDID_DIR=$C_WORK/.debug "$@"; }

# rep_read FILE: perf report reads FILE without a warning (stderr in $C_WORK/rep.err). Two
# warnings are perf's own: Debian's perf has no libunwind for arm64 and says so for every
# arm64 file, though only --call-graph=dwarf would need it; and for a 32-bit process's vdso
# perf runs its i386 helper perf-read-vdso32 (for this host's own 32-bit vdso, not the
# guest's), which a kernel that runs no 32-bit programs refuses (tests/lib.sh's ia32_ok)
rep_read() {
	rep_env perf report --stdio -i "$1" --symfs "$C_SYSROOT" --kallsyms "$C_KALLSYMS" \
		>"$C_WORK/rep.out" 2>"$C_WORK/rep.all" || { cp "$C_WORK/rep.all" "$C_WORK/rep.err"; return 1; }
	grep -v -e '^unwind: target platform=[a-z0-9_]* is not supported$' \
		-e '^sh: [0-9]*: perf-read-vdso32: Exec format error$' "$C_WORK/rep.all" >"$C_WORK/rep.err"
	! [ -s "$C_WORK/rep.err" ]
}
# rep_top FILE N: the N symbols with the most samples, "sym|sym|..."
rep_top() {
	rep_env perf report --stdio --no-children -g none --sort sym -i "$1" --symfs "$C_SYSROOT" \
		--kallsyms "$C_KALLSYMS" 2>/dev/null | top_of "$2"
}
# rep_samples FILE: the number of samples perf sees
rep_samples() { rep_env perf script -i "$1" -F tid 2>/dev/null | grep -c .; }
# rep_lost FILE: perf's count of lost samples
rep_lost() { awk '/^# Total Lost Samples:/ { print $5; exit }' "$C_WORK/rep.out"; }
# rep_kernel_ips FILE: "ip symbol" of every kernel sample (the sampled IP only)
rep_kernel_ips() {
	rep_env perf script -i "$1" -F ip,sym,dso -G --symfs "$C_SYSROOT" --kallsyms "$C_KALLSYMS" 2>/dev/null |
		awk '/\[kernel\.kallsyms\]/ { print $1, $2 }'
}
# rep_chains FILE SYM: of the samples whose leaf is SYM, "total with-caller" where
# with-caller counts those whose user callchain names a workload function above SYM
rep_chains() {
	rep_env perf script -i "$1" -F ip,sym --symfs "$C_SYSROOT" --kallsyms "$C_KALLSYMS" 2>/dev/null |
		awk -v leaf="$2" '
		function flush() { if (first == leaf) { t++; if (caller) c++ } first = ""; caller = 0; n = 0 }
		/^$/ { flush(); next }
		NF >= 2 { n++; if (n == 1) first = $2
			else if ($2 ~ /^(mid|worker|main|start_thread)$/) caller = 1 }
		END { flush(); print t + 0, c + 0 }'
}
# rep_tracepoint FILE: the first decoded sched_switch line
rep_tracepoint() {
	rep_env perf script -i "$1" -G 2>/dev/null | grep -m1 'sched:sched_switch: prev_comm=.* prev_pid=[0-9]* .*==> next_comm=.* next_pid=[0-9]*'
}
# rep_event FILE: the event names in the file
rep_event() { rep_env perf evlist -i "$1" 2>/dev/null | grep -v '^#' | tr '\n' ' '; }
# rep_buildid FILE PATH: the build-id perf lists for PATH
rep_buildid() { rep_env perf buildid-list -i "$1" 2>/dev/null | awk -v p="$2" '$2 == p { print $1; exit }'; }

# ---- report (tinyperf) ----

tp_has_report() { [ -x "$C_TP" ] && "$C_TP" report --help >/dev/null 2>&1; }
# tp_report FILE: tinyperf report by symbol, header included, into $C_WORK/tp.out
tp_report() {
	"$C_TP" report -i "$1" --sysroot "$C_SYSROOT" --kallsyms "$C_KALLSYMS" --buildid-dir '' \
		--offline --no-children -g none -s sym >"$C_WORK/tp.out" 2>"$C_WORK/tp.err"
}
# tp_top N: the N first symbols of the last tp_report
tp_top() { top_of "$1" <"$C_WORK/tp.out"; }
# tp_dso PATH: what the last tp_report says about PATH's symbols ("debuginfo from ..., build-id
# verified")
tp_dso() { sed -n "s|^#   $1: ||p" "$C_WORK/tp.out" | head -n1; }
# tp_kernel_unresolved: the percentage of kernel samples tinyperf left as bare addresses
tp_kernel_unresolved() {
	awk '/^ +[0-9.]+% +\[k\]/ { p = $1; sub(/%/, "", p); all += p; if ($3 ~ /^0x/) bad += p }
	     END { if (all > 0) printf "%d\n", 100 * bad / all; else print "none" }' "$C_WORK/tp.out"
}

# top_of N: "sym|sym|..." from report lines "  12.3%  [.] sym" on stdin
top_of() {
	awk -v n="$1" '/^ +[0-9.]+%/ { i = 2; if ($2 ~ /^\[.\]$/) i = 3; s = $i
		for (j = i + 1; j <= NF; j++) s = s " " $j
		out = out (c++ ? "|" : "") s; if (c == n) exit } END { print out }'
}

# ---- identity (tinyperf's own reader too) ----

tp_buildid() { "$C_TP" buildid-list -i "$1" 2>/dev/null | awk -v p="$2" '$2 == p { print $1; exit }'; }
elf_buildid() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -n1; }

# ---- receive ----

# recv_capture CAPTURE OUTDIR: the one session in CAPTURE saved as a perf.data; prints its
# path. recv's messages in OUTDIR.err, console text in OUTDIR.text.
recv_capture() {
	rm -rf "$2" && mkdir -p "$2"
	"$C_TP" recv --from-file "$1" -o "$2" >"$2.text" 2>"$2.err" || return 1
	find "$2" -name '*.data' | head -n1
}

# ---- the checks ----

# kernel_check FILE: how many kernel sample IPs perf names, and whether each name is the one
# the captured kallsyms gives for that address (looked up here independently: hex strings
# of one width compare like the numbers, so awk needs no 64-bit arithmetic)
kernel_check() {
	rep_kernel_ips "$1" >"$C_WORK/kips"
	awk 'NR == FNR { if ($2 ~ /^[tTwW]$/) { a[n] = $1; s[n++] = $3 } next }
	     FNR == 1 { w = length(a[0]) }
	     { ip = sprintf("%" w "s", $1); gsub(/ /, "0", ip); total++
	       if ($2 == "[unknown]" || $2 ~ /^0x/) next
	       named++; lo = 0; hi = n - 1
	       while (lo < hi) { mid = int((lo + hi + 1) / 2); if (a[mid] <= ip) lo = mid; else hi = mid - 1 }
	       ok = 0; for (i = lo; i >= 0 && a[i] == a[lo]; i--) if (s[i] == $2) ok = 1
	       if (ok) agree++; else if (!bad) bad = $1 " perf:" $2 " kallsyms:" s[lo] }
	     END { printf "%d %d %d %s\n", total, named, agree, bad }' \
		"$(sort_kallsyms)" "$C_WORK/kips"
}
# kernel_reloc FILE: "REF PGOFF KALLSYMS-ADDRESS" for the kernel's MMAP record: the recorder
# names the reference symbol (_text, else _stext) and puts its running address in pgoff,
# which is how a reader relocates kernel symbols (KASLR moves the kernel on i386 and arm64)
kernel_reloc() {
	kr_line=$(rep_env perf script --show-mmap-events -i "$1" 2>/dev/null | grep -m1 'MMAP.*\[kernel\.kallsyms\]')
	kr_ref=${kr_line##*\[kernel.kallsyms\]}
	kr_pgoff=$(echo "$kr_line" | sed -n 's/.* @ 0x\([0-9a-f]*\)\].*/\1/p')
	kr_want=$(awk -v r="${kr_ref:-none}" '$3 == r { print $1; exit }' "$C_KALLSYMS")
	echo "${kr_ref:-none} $(echo "${kr_pgoff:-none}" | sed 's/^0*//') $(echo "${kr_want:-none}" | sed 's/^0*//')"
}
sort_kallsyms() {
	[ -f "$C_WORK/kallsyms.sorted" ] || LC_ALL=C sort -k1,1 "$C_KALLSYMS" >"$C_WORK/kallsyms.sorted"
	echo "$C_WORK/kallsyms.sorted"
}

# rec_line NAME: the recorder's closing line "N samples, L lost"
rec_counts() { sed -n 's/^\[ tinyperf record: \([0-9]*\) samples, \([0-9]*\) lost.*/\1 \2/p' "$C_FILES/$1.log" 2>/dev/null; }

# check_recording NAME FILE HOT: perf reads FILE as its own, with the recorder's sample count,
# no loss, and HOT (a regex) on top; sets C_TOP
check_recording() {
	cr_n=$1 cr_f=$2 cr_hot=$3
	set -- $(rec_counts "$cr_n")
	cr_rs=${1:-} cr_rl=${2:-}
	C_TOP=
	if [ -z "$cr_rs" ]; then
		fail "$B_NAME $cr_n: the recorder did not finish: $(tail -n 3 "$C_FILES/$cr_n.log" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	if ! rep_read "$cr_f"; then
		fail "$B_NAME $cr_n: perf report does not read it: $(head -n 2 "$C_WORK/rep.err" | tr '\n' ' ')"
		return 1
	fi
	cr_ps=$(rep_samples "$cr_f") cr_pl=$(rep_lost)
	C_TOP=$(rep_top "$cr_f" 3)
	C_SAMPLES="$C_SAMPLES $cr_n:$cr_ps"
	[ "$cr_rl" = 0 ] && [ "${cr_pl:-0}" = 0 ] || C_LOST="$C_LOST $cr_n:$cr_rl"
	if [ "$cr_rs" -eq 0 ] || [ "$cr_ps" != "$cr_rs" ] || [ "$cr_rl" != 0 ] || [ "${cr_pl:-0}" != 0 ]; then
		fail "$B_NAME $cr_n: recorder: $cr_rs samples, $cr_rl lost; perf: $cr_ps samples, ${cr_pl:-?} lost"
		return 1
	fi
	if [ -n "$cr_hot" ] && ! echo "|$C_TOP|" | grep -Eq "\|($cr_hot)\|"; then
		fail "$B_NAME $cr_n: expected $cr_hot among perf's top 3 symbols, got: $C_TOP"
		return 1
	fi
	cr_tp=
	if tp_has_report; then
		if ! tp_report "$cr_f"; then
			fail "$B_NAME $cr_n: tinyperf report fails: $(head -n 2 "$C_WORK/tp.err" | tr '\n' ' ')"
			return 1
		fi
		C_TP_TOP=$(tp_top 3)
		if [ -n "$cr_hot" ] && ! echo "|$C_TP_TOP|" | grep -Eq "\|($cr_hot)\|"; then
			fail "$B_NAME $cr_n: expected $cr_hot among tinyperf report's top 3 symbols, got: $C_TP_TOP"
			return 1
		fi
		cr_tp=", tinyperf report --sysroot: ${C_TP_TOP%%|*}"
	fi
	ok "$B_NAME $cr_n: $cr_ps samples, 0 lost, perf reads it; top: ${C_TOP%%|*}$cr_tp"
}

check_buildid() { # NAME FILE GUEST-PATH
	cb_want=$(elf_buildid "$C_SYSROOT$3") cb_pb=$(rep_buildid "$2" "$3") cb_tb=$(tp_buildid "$2" "$3")
	cb_rep=verified
	# tinyperf report must have used the sysroot copy, and said it proved it by build-id
	tp_has_report && cb_rep=$(tp_report "$2" && tp_dso "$3")
	if [ -n "$cb_want" ] && [ "$cb_pb" = "$cb_want" ] && [ "$cb_tb" = "$cb_want" ] &&
	   echo "$cb_rep" | grep -q 'verified'; then
		ok "$B_NAME $1: build-id of $3 matches the unstripped copy (perf, tinyperf; report: ${cb_rep##*, }): $cb_want"
		C_BID=ok
	else
		fail "$B_NAME $1: build-id of $3: unstripped copy ${cb_want:-none}, perf lists ${cb_pb:-none}, tinyperf lists ${cb_tb:-none}; tinyperf report: ${cb_rep:-nothing}"
		C_BID=FAIL
	fi
}

check_kernel() { # NAME FILE
	ck_f=$2
	set -- "$1" "$2" $(kernel_check "$2")
	ck_total=$3 ck_named=$4 ck_agree=$5
	shift 5
	ck_bad=$*
	ck_tp=0 ck_tpmsg=
	if tp_has_report && tp_report "$ck_f"; then
		ck_tp=$(tp_kernel_unresolved)
		ck_tpmsg="; tinyperf report leaves $ck_tp% of kernel samples unnamed"
	fi
	set -- - - $(kernel_reloc "$ck_f")	# $3 ref, $4 pgoff, $5 address in kallsyms
	if [ "$3" = none ] || [ "$4" != "$5" ]; then
		fail "$B_NAME kernel relocation: the kernel MMAP's reference symbol ${3} is at 0x$5 in kallsyms, its pgoff says 0x$4"
		C_KSYM=FAIL
		return
	fi
	ok "$B_NAME kernel relocation: the kernel MMAP's pgoff is the running address of $3 (0x$4, from kallsyms)"
	if [ "$ck_total" -gt 0 ] && [ $((ck_named * 100)) -ge $((ck_total * 95)) ] &&
	   [ $((ck_agree * 100)) -ge $((ck_named * 99)) ] && [ "$ck_tp" != none ] && [ "$ck_tp" -le 5 ]; then
		ok "$B_NAME kernel symbols: perf names $ck_named/$ck_total kernel samples from the captured kallsyms, $ck_agree agree with an independent lookup$ck_tpmsg"
		C_KSYM="$ck_named/$ck_total"
	else
		fail "$B_NAME kernel symbols: $ck_total kernel samples, perf names $ck_named, $ck_agree agree with kallsyms${ck_bad:+ (first disagreement: $ck_bad)}$ck_tpmsg"
		C_KSYM=FAIL
	fi
}

# check_callchain NAME FILE: a -g (frame pointer) recording's user callchains walk up from
# leaf to the workload's callers. Only where the kernel walks user frame pointers
# (B_CALLCHAIN fp); elsewhere (MIPS) user callchains come from --call-graph dwarf, and
# check_dwarf's host-unwinder check is the board's callchain check (C_CHAIN "dw:N/M").
check_callchain() { # NAME FILE
	[ "$B_CALLCHAIN" = fp ] || return 0
	set -- $(rep_chains "$2" leaf)
	if [ "${1:-0}" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 80)) ]; then
		ok "$B_NAME callchains: $2 of $1 samples in leaf walk up to the workload's callers"
		C_CHAIN="$2/$1"
	else
		fail "$B_NAME callchains: only ${2:-0} of ${1:-0} samples in leaf have a caller in the workload"
		C_CHAIN=FAIL
	fi
}

# leaf_to_main: "total to-main" from perf script -F ip,sym stacks on stdin: of the samples
# whose first frame is leaf, how many have main above it
leaf_to_main() {
	awk 'function flush() { if (first == "leaf") { t++; if (m) c++ } first = ""; m = 0; n = 0 }
	/^$/ { flush(); next }
	NF >= 2 { n++; if (n == 1) first = $2; else if ($2 == "main") m = 1 }
	END { flush(); print t + 0, c + 0 }'
}
# dwarf_unwound FILE: leaf_to_main of the stacks perf unwinds (--call-graph dwarf: from the
# registers and stack)
dwarf_unwound() {
	rep_env perf script -i "$1" --no-inline -F ip,sym --symfs "$C_SYSROOT" --kallsyms "$C_KALLSYMS" 2>/dev/null |
		leaf_to_main
}
# tp_unwound FILE SYSROOT: leaf_to_main of the stacks the host tinyperf unwinds with the
# binaries under SYSROOT; its messages in $C_WORK/tpuw.err
tp_unwound() {
	"$C_TP" script -i "$1" -F ip,sym --sysroot "$2" --kallsyms "$C_KALLSYMS" --buildid-dir '' \
		--offline 2>"$C_WORK/tpuw.err" | leaf_to_main
}

# check_dwarf NAME FILE: a --call-graph dwarf recording of nofp (no frame pointers): perf reads
# it; the attrs carry this arch's register mask (arch/*/abi.h) and the default stack size
# (recorder/events/events.h); every user-mode sample holds the registers and that many stack
# bytes; the host tinyperf unwinds >= 95 % of leaf's samples up to main through the sysroot's
# unstripped nofp (on MIPS, whose kernel records no user callchain, that is the board's
# callchain check), and so does Linux perf where it unwinds this arch (B_PERF_DWARF). ARM:
# check_exidx and check_rebuilt too.
check_dwarf() {
	check_recording "$1" "$2" leaf || return
	cd_mask=$(sed -n 's/^#define TP_PERF_REGS_USER[[:space:]]*\(0x[0-9a-f]*\)ULL.*/\1/p' \
		"$src/arch/$B_ARCH/abi.h")
	cd_size=$(sed -n 's/^#define EVS_STACK_DEFAULT[[:space:]]*\([0-9]*\).*/\1/p' "$src/recorder/events/events.h")
	cd_ev=$(rep_env perf evlist -v -i "$2" 2>/dev/null | head -n1)
	cd_nregs=$(python3 -c "print(bin($cd_mask).count('1'))")
	# header, IP TID TIME CPU PERIOD, callchain nr (0), abi, the registers, size, stack, dyn_size
	cd_want=$((8 + 40 + 8 + 8 + 8 * cd_nregs + 8 + cd_size + 8))
	cd_sizes=$(rep_env perf report -D -i "$2" 2>/dev/null |
		sed -n 's/.*\[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE(IP, 0x2).*/\1/p' | sort -u | tr '\n' ' ')
	if echo "$cd_ev" | grep -q "sample_regs_user: $cd_mask, sample_stack_user: $cd_size\$" &&
	   echo "$cd_ev" | grep -q 'REGS_USER|STACK_USER' &&
	   [ "$cd_sizes" = "$(printf '0x%x ' $cd_want)" ]; then
		ok "$B_NAME $1: sample_regs_user $cd_mask ($cd_nregs registers), sample_stack_user $cd_size; every user sample $cd_want bytes"
	else
		fail "$B_NAME $1: want regs $cd_mask, stack $cd_size, user samples of $cd_want bytes; got: $cd_ev; sizes $cd_sizes"
	fi
	cd_n=$1 cd_f=$2
	if [ -n "$B_PERF_DWARF" ]; then
		set -- $(dwarf_unwound "$cd_f")
		if [ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 95)) ]; then
			ok "$B_NAME $cd_n: perf unwinds $2 of $1 samples in leaf to main (no frame pointers)"
		else
			fail "$B_NAME $cd_n: perf unwinds only $2 of $1 samples in leaf to main"
		fi
	fi
	if ! tp_has_report; then
		fail "$B_NAME $cd_n: no host tinyperf at $C_TP to unwind it"
		return
	fi
	set -- $(tp_unwound "$cd_f" "$C_SYSROOT")
	cd_why=
	[ "$B_CALLCHAIN" = fp ] || { cd_why=" (this board's callchain check: $B_CALLCHAIN)"; C_CHAIN="dw:$2/$1"; }
	if [ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 95)) ]; then
		ok "$B_NAME $cd_n: tinyperf (host unwinder, --sysroot) unwinds $2 of $1 leaf samples to main$cd_why"
	else
		fail "$B_NAME $cd_n: tinyperf (host unwinder, --sysroot) unwinds only $2 of $1 leaf samples to main: $(head -n 2 "$C_WORK/tpuw.err" | tr '\n' ' ')"
		[ -z "$cd_why" ] || C_CHAIN=FAIL
	fi
	if [ "$B_ARCH" = arm ]; then
		check_exidx "$cd_n" "$cd_f"
		check_rebuilt "$cd_n" "$cd_f"
	fi
}

# the cross tools the board's recorder was built with (rec/.config beside the sysroot)
board_cross() { sed -n 's/^CONFIG_ARCH_CROSS_COMPILE="\(.*\)"$/\1/p' "${C_SYSROOT%/sysroot}/rec/.config"; }

# check_exidx NAME FILE: ARM EHABI alone. A sysroot copy whose nofp has no .eh_frame,
# .eh_frame_hdr nor .debug_frame (objcopy; the build-id note kept, so still the recorded
# binary) but its .ARM.exidx, which covers leaf (nofp is built -funwind-tables on armv7):
# the host unwinds >= 95 % of leaf's samples up to main from it.
check_exidx() {
	ce_root=$C_WORK/sysroot-exidx ce_bin=$C_WORK/sysroot-exidx/bin/nofp
	rm -rf "$ce_root" && mkdir -p "$ce_root/bin"
	if ! "$(board_cross)objcopy" --remove-section .eh_frame --remove-section .eh_frame_hdr \
		--remove-section .debug_frame "$C_SYSROOT/bin/nofp" "$ce_bin" 2>"$C_WORK/exidx.err"; then
		fail "$B_NAME $1 EHABI only: $(board_cross)objcopy failed: $(head -n 1 "$C_WORK/exidx.err")"
		return
	fi
	ce_secs=$(readelf -SW "$ce_bin" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\.(eh_frame|eh_frame_hdr|debug_frame|ARM\.exidx)$/) printf "%s ", $i }')
	ce_bid=$(elf_buildid "$ce_bin") ce_want=$(elf_buildid "$C_SYSROOT/bin/nofp")
	if [ "$ce_secs" != ".ARM.exidx " ] || [ -z "$ce_want" ] || [ "$ce_bid" != "$ce_want" ] ||
	   ! readelf -u "$ce_bin" | grep -q '^0x[0-9a-f]* <leaf>: '; then
		fail "$B_NAME $1 EHABI only: the copy has sections '$ce_secs', build-id ${ce_bid:-none} (want $ce_want), an .ARM.exidx entry for leaf: $(readelf -u "$ce_bin" | grep -c '<leaf>:')"
		return
	fi
	set -- "$1" $(tp_unwound "$2" "$ce_root")
	if [ "$2" -gt 0 ] && [ $(($3 * 100)) -ge $(($2 * 95)) ]; then
		ok "$B_NAME $1 EHABI only: tinyperf unwinds $3 of $2 leaf samples to main with nofp's .ARM.exidx alone (no .eh_frame, .debug_frame; build-id $ce_bid kept)"
	else
		fail "$B_NAME $1 EHABI only: tinyperf unwinds only $3 of $2 leaf samples to main with .ARM.exidx alone: $(head -n 2 "$C_WORK/tpuw.err" | tr '\n' ' ')"
	fi
}

# check_rebuilt NAME FILE: nofp rebuilt (-O1, same compiler: wl-nofp.flags) in a sysroot
# copy has another build-id, and the host refuses to unwind through it, in one line naming
# it, rather than walk a stack with another binary's tables
check_rebuilt() {
	cb_root=$C_WORK/sysroot-rebuilt cb_bin=$C_WORK/sysroot-rebuilt/bin/nofp
	rm -rf "$cb_root" && mkdir -p "$cb_root/bin"
	cb_cc=$(cat "${C_SYSROOT%/sysroot}/wl-nofp.flags" 2>/dev/null)
	# shellcheck disable=SC2086
	if [ -z "$cb_cc" ] || ! $cb_cc -O1 -o "$cb_bin" "$src/tests/workloads/nofp.c" 2>"$C_WORK/rebuilt.err"; then
		fail "$B_NAME $1 rebuilt nofp: '$cb_cc -O1' failed: $(head -n 1 "$C_WORK/rebuilt.err")"
		return
	fi
	cb_bid=$(elf_buildid "$cb_bin") cb_want=$(elf_buildid "$C_SYSROOT/bin/nofp")
	if [ -z "$cb_bid" ] || [ "$cb_bid" = "$cb_want" ]; then
		fail "$B_NAME $1 rebuilt nofp: its build-id ${cb_bid:-none} is not another one than $cb_want"
		return
	fi
	# the report's header line for it; script's stacks: of the samples in nofp, how many
	# have a caller frame in nofp still
	"$C_TP" report --stdio --no-children -i "$2" --sysroot "$cb_root" --kallsyms "$C_KALLSYMS" \
		--buildid-dir '' --offline >"$C_WORK/rebuilt.rep" 2>&1
	cb_lines=$(grep -c '^#   /bin/nofp: .*stacks not unwound through it' "$C_WORK/rebuilt.rep")
	cb_named=$(grep '^#   /bin/nofp: ' "$C_WORK/rebuilt.rep" | sed 's/^#   //')
	set -- "$1" $("$C_TP" script -i "$2" -F ip,dso --sysroot "$cb_root" --kallsyms "$C_KALLSYMS" \
		--buildid-dir '' --offline 2>/dev/null |
		awk 'function flush() { if (first) { t++; if (deeper) c++ } first = 0; deeper = 0; n = 0 }
		/^$/ { flush(); next }
		NF >= 2 { n++; if (n == 1) first = $2 == "(/bin/nofp)"; else if ($2 == "(/bin/nofp)") deeper = 1 }
		END { flush(); print t + 0, c + 0 }')
	if [ "$2" -gt 0 ] && [ "$3" = 0 ] && [ "$cb_lines" = 1 ]; then
		ok "$B_NAME $1 rebuilt nofp (build-id $cb_bid): refused, none of its $2 samples unwound past their PC; report: \"$cb_named\""
	else
		fail "$B_NAME $1 rebuilt nofp (build-id $cb_bid): $3 of its $2 samples unwound past their PC; $cb_lines report lines say it is not unwound through: ${cb_named:-none}"
	fi
}

check_serial() { # NAME CAPTURE WHAT [strict]: strict when nothing else writes to the line
	cs_n=$1 cs_cap=$2 cs_strict=${4:-}
	if ! [ -s "$cs_cap" ]; then
		fail "$B_NAME $cs_n: nothing was captured from $3"
		return
	fi
	cs_f=$(recv_capture "$cs_cap" "$C_WORK/recv-$cs_n")
	if [ -z "$cs_f" ]; then
		fail "$B_NAME $cs_n: tinyperf recv saved nothing: $(tail -n 2 "$C_WORK/recv-$cs_n.err" | tr '\n' ' ')"
		C_SERIAL="$C_SERIAL $cs_n:FAIL"
		return
	fi
	# "saved FILE: N samples, S MB, K frames kept, L lost, R recovered from console text;
	# stream complete" (R: frames with kernel messages spliced into them, taken out)
	cs_info=$(sed -n 's/.*: saved .*: \([0-9]*\) samples, .* \([0-9]*\) frames kept, \([0-9]*\) lost\(, [0-9]* recovered[a-z ]*\)*; \(.*\)/\1 \2 \3 \5/p' \
		"$C_WORK/recv-$cs_n.err" | head -n1)
	cs_rec=$(sed -n 's/.*: saved .* lost, \([0-9]*\) recovered.*/\1/p' "$C_WORK/recv-$cs_n.err" | head -n1)
	[ "$cs_rec" != 0 ] || cs_rec=
	set -- "$1" "$2" "$3" $cs_info	# $4 samples, $5 frames kept, $6 lost, $7 $8 "stream complete"
	cs_lost=${6:-?}
	if [ "${7:-}" != stream ] || [ "${8:-}" != complete ]; then
		fail "$B_NAME $cs_n: the stream did not arrive complete: $(grep 'saved ' "$C_WORK/recv-$cs_n.err")"
		C_SERIAL="$C_SERIAL $cs_n:FAIL"
		return
	fi
	cs_noise=$(grep -c 'console noise' "$C_WORK/recv-$cs_n.text")
	if [ "$cs_lost" = 0 ]; then
		check_recording "$cs_n" "$cs_f" "leaf|mid" || { C_SERIAL="$C_SERIAL $cs_n:FAIL"; return; }
		ok "$B_NAME $cs_n: intact through $3 ($5 frames, 0 lost${cs_rec:+, $cs_rec recovered from kernel messages inside them}${cs_noise:+; $cs_noise kernel messages in between})"
		C_SERIAL="$C_SERIAL $cs_n:ok"
		return
	fi
	# frames were lost. On a console the kernel's printk writes to the UART itself, bypassing
	# the tty, and on SMP a message can land inside a frame: recv takes such text out again
	# (the frame's CRC vouches for the rest), so a loss here is a failure. QEMU_STRICT_SERIAL=0
	# makes it a warning when the rest is usable (checked as such, the loss reported).
	cs_rs=$(rec_counts "$cs_n" | cut -d' ' -f1)
	cs_spliced=$(spliced_messages "$2")
	if [ "$cs_strict" = strict ] || [ "${QEMU_STRICT_SERIAL:-1}" != 0 ] ||
	   ! rep_read "$cs_f" || [ $(($4 * 10)) -lt $((${cs_rs:-0} * 9)) ]; then
		fail "$B_NAME $cs_n: $cs_lost of $(($5 + cs_lost)) frames lost through $3; $4 of ${cs_rs:-?} samples arrived ($cs_spliced kernel messages inside frames)"
		C_SERIAL="$C_SERIAL $cs_n:FAIL"
		return
	fi
	ok "$B_NAME $cs_n: arrived through $3, perf reads it: $4 of $cs_rs samples"
	warn "$B_NAME $cs_n: not intact: $cs_lost of $(($5 + cs_lost)) frames lost to kernel messages printed inside a frame ($cs_spliced seen in the capture); recv detected them by CRC"
	C_SERIAL="$C_SERIAL $cs_n:lost$cs_lost"
}

# spliced_messages CAPTURE: kernel messages found inside binary frames ("[ 1.23] ...\r\n"
# between COBS bytes)
spliced_messages() {
	LC_ALL=C tr '\0' '\n' <"$1" | LC_ALL=C grep -a -c -P '[\x01-\x08\x0e-\x1f].*\[ *\d+\.\d+\] '
}

# ---- pictures: the guest's recording drawn and exported (issue 19) ----

# check_render NAME FILE: tinyperf flamegraph draws FILE with the device's symbols, every
# stack as wide as its script --folded count (the SVG parsed back by tests/render's
# svgcheck.py); tinyperf pprof exports it and go tool pprof -top has the functions and flat
# percentages of tinyperf report --no-children --sort sym (tests/render/pprofcheck.py). On
# qemu-mips that is a big-endian recording.
check_render() {
	cr_n=$1 cr_f=$2
	tp_has_report || { skip "$B_NAME $cr_n: pictures: no host tinyperf at $C_TP"; return; }
	set -- --sysroot "$C_SYSROOT" --kallsyms "$C_KALLSYMS" --buildid-dir '' --offline
	"$C_TP" script -i "$cr_f" "$@" --folded >"$C_WORK/$cr_n.folded" 2>/dev/null
	if ! "$C_TP" flamegraph -i "$cr_f" "$@" --minwidth 0 -o "$C_WORK/$cr_n.svg" \
		2>"$C_WORK/$cr_n.fg.err"; then
		fail "$B_NAME $cr_n: tinyperf flamegraph failed: $(head -n 1 "$C_WORK/$cr_n.fg.err")"
	else
		cr_out=$(python3 "$src/tests/render/svgcheck.py" widths "$C_WORK/$cr_n.svg" "$C_WORK/$cr_n.folded")
		case $cr_out in
		"[OK] "*) ok "$B_NAME $cr_n: flamegraph: ${cr_out#\[OK\] }" ;;
		*) fail "$B_NAME $cr_n: flamegraph: ${cr_out#\[FAIL\] }" ;;
		esac
	fi
	if ! "$C_TP" pprof -i "$cr_f" "$@" -o "$C_WORK/$cr_n.pb.gz" 2>"$C_WORK/$cr_n.pp.err"; then
		fail "$B_NAME $cr_n: tinyperf pprof failed: $(head -n 1 "$C_WORK/$cr_n.pp.err")"
		return
	fi
	if ! command -v go >/dev/null; then
		skip "$B_NAME $cr_n: pprof: no go to read it (Debian's golang-go)"
		return
	fi
	mkdir -p "$C_WORK/gohome"
	HOME=$C_WORK/gohome PPROF_TMPDIR=$C_WORK/gohome go tool pprof -symbolize=none -top \
		-nodecount=20 "$C_WORK/$cr_n.pb.gz" >"$C_WORK/$cr_n.top" 2>&1
	"$C_TP" report -i "$cr_f" "$@" --no-children --sort sym -q -g none >"$C_WORK/$cr_n.rep" 2>/dev/null
	cr_out=$(python3 "$src/tests/render/pprofcheck.py" "$C_WORK/$cr_n.top" "$C_WORK/$cr_n.rep")
	case $cr_out in
	"[OK] "*) ok "$B_NAME $cr_n: ${cr_out#\[OK\] }" ;;
	*) fail "$B_NAME $cr_n: ${cr_out#\[FAIL\] }" ;;
	esac
}

# check_board RUNDIR SYSROOT: every check of a board; the summary row in RUNDIR/summary
check_board() {
	cbd_d=$1
	C_RUN=$cbd_d C_FILES=$cbd_d/files C_SYSROOT=$2 C_WORK=$cbd_d/host C_KALLSYMS=$cbd_d/files/kallsyms
	C_SAMPLES= C_LOST= C_BID=- C_KSYM=- C_TRACE=- C_CHAIN=- C_SERIAL= C_SPIN_TOP=-
	rm -rf "$C_WORK" && mkdir -p "$C_WORK"
	while read -r cbd_step cbd_rc cbd_ms; do
		[ "$cbd_rc" = 0 ] || fail "$B_NAME guest step $cbd_step exited $cbd_rc ($(tail -n 2 "$C_FILES/$cbd_step.log" 2>/dev/null | tr '\n' ' '))"
	done <"$C_FILES/steps.txt"
	cbd_f=$C_FILES
	if check_recording spin-g "$cbd_f/spin-g.data" "leaf|mid"; then
		C_SPIN_TOP=${C_TOP%%|*}
		check_buildid spin-g "$cbd_f/spin-g.data" /bin/spin
		check_callchain spin-g "$cbd_f/spin-g.data"
		check_render spin-g "$cbd_f/spin-g.data"
	fi
	check_recording sysc-g "$cbd_f/sysc-g.data" "" && check_kernel sysc-g "$cbd_f/sysc-g.data"
	check_recording spin-a "$cbd_f/spin-a.data" "leaf|mid" && check_buildid spin-a "$cbd_f/spin-a.data" /bin/spin
	if check_recording sched "$cbd_f/sched.data" ""; then
		cbd_line=$(rep_tracepoint "$cbd_f/sched.data")
		if [ -n "$cbd_line" ]; then
			ok "$B_NAME sched: sched_switch fields decode: $(echo "$cbd_line" | sed 's/.*sched_switch: //' | cut -c1-90)"
			C_TRACE=ok
		else
			fail "$B_NAME sched: perf script does not decode sched_switch fields"
			C_TRACE=FAIL
		fi
	fi
	# the packed core recorder: unpacked into a memory file and executed by this kernel
	check_recording packed "$cbd_f/packed.data" "leaf|mid"
	check_dwarf dwarf "$cbd_f/dwarf.data"
	for cbd_ev in $B_EVENTS; do
		if check_recording "$cbd_ev" "$cbd_f/$cbd_ev.data" "leaf|mid"; then
			cbd_e=$(rep_event "$cbd_f/$cbd_ev.data")
			case $cbd_e in
			*"$cbd_ev"*) ok "$B_NAME $cbd_ev: the PMU event was recorded as itself ($cbd_e)" ;;
			*) fail "$B_NAME $cbd_ev: the file's event is '$cbd_e', not $cbd_ev" ;;
			esac
		fi
	done
	check_stat
	check_serial serial-con "$cbd_d/console.log" "the console $B_CONSOLE, shared with kernel messages"
	[ -z "$B_UART2" ] || check_serial serial-uart2 "$cbd_d/uart2.bin" "the second UART $B_UART2" strict
}

# ---- stat: the text 'tinyperf stat' printed in the guest ----

# check_stat: stat.log has perf stat's lines (software counts with their rates, the hardware
# ones counted where the board has a PMU: cycles with GHz, instructions with IPC when this
# QEMU CPU counts them, else <not supported>), the footer; stat-x.log perf's 7 CSV fields
check_stat() {
	cs_l=$C_FILES/stat.log cs_x=$C_FILES/stat-x.log
	cs_rc=$(awk '$1 == "stat" { print $2 }' "$C_FILES/steps.txt" 2>/dev/null)
	cs_bad=
	[ "$cs_rc" = 0 ] || cs_bad="exit ${cs_rc:-none};"
	grep -q "^ Performance counter stats for '/bin/spin 0.3':$" "$cs_l" 2>/dev/null || cs_bad="$cs_bad no header;"
	grep -Eq '^ +[0-9]+\.[0-9][0-9] msec task-clock +# +[0-9]+\.[0-9]{3} CPUs utilized +$' "$cs_l" || cs_bad="$cs_bad task-clock;"
	for cs_e in context-switches cpu-migrations page-faults; do
		grep -Eq "^ +[0-9]+      $cs_e +# +[0-9]+\.[0-9]{3} [KMG]?/sec +\$" "$cs_l" || cs_bad="$cs_bad $cs_e;"
	done
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$cs_l" && grep -q ' seconds user$' "$cs_l" &&
		grep -q ' seconds sys$' "$cs_l" || cs_bad="$cs_bad footer;"
	for cs_e in cycles instructions branches branch-misses; do
		grep -Eq "^ +([0-9]+|<not supported>)      $cs_e( |\$)" "$cs_l" || cs_bad="$cs_bad $cs_e;"
	done
	case " $B_EVENTS " in
	*" cycles "*)
		grep -Eq '^ +[0-9]+      cycles +# +[0-9]+\.[0-9]{3} GHz' "$cs_l" || cs_bad="$cs_bad cycles not counted (PMU);"
		# instructions: counted with IPC, or <not supported> (QEMU counts them only under
		# -icount: check_stat_ipc, after a boot with it)
		if grep -Eq '^ +[0-9]+      instructions ' "$cs_l"; then
			grep -Eq 'instructions +# +[0-9]+\.[0-9][0-9]  insn per cycle' "$cs_l" || cs_bad="$cs_bad no IPC;"
		fi ;;
	*) grep -q '^   <not supported>      cycles  ' "$cs_l" || cs_bad="$cs_bad cycles without a PMU;" ;;
	esac
	awk -F, 'NF != 7 || $3 !~ /^(task-clock|cycles|instructions)$/ { bad = 1 } END { exit bad || NR != 3 }' "$cs_x" 2>/dev/null ||
		cs_bad="$cs_bad -x , fields;"
	if [ -z "$cs_bad" ]; then
		ok "$B_NAME stat: perf stat's lines: $(awk '/^ .*(task-clock|cycles|insn per)/ { $1 = $1; printf "%s; ", $0 }' "$cs_l" | cut -c1-150)"
	else
		fail "$B_NAME stat:$cs_bad $(head -c 600 "$cs_l" 2>/dev/null | tr '\n' '|')"
	fi
}

# check_stat_ipc FILES: a PMU board booted with -icount counts cycles and instructions, and
# stat shows GHz and the IPC line, in text as perf stat's
check_stat_ipc() {
	ci_l=$1/stat-ipc.log
	if [ "$(awk '$1 == "stat-ipc" { print $2 }' "$1/steps.txt" 2>/dev/null)" = 0 ] &&
	   grep -Eq '^ +[0-9]+      cycles +# +[0-9]+\.[0-9]{3} GHz +$' "$ci_l" &&
	   grep -Eq '^ +[0-9]+      instructions +# +[0-9]+\.[0-9][0-9]  insn per cycle +$' "$ci_l"; then
		ok "$B_NAME stat (-icount boot): $(awk '/cycles|insn per/ { $1 = $1; printf "%s; ", $0 }' "$ci_l")"
	else
		fail "$B_NAME stat (-icount boot): no cycles, instructions and IPC: $(head -c 500 "$ci_l" 2>/dev/null | tr '\n' '|')"
	fi
	# nine cycles and instructions on fewer counters: each line multiplexed, "(NN.NN%)" under
	# 100, scaled up to within 5 % of the others (the same cycles all along), IPC near 1
	ci_l=$1/stat-mux.log
	if awk '/      (cycles|instructions) / { n++; v[n] = $1
		if ($NF !~ /^\([0-9][0-9]?\.[0-9][0-9]%\)$/) bad = 1 }
		END { if (n != 10) bad = 1
			for (i = 1; i <= n; i++) if (v[i] < v[1] * 0.95 || v[i] > v[1] * 1.05) bad = 1
			exit bad }' "$ci_l" 2>/dev/null &&
	   grep -Eq 'instructions +# +(0\.9[5-9]|1\.0[0-5])  insn per cycle +\(' "$ci_l"; then
		ok "$B_NAME stat multiplexed (-icount boot): 9 cycles + instructions scaled alike, $(grep -m1 cycles "$ci_l" | awk '{ print $1, $NF }'), IPC $(awk '/insn per/ { print $4 }' "$ci_l")"
	else
		fail "$B_NAME stat multiplexed: $(head -c 600 "$ci_l" 2>/dev/null | tr '\n' '|')"
	fi
}
