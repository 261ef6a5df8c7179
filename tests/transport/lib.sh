# SPDX-License-Identifier: MIT
# What the tests of tinyperf recv share (tests/transport; the recv cases of tests/record/dwarf.sh
# and tests/embed/run.sh): recv started on a free port and waited for, bounded waits for a
# process and for a line in a file, and what Linux perf reads in the files recv saves. Sourced
# after tests/lib.sh; uses $host (the host tinyperf) and $work (recv's files and messages go
# there), and adds the recv it starts to $pids, which the caller's cleanup (if any) kills.
# shellcheck shell=sh

# samples_of FILE: what perf counts in a perf.data
samples_of() { perf script -i "$1" -F tid -G 2>/dev/null | grep -c .; }
# printed_samples ERRFILE: the recorder's own count
printed_samples() { sed -n 's/^\[ tinyperf record: \([0-9]*\) samples.*/\1/p' "$1"; }
# perf_clean FILE: perf report reads FILE without a warning
perf_clean() { perf report --stdio -i "$1" >/dev/null 2>"$1.report-err" && ! grep -q . "$1.report-err"; }

# session_file DIR ERRFILE: the file recv saved for the session a recorder printed
session_file() {
	sess=$(sed -n "s/.*session \([0-9a-f]*\)$/\1/p" "$2" | cut -c1-8)
	[ -n "$sess" ] && ls "$1"/*/*-"$sess".data 2>/dev/null | head -n1
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_recv NAME ARGS...: tinyperf recv -o $work/NAME ARGS on a free port ($port), listening
# within 5 s; its pid in $recv_pid (and $pids), its stdout and stderr in NAME.out and NAME.err.
# Another process may take the port between free_port and recv's bind: then a new port, 8 tries.
start_recv() {
	n=$1; shift
	for try in 1 2 3 4 5 6 7 8; do
		port=$(free_port)
		rm -f "$work/$n.err"	# an earlier recv's 'listening on' is not this one's
		"$host" recv -o "$work/$n" --port "$port" "$@" >"$work/$n.out" 2>"$work/$n.err" &
		recv_pid=$!
		for i in $(seq 50); do
			grep -q 'listening on' "$work/$n.err" 2>/dev/null && { pids="${pids:-} $recv_pid"; return 0; }
			kill -0 $recv_pid 2>/dev/null || break
			sleep 0.1
		done
		kill $recv_pid 2>/dev/null
		wait $recv_pid 2>/dev/null
	done
	return 1
}

# wait_for PID SECS: wait for PID, killing it after SECS seconds; its exit status
# (polled: a helper timer process would outlive the wait and hold the output open)
wait_for() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		if [ $i -ge $(($2 * 10)) ]; then
			echo "note: pid $1 still running after $2 s: stopped"
			kill "$1" 2>/dev/null
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	wait "$1"
}

# wait_file FILE PATTERN SECS: until FILE has a line matching PATTERN; fails after SECS seconds
wait_file() {
	for i in $(seq $(($3 * 10))); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
