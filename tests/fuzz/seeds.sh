#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerate the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/) from real inputs:
# recordings of this machine by the recorder (pipe, TCP and serial captures, tracepoints),
# their TRACING_DATA and embedded-symbol sections, an archive made by `tinyperf archive`, a
# kallsyms excerpt, small shared libraries built by each cross compiler (with DWARF, stripped,
# with MiniDebugInfo) and xz streams made by xz. The reader's seeds come from
# `test-reader --emit-seeds` (tests/unit/reader/tools.c) and are left alone. Needs root (for
# kallsyms addresses and system-wide tracepoints), the cross compilers, xz, objcopy, python3.
#   usage: tests/fuzz/seeds.sh RECORDER HOST-TINYPERF
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
rec=$(realpath "$1")
host=$(realpath "$2")
c=$src/tests/fuzz/corpus
py=$src/tests/fuzz/seeds.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for t in recv deframe symembed kallsyms trace tar elf rec-elf rec-xz; do
	rm -rf "${c:?}/$t"
	mkdir -p "$c/$t"
done
work='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'

# recv: a pipe stream, a TCP stream (hello line first), serial captures (binary and text)
"$rec" record -q -o - -F 499 -g -- sh -c "$work" >pipe.data
"$rec" record -q -o - -F 499 -- sh -c "$work" >pipe-flat.data
: >line-text.bin
: >line-bin.bin
"$rec" record -q -o serial:"$tmp"/line-text.bin,text -F 299 -- sh -c "$work"
"$rec" record -q -o serial:"$tmp"/line-bin.bin,frame=64 -F 299 -- sh -c "$work"
python3 "$py" tcp-capture "$rec" tcp.bin -- -F 299 -- sh -c "$work"
# first byte: 0 capture file, 1 TCP, 2 serial line, 3 serial going idle; read size 1 << (b >> 2)
python3 "$py" prefix 0x30 pipe.data "$c/recv/capture-pipe"
python3 "$py" prefix 0x2c tcp.bin "$c/recv/capture-tcp"
python3 "$py" prefix 0x1d pipe-flat.data "$c/recv/tcp-bare-pipe"
python3 "$py" prefix 0x21 tcp.bin "$c/recv/tcp-hello"
python3 "$py" prefix 0x0d tcp.bin "$c/recv/tcp-hello-8"
python3 "$py" prefix 0x2a line-bin.bin "$c/recv/line-binary"
python3 "$py" prefix 0x1e line-text.bin "$c/recv/line-text-idle"
python3 "$py" prefix 0x00 line-text.bin "$c/recv/capture-line-text"
# deframe: the same lines; first byte: read size 1 << (b % 12), bit 7 idle between reads
python3 "$py" prefix 0x06 line-bin.bin "$c/deframe/line-binary"
python3 "$py" prefix 0x87 line-text.bin "$c/deframe/line-text-idle"
python3 "$py" prefix 0x0b line-text.bin "$c/deframe/line-text"
python3 "$py" prefix 0x05 tcp.bin "$c/deframe/tcp-hello"

# trace: TRACING_DATA of a tracepoint recording, with a raw record of each event
"$rec" record -q -o - -e sched:sched_switch,sched:sched_process_exec,syscalls:sys_enter_openat \
	-- sh -c "sleep 0.1; ls / >/dev/null; $work" >tp.data
python3 "$py" trace tp.data "$c/trace"

# symembed: the TP_FEAT_SYMTAB section of file-mode recordings (user DSOs and the kernel)
"$rec" record -q -o emb.data -F 999 -g -- sh -c "$work; ls -R /usr/lib >/dev/null"
"$rec" record -q -o emb-k.data -a -F 999 -- sh -c "$work; ls -R /usr/lib >/dev/null"
python3 "$py" symtab emb.data "$c/symembed/user"
python3 "$py" symtab emb-k.data "$c/symembed/system"

# tar: what `tinyperf archive` makes of a recording (zstd, gzip, plain): the recording and a
# kallsyms in the build-id cache's layout (a symlink and a file), nothing from this host
mkdir empty
head -n 200 /proc/kallsyms >kallsyms
for out in tar.zst:--level=3 tar.gz:--gzip tar:--no-compress; do
	"$host" archive emb.data "${out#*:}" --sysroot empty --buildid-dir "" --offline \
		--kallsyms kallsyms -o "$c/tar/archive.${out%%:*}" >/dev/null 2>&1
done
# kallsyms: an excerpt of this kernel's, its start, a stretch of text and some module lines
{ head -n 120 /proc/kallsyms; grep -m 60 ' [tT] schedule' /proc/kallsyms
  grep -m 60 '\[' /proc/kallsyms; } >"$c/kallsyms/proc-excerpt"
head -n 40 /proc/kallsyms | sed 's/^[0-9a-f]*/0000000000000000/' >"$c/kallsyms/restricted"

# elf, rec-elf: a small library per cross compiler: with DWARF, stripped, with MiniDebugInfo
cat >lib.c <<'C'
static int helper(int x) { return x * 3 + 1; }
__attribute__((noinline)) int hot(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }
int api(int n) { return hot(n) + hot(n / 2); }
extern int ext(int);
int calls_ext(int n) { return ext(n) + 1; }
C
for cc in x86_64-linux-gnu-gcc i686-linux-gnu-gcc aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc \
	mips-linux-gnu-gcc mipsel-linux-gnu-gcc; do
	a=${cc%%-*}
	command -v $cc >/dev/null || continue
	$cc -O1 -g -fPIC -shared -nostdlib -Wl,-z,max-page-size=4096 -o lib-$a.so lib.c
	cp lib-$a.so "$c/elf/$a-debug.so"
	${cc%gcc}strip -o "$c/elf/$a-stripped.so" lib-$a.so
	cp "$c/elf/$a-stripped.so" "$c/rec-elf/$a-stripped.so"
	${cc%gcc}objcopy --strip-debug lib-$a.so "$c/rec-elf/$a-symtab.so"
	${cc%gcc}objcopy --only-keep-debug lib-$a.so mini && ${cc%gcc}objcopy -S mini &&
		xz -f mini && ${cc%gcc}strip -o md.so lib-$a.so &&
		${cc%gcc}objcopy --add-section .gnu_debugdata=mini.xz md.so "$c/rec-elf/$a-minidebug.so"
done
$cc -O1 -fPIC -shared -nostdlib -Wl,--build-id=none -Wl,-z,max-page-size=4096 -o "$c/rec-elf/mipsel-no-build-id.so" lib.c
cp "$c/rec-elf/x86_64-minidebug.so" "$c/elf/"

# rec-xz: xz streams of each check kind, and raw LZMA2 after its 2-byte output size / 16
head -c 3000 lib.c /proc/kallsyms >plain
for chk in none crc32 crc64; do xz -c --check=$chk plain >"$c/rec-xz/check-$chk.xz"; done
xz -c -9e --check=crc32 "$c/elf/x86_64-debug.so" >"$c/rec-xz/elf-9e.xz"
xz -c --format=raw --lzma2=preset=6,dict=64KiB plain >raw
python3 "$py" prefix-size plain raw "$c/rec-xz/raw-lzma2"
du -sh "$c"
