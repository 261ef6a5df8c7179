#!/bin/sh
# recorder/'s folders are layers: a file may include headers of its own folder and of lower
# ones, never of a higher one or of another at its level. Prints each include that breaks
# that and exits 1 if any does.   rec-layers.sh [SRCTREE]
cd "${1:-$(dirname "$0")/..}" || exit 2
# level of each folder, bottom first (top: main.c and cmd.h; pack/ is a program over embed/xz)
level() {
	case $1 in
	base) echo 0 ;; events|track) echo 1 ;; embed) echo 2 ;; out) echo 3 ;;
	record|pack) echo 4 ;; top) echo 5 ;; *) echo 9 ;;
	esac
}
folder() { case $1 in recorder/*/*) echo "$1" | cut -d/ -f2 ;; *) echo top ;; esac; }
bad=0
for f in $(git ls-files 'recorder/*.c' 'recorder/*.h' 'recorder/*.S'); do
	d=$(folder "$f")
	for h in $(sed -n 's/^#include "\(recorder\/[^"]*\)".*/\1/p' "$f"); do
		hd=$(folder "$h")
		[ "$hd" = "$d" ] && continue
		if [ "$(level "$hd")" -ge "$(level "$d")" ]; then
			echo "$f ($d) includes $h ($hd)"
			bad=1
		fi
	done
done
exit $bad
