#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the symbolizer's test fixtures in OUTDIR (run by test-symbolizer): a small program with
# known noinline and inlined functions for each arch, compiled -O2 -g with and without a
# build-id, rebuilt with one function more, stripped, split into .debug files, and laid out
# in every place the symbolizer looks (sysroots, debuglink dirs, .build-id trees, yocto
# .debug/, perf's build-id cache, buildroot-style debug dirs, a debuginfod tree).
#   symbolizer-fixtures.sh OUTDIR
# Prints the arches it built, one per line, in OUTDIR/arches.
set -eu
out=$1
mkdir -p "$out"
cd "$out"

cat > prog.c <<'EOF'
#define NOINLINE __attribute__((noinline))
volatile int sink;
#ifdef EXTRA
NOINLINE int extra_fn(int x) { int i, s = 0; for (i = 0; i < x; i++) s += i ^ sink; return s; }
#endif
NOINLINE int alpha(int x) { int i, s = 0; for (i = 0; i < x; i++) s += i * sink; return s; }
NOINLINE int beta(int x) { int i, s = 1; for (i = 0; i < x; i++) s ^= i + sink; return s; }
static inline __attribute__((always_inline)) int inner_helper(int x)
{
	int i, s = 0;				/* L_INNER_FIRST */
	for (i = 0; i < x; i++)
		s += sink * 7 + i;
	return s;				/* L_INNER_LAST */
}
static inline __attribute__((always_inline)) int outer_helper(int x)
{
	return inner_helper(x) * 3 + sink;	/* L_CALL_INNER */
}
NOINLINE int gamma_fn(int x)
{
	return outer_helper(x) + 1;		/* L_CALL_OUTER */
}
void _start(void)
{
	for (;;)
		sink = alpha(sink) + beta(sink) + gamma_fn(sink)
#ifdef EXTRA
		       + extra_fn(sink)
#endif
		       ;
}
EOF
cat > plt.c <<'EOF'
extern int ext_fn(int x);
int call_ext(int x) { return ext_fn(x) + 1; }
EOF
for m in L_INNER_FIRST L_INNER_LAST L_CALL_INNER L_CALL_OUTER; do
	echo "$m=$(grep -n "$m" prog.c | cut -d: -f1)"
done > facts

# arch name, tool prefix
arches="x86_64:
arm:arm-linux-gnueabihf-
mips:mips-linux-gnu-
aarch64:aarch64-linux-gnu-"

cflags="-O2 -g -nostdlib -static -ffreestanding -fno-stack-protector -fno-pie -no-pie -Wl,-e,_start"
: > arches
for entry in $arches; do
	a=${entry%%:*}
	p=${entry#*:}
	command -v "${p}gcc" >/dev/null 2>&1 || continue
	mkdir -p "$a"
	(
	cd "$a"
	cc="${p}gcc" objcopy="${p}objcopy" strip="${p}strip" nm="${p}nm"
	# shellcheck disable=SC2086
	{
	$cc $cflags -Wl,--build-id=sha1 -o app ../prog.c
	$cc $cflags -Wl,--build-id=sha1 -DEXTRA -o app.rebuilt ../prog.c
	$cc $cflags -Wl,--build-id=none -o app.nobid ../prog.c
	$cc $cflags -Wl,--build-id=none -DEXTRA -o app.nobid.rebuilt ../prog.c
	$cc $cflags -Wl,--build-id=sha1 -Wl,--defsym=_text=alpha -o vmlinux ../prog.c
	$cc -O2 -g -nostdlib -shared -fPIC -Wl,--build-id=sha1 -o libdemo.so ../prog.c
	} 2>/dev/null
	# a library calling out through its PLT: stripped, with its debug file by build-id
	$cc -O2 -g -nostdlib -shared -fPIC -Wl,--build-id=sha1 -o libplt.so ../plt.c 2>/dev/null
	for f in app app.rebuilt app.nobid app.nobid.rebuilt vmlinux libdemo.so libplt.so; do
		$nm -S --defined-only "$f" > "$f.nm"
	done
	for f in app app.nobid app.nobid.rebuilt; do
		$objcopy --only-keep-debug "$f" "$f.debug" 2>/dev/null
		$strip --strip-all -o "$f.stripped" "$f"
	done
	$strip --strip-debug -o app.symtab app	# a .symtab, no DWARF
	cp app.stripped app.dl
	$objcopy --add-gnu-debuglink=app.debug app.dl
	cp app.nobid.stripped app.nobid.dl
	$objcopy --add-gnu-debuglink=app.nobid.debug app.nobid.dl
	readelf -n app | awk '/Build ID/ { print $3 }' > app.buildid
	bid=$(cat app.buildid)
	xx=$(echo "$bid" | cut -c1-2)
	rest=$(echo "$bid" | cut -c3-)

	put() { mkdir -p "$(dirname "$2")"; cp "$1" "$2"; }
	mkdir -p s-empty
	put app s-path/usr/bin/app
	put app.dl s-dl-dir/usr/bin/app
	put app.debug s-dl-dir/usr/bin/app.debug
	put app.dl s-dl-dotdebug/usr/bin/app
	put app.debug s-dl-dotdebug/usr/bin/.debug/app.debug
	put app.dl s-dl-global/usr/bin/app
	put app.debug s-dl-global/usr/lib/debug/usr/bin/app.debug
	put app.stripped s-bid/usr/bin/app
	put app.debug "s-bid/usr/lib/debug/.build-id/$xx/$rest.debug"
	put app.stripped s-yocto/usr/bin/app
	put app.debug s-yocto/usr/bin/.debug/app
	put app "cache-elf/usr/bin/app/$bid/elf"
	mkdir -p "cache-elf/.build-id/$xx"
	ln -sfn "../../usr/bin/app/$bid" "cache-elf/.build-id/$xx/$rest"
	put app.stripped "cache-debug/usr/bin/app/$bid/elf"
	put app.debug "cache-debug/usr/bin/app/$bid/debug"
	mkdir -p "cache-debug/.build-id/$xx"
	ln -sfn "../../usr/bin/app/$bid" "cache-debug/.build-id/$xx/$rest"
	# the richest verified copy wins, wherever the search order meets it: a stripped copy in
	# the cache (perf record's) before the sysroot's unstripped one, a .symtab-only copy
	# before a copy with DWARF, and a full copy in the cache before a poorer sysroot one
	cache() { # FILE DIR: FILE as DIR's build-id cache entry for app
		put "$1" "$2/usr/bin/app/$bid/elf"
		mkdir -p "$2/.build-id/$xx"
		ln -sfn "../../usr/bin/app/$bid" "$2/.build-id/$xx/$rest"
	}
	cache app.stripped cache-stripped
	put app s-best/usr/bin/app
	cache app.symtab cache-symtab
	put app.symtab s-symtab/usr/bin/app
	put app.stripped s-dd/usr/bin/app
	put app.rebuilt dd/build/aaa-0.1/app
	put app dd/build/app-1.0/app
	put ../prog.c dd/build/app-1.0/prog.c
	put app.rebuilt s-rebuilt/usr/bin/app
	put app.nobid s-nb-path/usr/bin/app
	put app.nobid.dl s-nb-dl/usr/bin/app
	put app.nobid.debug s-nb-dl/usr/bin/.debug/app.nobid.debug
	put app.nobid.dl s-nb-dl-bad/usr/bin/app
	put app.nobid.rebuilt.debug s-nb-dl-bad/usr/bin/.debug/app.nobid.debug
	put app.nobid.stripped s-nb-dd/usr/bin/app
	put app.nobid nbdd/build/app-1.0/app
	put app.nobid.rebuilt s-nb-rebuilt/usr/bin/app
	put app.stripped s-dinfod/usr/bin/app
	put app.debug "srv/buildid/$bid/debuginfo"
	put libdemo.so s-so/usr/lib/libdemo.so
	# .plt's file offset and size (hex), where the arch has one (MIPS has .MIPS.stubs)
	readelf -SW libplt.so | sed -n 's/.*\] \.plt  *[A-Z]*  *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\) .*/\1 \2/p' > libplt.plt
	$objcopy --only-keep-debug libplt.so libplt.so.debug 2>/dev/null
	$strip --strip-all -o libplt.so.stripped libplt.so
	pbid=$(readelf -n libplt.so | awk '/Build ID/ { print $3 }')
	put libplt.so.stripped s-plt/usr/lib/libplt.so
	put libplt.so.debug "s-plt/usr/lib/debug/.build-id/$(echo "$pbid" | cut -c1-2)/$(echo "$pbid" | cut -c3-).debug"
	# only the debug file exists, by build-id: it stands in for the binary
	put app.debug "s-debugonly/usr/lib/debug/.build-id/$xx/$rest.debug"

	# MiniDebugInfo, as the GDB manual builds it: function symbols in an xz'd ELF
	if command -v xz >/dev/null 2>&1; then
		$nm app --format=posix --defined-only | awk '$2 ~ /[Tt]/ { print $1 }' | sort > mini.syms
		$objcopy --only-keep-debug app mini.elf 2>/dev/null
		$objcopy -S --remove-section .comment --keep-symbols=mini.syms mini.elf
		rm -f mini.elf.xz
		xz -q mini.elf
		cp app.stripped app.mini
		$objcopy --add-section .gnu_debugdata=mini.elf.xz app.mini
		put app.mini s-mini/usr/bin/app
	fi
	)
	echo "$a" >> arches
done

# one debuginfod tree for all arches: srv/buildid/<id>/debuginfo
mkdir -p srv
for a in $(cat arches); do
	cp -r "$a/srv/buildid" srv/
done

# the kernel found without --vmlinux/--kallsyms: a vmlinux under the sysroot, and a kallsyms in
# perf's build-id cache (made from the vmlinux's symbols: "<addr> T <name>")
a=x86_64
if [ -f $a/vmlinux ]; then
	kbid=$(readelf -n $a/vmlinux | awk '/Build ID/ { print $3 }')
	echo "$kbid" > $a/vmlinux.buildid
	mkdir -p $a/s-kernel/boot "$a/cache-kernel/[kernel.kallsyms]/$kbid"
	cp $a/vmlinux $a/s-kernel/boot/vmlinux-6.1.0-tp
	awk '{ t = NF == 4 ? $3 : $2; print $1, t, $NF }' $a/vmlinux.nm > "$a/cache-kernel/[kernel.kallsyms]/$kbid/kallsyms"
	# debuginfod with no local file at all: the executable and its debuginfo both served
	mkdir -p "srv/buildid/$(cat $a/app.buildid)"
	cp $a/app.stripped "srv/buildid/$(cat $a/app.buildid)/executable"
fi
