#!/bin/sh
# SPDX-License-Identifier: MIT
# Kconfig behaviour: defconfig/savedefconfig round trips for every board, help text on every
# visible symbol, size cost stated where an option changes the binary, menuconfig opening, and
# the two engines (kconfig-frontends, Kconfiglib: README "Kconfig engines") configuring alike:
# the same .config, savedefconfig, auto.conf and autoconf.h for every board, with and without
# fragments, the fragments merged by KCONFIG_FRAGMENTS or by merge_config.sh (Buildroot's
# kconfig-package) and then olddefconfig.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=kconfig
. "$src/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$src"/boards/*_defconfig; do
	b=$(basename "$f" _defconfig)
	d=$tmp/$b
	if make -s -C "$src" O="$d" "${b}_defconfig" >/dev/null 2>"$tmp/err" &&
	   make -s -C "$src" O="$d" savedefconfig >/dev/null 2>>"$tmp/err"; then
		if cmp -s "$f" "$d/defconfig"; then ok "savedefconfig round trip: $b"
		else fail "savedefconfig round trip: $b: boards/${b}_defconfig differs from what savedefconfig wrote: $(diff "$f" "$d/defconfig" | tr '\n' ' ')"; fi
	else
		fail "configure $b: $(tail -n1 "$tmp/err")"
	fi
done

# The engines: what each writes, compared (auto.conf and autoconf.h as sorted lines:
# kconfig-frontends writes them in its hash table's order, Kconfiglib in the Kconfig's)
sorted() { grep -v '^[#/ ]' "$1" | sort; }
# (every board with the libc variants' fragments, one with every fragment of tests/configs)
mkdir -p "$tmp/eng"
for f in "$src"/boards/*_defconfig; do
	b=$(basename "$f" _defconfig)
	frags="none musl freestanding toolchain"
	[ "$b" = qemu-armv7 ] && frags="none $(cd "$src/tests/configs" && ls -- *.config | sed 's/\.config$//' | tr '\n' ' ')"
	diffs=
	for fr in $frags; do
		[ "$fr" = none ] && fa= || fa=$src/tests/configs/$fr.config
		for e in frontends kconfiglib; do
			d=$tmp/eng/$b-$fr-$e
			{ make -s -C "$src" O="$d" KCONFIG_ENGINE=$e "${b}_defconfig" KCONFIG_FRAGMENTS="$fa" &&
			  make -s -C "$src" O="$d" KCONFIG_ENGINE=$e savedefconfig &&
			  make -s -C "$src" O="$d" KCONFIG_ENGINE=$e syncconfig; } >"$d.log" 2>&1 ||
				diffs="$diffs $fr/$e: $(tail -n1 "$d.log")"
		done
		a=$tmp/eng/$b-$fr-frontends k=$tmp/eng/$b-$fr-kconfiglib
		cmp -s "$a/.config" "$k/.config" || diffs="$diffs $fr: .config"
		cmp -s "$a/defconfig" "$k/defconfig" || diffs="$diffs $fr: savedefconfig"
		for h in include/config/auto.conf include/generated/autoconf.h; do
			[ -s "$a/$h" ] && [ "$(sorted "$a/$h")" = "$(sorted "$k/$h")" ] || diffs="$diffs $fr: $h"
		done
	done
	expect_eq "engines agree on $b (fragments: $frags)" "" "$diffs"
done

# merge_config.sh -m (kconfig-frontends' kconfig-merge), then olddefconfig, as Buildroot's
# kconfig-package does: the same .config as KCONFIG_FRAGMENTS, with either engine
merge=$(command -v kconfig-merge || echo /usr/bin/kconfig-merge)
printf 'CONFIG_REC_PACK=y\n# CONFIG_REC_HELP is not set\n' >"$tmp/extra.config"
for e in frontends kconfiglib; do
	d=$tmp/merge-$e
	mkdir -p "$d"
	(cd "$tmp" && "$merge" -m -O "$d" "$src/boards/qemu-aarch64_defconfig" \
		"$src/tests/configs/freestanding.config" "$tmp/extra.config") >"$d.log" 2>&1 &&
	make -s -C "$src" O="$d" KCONFIG_ENGINE=$e olddefconfig >>"$d.log" 2>&1 &&
	make -s -C "$src" O="$tmp/frag-$e" KCONFIG_ENGINE=$e qemu-aarch64_defconfig \
		KCONFIG_FRAGMENTS="$src/tests/configs/freestanding.config $tmp/extra.config" >>"$d.log" 2>&1
	if [ $? -eq 0 ] && cmp -s "$d/.config" "$tmp/frag-$e/.config" && cmp -s "$d/.config" "$tmp/merge-frontends/.config" &&
	   grep -q '^CONFIG_REC_PACK=y' "$d/.config" && grep -q '^CONFIG_SHIM_FREESTANDING=y' "$d/.config" &&
	   grep -q '^# CONFIG_REC_HELP is not set' "$d/.config"; then
		ok "merge_config.sh -m + olddefconfig ($e): the fragments' values, the same .config as KCONFIG_FRAGMENTS"
	else
		fail "merge_config.sh + olddefconfig ($e): $(tail -n 2 "$d.log" | tr '\n' ' ') $(diff "$d/.config" "$tmp/frag-$e/.config" 2>&1 | head -n 4 | tr '\n' ' ')"
	fi
done

# Every visible symbol (one with a prompt) has help text.
missing=$(awk '
	function flush() { if (sym != "" && prompt && !help) print FILENAME ":" sym; sym = ""; prompt = 0; help = 0 }
	/^[ \t]*(menu)?config[ \t]/ { flush(); sym = $2; next }
	/^[ \t]*(choice|endchoice|menu|endmenu|if|endif|source|comment)([ \t]|$)/ { flush(); next }
	/^[ \t]*(bool|tristate|string|int|hex)[ \t]+"/ { prompt = 1 }
	/^[ \t]*prompt[ \t]/ { prompt = 1 }
	/^[ \t]*(---)?help(---)?[ \t]*$/ { help = 1 }
	ENDFILE { flush() }
' $(find "$src" -name Kconfig -not -path '*/out/*'))
expect_eq "every visible Kconfig symbol has help text" "" "$missing"

# menuconfig opens in a real terminal and exits on ESC ESC, with either engine.
for e in frontends kconfiglib; do
	if python3 "$src/tests/kconfig/menuconfig.py" "$src" "$tmp/mc-$e" "$e" >"$tmp/mc.log" 2>&1; then
		ok "menuconfig ($e) opens and shows the tinyperf menu"
	else
		fail "menuconfig ($e): $(tail -n1 "$tmp/mc.log")"
	fi
done

done_tests
