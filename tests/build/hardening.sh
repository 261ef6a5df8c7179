# SPDX-License-Identifier: MIT
# Sourced by tests/build/build-vars.sh: the recorder and the host tools built the way Buildroot
# and Yocto build them (../shared/reference/packaging.md has the sets), as a user that is not
# root, out of tree, in an environment with no package manager and each Kconfig engine.
#
# The sets, exactly as the two systems pass them (CC= CFLAGS= LDFLAGS= on the make command
# line; the wrapper's flags are in CC, before the Makefile's):
#   Buildroot  CC="<cross>gcc [-mcpu=...] -fPIE -pie -Wl,-z,now -Wl,-z,relro
#                  -fstack-protector-strong"
#              CFLAGS="-D_LARGEFILE_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64 -O<n> -g0
#                      -D_FORTIFY_SOURCE=1"   LDFLAGS=""
#   Yocto      CC="<cross>gcc <the machine's tune> [-mbranch-protection=standard on aarch64]"
#              CFLAGS="-O2 -pipe -g -feliminate-unused-debug-types -fstack-protector-strong
#                      -D_FORTIFY_SOURCE=2 -Wformat -Wformat-security -Werror=format-security"
#              LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed -fstack-protector-strong
#                       -Wl,-z,relro,-z,now"
# At -O0 neither passes _FORTIFY_SOURCE (Buildroot's option depends on optimisation, Yocto drops
# it for DEBUG_BUILD; glibc refuses it there), so the -O0 cells leave it out too.
#
# Why this matrix covers "every target, variant and -O level" in 46 builds (and the host tools)
# instead of the 180 of the cross product: what makes a warning appear or not is the optimisation level with
# LTO (inlining, value ranges: the -O2/-O3 maybe-uninitialized of issue 23) and the target
# (LTO inlines differently per arch), so every -O level runs on every arch (the default musl
# variant, Buildroot's set: its CC also carries -fPIE/-pie/-fstack-protector-strong). The two
# sets' other flags are preprocessor and hardening switches whose effect does not depend on
# the -O level: Yocto's set runs once per arch at its -O2, in the freestanding variant (its
# own headers, where -fstack-protector and _FORTIFY_SOURCE must be neutralised) and in the
# toolchain-libc variant (glibc, where _FORTIFY_SOURCE=2 and -Wformat-security bite), and on
# musl on aarch64 (-mbranch-protection). BUILD_VARS_FULL=1 runs the whole cross product.
# Half the cells run with kconfig-frontends present, half with it absent (Kconfiglib), all with
# dpkg and apt-get absent, as nobody when run as root. Each recorder runs --version, under
# qemu-user where the target is foreign.
#
# The static recorder (musl, freestanding, static toolchain libc) and -fPIE -pie: Buildroot's
# wrapper puts them before the Makefile's flags (and leaves them out when it sees -fno-pie or
# -static), so the Makefile's -fno-pie wins; from CFLAGS/LDFLAGS (after the Makefile's, the
# "envpie" cells: from the environment, on x86_64 musl and freestanding and MIPS freestanding)
# TP_CFLAGS_LAST puts -fno-pie -no-pie back: gcc's driver drops -pie for a -static link, so
# the binary would be position-dependent anyway, and -fPIE code in it only costs bytes. Those
# cells check it is a static ET_EXEC that runs. Yocto's freestanding cells show it taking
# -fstack-protector-strong from CFLAGS without the canary it cannot have (no TLS on x86), and
# Buildroot's armv7 cells the wrapper's -mcpu=cortex-a9 beside the arch's -march (the Makefile
# then leaves -march out: gcc 12 calls the pair a conflict, an error with -Werror).

hv_arches="x86_64 i386 armv7 aarch64 mipsel mips"
hv_jobs=$(nproc 2>/dev/null || echo 2)
hv_levels="O0 O1 O2 O3 Os"

# the Debian cross compiler of each target, and the tuning each system's qemu machine passes
hv_cross() {
	case $1 in
	x86_64) echo x86_64-linux-gnu- ;; i386) echo i686-linux-gnu- ;;
	armv7) echo arm-linux-gnueabihf- ;; aarch64) echo aarch64-linux-gnu- ;;
	mipsel) echo mipsel-linux-gnu- ;; mips) echo mips-linux-gnu- ;;
	esac
}
hv_br_tune() {
	case $1 in aarch64) echo "-mcpu=cortex-a53" ;; armv7) echo "-mcpu=cortex-a9" ;; esac
}
hv_yocto_tune() {
	case $1 in
	x86_64) echo "-m64 -march=core2 -mtune=core2 -msse3 -mfpmath=sse" ;;
	i386) echo "-m32 -march=core2 -mtune=core2 -msse3 -mfpmath=sse" ;;
	armv7) echo "-march=armv7ve -mthumb -mfpu=neon -mfloat-abi=hard" ;;
	aarch64) echo "-mcpu=cortex-a57+crc -mbranch-protection=standard" ;;
	mipsel) echo "-march=mips32r2 -mel -mabi=32 -mhard-float" ;;
	mips) echo "-march=mips32r2 -meb -mabi=32 -mhard-float" ;;
	esac
}

# hv_env DIR KCONFIG: a directory of links to every program of /usr/bin and /bin but dpkg*,
# apt* (and kconfig-* when KCONFIG=absent), which is the whole PATH the builds get; the
# package tools are there as shims that record the call and fail
hv_env() {
	d=$1
	mkdir -p "$d/bin"
	for p in /usr/bin/* /bin/* /usr/sbin/*; do
		n=${p##*/}
		case $n in dpkg*|apt*|aptitude) continue ;; esac
		[ "$2" = absent ] && case $n in kconfig-*) continue ;; esac
		[ -e "$d/bin/$n" ] || ln -s "$p" "$d/bin/$n"
	done
	for n in dpkg dpkg-query dpkg-deb apt apt-get; do
		printf '#!/bin/sh\necho "%s $*" >>%s/calls\nexit 1\n' "$n" "$d" >"$d/bin/$n"
		chmod 755 "$d/bin/$n"
	done
	: >"$d/calls"
	chmod 666 "$d/calls"
}

# as nobody when root (the source and the download cache only read), else as this user
hv_user() {
	if [ "$(id -u)" = 0 ]; then setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else "$@"; fi
}

# hv_make ENV OUTDIR LOG ARGS...: make in that environment, as that user (from the output
# directory: make -C goes back to where it started, which that user may not enter)
hv_make() {
	e=$1 o=$2 log=$3; shift 3
	(cd "$o" && hv_user env -i PATH="$e/bin" HOME="$o" TP_DL_DIR="$hv_dl" LC_ALL=C \
		${hv_env_cflags:+"CFLAGS=$hv_env_cflags"} ${hv_env_ldflags:+"LDFLAGS=$hv_env_ldflags"} \
		make --no-print-directory -j"$hv_jobs" -C "$hv_src" O="$o" "$@") >>"$log" 2>&1
}

# hv_cell SET ARCH VARIANT LEVEL ENGINE: configure (once per directory) and build one cell
hv_cell() {
	set=$1 arch=$2 var=$3 lvl=$4 eng=$5
	e=$tmp/env-$eng o=$tmp/hv/$arch-$var-$eng log=$tmp/hv/$arch-$var-$eng-$set-$lvl.log
	cross=$(hv_cross "$arch")
	mkdir -p "$o"
	[ "$(id -u)" = 0 ] && chown nobody "$o" "$tmp/hv"
	fortify=
	case $set in
	br)	[ "$lvl" = O0 ] || fortify=-D_FORTIFY_SOURCE=1
		cc="${cross}gcc $(hv_br_tune "$arch") -fPIE -pie -Wl,-z,now -Wl,-z,relro -fstack-protector-strong"
		cflags="-D_LARGEFILE_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64 -$lvl -g0 $fortify"
		ldflags= ;;
	yocto)	[ "$lvl" = O0 ] || fortify=-D_FORTIFY_SOURCE=2
		cc="${cross}gcc $(hv_yocto_tune "$arch")"
		cflags="-$lvl -pipe -g -feliminate-unused-debug-types -fstack-protector-strong $fortify -Wformat -Wformat-security -Werror=format-security"
		ldflags="-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed -fstack-protector-strong -Wl,-z,relro,-z,now" ;;
	envpie)	# -fPIE -pie from the environment, after the Makefile's flags (a wrapper-less
		# hardening setup): the static recorder must stay a working static executable
		cc="${cross}gcc"
		hv_env_cflags="-$lvl -fPIE" hv_env_ldflags="-pie" ;;
	esac
	: >"$log"
	if [ ! -f "$o/.config" ]; then
		hv_make "$e" "$o" "$log" "qemu-${arch}_defconfig" KCONFIG_FRAGMENTS="$hv_src/tests/configs/$var.config"
	fi
	if [ "$set" = envpie ]; then
		hv_make "$e" "$o" "$log" CC="$cc" all
		rc=$?
		hv_env_cflags= hv_env_ldflags=
		readelf -h "$o/tinyperf" | grep -q 'EXEC (Executable' && ! readelf -l "$o/tinyperf" | grep -q INTERP ||
			{ rc=99; echo "warning: not a static position-dependent executable" >>"$log"; }
	else
		hv_make "$e" "$o" "$log" CC="$cc" CFLAGS="$cflags" LDFLAGS="$ldflags" all
		rc=$?
	fi
	qemu=$(sed -n 's/^CONFIG_ARCH_QEMU_USER="\(.*\)"/\1/p' "$o/.config")
	{ [ "$arch" = x86_64 ] || { [ "$arch" = i386 ] && ia32_ok; }; } && qemu=
	ver=$($qemu "$o/tinyperf" --version 2>&1)
	what="$set $arch $var -$lvl (kconfig-frontends $eng)"
	if [ $rc -eq 0 ] && ! grep -qi 'warning' "$log" && echo "$ver" | grep -q "^tinyperf [0-9].* ($arch"; then
		ok "$what: warning-free, $(stat -c %s "$o/tinyperf") bytes, runs: $ver"
	else
		fail "$what: rc $rc, $(grep -i -m3 -e warning -e error "$log" | tr '\n' '|' | cut -c1-400) --version: $ver"
	fi
}

# hv_host ENGINE: the host tools with Yocto's hardening set and -fPIE -pie (neither system
# passes hardening to native builds; the union is the harder test), installed with DESTDIR
hv_host() {
	e=$tmp/env-$1 o=$tmp/hv/host log=$tmp/hv/host.log
	mkdir -p "$o"
	[ "$(id -u)" = 0 ] && chown nobody "$o"
	: >"$log"
	hv_make "$e" "$o" "$log" HOSTCC=gcc HOST_LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed -fstack-protector-strong -Wl,-z,relro,-z,now -pie" \
		HOST_CFLAGS="-O2 -pipe -g -feliminate-unused-debug-types -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wformat -Wformat-security -Werror=format-security -fPIE" \
		host host-install DESTDIR="$o/root" PREFIX=/usr
	rc=$?
	ver=$("$o/root/usr/bin/tinyperf" --version 2>&1 | head -n1)
	if [ $rc -eq 0 ] && ! grep -qi 'warning' "$log" && echo "$ver" | grep -q '^tinyperf [0-9]' &&
	   readelf -h "$o/root/usr/bin/tinyperf" | grep -q 'DYN'; then
		ok "make host host-install with Yocto's hardening set (-fPIE -pie), kconfig-frontends $1: warning-free, a PIE, runs: $ver"
	else
		fail "make host with Yocto's set: rc $rc, $(grep -i -m3 -e warning -e error "$log" | tr '\n' '|' | cut -c1-400) --version: $ver"
	fi
}

# hv_matrix: the cells (see the top); BUILD_VARS_FULL=1: every set x arch x variant x level
hv_matrix() {
	# the toolchain's pieces the builds only read: musl for every arch (fetched or built once,
	# as make check's matrix part does; in the real environment, not the one under test)
	for a in $hv_arches; do
		make -s -C "$src" O="$tmp/pre-$a" "qemu-${a}_defconfig" >/dev/null 2>&1 &&
			make -s -C "$src" O="$tmp/pre-$a" -n all >/dev/null 2>"$tmp/pre-$a.err" ||
			fail "prefetch musl for $a: $(cat "$tmp/pre-$a.err")"
	done
	hv_env "$tmp/env-absent" absent
	hv_env "$tmp/env-present" present
	mkdir -p "$tmp/hv"
	# nobody must be able to read the tree and the downloads (not so under /root): else
	# copies of them
	hv_src=$src hv_dl=$TP_DL_DIR
	if ! hv_user test -r "$src/Makefile"; then
		hv_src=$tmp/src
		mkdir -p "$hv_src"
		(cd "$src" && tar --exclude=./out --exclude=./.git -cf - .) | tar -C "$hv_src" -xf -
	fi
	if ! hv_user test -r "$TP_DL_DIR/." || ! hv_user test -x "$TP_DL_DIR"; then
		hv_dl=$tmp/dl
		mkdir -p "$hv_dl"
		(cd "$TP_DL_DIR" && tar -cf - .) | tar -C "$hv_dl" -xf -
	fi
	if [ -n "${BUILD_VARS_FULL:-}" ]; then
		for s in br yocto; do for a in $hv_arches; do for v in musl freestanding toolchain; do
			for l in $hv_levels; do hv_cell $s $a $v $l absent; done
		done; done; done
	else
		n=0
		for a in $hv_arches; do
			# kconfig-frontends absent for one arch's musl cells, present for the next
			if [ $((n % 2)) -eq 0 ]; then e1=absent e2=present; else e1=present e2=absent; fi
			n=$((n + 1))
			for l in $hv_levels; do hv_cell br $a musl $l $e1; done
			hv_cell yocto $a freestanding O2 $e2
			hv_cell yocto $a toolchain O2 $e1
		done
		hv_cell yocto aarch64 musl O2 absent
	fi
	for c in "x86_64 musl" "x86_64 freestanding" "mips freestanding"; do
		hv_cell envpie ${c% *} ${c#* } Os present
	done
	hv_host absent
	for e in absent present; do
		expect_eq "no build called dpkg or apt-get (kconfig-frontends $e)" "" "$(cat "$tmp/env-$e/calls")"
	done
	# which engine served: Kconfiglib where kconfig-frontends was absent
	grep -l 'Kconfiglib' "$tmp"/hv/*-absent-*.log >/dev/null 2>&1 &&
		! grep -l 'Kconfiglib' "$tmp"/hv/*-present-*.log >/dev/null 2>&1
	check "Kconfiglib configured where kconfig-frontends was absent, kconfig-frontends where present" test $? -eq 0
}
