#!/bin/sh
# SPDX-License-Identifier: MIT
# The recorder's messages (issue 24, item 6): the hidden-kernel-addresses warning names the
# setting that hides them (kptr_restrict or perf_event_paranoid) for each combination, as
# nobody; tracefs is left as found (unmounted if the recorder mounted it, an existing mount
# kept); a usage error is the error and a 'see' line, not the usage.
#   messages.sh TINYPERF [WORKDIR]     (as root: sysctls, setpriv, unshare -m)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=messages
. "$src/tests/lib.sh"
tp=$1
work=${2:-$(mktemp -d)}
mkdir -p "$work"
chmod 777 "$work"

if [ "$(id -u)" != 0 ]; then
	fail "messages.sh needs root (sysctls, setpriv, unshare -m)"
	done_tests; exit 1
fi

# the two sysctls, put back however the script ends
kr=/proc/sys/kernel/kptr_restrict pp=/proc/sys/kernel/perf_event_paranoid
kr0=$(cat $kr) pp0=$(cat $pp)
restore() { echo "$kr0" >$kr; echo "$pp0" >$pp; }
trap restore EXIT
trap 'exit 1' INT TERM HUP

# 1. kptr_restrict vs perf_event_paranoid, as nobody: which setting the warning blames
#    (kallsyms_show_value: 2 hides from all, 1 without CAP_SYSLOG, 0 while paranoid > 1)
for k in 0 1 2; do for p in 1 2; do
	echo $k >$kr && echo $p >$pp || { fail "cannot set kptr_restrict=$k paranoid=$p"; continue; }
	(cd "$work" && setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$tp" record -o "$work/nobody.data" -- true) >/dev/null 2>"$work/nobody.err"
	hid=$(grep 'kernel addresses are hidden' "$work/nobody.err")
	case $k$p in
	01) want="" ;;
	02) want="hidden by perf_event_paranoid=2" ;;
	*) want="hidden by kptr_restrict=$k" ;;
	esac
	if [ -z "$want" ] && [ -z "$hid" ]; then
		ok "kptr_restrict=0 paranoid=1: addresses visible, no warning"
	elif [ -n "$want" ] && printf '%s\n' "$hid" | grep -qF "$want"; then
		ok "kptr_restrict=$k paranoid=$p: the warning says '$want'"
	else
		fail "kptr_restrict=$k paranoid=$p: want '$want', got: ${hid:-no warning}"
	fi
done; done
restore

# 2. tracefs left as found, in a private mount namespace: unmounted if we mounted it, kept
#    if it was there
if grep -q ' tracefs ' /proc/mounts || [ -d /sys/kernel/tracing ]; then
	r=$(unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug 2>/dev/null
		grep -q " /sys/kernel/tracing " /proc/mounts && { echo premounted; exit; }
		"$1" record -e sched:sched_switch -o "$2/tp.data" -- true >/dev/null 2>&1 || echo rc=$?
		grep -Eq " (tracefs|debugfs) " /proc/mounts && echo left-mounted || echo clean' \
		sh "$tp" "$work")
	[ "$r" = clean ] && ok "tracefs mounted for a tracepoint is unmounted at exit" ||
		fail "tracefs after a recording that mounted it: $r"
	r=$(unshare -m --propagation private sh -c '
		grep -q " /sys/kernel/tracing tracefs " /proc/mounts ||
			mount -t tracefs nodev /sys/kernel/tracing || { echo no-mount; exit; }
		"$1" record -e sched:sched_switch -o "$2/tp2.data" -- true >/dev/null 2>&1 || echo rc=$?
		grep -q " /sys/kernel/tracing tracefs " /proc/mounts && echo kept || echo gone' \
		sh "$tp" "$work")
	[ "$r" = kept ] && ok "a tracefs mounted before the recorder stays mounted" ||
		fail "an existing tracefs after a recording: $r"
	# an error exit after the mount (an unknown tracepoint) unmounts too
	r=$(unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug 2>/dev/null
		"$1" record -e sched:no_such_tp -o "$2/tp3.data" -- true >/dev/null 2>&1 && echo rc=0
		grep -Eq " (tracefs|debugfs) " /proc/mounts && echo left-mounted || echo clean' \
		sh "$tp" "$work")
	[ "$r" = clean ] && ok "tracefs is unmounted on an error exit too" ||
		fail "tracefs after a failed recording: $r"
else
	fail "no tracefs on this kernel"
fi

# 3. usage errors: exactly the error and the 'see' line on stderr, non-zero exit
for args in "-F 0" "-m 3" "--no-such-option"; do
	# shellcheck disable=SC2086
	"$tp" record $args -o "$work/u.data" -- true >"$work/u.out" 2>"$work/u.err"
	rc=$?
	n=$(wc -l <"$work/u.err")
	if [ $rc -ne 0 ] && [ "$n" -eq 2 ] && ! [ -s "$work/u.out" ] &&
	   sed -n 2p "$work/u.err" | grep -qx "see 'tinyperf record --help'"; then
		ok "record $args: exit $rc, '$(head -1 "$work/u.err")' and the see line"
	else
		fail "record $args: exit $rc, $n lines on stderr: $(head -3 "$work/u.err" | tr '\n' '|')"
	fi
done

# 4. the output failing while the state records are written (before the loop: once a silent
# exit 1, as when recv refuses a device right after its hello): one line, exit 1. A 4 KiB
# file size limit (SIGXFSZ ignored: write gets EFBIG) lets the header through, not -a's state.
r=$(sh -c 'trap "" XFSZ; ulimit -f 4; "$1" record -q -a -e cpu-clock -o "$2/big.data" -- true \
	2>"$2/big.err"; echo $?' sh "$tp" "$work")
if [ "$r" = 1 ] && [ "$(grep -c . "$work/big.err")" = 1 ] &&
   grep -q "^tinyperf: record: cannot write $work/big.data: File too large" "$work/big.err"; then
	ok "the output failing during the state records: exit 1, '$(cat "$work/big.err")'"
else
	fail "the output failing during the state records: exit $r, stderr '$(cat "$work/big.err")'"
fi

done_tests
