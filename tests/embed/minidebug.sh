#!/bin/sh
# SPDX-License-Identifier: MIT
# MiniDebugInfo (.gnu_debugdata) as an embedded-symbol source (CONFIG_REC_EMBED_MINIDEBUGINFO):
# fully stripped binaries carrying gdb's standard MiniDebugInfo (made with nm, objcopy, strip,
# xz), recorded by a recorder with the option on, then reported with the binaries gone: the
# static functions only MiniDebugInfo has are named (a PIE program, with its .dynsym read along;
# a shared library; a static program with no .dynsym at all), and the report header says they
# came from minidebuginfo. The same recording made by a recorder without the option leaves them
# unresolved (the control).
#   minidebug.sh RECORDER_WITHOUT HOST_TINYPERF [WORKDIR [RECORDER_WITH]]      (about 20 s;
#   without RECORDER_WITH it builds one: qemu-x86_64_defconfig + the option, in WORKDIR)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-embed-minidebuginfo}
. "$src/tests/lib.sh"
off=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
host=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=${3:-$(mktemp -d)}
on=${4:+$(cd "$(dirname "$4")" && pwd)/$(basename "$4")}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$work" || exit 1
for t in xz objcopy nm strip; do
	command -v $t >/dev/null || { fail "$t not installed (scripts/deps.sh)"; done_tests; exit 1; }
done
if [ -z "$on" ]; then
	echo CONFIG_REC_EMBED_MINIDEBUGINFO=y >mdi.config
	if make -s -C "$src" O="$work/rec" KCONFIG_FRAGMENTS="$work/mdi.config" \
		qemu-x86_64_defconfig >build.log 2>&1 &&
	   make -s -C "$src" O="$work/rec" -j2 >>build.log 2>&1 &&
	   grep -qx CONFIG_REC_EMBED_MINIDEBUGINFO=y "$work/rec/.config"; then
		on=$work/rec/tinyperf
	else
		fail "cannot build a recorder with CONFIG_REC_EMBED_MINIDEBUGINFO: $(tail -5 build.log)"
		done_tests
		exit 1
	fi
fi
cc=${CC:-cc}
cflags="-O1 -fno-omit-frame-pointer -fno-inline -Wall -Wextra -Werror"

# ---- workloads: the static hot functions are in no .dynsym ---------------------------
mkdir -p dev moved home empty
cat >lib.c <<'EOF'
volatile unsigned long lsink;
static __attribute__((noinline)) void lib_static_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		lsink += i * 7;
}
void lib_exported(unsigned long n)
{
	lib_static_spin(n);
	for (unsigned long i = 0; i < n; i++)
		lsink ^= i;
}
EOF
cat >app.c <<'EOF'
#include <stdlib.h>
void lib_exported(unsigned long n);
volatile unsigned long sink;
static __attribute__((noinline)) void mdi_static_hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}
int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 10;
	for (unsigned long r = 0; r < rounds; r++) {
		mdi_static_hot(4000000);
		lib_exported(3000000);
	}
	return 0;
}
EOF
cat >sapp.c <<'EOF'
#include <stdlib.h>
volatile unsigned long sink;
static __attribute__((noinline)) void mdi_static_only(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (i >> 2);
}
int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 10;
	for (unsigned long r = 0; r < rounds; r++)
		mdi_static_only(4000000);
	return 0;
}
EOF
if ! $cc $cflags -fPIC -shared -o libmdi.so lib.c ||
   ! $cc $cflags -o app app.c -L. -lmdi -Wl,-rpath,"$work/dev" ||
   ! $cc $cflags -static -o sapp sapp.c; then
	fail "cannot build the workloads with $cc"
	done_tests
	exit 1
fi

# add_minidebuginfo FILE: gdb's recipe (gdb manual, "MiniDebugInfo"): the function symbols
# .dynsym lacks, in a .symtab-only ELF, xz-compressed into .gnu_debugdata of the stripped file
add_minidebuginfo() {
	f=$1
	nm -D "$f" --format=posix --defined-only 2>/dev/null | awk '{ print $1 }' | sort >"$f.dyn"
	nm "$f" --format=posix --defined-only | awk '$2 == "T" || $2 == "t" { print $1 }' |
		sort >"$f.funcs"
	comm -13 "$f.dyn" "$f.funcs" >"$f.keep"
	objcopy --only-keep-debug "$f" "$f.mini" &&
	objcopy -S --remove-section .gdb_index --remove-section .comment \
		--keep-symbols="$f.keep" "$f.mini" &&
	strip --strip-all -R .comment "$f" &&
	rm -f "$f.mini.xz" && xz "$f.mini" &&
	objcopy --add-section .gnu_debugdata="$f.mini.xz" "$f"
}
ok_mdi=1
for f in libmdi.so app sapp; do
	cp $f dev/ && add_minidebuginfo dev/$f || ok_mdi=0
done
if [ $ok_mdi -eq 1 ] && nm dev/app 2>&1 | grep -q 'no symbols' && ! nm -D dev/app | grep -q mdi_static_hot &&
   ! nm -D dev/libmdi.so | grep -q lib_static_spin &&
   objdump -h dev/app | grep -q gnu_debugdata && grep -qx mdi_static_hot dev/app.keep; then
	ok "stripped app, libmdi.so, static sapp carry MiniDebugInfo (xz), no .symtab"
else
	fail "cannot make the MiniDebugInfo binaries"
	done_tests
	exit 1
fi

# report_hidden FILE OUT: tinyperf report with the binaries gone, nothing else to find
report_hidden() {
	mv dev/app dev/libmdi.so dev/sapp moved/
	HOME="$work/home" DEBUGINFOD_URLS= "$host" report -i "$1" --stdio --no-children \
		--symfs "$work/empty" >"$2" 2>"$2.err"
	mv moved/app moved/libmdi.so moved/sapp dev/
}
syms() {
	awk -v d="$2" '/^ +[0-9.]+%/ && $3 == d { print $NF }' "$1" | sort -u
}

for r in on off; do
	eval rec=\$$r
	"$rec" record -q -g -o $r.data -- dev/app 8 2>$r.rec-err &&
	"$rec" record -q -g -o s$r.data -- dev/sapp 8 2>>$r.rec-err ||
		fail "record ($r): $(cat $r.rec-err)"
	report_hidden $r.data $r.txt
	report_hidden s$r.data s$r.txt
done
got=$(syms on.txt app | tr '\n' ' ')
if echo "$got" | grep -qw mdi_static_hot; then
	ok "with the option, binary gone: app's static mdi_static_hot named"
else
	fail "app with the option: '$got' $(head -c 300 on.txt.err)"
fi
got=$(syms on.txt libmdi.so | tr '\n' ' ')
if echo "$got" | grep -qw lib_static_spin && echo "$got" | grep -qw lib_exported; then
	ok "libmdi.so: lib_static_spin (MiniDebugInfo) and lib_exported (.dynsym) both named"
else
	fail "libmdi.so with the option: '$got'"
fi
got=$(syms son.txt sapp | tr '\n' ' ')
if echo "$got" | grep -qw mdi_static_only; then
	ok "static sapp, no .dynsym at all: mdi_static_only named from MiniDebugInfo"
else
	fail "sapp with the option: '$got' $(head -c 300 son.txt.err)"
fi
hdr=$("$host" header -i on.data 2>&1)
if echo "$hdr" | grep -q "^#   $work/dev/app: [0-9]* symbols from its minidebuginfo" &&
   echo "$hdr" | grep -q "^#   $work/dev/libmdi.so: [0-9]* symbols from its minidebuginfo"; then
	ok "tinyperf header: app and libmdi.so blocks came from their minidebuginfo"
else
	fail "header: $(echo "$hdr" | grep -i -A4 embed)"
fi
# the control: the recorder without the option has only .dynsym (or nothing) to offer
if ! syms off.txt app | grep -qx mdi_static_hot && ! syms off.txt libmdi.so | grep -qx lib_static_spin &&
   syms off.txt libmdi.so | grep -qx lib_exported && ! syms soff.txt sapp | grep -qx mdi_static_only &&
   ! "$host" header -i off.data 2>&1 | grep -q minidebuginfo; then
	ok "without the option: the static functions stay unresolved, lib_exported from .dynsym"
else
	fail "without the option: app '$(syms off.txt app)' lib '$(syms off.txt libmdi.so)' sapp '$(syms soff.txt sapp)'"
fi
# a corrupt .gnu_debugdata: recorded as before (the .dynsym), nothing lost, no crash
cp dev/app app.good
python3 - dev/app <<'EOF'
import sys, subprocess
f = sys.argv[1]
out = subprocess.run(['objdump', '-h', f], capture_output=True, text=True).stdout
for line in out.splitlines():
    w = line.split()
    if len(w) > 5 and w[1] == '.gnu_debugdata':
        off, size = int(w[5], 16), int(w[2], 16)
data = bytearray(open(f, 'rb').read())
for i in range(off + 40, off + size - 40, 97):
    data[i] ^= 0x5a
open(f, 'wb').write(data)
EOF
"$on" record -q -g -o bad.data -- dev/app 4 2>bad.rec-err
rc=$?
report_hidden bad.data bad.txt
if [ $rc -eq 0 ] && ! syms bad.txt app | grep -qx mdi_static_hot &&
   syms bad.txt libmdi.so | grep -qx lib_static_spin &&
   ! "$host" header -i bad.data 2>&1 | grep -q "^#   $work/dev/app: .*minidebuginfo"; then
	ok "corrupt .gnu_debugdata of app: recording fine, app unresolved, libmdi.so still named"
else
	fail "corrupt .gnu_debugdata: rc $rc $(cat bad.rec-err) app '$(syms bad.txt app)'"
fi
mv app.good dev/app
done_tests
