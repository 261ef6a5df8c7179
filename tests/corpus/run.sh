#!/bin/sh
# The broken-file corpus: `tinyperf dump` on each tests/corpus/bad/*.data must exit with the
# status of its .expect, say on stderr every "words:" line of it, print no sanitizer report,
# and finish in bounded time. (Regenerate the corpus with tests/corpus/gen.py.)
#   usage: tests/corpus/run.sh [TINYPERF]   (default out/host/host-san/tinyperf)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
tp=${1:-$src/out/host/host-san/tinyperf}
T_NAME=corpus
. "$src/tests/lib.sh"

[ -x "$tp" ] || { fail "no $tp: run 'make HOST_SANITIZE=1 host' first"; done_tests; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for f in "$src"/tests/corpus/bad/*.data; do
	name=$(basename "$f" .data)
	exp=${f%.data}.expect
	want=$(sed -n 's/^exit //p' "$exp")
	timeout 60 "$tp" dump -i "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	why=
	[ "$rc" = "$want" ] || why="exit $rc, expected $want"
	if grep -qE 'Sanitizer|runtime error' "$tmp/err"; then
		why="$why; sanitizer: $(grep -m1 -E 'Sanitizer|runtime error' "$tmp/err")"
	fi
	while IFS= read -r line; do
		case $line in
		words:\ *) w=${line#words: }
			grep -qF -- "$w" "$tmp/err" || why="$why; no '$w' in stderr" ;;
		esac
	done <"$exp"
	if [ -z "$why" ]; then
		ok "$name"
	else
		fail "$name: ${why#; }: $(head -c 400 "$tmp/err" | tr '\n' '|')"
	fi
done
done_tests
