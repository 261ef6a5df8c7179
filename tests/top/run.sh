#!/bin/sh
# SPDX-License-Identifier: MIT
# tinyperf top against a recorder streaming on this machine, its screen driven and read in a
# tmux pane (send-keys, capture-pane): over TCP (--listen, a dropped link and the device
# taken again; --connect), over a serial pty (tests/transport/relay.py), --stdio and -i -.
# Every wait is bounded; the tmux server is this test's own and is killed at the end.
#   run.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-top}
. "$src/tests/lib.sh"
rec=$1
host=$2
work=${3:-$(mktemp -d)}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
wl=$work/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "build workloads"; done_tests; exit 1; }
ev="-e cpu-clock"
tmx="tmux -L tinyperf-top-$$ -f /dev/null"
pids=""

cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	$tmx kill-server 2>/dev/null
}
trap cleanup EXIT

command -v tmux >/dev/null || { fail "tmux is not installed (scripts/deps.sh all)"; done_tests; exit 1; }
# a session that lives as long as the test: killing the last session makes the server exit,
# and a new-session racing that exit fails (seen once in CI: the serial pane never existed)
$tmx new-session -d -s keep "sleep 3600" || { fail "tmux: cannot start a server"; done_tests; exit 1; }

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# the pane's text now
pane() { $tmx capture-pane -p -t top 2>/dev/null; }
# the symbol on the first line under the column header
first_row() { pane | awk 'h && NF { print $NF; exit } /^Overhead/ { h = 1 }'; }
status_line() { pane | head -n1; }

# wait_until SECS COMMAND...: poll every 0.1 s; the seconds it took, or fails after SECS
wait_until() {
	lim=$(($1 * 10)); shift
	i=0
	while [ $i -lt $lim ]; do
		if "$@"; then
			waited=$(awk -v i=$i 'BEGIN { printf "%.1f", i / 10 }')
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	waited=timeout
	return 1
}
leaf_first() { [ "$(first_row)" = leaf ]; }
status_has() { status_line | grep -q "$1"; }
pane_has() { pane | grep -q "$1"; }

# start_top ARGS...: tinyperf top in a new tmux pane of 150x40 (the exit status shown after)
start_top() {
	$tmx kill-session -t top 2>/dev/null
	$tmx new-session -d -s top -x 150 -y 40 \
		"$host top $* 2>$work/top.err; echo TOP-EXIT=\$?; sleep 60" ||
		fail "tmux new-session for top $*"
}

# record_bg OUT SECS: the recorder streaming spin to OUT in the background ($rp)
record_bg() {
	timeout 60 "$rec" record $ev -F 499 -g -o "$1" -- "$wl/spin" "$2" 2>"$work/rec.err" &
	rp=$!
	pids="$pids $rp"
}
# kill the recorder and its workload at once: the link drops mid-stream
kill_rec() {
	child=$(pgrep -P "$rp" | head -n1)
	[ -n "$child" ] && grandchild=$(pgrep -P "$child" | head -n1)
	kill -9 "$rp" ${child:-} ${grandchild:-} 2>/dev/null
	wait "$rp" 2>/dev/null
}

# ---- TCP: --listen, keys, a dropped link, the device again, q, -o ----------------------
port=$(free_port)
start_top --listen "127.0.0.1:$port" -o "$work/keep"
if wait_until 5 status_has "waiting for the device on 127.0.0.1:$port"; then
	ok "--listen: the status line says where it waits: $(status_line | cut -c1-60)"
else
	fail "--listen: no waiting status after 5 s: '$(status_line)' $(cat top.err)"
fi
record_bg "tcp://127.0.0.1:$port" 30
if wait_until 3 leaf_first; then
	ok "TCP: leaf is the first line ${waited} s after the recorder started"
else
	fail "TCP: first line '$(first_row)' 3 s after the recorder started, leaf expected: $(pane | head -n4 | tr '\n' '|')"
fi
check "TCP: the status line has the link, the rate and the lost count" \
	sh -c "$tmx capture-pane -p -t top | head -n1 | grep -Eq 'receiving from 127.0.0.1:[0-9]+ \| [0-9]+ samples/s, [0-9]+ samples, [0-9]+ lost'"

# keys: sort, kernel, filters
$tmx send-keys -t top s
check "key s: sorted by samples" wait_until 2 status_has "sort samples"
$tmx send-keys -t top S
$tmx send-keys -t top k
if wait_until 2 status_has "no kernel" && ! pane | grep -q '\[k\]'; then
	ok "key k: kernel functions hidden"
else
	fail "key k: '$(status_line)', kernel rows: $(pane | grep -c '\[k\]')"
fi
$tmx send-keys -t top k c n o n e Enter
if wait_until 2 pane_has "no samples in the window" && status_has "comm none"; then
	ok "key c: a comm filter that matches nothing empties the view"
else
	fail "key c: '$(status_line)' $(pane | sed -n 3p)"
fi
$tmx send-keys -t top c BSpace BSpace BSpace BSpace Enter d s p i n Enter
if wait_until 3 leaf_first && status_has "dso spin" &&
   [ "$(pane | awk 'h && $1 ~ /%$/ { print $4 } /^Overhead/ { h = 1 }' | sort -u)" = spin ]; then
	ok "keys c, d: the comm filter cleared, the DSO filter keeps spin's functions only"
else
	fail "keys c, d: '$(status_line)' $(pane | sed -n 3,5p | tr '\n' '|')"
fi
$tmx send-keys -t top d Escape
$tmx send-keys -t top d BSpace BSpace BSpace BSpace Enter
# a smaller terminal: the view is drawn again to its size
$tmx resize-window -t top -x 80 -y 15
keys_at_15() { [ "$(pane | sed -n 15p | cut -c1-6)" = "q quit" ]; }
if wait_until 3 keys_at_15 && wait_until 2 leaf_first; then
	ok "a resized terminal (80x15): the view follows, leaf first, the keys on the last line"
else
	fail "resized to 80x15: line 15 '$(pane | sed -n 15p)', first line '$(first_row)'"
fi
$tmx resize-window -t top -x 150 -y 40

# the link drops: the recorder dies mid-stream
kill_rec
if wait_until 3 status_has "LINK DOWN"; then
	ok "a dropped link shows in the status line: $(status_line | cut -c1-90)"
else
	fail "killed recorder: status '$(status_line)' after 3 s"
fi
# the device comes back (leaf is still in the window, fading: wait for new samples)
samples_now() { status_line | sed -n 's/.* \([0-9][0-9]*\) samples, .*/\1/p'; }
sleep 1.2	# a refresh after the drop: the count no longer moves
n0=$(samples_now)
more_samples() { [ "$(samples_now)" -gt "${n0:-0}" ] 2>/dev/null; }
record_bg "tcp://127.0.0.1:$port" 30
if wait_until 5 status_has "receiving from" && wait_until 4 more_samples && leaf_first; then
	ok "--listen takes the recorder again: receiving, samples coming, leaf first"
else
	fail "the recorder again: status '$(status_line)', first line '$(first_row)'"
fi

$tmx send-keys -t top q
if wait_until 5 pane_has "TOP-EXIT=0"; then
	ok "q: tinyperf top exits 0"
else
	fail "q: no exit within 5 s: $(pane | tail -n3 | tr '\n' '|')"
fi
alt=$($tmx display -p -t top '#{alternate_on}')
if [ "$alt" = 0 ] && ! pane_has "^Overhead"; then
	ok "q: the terminal is restored (no alternate screen, no view left)"
else
	fail "q: alternate_on=$alt, view left: $(pane | head -n2 | tr '\n' '|')"
fi
kill_rec

# -o: what arrived, as tinyperf recv saves it
n=0 good=0
for f in keep/*/*.data; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	s=$(perf report --stdio --no-children --sort sym -i "$f" 2>"$f.err" | grep -E '^ +[0-9.]+%' | head -n1 | awk '{print $NF}')
	[ "$s" = leaf ] && ! grep -q . "$f.err" && good=$((good + 1))
done
if [ $n -eq 2 ] && [ $good -eq 2 ]; then
	ok "-o: both sessions kept; perf report reads each cleanly, leaf on top"
else
	fail "-o: $n files, $good read by perf report with leaf on top: $(ls -R keep | tr '\n' ' ')"
fi

# ---- TCP: --connect to a recorder started with tcp-listen:// --------------------------
port=$(free_port)
record_bg "tcp-listen://127.0.0.1:$port" 30
start_top --connect "127.0.0.1:$port"
if wait_until 5 status_has "receiving from 127.0.0.1:$port" && wait_until 3 leaf_first; then
	ok "--connect: receiving, leaf first"
else
	fail "--connect: status '$(status_line)', first line '$(first_row)': $(cat top.err rec.err | tr '\n' ' ')"
fi
$tmx send-keys -t top q
wait_until 5 pane_has "TOP-EXIT=0" || fail "--connect: q did not end top"
kill_rec

# ---- serial: a pty pair at 115200 baud -------------------------------------------------
rm -f ser.info
python3 "$src/tests/transport/relay.py" --info ser.info --timeout 60 2>ser.relay-err &
relay=$!
pids="$pids $relay"
wait_until 5 test -s ser.info
A=$(sed -n 's/^A=\([^ ]*\) .*/\1/p' ser.info)
B=$(sed -n 's/.* B=\(.*\)$/\1/p' ser.info)
start_top --serial "$B,115200"
wait_until 5 status_has "serial $B" || fail "--serial: status '$(status_line)': $(cat top.err)"
timeout 60 "$rec" record $ev -F 99 -o "serial:$A,115200" -- "$wl/spin" 20 2>ser-rec.err &
rp=$!
pids="$pids $rp"
if wait_until 3 leaf_first; then
	ok "serial 115200: leaf is the first line ${waited} s after the recorder started"
else
	fail "serial: first line '$(first_row)', status '$(status_line)': $(cat top.err ser-rec.err | tr '\n' ' ')"
fi
check "serial: the status line says it is receiving" status_has "serial $B: receiving"
kill_rec
kill "$relay" 2>/dev/null
if wait_until 5 status_has "LINK DOWN\|quiet for"; then
	ok "serial: a line gone quiet or closed shows: $(status_line | cut -c1-90)"
else
	fail "serial: status '$(status_line)' after the line went away"
fi
$tmx send-keys -t top q
if wait_until 5 pane_has "TOP-EXIT=0"; then
	ok "serial: q exits 0 after the line went away"
else
	fail "serial: q did not end top: $(pane | tail -n3 | tr '\n' '|')"
fi

# ---- --stdio, and the pipe ------------------------------------------------------------
port=$(free_port)
timeout 20 "$host" top --listen "127.0.0.1:$port" --stdio -n 4 >stdio.out 2>stdio.err &
tp=$!
pids="$pids $tp"
sleep 0.5
record_bg "tcp://127.0.0.1:$port" 6
wait "$tp"
rc=$?
kill_rec
# the first block with samples in it
first=$(awk '/^Overhead/ { h = 1; next } h && $1 ~ /%$/ { print $NF; exit } !NF { h = 0 }' stdio.out)
blocks=$(grep -c '^tinyperf top:' stdio.out)
if [ $rc -eq 0 ] && [ "$first" = leaf ] && [ "$blocks" -eq 4 ]; then
	ok "--stdio: 4 blocks for -n 4, leaf the first line of the first with samples"
else
	fail "--stdio: exit $rc, $blocks blocks, first line '$first': $(head -n5 stdio.out | tr '\n' '|') $(cat stdio.err)"
fi

timeout 30 "$rec" record $ev -F 499 -o - -- "$wl/spin" 2 2>pipe-rec.err |
	timeout 30 "$host" top -i - >pipe.out 2>pipe.err
rc=$?
last=$(awk '/^tinyperf top:/ { r = "" } /^Overhead/ { h = 1; next } h && $1 ~ /%$/ && r == "" { r = $NF } !NF { h = 0; if (r != "") lr = r } END { print lr }' pipe.out)
if [ $rc -eq 0 ] && [ "$last" = leaf ] && grep -q 'stream ended' pipe.out; then
	ok "-i - (stdout not a terminal: plain blocks): ends with the pipe, exit 0, leaf first"
else
	fail "-i -: exit $rc, last first line '$last': $(tail -n4 pipe.out | tr '\n' '|') $(cat pipe.err)"
fi

# input that is no stream does not hang it
head -c 100000 /dev/urandom | timeout 10 "$host" top -i - --stdio >junk.out 2>junk.err
rc=$?
if [ $rc -eq 0 ] && grep -q 'LINK DOWN' junk.out; then
	ok "-i - of random bytes: ends at once, the status says why"
else
	fail "-i - of random bytes: exit $rc: $(tail -n3 junk.out | tr '\n' '|') $(cat junk.err)"
fi

out=$("$host" top 2>&1)
rc=$?
if [ $rc -eq 2 ] && echo "$out" | grep -q -- '--listen'; then
	ok "no input: exit 2 and one line saying what to give"
else
	fail "no input: exit $rc: $out"
fi

done_tests
