#!/bin/sh
# SPDX-License-Identifier: MIT
# Embedded symbols (TP_FEAT_SYMTAB): recordings made here, reported on "a host with no
# sysroot, no build-id cache and another kernel" (the binaries moved away, an empty HOME, and
# an empty --symfs, under which the host never uses its own kernel) still name the library
# function and the kernel functions, as Linux perf names them with everything present; the
# header says where they came from; a sysroot still wins, a rebuilt copy in it is refused
# and named; streams and flight snapshots carry them; --no-embed-symbols leaves them out
# (and then the same report shows raw addresses).
#   run.sh RECORDER HOST_TINYPERF [WORKDIR]        (about 20 s)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-embed}
. "$src/tests/lib.sh"
. "$src/tests/transport/lib.sh"
rec=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
host=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=${3:-$(mktemp -d)}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$work" || exit 1
command -v perf >/dev/null || { fail "Linux perf not installed"; done_tests; exit 1; }
cc=${CC:-cc}
cflags="-O1 -fno-omit-frame-pointer -fno-inline -Wall -Wextra -Werror"

# ---- workloads ----------------------------------------------------------------------
# the hidden-symbol case: a stripped program calling the hot function of a stripped shared
# library, and a syscall loop for kernel samples
mkdir -p dev home empty moved sysroot
cat >hot.c <<'EOF'
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
volatile unsigned long sink;
static __attribute__((noinline)) void static_hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}
void hot_function(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}
void syscall_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		syscall(SYS_getppid);
}
void static_entry(unsigned long n)
{
	static_hot(n);
}
/* rand_r through libhot.so's PLT. A timer sample lands on the instruction after the one the
 * CPU was waiting for, so the one-jump stub seldom gets one (on some CPUs, never in a whole
 * run). On x86_64, the call takes the stub's address from a pointer whose cache line was
 * just flushed: the call waits for memory, and the samples of that wait land on the stub. */
#if defined(__x86_64__)
static unsigned (*stub)(unsigned *);
#endif
void plt_loop(unsigned long n)
{
	unsigned s = 1;

#if defined(__x86_64__)
	__asm__("leaq rand_r@PLT(%%rip), %0" : "=r"(stub));
#endif
	for (unsigned long i = 0; i < n; i++) {
#if defined(__x86_64__)
		__builtin_ia32_clflush(&stub);
		__asm__ volatile("" ::: "memory");
		sink += stub(&s);
#else
		sink += (unsigned long)rand_r(&s);
#endif
	}
}
EOF
cat >app.c <<'EOF'
#include <stdlib.h>
void hot_function(unsigned long n);
void syscall_loop(unsigned long n);
void static_entry(unsigned long n);
void plt_loop(unsigned long n);
int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 20;
	for (unsigned long r = 0; r < rounds; r++) {
		hot_function(4000000);
		syscall_loop(40000);
		static_entry(4000000);
		plt_loop(5000);	/* a few ms, nearly all of it in the stub */
	}
	return 0;
}
EOF
cat >static.c <<'EOF'
#include <stdlib.h>
volatile unsigned long sink;
static __attribute__((noinline)) void crunch_numbers(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (i >> 3);
}
__attribute__((noinline)) void shuffle_bits(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink = (sink << 1) ^ i;
}
int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 20;
	for (unsigned long r = 0; r < rounds; r++) {
		crunch_numbers(4000000);
		shuffle_bits(4000000);
	}
	return 0;
}
EOF
cat >clock.c <<'EOF'
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 3000000;
	struct timespec ts;
	long s = 0;

	for (unsigned long i = 0; i < n; i++) {	/* the vdso's clock_gettime: no syscall */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
	}
	return s == 42;
}
EOF
if ! $cc $cflags -fPIC -shared -Wl,--build-id -o libhot.so hot.c ||
   ! $cc $cflags -o clock-app clock.c ||
   ! $cc $cflags -Wl,--build-id -o app app.c -L. -lhot -Wl,-rpath,"$work/dev" ||
   ! $cc $cflags -static -o static-app static.c; then
	fail "cannot build the workloads with $cc"
	done_tests
	exit 1
fi
cp libhot.so app dev/
strip dev/libhot.so dev/app
# the sysroot holds the unstripped library at the device path
mkdir -p "sysroot$work/dev"
cp libhot.so "sysroot$work/dev/libhot.so"

# report_hidden FILE OUT: tinyperf report as on another host (nothing findable, no kernel)
report_hidden() {
	HOME="$work/home" DEBUGINFOD_URLS= "$host" report -i "$1" --stdio --no-children \
		--symfs "$work/empty" >"$2" 2>"$2.err"
}
# syms OUT DSO: the symbols of DSO in a report, one per line, sorted
syms() {
	awk -v d="$2" '/^ +[0-9.]+%/ && $3 == d { print $NF }' "$1" | sort -u
}
# kernel_vs_perf DATA OUT: want_k, the kernel symbols perf names in DATA with everything
# present, and missing, those of them that tinyperf's report OUT, made as on another host
# (report_hidden), does not name
kernel_vs_perf() {
	want_k=$(perf report -i "$1" --stdio --no-children --sort dso,sym 2>/dev/null |
		 awk '/^ +[0-9.]+%/ && $2 == "[kernel.kallsyms]" && !/0x/ { print $NF }' | sort -u)
	mv dev/app dev/libhot.so moved/
	report_hidden "$1" "$2"
	mv moved/app moved/libhot.so dev/
	missing=""
	for s in $want_k; do
		syms "$2" '[kernel.kallsyms]' | grep -qx -- "$s" || missing="$missing $s"
	done
}

# ---- the hidden-symbol case ---------------------------------------------------------
"$rec" record -v -g -o hidden.data -- dev/app 12 2>hidden.rec-err
rc=$?
"$rec" record -q -g --no-embed-symbols -o bare.data -- dev/app 6 2>bare.rec-err
rc2=$?
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ]; then
	fail "record exits $rc and $rc2: $(cat hidden.rec-err bare.rec-err)"
fi
# Linux perf, everything present on this machine: the names to match
perf report -i hidden.data --stdio --no-children --sort dso,sym >perf.txt 2>perf.err
prc=$?
if [ $prc -eq 0 ] && ! grep -q . perf.err; then
	ok "perf report --stdio reads a file with embedded symbols, no warning"
else
	fail "perf report: exit $prc, stderr: $(head -c 300 perf.err)"
fi
awk '/^ +[0-9.]+%/ { print $2, $NF }' perf.txt >perf.syms
# (with "name@plt": perf makes them up from the PLT relocations, and so does the recorder)
want_lib=$(awk '$1 == "libhot.so" && !/0x/ { print $2 }' perf.syms | sort -u)
want_k=$(awk '$1 == "[kernel.kallsyms]" && !/0x/ { print $2 }' perf.syms | sort -u)
mv dev/app dev/libhot.so moved/
report_hidden hidden.data hidden.txt
report_hidden bare.data bare.txt
mv moved/app moved/libhot.so dev/
got_lib=$(syms hidden.txt libhot.so)
got_k=$(syms hidden.txt '[kernel.kallsyms]')
if echo "$got_lib" | grep -qx hot_function && echo "$want_lib" | grep -qx hot_function; then
	ok "no sysroot, no cache, binaries gone: hot_function of the stripped libhot.so named"
else
	fail "hot_function not named: tinyperf has '$(echo $got_lib)', perf '$(echo $want_lib)'"
fi
missing=""
for s in $want_lib $want_k; do
	echo "$got_lib $got_k" | tr ' ' '\n' | grep -qx -- "$s" || missing="$missing $s"
done
nk=$(echo "$want_k" | grep -c .)
nplt=$(echo "$want_lib" | grep -c '@plt$')
if [ -z "$missing" ] && [ "$nk" -ge 2 ] && [ "$nplt" -ge 1 ]; then
	ok "every libhot.so and kernel symbol perf shows (kernel: $nk; PLT stubs: $(echo $want_lib | tr ' ' '\n' | grep '@plt$' | tr '\n' ' ')) is named the same"
else
	fail "symbols perf names that tinyperf does not:$missing (perf kernel symbols: $nk, libhot.so PLT stubs: $nplt)"
fi
# the kernel's symbols came from the copy of kallsyms taken while recording (so the end of
# the recording did not wait for the kernel to format it), unlinked as soon as made
if ! grep -q 'kernel symbols from the copy of /proc/kallsyms taken while recording' hidden.rec-err; then
	fail "the kernel symbols did not come from the copy taken while recording: $(cat hidden.rec-err)"
elif ls -a . | grep -q '^\.tinyperf-kallsyms'; then
	fail "the kallsyms copy was left behind: $(ls -a . | grep tinyperf-kallsyms)"
else
	ok "kernel symbols from the kallsyms copy taken while recording, which is gone (unlinked when made)"
fi
line=$(grep '^# symbols from the recording (embedded): ' hidden.txt)
if echo "$line" | grep -q 'libhot\.so' && echo "$line" | grep -q '\[kernel\.kallsyms\]' &&
   grep -q '^#   \[kernel.kallsyms\]: kallsyms from the recording' hidden.txt
then
	ok "the report header says libhot.so and the kernel came from embedded symbols"
else
	fail "no embedded-symbols header line: $(grep '^#' hidden.txt | head -12)"
fi
# the control: the same host conditions without the feature resolve nothing of them
if ! syms bare.txt libhot.so | grep -qx hot_function &&
   ! grep -q 'embedded' bare.txt && grep -q '0x' bare.txt; then
	ok "--no-embed-symbols: the same report shows raw addresses, no embedded line"
else
	fail "--no-embed-symbols recording still names functions: $(syms bare.txt libhot.so)"
fi
if "$host" header -i hidden.data 2>&1 | grep -q '^# embedded symbols : .*DSOs' &&
   "$host" header -i hidden.data 2>&1 | grep -q "^#   $work/dev/libhot.so: [0-9]* symbols from its dynsym, build-id"
then
	ok "tinyperf header summarizes the section (libhot.so from its dynsym, build-id)"
else
	fail "tinyperf header: $("$host" header -i hidden.data 2>&1 | grep -i embed)"
fi
mv dev/app dev/libhot.so moved/
HOME="$work/home" "$host" script -i hidden.data --symfs "$work/empty" >script.txt 2>&1
mv moved/app moved/libhot.so dev/
if grep -q 'hot_function' script.txt && grep -q '__x64_sys_getppid\|do_syscall_64' script.txt
then
	ok "tinyperf script names them too"
else
	fail "tinyperf script: $(grep -m3 'libhot' script.txt)"
fi

# ---- the kernel functions remembered for the next recordings (ksyms-cache.c) ----------
# (make check turns the cache off for every other test: TINYPERF_KSYMS_CACHE= in tests/run.sh)
kc="$work/kc"
printf 'not a cache at all\n' >"$kc"	# a file that does not check out is ignored, replaced
TINYPERF_KSYMS_CACHE=$kc "$rec" record -v -g -o kc1.data -- dev/app 6 2>kc1.rec-err
TINYPERF_KSYMS_CACHE=$kc "$rec" record -v -g -o kc2.data -- dev/app 6 2>kc2.rec-err
n1=$(sed -n 's/^embedded symbols: \([0-9]*\) kernel functions from .*/\1/p' kc1.rec-err)
n2=$(sed -n 's/^embedded symbols: \([0-9]*\) kernel functions from .*/\1/p' kc2.rec-err)
left2=$(sed -n 's/^embedded symbols: .* kernel functions from .*, \([0-9]*\) addresses left/\1/p' kc2.rec-err)
if [ "$n1" = 0 ] && [ "${n2:-0}" -gt 0 ] && [ "$(head -c 8 "$kc")" = "TPKSYM1" ] &&
   [ "$(stat -c %a "$kc")" = 600 ]; then
	ok "kernel functions remembered: none from a garbage file, $n2 from the first recording's in the second ($left2 addresses left to kallsyms); the file replaced, 0600"
else
	fail "kernel-function cache: first '$n1', second '$n2', file '$(head -c 8 "$kc")' mode $(stat -c %a "$kc"): $(cat kc1.rec-err kc2.rec-err | head -6)"
fi
# kallsyms is read if and only if some address is left to it
if [ "${left2:-1}" -gt 0 ]; then
	grep -q 'kernel symbols from' kc2.rec-err
else
	! grep -q 'kernel symbols from' kc2.rec-err
fi && ok "kallsyms read only for what the cache left: ${left2:-?} addresses" ||
	fail "kallsyms read with ${left2:-?} addresses left: $(grep 'kernel symbols from' kc2.rec-err)"
# what the cache named is what perf names
kernel_vs_perf kc2.data kc2.txt
if [ -n "$want_k" ] && [ -z "$missing" ]; then
	ok "with functions from the cache, every kernel symbol perf names ($(echo "$want_k" | grep -c .)) is named the same"
else
	fail "kernel symbols perf names that tinyperf (cache) does not:$missing (perf: $(echo $want_k | head -c 200))"
fi

# ---- a sysroot wins ------------------------------------------------------------------
# static_hot is only in the unstripped copy's .symtab; the device copy had .dynsym only
mv dev/app dev/libhot.so moved/
HOME="$work/home" "$host" report -i hidden.data --stdio --no-children \
	--symfs "$work/sysroot" >sysroot.txt 2>sysroot.err
mv moved/app moved/libhot.so dev/
if syms sysroot.txt libhot.so | grep -qx static_hot &&
   ! syms hidden.txt libhot.so | grep -qx static_hot &&
   grep -q "^#   $work/dev/libhot.so: symtab from $work/sysroot" sysroot.txt; then
	ok "with a sysroot, its .symtab wins: static_hot named (embedded .dynsym had no such name)"
else
	fail "sysroot: $(grep "libhot" sysroot.txt | head -3) / $(syms sysroot.txt libhot.so)"
fi

# ---- a rebuilt copy in the sysroot is refused, named, and the embedded symbols used -----
mkdir -p "rebuilt$work/dev"
$cc $cflags -O2 -fPIC -shared -Wl,--build-id -o "rebuilt$work/dev/libhot.so" hot.c
mv dev/app dev/libhot.so moved/
HOME="$work/home" "$host" report -i hidden.data --stdio --no-children \
	--symfs "$work/rebuilt" >rebuilt.txt 2>rebuilt.err
mv moved/app moved/libhot.so dev/
line=$(grep "^#   $work/dev/libhot.so: " rebuilt.txt)
case $line in
*"from the recording (embedded), build-id verified; not used: build-id mismatch for $work/rebuilt$work/dev/libhot.so"*)
	if syms rebuilt.txt libhot.so | grep -qx hot_function; then
		ok "a rebuilt libhot.so in the sysroot is refused and named; hot_function from the recording: ${line#\#   }"
	else
		fail "rebuilt sysroot: hot_function not named: $(syms rebuilt.txt libhot.so | tr '\n' ' ')"
	fi;;
*)
	fail "rebuilt sysroot: expected its refusal and the embedded symbols, got '$line'";;
esac

# ---- an unstripped static program ---------------------------------------------------
cp static-app dev/
"$rec" record -q -g -o static.data -- dev/static-app 10 2>static.rec-err
rm dev/static-app
report_hidden static.data static.txt
got=$(syms static.txt static-app | tr '\n' ' ')
if echo "$got" | grep -qw crunch_numbers && echo "$got" | grep -qw shuffle_bits; then
	ok "unstripped static program, binary removed: crunch_numbers, shuffle_bits named"
else
	fail "static program: '$got' $(head -c 300 static.txt.err)"
fi

# ---- over TCP to tinyperf recv -------------------------------------------------------
if start_recv recv --count 1; then
	# a stream's kallsyms copy goes to $TMPDIR: where there is none, kallsyms is read at the end
	TMPDIR="$work/no-such-dir" "$rec" record -v -g -o "tcp://127.0.0.1:$port" -- dev/app 6 2>tcp.rec-err
	wait_for $recv_pid 10
fi
f=$(ls "$work"/recv/*/*.data 2>/dev/null | head -n1)
want_k="" missing=""
[ -z "$f" ] || kernel_vs_perf "$f" tcp.txt
if [ -n "$f" ] && syms tcp.txt libhot.so | grep -qx hot_function &&
   grep -q 'embedded' tcp.txt && [ -z "$missing" ] &&
   grep -q 'kernel symbols from /proc/kallsyms, now' tcp.rec-err; then
	ok "through tinyperf recv (TCP) the stream carries them: hot_function and the $(echo "$want_k" | grep -c .) kernel symbols perf names (kallsyms read at the end: no \$TMPDIR)"
else
	fail "TCP: file '$f': $(cat tcp.rec-err recv.err | head -5) $(syms tcp.txt libhot.so) kernel missing:$missing"
fi

# ---- a section over 64 KiB, through TCP ------------------------------------------------
# 3000 functions with long names, all sampled: the section goes in 64 KiB parts, recv joins them
python3 - >many.c <<'EOF'
n = 3000
for i in range(n):
    print("__attribute__((noinline)) void function_number_%04d_of_the_many(void) "
          "{ for (volatile int i = 0; i < 3000; i++); }" % i)
print("int main(void) { for (int r = 0; r < 200; r++) {")
for i in range(n):
    print("function_number_%04d_of_the_many();" % i)
print("} return 0; }")
EOF
rm -rf "$work/recv"
if $cc -O1 -o dev/many-app many.c; then
	if start_recv recv --count 1; then
		"$rec" record -q -F 10000 -o "tcp://127.0.0.1:$port" -- dev/many-app 2>many.rec-err
		wait_for $recv_pid 10
	fi
fi
f=$(ls "$work"/recv/*/*.data 2>/dev/null | head -n1)
size=0 want=0 got=0
if [ -n "$f" ]; then
	# the size of feature 129 in the file's feature table
	size=$(python3 - "$f" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
data_off, data_size = struct.unpack_from('<QQ', d, 40)
bits = int.from_bytes(d[72:104], 'little')
idx = sum(1 for b in range(129) if bits >> b & 1)
print(struct.unpack_from('<QQ', d, data_off + data_size + 16 * idx)[1] if bits >> 129 & 1 else 0)
EOF
)
	want=$(perf report -i "$f" --stdio --no-children --sort sym 2>/dev/null |
	       grep -c 'function_number_.*_of_the_many')
	mv dev/many-app moved/
	report_hidden "$f" many.txt
	mv moved/many-app dev/
	got=$(grep -c 'function_number_.*_of_the_many' many.txt)
fi
if [ "${size:-0}" -gt 65536 ] && ! grep -q incomplete many.txt && [ "$want" -ge 1000 ] &&
   [ "$got" -eq "$want" ]; then
	ok "a $size-byte section through TCP in 64 KiB parts, joined by recv: all $got functions perf names are named"
else
	fail "big section over TCP: '$f' section '$size' bytes, perf names $want, tinyperf $got: $(head -c 300 many.rec-err recv.err)"
fi

# ---- [vdso] --------------------------------------------------------------------------
# its symbols come from the image in tinyperf's own memory (the same kernel's), tagged with
# its build-id; a host with another kernel then names __vdso_clock_gettime from them (this
# host, whose vdso is that one, uses its own first)
"$rec" record -q -g -o vdso.data -- ./clock-app 2>vdso.rec-err
vid=$("$host" header -i vdso.data 2>/dev/null | awk '/^# build id : .* \[vdso\]$/ { print $5 }')
line=$("$host" header -i vdso.data 2>/dev/null | grep '^#   \[vdso\]: ')
want=$(perf report -i vdso.data --stdio --no-children --sort dso,sym 2>/dev/null |
       awk '/^ +[0-9.]+%/ && $2 == "[vdso]" && !/0x/ { print $NF }' | sort -u)
if [ -n "$vid" ] && echo "$line" | grep -q "[1-9][0-9]* symbols\{0,1\} from its dynsym, build-id $vid" &&
   echo "$want" | grep -q clock_gettime; then
	ok "[vdso] symbols embedded, with its build-id ($(echo "$line" | sed 's/^#   \[vdso\]: //; s/, build-id.*//')); perf names $(echo $want)"
else
	fail "[vdso]: header '$line', build-id '$vid', perf '$(echo $want)' $(cat vdso.rec-err)"
fi

# a 32-bit process beside a 64-bit one: two vdso images the host cannot tell apart without
# the binaries, so neither gets embedded symbols (never names from the wrong image)
musl=${TP_DL_DIR:-$src/out/dl}/musl-i386/usr
lib=$musl/lib/i386-linux-musl
if ! ia32_ok; then
	skip "a 32-bit process's vdso beside a 64-bit one: $IA32_OFF"
elif $cc -m32 -static -nostdinc -nostdlib -fno-stack-protector -fno-pie -no-pie -O1 \
	-isystem "$musl/include/i386-linux-musl" -isystem "$($cc -print-file-name=include)" \
	-o wl32 "$lib/crt1.o" "$lib/crti.o" "$src/tests/report/vdso32-wl.c" "$lib/libc.a" \
	"$($cc -m32 -print-libgcc-file-name)" "$lib/crtn.o" 2>wl32.err; then
	"$rec" record -q -g -o vdso2.data -- sh -c './clock-app 2000000 & ./wl32 400; wait' 2>vdso2.rec-err
	n32=$(perf report -i vdso2.data --stdio --no-children --sort comm,dso 2>/dev/null |
	      awk '/^ +[0-9.]+%/ && $2 == "wl32" && $3 == "[vdso32]" { print $1 }')
	if [ -n "$n32" ] && ! "$host" header -i vdso2.data 2>/dev/null | grep -q '^#   \[vdso\]: '; then
		ok "a 32-bit process's vdso beside a 64-bit one (perf: $n32 of the samples in [vdso32]): no [vdso] symbols embedded"
	else
		fail "32-bit + 64-bit vdso: $n32 wl32 vdso samples; $("$host" header -i vdso2.data 2>&1 | grep vdso)"
	fi
else
	fail "setup: building vdso32-wl.c -m32 against $musl: $(head -n 2 wl32.err | tr '\n' ' ')"
fi

# ---- flight recorder snapshots -------------------------------------------------------
# app_pid PID: the process "app" in the tree of PID, the recorder, and its CPU time (user +
# system, clock ticks): "PID TICKS", empty before it runs
app_pid() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v pp="$1" '
		{ ppid[$1] = $4 } $2 == "(app)" { app[$1] = $14 + $15 }
		END { for (p in app) for (q = ppid[p]; q > 1; q = ppid[q]) if (q == pp) { print p, app[p]; exit } }'
}
# snapshot_mid DIR PID: once app in PID's tree has run a quarter of a second of CPU
# (hundreds of samples, libhot.so's among them), a snapshot with app stopped: it is alive
# at the snapshot however loaded the machine is, and runs on after it. $t: its ticks
snapshot_mid() {
	quarter=$(($(getconf CLK_TCK) / 4)) i=0 t=0 ap=
	while [ $i -lt 600 ] && kill -0 "$2" 2>/dev/null; do
		set -- "$1" "$2" $(app_pid "$2")
		ap=${3:-} t=${4:-0}
		[ "$t" -ge $quarter ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ "$t" -ge $quarter ] || return 1
	kill -STOP "$ap"
	kill -USR2 "$2"
	i=0	# the snapshot is written when its file is named
	while ! ls "$1"/perf.data.2* >/dev/null 2>&1 && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -CONT "$ap"
}
# flight_good FILE...: $n the files, $good those whose embedded symbols name hot_function
# (reported as on another host)
flight_good() {
	n=0 good=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		"$host" header -i "$f" 2>/dev/null | grep -q '^# embedded symbols' || continue
		mv dev/app dev/libhot.so moved/
		report_hidden "$f" "$f.txt"
		mv moved/app moved/libhot.so dev/
		syms "$f.txt" libhot.so | grep -qx hot_function && good=$((good + 1))
	done
}
# flight_run DIR CMD...: CMD recorded in DIR with --overwrite, a snapshot mid-way and one at
# its end; n and good (flight_good) say how it went. A first snapshot that could not be taken
# is a failure reported here, and the status is 1
flight_run() {
	d=$1
	shift
	mkdir -p "$d"
	(cd "$d" && exec "$rec" record -q -g --overwrite --switch-output -o perf.data -- "$@" \
		2>rec.err) &
	fp=$!
	snapshot_mid "$d" $fp
	mid=$?
	wait $fp
	flight_good "$d"/perf.data.*
	[ $mid -eq 0 ] && return 0
	fail "flight: app did not run 0.25 s of CPU in 60 s (${t:-no} ticks): $(cat "$d/rec.err")"
	return 1
}
# app 300: about 3.5 s of CPU, most of it after the first snapshot
if flight_run flight "$work/dev/app" 300; then
	if [ $n -ge 2 ] && [ $good -eq $n ]; then
		ok "each of $n flight snapshots carries its own embedded symbols (hot_function named)"
	else
		fail "flight: $good of $n snapshots carry them: $(cat flight/rec.err)"
	fi
fi
# a process of the tree that was reaped seconds before the last snapshot, its samples in that
# window (it ran on after the first): the recorder's copy of the tree, taken again every
# second, still has its maps
if flight_run flight2 sh -c "'$work/dev/app' 100; sleep 2.5"; then
	if [ $n -eq 2 ] && [ $good -eq 2 ]; then
		ok "a child reaped 2.5 s before the last snapshot keeps its maps there (hot_function named)"
	else
		fail "flight: a child reaped before the end: $good of $n snapshots name hot_function: $(cat flight2/rec.err)"
	fi
fi

done_tests
