#!/bin/sh
# SPDX-License-Identifier: MIT
# The pictures and exports: tinyperf flamegraph, pprof, script --speedscope and report
# --html on recordings made here by Linux perf (file and pipe mode). Frame widths are the folded counts of every stack (the SVG parsed), --diff colours
# a function that got slower red and one that got faster blue, a name with <&"' and a byte
# that is no UTF-8 is escaped, an empty recording gives an empty picture and a note; then
# the SVG in headless Chromium (playwright-core from npm, Debian's chromium): no console
# error, the hot frame visible and the widest leaf, click zooms, search totals, a PNG. The
# pprof file is read by go tool pprof (-top against report's percentages, -raw for the
# build-ids and each sampled address with perf's source line for it) and by protoc with the profile.proto of Debian's golang-github-google-pprof-dev.
# The speedscope file has a profile per thread with script --folded's stacks, is valid
# against npm's speedscope schema (ajv) and loads in speedscope's own page (file://). The
# HTML report fetches nothing, and in Chromium a drag over a thread's time strip changes its
# function table, whose rows are report's (command, shared object, symbol) with its samples.
#   run.sh TINYPERF [LOGDIR]     (work files in $RENDER_OUT, default out/render)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
here=$src/tests/render
. "$src/tests/lib.sh"
tp=$(cd "$(dirname "${1:?usage: run.sh TINYPERF [LOGDIR]}")" && pwd)/$(basename "$1")
work=${RENDER_OUT:-$src/out/render}
logdir=${2:-$work}
mkdir -p "$work" "$logdir"
work=$(cd "$work" && pwd)

cc -O2 -g -fno-omit-frame-pointer -rdynamic -Wall -Wextra -Werror -o "$work/wl" "$here/wl.c" -ldl ||
	{ fail "build the workload tests/render/wl.c"; done_tests; exit 1; }
rec() { # OUT ARGS...: a perf recording of wl
	o=$1; shift
	perf record -q -e cpu-clock -F 2000 -g -o "$o" -- "$work/wl" "$@" >/dev/null 2>&1
}

# ---- widths are the folded counts, file and pipe mode ----
rec "$work/main.data" 60 180 100 || fail "perf record the workload"
perf record -q -e cpu-clock -F 2000 -g -o - -- "$work/wl" 40 120 60 2>/dev/null >"$work/pipe.data"
for d in main pipe; do
	in=$work/$d.data
	"$tp" script -i "$in" --folded >"$work/$d.folded" 2>/dev/null
	if [ "$d" = pipe ]; then
		# read from a pipe, as perf record -o - | tinyperf flamegraph -i -
		cat "$in" | "$tp" flamegraph -i - --minwidth 0 -o "$work/$d.svg" 2>"$work/$d.err"
	else
		"$tp" flamegraph -i "$in" --minwidth 0 -o "$work/$d.svg" 2>"$work/$d.err"
	fi
	check "flamegraph $d: exit 0 ($(head -c 200 "$work/$d.err"))" [ $? -eq 0 ]
	out=$(python3 "$here/svgcheck.py" widths "$work/$d.svg" "$work/$d.folded")
	check "$d: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
done

# the report's filters apply: --comm of nothing leaves an empty picture and says so
"$tp" flamegraph -i "$work/main.data" --comm no-such-thread -o "$work/none.svg" 2>"$work/none.err"
rc=$?
out=$(python3 "$here/svgcheck.py" empty "$work/none.svg")
check "--comm no-such-thread: exit $rc, an empty picture: ${out#\[*\] }" \
	[ $rc -eq 0 ] && [ "${out%% *}" = "[OK]" ]
check "--comm no-such-thread: one line that says so ($(cat "$work/none.err"))" \
	[ "$(wc -l <"$work/none.err")" -eq 1 ] && grep -q 'no samples' "$work/none.err"
# a recording with no sample at all (one sample a second, for a program that ends at once)
perf record -q -e cpu-clock -c 1000000000 -g -o "$work/empty.data" -- true >/dev/null 2>&1
"$tp" flamegraph -i "$work/empty.data" -o "$work/empty.svg" 2>"$work/empty.err"
rc=$?
out=$(python3 "$here/svgcheck.py" empty "$work/empty.svg")
check "a recording with no samples: exit $rc, ${out#\[*\] }, '$(cat "$work/empty.err")'" \
	[ $rc -eq 0 ] && [ "${out%% *}" = "[OK]" ] && [ "$(wc -l <"$work/empty.err")" -eq 1 ]

# ---- escaping: op<&"q'\xff ----
esc='op&lt;&amp;&quot;q&#39;\xff'
check "the name op<&\"q'\\xff is escaped as $esc" grep -qF "<title>$esc (" "$work/main.svg"
check "no raw < & or byte 0xff in the names" sh -c \
	"! LC_ALL=C grep -a '<title>' '$work/main.svg' | LC_ALL=C grep -q \"$(printf '\377')\\|<title>[^<]*<[^/]\""

# ---- --inverted, --minwidth ----
"$tp" flamegraph -i "$work/main.data" --inverted --minwidth 0 -o "$work/inv.svg" 2>/dev/null
out=$(python3 "$here/svgcheck.py" widths "$work/inv.svg" "$work/main.folded")
check "--inverted: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
root_y() { sed -n 's/.*data-d="0"><title>[^<]*<\/title><rect x="[0-9.]*" y="\([0-9]*\)".*/\1/p' "$1"; }
check "--inverted puts the root on top ($(root_y "$work/inv.svg") < $(root_y "$work/main.svg"))" \
	[ "$(root_y "$work/inv.svg")" -lt "$(root_y "$work/main.svg")" ]
# (280 px of 1200: render_a, 60 of the 340 rounds, is about 210 px wide and goes; the other
# two, 350 and 630 px, stay. Incidental narrow stacks are not counted on: a run may have none)
n0=$(grep -c '<g data-s' "$work/main.svg")
"$tp" flamegraph -i "$work/main.data" --minwidth 280 -o "$work/min.svg" 2>/dev/null
n1=$(grep -c '<g data-s' "$work/min.svg")
check "--minwidth 280 leaves out the narrow frames ($n0 -> $n1, render_a gone)" \
	[ "$n1" -lt "$n0" ] && [ "$n1" -gt 3 ] && ! grep -q '<title>render_a ' "$work/min.svg" &&
	grep -q '<title>render_b ' "$work/min.svg"
out=$(python3 "$here/svgcheck.py" valid "$work/min.svg")
check "--minwidth 280: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]

"$tp" flamegraph -i "$work/main.data" --minwidth wide -o "$work/bad.svg" 2>"$work/bad.err"
check "--minwidth wide: exit 2 and says so ($(head -n 1 "$work/bad.err"))" [ $? -eq 2 ]

# ---- -e: one event of several ----
perf record -q -e cpu-clock -e task-clock -F 1000 -g -o "$work/two.data" -- "$work/wl" 20 20 5 \
	>/dev/null 2>&1
n_task=$("$tp" script -i "$work/two.data" -F event 2>/dev/null | grep -c 'task-clock:')
"$tp" flamegraph -i "$work/two.data" -e task-clock --minwidth 0 -o "$work/two.svg" 2>/dev/null
n_svg=$(sed -n 's/.*data-d="0"><title>all (\([0-9]*\) samples.*/\1/p' "$work/two.svg")
check "-e task-clock: the task-clock samples only ($n_svg of the recording's $n_task)" \
	[ "$n_svg" = "$n_task" ] && [ "$n_task" -gt 0 ]
"$tp" flamegraph -i "$work/two.data" -e cycles -o "$work/none2.svg" 2>"$work/e.err"
check "-e cycles (none recorded): exit 1 and one line ($(cat "$work/e.err"))" \
	[ $? -eq 1 ] && [ "$(wc -l <"$work/e.err")" -eq 1 ]

# ---- the other byte order: test-writer's byte-swapped recording (big-endian here) ----
tw=$(dirname "$tp")/tests/test-writer
cc -O2 -g -no-pie -Wl,--build-id -o "$work/hot-ab" "$src/tests/workloads/hot-ab.c"
# where hot_a, hot_b and the text segment are, as test-writer --emit takes them
emit_args=$(python3 - "$work/hot-ab" <<'PY'
import re, subprocess, sys
elf = sys.argv[1]
syms = {l.split()[3]: l.split()[:2] for l in subprocess.run(['nm', '-S', elf], capture_output=True,
        text=True).stdout.splitlines() if len(l.split()) == 4}
load = next(l.split() for l in subprocess.run(['readelf', '-lW', elf], capture_output=True,
            text=True).stdout.splitlines() if l.split()[:1] == ['LOAD'] and ' R E ' in l)
off, vaddr, memsz = int(load[1], 16), int(load[2], 16), int(load[5], 16)
start = vaddr & ~0xfff
bid = re.search(r'Build ID: (\w+)', subprocess.run(['readelf', '-n', elf], capture_output=True,
                text=True).stdout).group(1)
print('--elf %s --map %d,%d,%d --build-id %s --hot-a 0x%s,0x%s --hot-b 0x%s,0x%s' % (
    elf, start, (vaddr - start + memsz + 0xfff) & ~0xfff, off & ~0xfff, bid,
    syms['hot_a'][0], syms['hot_a'][1], syms['hot_b'][0], syms['hot_b'][1]))
PY
)
if [ -x "$tw" ] && [ -n "$emit_args" ]; then
	# shellcheck disable=SC2086
	"$tw" --emit "$work/swap.data" $emit_args --samples 300,100 --swap >/dev/null 2>&1
	"$tp" script -i "$work/swap.data" --folded >"$work/swap.folded" 2>/dev/null
	"$tp" flamegraph -i "$work/swap.data" --minwidth 0 -o "$work/swap.svg" 2>/dev/null
	out=$(python3 "$here/svgcheck.py" widths "$work/swap.svg" "$work/swap.folded")
	check "byte-swapped recording: ${out#\[*\] }, hot_a 300" \
		sh -c "[ '${out%% *}' = '[OK]' ] && grep -q '<title>hot_a (300 samples' '$work/swap.svg'"
else
	fail "byte-swapped recording: no $tw (make HOST_SANITIZE=1 host-tests builds it)"
fi

# ---- --diff: render_a got faster, render_b slower ----
rec "$work/old.data" 150 50 10
rec "$work/new.data" 50 150 10
"$tp" flamegraph --diff "$work/old.data" "$work/new.data" --minwidth 0 -o "$work/diff.svg" 2>/dev/null
check "flamegraph --diff: exit 0" [ $? -eq 0 ]
"$tp" script -i "$work/new.data" --folded >"$work/new.folded" 2>/dev/null
for c in "render_b red" "render_a blue"; do
	out=$(python3 "$here/svgcheck.py" colour "$work/diff.svg" $c)
	check "diff: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
done
out=$(python3 "$here/svgcheck.py" widths "$work/diff.svg" "$work/new.folded")
check "diff: widths from the new recording: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]

# ---- pprof: go tool pprof and protoc read it ----
proto=/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
pprof_checks() {
	if ! command -v go >/dev/null || ! command -v protoc >/dev/null || [ ! -f "$proto" ]; then
		fail "pprof: go, protoc or $proto is missing: install Debian's golang-go," \
			"protobuf-compiler and golang-github-google-pprof-dev (scripts/deps.sh all)"
		return
	fi
	# (go tool pprof wants a home for its settings; -symbolize=none: nothing fetched)
	gp() { HOME=$work/gohome PPROF_TMPDIR=$work/gohome go tool pprof -symbolize=none "$@"; }
	mkdir -p "$work/gohome"
	"$tp" pprof -i "$work/main.data" -o "$work/main.pb.gz" 2>"$work/pprof.err"
	check "pprof: exit 0 ($(head -c 200 "$work/pprof.err"))" [ $? -eq 0 ]
	gp -top -nodecount=20 "$work/main.pb.gz" >"$work/pprof.top" 2>&1
	"$tp" report -i "$work/main.data" --no-children --sort sym -q -g none >"$work/pprof.report" 2>/dev/null
	out=$(python3 "$here/pprofcheck.py" "$work/pprof.top" "$work/pprof.report")
	check "${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
	gp -raw "$work/main.pb.gz" >"$work/pprof.raw" 2>&1
	bid=$("$tp" buildid-list -i "$work/main.data" 2>/dev/null | awk '$2 ~ /\/wl$/ { print $1 }')
	check "pprof -raw: wl's mapping has its build-id ${bid:-(none recorded)}" \
		grep -q "/wl $bid" "$work/pprof.raw"
	# a Location per sampled address, with its source line: perf's own, from its srcline
	perf script -i "$work/main.data" -G -F ip,sym,srcline --show-mmap-events \
		>"$work/main.srclines" 2>/dev/null
	out=$(python3 "$here/pprofaddrs.py" "$work/pprof.raw" "$work/main.srclines" render_b wl)
	check "${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
	gp -lines -top "$work/main.pb.gz" >"$work/pprof.lines" 2>&1
	check "pprof -lines -top: render_b's lines in tests/render/wl.c, $(grep -c ' render_b .*wl\.c:[0-9]' "$work/pprof.lines") of them" \
		grep -q ' render_b [^ ]*tests/render/wl\.c:1[0-9]$' "$work/pprof.lines"
	# the kernel's: sysc spends half its time there
	wls=$("$src/tests/workloads/build.sh" "$work/workloads")
	perf record -q -e cpu-clock -F 2000 -g -o "$work/sysc.data" -- "$wls/sysc" 0.3 >/dev/null 2>&1
	"$tp" pprof -i "$work/sysc.data" -o "$work/sysc.pb.gz" 2>/dev/null
	kbid=$("$tp" buildid-list -i "$work/sysc.data" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
	gp -raw "$work/sysc.pb.gz" >"$work/sysc.raw" 2>&1
	check "pprof -raw: the kernel's mapping has its build-id ${kbid:-(none recorded)}" \
		sh -c "[ -n '$kbid' ] && grep -qF '[kernel.kallsyms] $kbid' '$work/sysc.raw'"
	check "pprof -raw: cpu/nanoseconds and samples/count, thread labels, hostname comment" \
		sh -c "grep -q 'samples/count cpu/nanoseconds' '$work/pprof.raw' &&
		       grep -q 'thread:\[wl\]' '$work/pprof.raw' && grep -q '^Comment: hostname: ' '$work/pprof.raw'"
	gzip -dc "$work/main.pb.gz" | protoc --decode=perftools.profiles.Profile \
		-I "$(dirname "$proto")" profile.proto >"$work/pprof.decoded" 2>&1
	prc=$?
	check "protoc --decode with Debian's profile.proto: exit $prc, $(grep -c '^sample {' "$work/pprof.decoded") samples" \
		sh -c "[ $prc -eq 0 ] && grep -q 'string_table: \"render_b\"' '$work/pprof.decoded' &&
		       grep -q 'duration_nanos: ' '$work/pprof.decoded'"
	# --inline: a function inlined into its caller is a second Line of the caller's location
	cc -O2 -g -fno-omit-frame-pointer -o "$work/inline-wl" "$src/tests/report/inline-wl.c"
	perf record -q -e cpu-clock -F 2000 -g -o "$work/inline.data" -- "$work/inline-wl" 1 >/dev/null 2>&1
	"$tp" pprof -i "$work/inline.data" --inline -o "$work/inline.pb.gz" 2>/dev/null
	gp -raw "$work/inline.pb.gz" >"$work/inline.raw" 2>&1
	gp -top "$work/inline.pb.gz" >"$work/inline.top" 2>&1
	# the lines from the source: step's body, and walk's call of it
	s0=$(grep -n 'unsigned long step(unsigned long x)' "$src/tests/report/inline-wl.c" | cut -d: -f1)
	wcall=$(grep -n 'x = step(x)' "$src/tests/report/inline-wl.c" | cut -d: -f1)
	# step's Line, then the Line of walk it is inlined into, as go tool pprof -raw lists them
	pair=$(grep -A1 ' M=[0-9]* step [^ ]*inline-wl.c:[0-9]* s=0$' "$work/inline.raw" |
	       sed -n 's/.* \(step\|walk\) [^ ]*inline-wl.c:\([0-9]*\) s=0$/\1:\2/p' | head -n 2 | tr '\n' ' ')
	sl=$(echo "$pair" | sed -n 's/^step:\([0-9]*\) .*/\1/p')
	check "pprof --inline: step's Line (at its loop, lines $s0-$((s0 + 4))) inside walk's location (at the call, line $wcall), 'step (inline)' on top of -top ($pair)" \
		sh -c "[ -n '$sl' ] && [ '${sl:-0}' -ge '$s0' ] && [ '${sl:-0}' -le '$((s0 + 4))' ] &&
		       [ '${pair#* }' = 'walk:$wcall ' ] && grep -A1 'flat%' '$work/inline.top' |
		       grep -q 'step (inline)'"
	# perf's pipe mode, from stdin: the functions and shares of perf report on the file
	"$tp" pprof -i - -o "$work/pipe.pb.gz" <"$work/pipe.data" 2>/dev/null
	gp -top "$work/pipe.pb.gz" >"$work/pipe.top" 2>&1
	perf report -i "$work/pipe.data" --no-children --sort sym -q -g none >"$work/pipe.report" 2>/dev/null
	out=$(python3 "$here/pprofcheck.py" "$work/pipe.top" "$work/pipe.report")
	check "pprof of a pipe-mode recording read from stdin, vs perf report: ${out#\[*\] }" \
		[ "${out%% *}" = "[OK]" ]
	"$tp" pprof -i "$work/empty.data" -o "$work/empty.pb.gz" 2>"$work/pempty.err"
	check "pprof of a recording with no samples: a valid profile and a note" \
		sh -c "gzip -dc '$work/empty.pb.gz' | protoc --decode=perftools.profiles.Profile \
		       -I '$(dirname "$proto")' profile.proto >/dev/null && grep -q 'no samples' '$work/pempty.err'"
}
pprof_checks

# ---- speedscope: one profile per thread, the stacks of script --folded ----
wls=$("$src/tests/workloads/build.sh" "$work/workloads")
perf record -q -e cpu-clock -F 2000 -g -o "$work/spin.data" -- "$wls/spin" 1 >/dev/null 2>&1
"$tp" script -i "$work/spin.data" --speedscope "$work/spin.json" 2>"$work/ss.err"
check "script --speedscope: exit 0 ($(head -c 200 "$work/ss.err"))" [ $? -eq 0 ]
"$tp" script -i "$work/spin.data" --folded >"$work/spin.folded" 2>/dev/null
# speedscope JSON FOLDED COMM N: its stacks and weights are FOLDED's, with N threads of COMM
speedscope() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [f['name'] for f in d['shared']['frames']]
got = {}
for p in d['profiles']:
    for stack, w in zip(p['samples'], p['weights']):
        key = ';'.join([p['name'].rsplit(' (', 1)[0].replace(' ', '_')] +
                       [names[i].replace(';', ':') for i in stack])
        got[key] = got.get(key, 0) + w
want = {}
for line in open(sys.argv[2], 'rb'):
    stack, _, n = line.decode('utf-8', 'backslashreplace').rstrip('\n').rpartition(' ')
    want[stack] = want.get(stack, 0) + int(n)
threads = sorted(p['name'] for p in d['profiles'] if p['name'].startswith(sys.argv[3]))
ok = got == want and len(threads) >= int(sys.argv[4])
print('[%s] %d profiles (%s), stacks and weights %s the folded ones' % (
    'OK' if ok else 'FAIL', len(d['profiles']), ', '.join(threads),
    'equal to' if got == want else 'differ from'))
PY
}
out=$(speedscope "$work/spin.json" "$work/spin.folded" spin 2)	# spin: main and its thread
check "speedscope: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
# perf's pipe mode, from stdin
"$tp" script -i - --speedscope "$work/pipe.json" <"$work/pipe.data" 2>/dev/null
out=$(speedscope "$work/pipe.json" "$work/pipe.folded" wl 1)
check "speedscope of a pipe-mode recording read from stdin: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]

# ---- report --html: one file, nothing fetched, empty recordings too ----
"$tp" report --html "$work/main.html" -i "$work/main.data" 2>"$work/html.err"
check "report --html: exit 0 ($(head -c 200 "$work/html.err"))" [ $? -eq 0 ]
check "report --html: nothing fetched (no src= or href= in $(wc -c <"$work/main.html") bytes)" \
	sh -c "! grep -Eq '(src|href)=' '$work/main.html'"
check "report --html: the name op<&\"q'\\xff escaped in its data" \
	grep -qF '"op\u003c&\"q'"'"'\\xff"' "$work/main.html"
"$tp" report --html "$work/two.html" -i "$work/two.data" 2>/dev/null
check "report --html of cpu-clock and task-clock: an event level for each (one table each)" \
	sh -c "grep -q '^\[0,\"cpu-clock\",4\]' '$work/two.html' &&
	       grep -q '^\[0,\"task-clock\",4\]' '$work/two.html'"
# perf's pipe mode, from stdin: the page's samples are the folded ones, render_b among them
"$tp" report --html "$work/pipe.html" -i - <"$work/pipe.data" 2>/dev/null
out=$(python3 - "$work/pipe.html" "$work/pipe.folded" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
d = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))
got = sum(c[2] for c in d['cells'])
want = sum(int(l.rsplit(b' ', 1)[1]) for l in open(sys.argv[2], 'rb') if l.strip())
ok = got == want and any(n[1] == 'render_b' for n in d['nodes'])
print('[%s] %d samples in the page, %d folded, render_b %s' % (
    'OK' if ok else 'FAIL', got, want, 'in it' if ok else 'or not'))
PY
)
check "report --html of a pipe-mode recording read from stdin: ${out#\[*\] }" [ "${out%% *}" = "[OK]" ]
"$tp" report --html "$work/empty.html" -i "$work/empty.data" 2>"$work/hempty.err"
check "report --html of a recording with no samples: exit 0, a page and a note" \
	sh -c "[ -s '$work/empty.html' ] && grep -q 'no samples' '$work/hempty.err'"

# ---- in a browser ----
# node_check NAME SCRIPT ARGS... PNG: its [OK]/[FAIL] lines counted, and the screenshot
node_check() {
	name=$1; shift
	for png; do :; done
	NODE_PATH=$work/node/node_modules node "$@" >"$work/$name.out" 2>&1
	rc=$?
	cat "$work/$name.out"
	T_PASS=$((T_PASS + $(grep -c '^\[OK\]' "$work/$name.out")))
	T_FAIL=$((T_FAIL + $(grep -c '^\[FAIL\]' "$work/$name.out")))
	[ $rc -eq 0 ] || grep -q '^\[FAIL\]' "$work/$name.out" ||
		fail "$name: node exited $rc without a verdict"
	check "$name: a screenshot in $png" [ -s "$png" ]
}
browser() {
	if [ ! -x /usr/bin/chromium ]; then
		fail "browser: /usr/bin/chromium is missing: install Debian's chromium (scripts/deps.sh all)"
		return
	fi
	if [ ! -d "$work/node/node_modules/playwright-core" ] ||
	   [ ! -d "$work/node/node_modules/speedscope" ] || [ ! -d "$work/node/node_modules/ajv" ]; then
		if ! command -v npm >/dev/null; then
			fail "browser: npm is missing: install Debian's npm (scripts/deps.sh all)"
			return
		fi
		npm install --no-audit --no-fund --silent --prefix "$work/node" playwright-core \
			speedscope ajv \
			>"$work/npm.log" 2>&1 ||
			{ fail "browser: npm install playwright-core speedscope ajv failed: $(tail -n 1 "$work/npm.log")"; return; }
	fi
	# the hot function, and the samples of the stacks it is in
	want=$(awk '{ s = $0; sub(/ [0-9]+$/, "", s) } s ~ /;render_b(;|$)/ { n += $NF }
		END { print n + 0 }' "$work/main.folded")
	node_check browser "$here/browser.js" "$work/main.svg" render_b "$want" "$logdir/flamegraph.png"
	# speedscope's schema and its own page
	node_check speedscope "$here/speedscope.js" "$work/spin.json" leaf "$logdir/speedscope.png"
	# the HTML report: wl ran render_a first, then render_b (the hot one), then op<&...
	n_main=$(awk '{ n += $NF } END { print n }' "$work/main.folded")
	node_check html "$here/html.js" "$work/main.html" render_b render_a \
		"cpu-clock: $n_main samples" "$logdir/report.png"
	# its table has report's rows: a recording where render_b runs under two commands (wl,
	# and wl2, a link to it) and in two DSOs (wl, and wl3, a copy)
	ln -sf wl "$work/wl2" && cp "$work/wl" "$work/wl3"
	perf record -q -e cpu-clock -F 2000 -g -o "$work/rows.data" -- \
		sh -c "'$work/wl' 10 60 10; '$work/wl2' 10 30 10; '$work/wl3' 10 20 10" >/dev/null 2>&1
	"$tp" report --html "$work/rows.html" -i "$work/rows.data" 2>/dev/null
	"$tp" report -i "$work/rows.data" -n --no-children -q -g none >"$work/rows.report" 2>/dev/null
	node_check htmlrows "$here/htmlrows.js" htmlrows "$work/rows.html" "$work/rows.report" \
		"$logdir/report-rows.png"
}
browser

T_NAME=render done_tests
