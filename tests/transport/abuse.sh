#!/bin/sh
# SPDX-License-Identifier: MIT
# tinyperf recv under abuse, on loopback (issue 24): 500 connections that never send a byte
# and 200 that send random bytes, held open (abuse.py reopens each one recv closes) while 8
# real recorders stream for 10 s: every recording saved and read cleanly by Linux perf, recv's
# memory bounded; --allow refusing with one line on both sides; the hello and idle timeouts;
# running out of file descriptors without spinning.
#   abuse.sh DEVICE-TINYPERF HOST-TINYPERF [WORKDIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
T_NAME=${T_NAME:-transport-abuse}
. "$src/tests/lib.sh"
rec=$1
host=$2
work=${3:-$(mktemp -d)}
here=$src/tests/transport
. "$here/lib.sh"
rss_max_mb=${ABUSE_RSS_MAX_MB:-100}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
wl=$work/wl
"$src/tests/workloads/build.sh" "$wl" >/dev/null || { fail "build workloads"; done_tests; exit 1; }
# 700 hostile sockets here and as many in recv: the default 1024 would do, a lower one not
ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null
# ASan's quarantine keeps 256 MB of freed memory by default: RSS would measure that
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; }
trap cleanup EXIT

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }

# ---- 700 hostile connections, 8 recorders ----------------------------------------------
if start_recv main; then
	# a third of the hostile connections from the recorders' own address, the rest from
	# two others: the per-address limit must not lock the devices out either
	python3 "$here/abuse.py" "$port" 500 200 40 ready stats.json \
		127.0.0.1,127.0.0.3,127.0.0.4 >abuse.out 2>&1 &
	ap=$!
	pids="$pids $ap"
	if wait_file ready holding 20; then
		ok "700 hostile connections opened ($(rss_kb $recv_pid) kB recv RSS)"
	else
		fail "abuse.py did not open its connections: $(tail -n 3 abuse.out)"
	fi
	rss0=$(rss_kb $recv_pid)
	for i in 1 2 3 4 5 6 7 8; do
		"$rec" record -e cpu-clock -F 199 -g -o "tcp://127.0.0.1:$port" -- "$wl/spin" 10 \
			2>"rec$i.err" &
		eval rp$i=\$!
	done
	peak=0
	while :; do
		running=0
		for i in 1 2 3 4 5 6 7 8; do eval "kill -0 \$rp$i 2>/dev/null" && running=1; done
		r=$(rss_kb $recv_pid)
		[ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
		[ $running -eq 1 ] || break
		[ $((ticks = ${ticks:-0} + 1)) -lt 600 ] || break	# 60 s at most
		sleep 0.1
	done
	good=0 bad=""
	for k in 1 2 3 4 5 6 7 8; do
		eval wait_for \$rp$k 10
		rc=$?
		f=$(session_file main "rec$k.err")
		want=$(printed_samples "rec$k.err")
		got=$([ -n "$f" ] && samples_of "$f")
		if [ $rc -eq 0 ] && [ -n "$f" ] && [ -n "$want" ] && [ "$want" -gt 0 ] &&
		   [ "$got" = "$want" ] && perf_clean "$f"; then
			good=$((good + 1))
		else
			bad="$bad rec$k(exit $rc, file '$f', $want samples printed, $got read: $(grep -v '^\[ tinyperf' "rec$k.err" | tail -n 2 | tr '\n' ' '))"
		fi
	done
	expect_eq "8 recorders under the attack: files saved, read cleanly by perf report, every sample${bad:+ ($bad)}" 8 "$good"
	r=$(rss_kb $recv_pid)
	[ -n "$r" ] && [ "$r" -gt "$peak" ] && peak=$r
	kill $ap 2>/dev/null	# it writes stats.json and exits
	wait_for $ap 10
	kill -TERM $recv_pid
	wait_for $recv_pid 20
	echo "recv RSS: ${rss0:-?} kB with 700 hostile connections, peak ${peak} kB while 8 recorders streamed (bound ${rss_max_mb} MB)"
	grep 'connections:' main.err
	check "recv RSS stays under $rss_max_mb MB (peak $((peak / 1024)) MB)" \
		[ "$peak" -gt 0 -a "$peak" -lt $((rss_max_mb * 1024)) ]
	# the attack was real: recv dropped hundreds of connections while the recorders streamed
	dropped=$(sed -n 's/.* \([0-9]*\) evicted, \([0-9]*\) without a hello in time, [0-9]* idle, \([0-9]*\) not tinyperf.*/\1 \2 \3/p' main.err |
		awk '{ print $1 + $2 + $3 }')
	check "recv dropped the hostile connections (${dropped:-?} evicted, timed out or not tinyperf)" [ "${dropped:-0}" -ge 700 ]
	check "recv told the dropped ones why (TPBYE lines: $(python3 -c 'import json,sys; print(json.load(open("stats.json"))["bye_lines"])' 2>/dev/null))" \
		python3 -c 'import json,sys; sys.exit(json.load(open("stats.json"))["bye_lines"] < 100)'
	cat stats.json 2>/dev/null
else
	fail "recv did not start: $(cat main.err)"
fi

# ---- --allow -----------------------------------------------------------------------------
if start_recv allow --allow 127.0.0.2/32 --allow ::1; then
	"$rec" record -q -e cpu-clock -F 199 -o "tcp://127.0.0.1:$port" -- "$wl/spin" 1 2>allow-rec.err
	rc=$?
	wait_file allow.err 'not in --allow' 5
	kill -TERM $recv_pid
	wait_for $recv_pid 10
	if [ $rc -ne 0 ] && [ "$(grep -c . allow-rec.err)" = 1 ] &&
	   grep -q "^tinyperf: record: recv at 127.0.0.1:$port refused this device (127.0.0.1 is not in its --allow list): recording stopped$" allow-rec.err; then
		ok "--allow 127.0.0.2/32: the recorder from 127.0.0.1 says why in one line: $(cat allow-rec.err)"
	else
		fail "--allow 127.0.0.2/32: recorder exit $rc: $(cat allow-rec.err)"
	fi
	expect_eq "--allow 127.0.0.2/32: recv refuses 127.0.0.1 in one line" 1 "$(grep -c 'refused: not in --allow' allow.err)"
	check "--allow 127.0.0.2/32: nothing saved" [ -z "$(ls allow/*/*.data 2>/dev/null)" ]
else
	fail "recv --allow did not start: $(cat allow.err)"
fi
if start_recv allow8 --count 1 --allow 10.0.0.0/8 --allow 127.0.0.0/8; then
	"$rec" record -q -e cpu-clock -F 199 -o "tcp://127.0.0.1:$port" -- "$wl/spin" 1 2>allow8-rec.err
	rc=$?
	wait_for $recv_pid 20
	f=$(ls allow8/*/*.data 2>/dev/null | head -n1)
	v=0; [ $rc -eq 0 ] && [ -n "$f" ] && perf_clean "$f" && v=1
	check "--allow 127.0.0.0/8 takes the recorder from 127.0.0.1" [ $v = 1 ]
else
	fail "recv --allow 127.0.0.0/8 did not start"
fi

if start_recv allow6 --bind ::1 --count 1 --allow 192.0.2.0/24 --allow ::1; then
	"$rec" record -q -e cpu-clock -F 199 -o "tcp://[::1]:$port" -- "$wl/spin" 1 2>allow6-rec.err
	rc=$?
	wait_for $recv_pid 20
	f=$(ls allow6/*/*.data 2>/dev/null | head -n1)
	v=0; [ $rc -eq 0 ] && [ -n "$f" ] && perf_clean "$f" && v=1
	check "--bind ::1 --allow ::1: the recorder from [::1] is taken (exit $rc: $(cat allow6-rec.err))" [ $v = 1 ]
else
	fail "recv --bind ::1 did not start: $(cat allow6.err)"
fi

# ---- the hello and idle timeouts ---------------------------------------------------------
if start_recv timeouts --hello-timeout 1 --idle-timeout 2; then
	# a silent connection: closed after about a second, with a TPBYE line
	python3 - "$port" >hello.out 2>&1 <<'EOF'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(10)
t = time.monotonic()
got = b""
while True:
    d = s.recv(4096)
    if not d:
        break
    got += d
print("%.1f %s" % (time.monotonic() - t, got.decode(errors="replace").strip()))
EOF
	set -- $(cat hello.out)
	if [ "${2:-}" = TPBYE ] && awk -v t="${1:-99}" 'BEGIN { exit !(t >= 0.9 && t < 5) }'; then
		ok "--hello-timeout 1: a silent connection is closed after ${1} s, told why: $(cut -d' ' -f2- hello.out)"
	else
		fail "--hello-timeout 1: $(cat hello.out)"
	fi
	# a session that sends nothing for 2 s: a process that computes for 1.5 s, then sleeps;
	# recorded with -p, the recorder has nothing to send from then until it ends
	python3 -c 'import time
t = time.monotonic()
while time.monotonic() - t < 1.5:
    pass
time.sleep(6)' &
	sp=$!
	"$rec" record -e cpu-clock -F 199 -p $sp -o "tcp://127.0.0.1:$port" 2>idle-rec.err
	rc=$?
	wait $sp
	kill -TERM $recv_pid
	wait_for $recv_pid 10
	f=$(session_file timeouts idle-rec.err)
	got=$([ -n "$f" ] && samples_of "$f")
	if [ $rc -ne 0 ] && grep -q 'recv at .* closed this session: nothing arrived for its --idle-timeout' idle-rec.err &&
	   [ -n "$f" ] && perf_clean "$f" && [ "${got:-0}" -gt 0 ] &&
	   grep -q "saved .*stream ended early (nothing for 2.0 s: closed by recv --idle-timeout)" timeouts.err; then
		ok "--idle-timeout 2: a quiet session is closed, saved ($got samples, read by perf); the recorder says why: $(grep 'recv at' idle-rec.err)"
	else
		fail "--idle-timeout 2: recorder exit $rc ($(grep -v '^\[' idle-rec.err | tr '\n' ' ')), file '$f': $(grep -v listening timeouts.err | tr '\n' ' ')"
	fi
else
	fail "recv with timeouts did not start"
fi

# ---- out of file descriptors -------------------------------------------------------------
# 40 descriptors: recv lowers --max-clients to fit, and 60 silent connections neither make it
# spin nor keep a recorder out
if (ulimit -n 40; start_recv fds --max-per-peer 0 --hello-timeout 2 && echo "$port $recv_pid" >fds.pid; wait $recv_pid) &
then
	fdsub=$!
	wait_file fds.pid . 10
	set -- $(cat fds.pid 2>/dev/null) 0 0
	port=$1 recv_pid=$2
	python3 "$here/abuse.py" "$port" 60 0 20 fready fstats.json 127.0.0.1 50 >fabuse.out 2>&1 &
	fap=$!
	pids="$pids $fap $recv_pid"
	wait_file fready holding 10
	t0=$(cpu_ticks $recv_pid)
	sleep 3
	t1=$(cpu_ticks $recv_pid)
	"$rec" record -q -e cpu-clock -F 199 -o "tcp://127.0.0.1:$port" -- "$wl/spin" 1 2>fds-rec.err
	rc=$?
	kill $fap 2>/dev/null
	wait $fap 2>/dev/null
	wait_file fds.err 'saved .*/fds/' 10	# the session's end read before recv is stopped
	kill -TERM $recv_pid 2>/dev/null
	wait_for $fdsub 10
	echo "recv with 40 fds under 60 connections: $((t1 - t0)) CPU ticks in 3 s"
	check "40 fds: recv lowers --max-clients and says so" grep -q 'only 40 file descriptors (ulimit -n): --max-clients lowered' fds.err
	check "40 fds: recv does not spin (< 0.3 s of CPU in 3 s, $((t1 - t0)) ticks)" [ $((t1 - t0)) -lt $(($(getconf CLK_TCK) * 3 / 10)) ]
	f=$(ls fds/*/*.data 2>/dev/null | head -n1)
	v=0; [ $rc -eq 0 ] && [ -n "$f" ] && perf_clean "$f" && v=1
	check "40 fds: a recorder still gets in (exit $rc: $(cat fds-rec.err))" [ $v = 1 ]
else
	fail "recv with 40 fds"
fi

# the limit lowered under a running recv (prlimit): accept() fails with EMFILE; recv says so,
# rests its listener instead of spinning on it, and takes a recorder once fds are back
if start_recv fds2 --hello-timeout 0; then
	nfd=$(ls /proc/$recv_pid/fd | wc -l)
	prlimit --pid $recv_pid --nofile=$((nfd + 2)):
	python3 "$here/abuse.py" "$port" 40 0 8 f2ready f2stats.json 127.0.0.1 50 >f2abuse.out 2>&1 &
	fap=$!
	pids="$pids $fap"
	wait_file f2ready holding 10
	t0=$(cpu_ticks $recv_pid)
	sleep 3
	t1=$(cpu_ticks $recv_pid)
	echo "recv at $((nfd + 2)) fds under 40 connections: $((t1 - t0)) CPU ticks in 3 s"
	check "EMFILE: recv says it cannot accept, once" \
		[ "$(grep -c 'cannot accept: Too many open files' fds2.err)" = 1 ]
	check "EMFILE: recv does not spin (< 0.3 s of CPU in 3 s, $((t1 - t0)) ticks)" \
		[ $((t1 - t0)) -lt $(($(getconf CLK_TCK) * 3 / 10)) ]
	kill $fap 2>/dev/null
	wait_for $fap 10
	prlimit --pid $recv_pid --nofile=1024:
	"$rec" record -q -e cpu-clock -F 199 -o "tcp://127.0.0.1:$port" -- "$wl/spin" 1 2>fds2-rec.err
	rc=$?
	wait_file fds2.err 'saved .*/fds2/' 10
	kill -TERM $recv_pid
	wait_for $recv_pid 10
	f=$(ls fds2/*/*.data 2>/dev/null | head -n1)
	v=0; [ $rc -eq 0 ] && [ -n "$f" ] && perf_clean "$f" && v=1
	check "EMFILE: with descriptors back, a recorder gets in (exit $rc: $(cat fds2-rec.err))" [ $v = 1 ]
else
	fail "recv for the EMFILE case did not start"
fi

check "no sanitizer report from recv" sh -c '! grep -l "runtime error\|AddressSanitizer\|LeakSanitizer" "$@"' sh \
	main.err allow.err allow8.err allow6.err timeouts.err fds.err fds2.err
done_tests
