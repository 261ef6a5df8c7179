#!/bin/sh
# SPDX-License-Identifier: MIT
# Peer check of recv's --allow matcher (host-tools/lib/recv/guard.c): 4000 random ranges and
# addresses, IPv4 and IPv6 (prefixes near the address, any length, IPv4-mapped peers), judged
# by Python's ipaddress module, must get the same answer from test-recv-guard --match.
#
#   usage: recv-guard-peer.sh BIN      (BIN: test-recv-guard or the directory holding it)
set -u
bin=${1:?usage: recv-guard-peer.sh BIN}
[ -d "$bin" ] && bin=$bin/test-recv-guard
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/cases" "$work/want" <<'PY'
import ipaddress, random, sys
rnd = random.Random(24)
cases, want = [], []
for i in range(4000):
    v6 = rnd.random() < 0.5
    bits = 128 if v6 else 32
    base = rnd.getrandbits(bits)
    plen = rnd.randint(0, bits)
    # the address: the range's base with a few low or high bits flipped, so that both
    # answers come up at every prefix length
    flip = 1 << rnd.randint(0, bits - 1)
    addr = base ^ flip if rnd.random() < 0.7 else rnd.getrandbits(bits)
    mk = ipaddress.IPv6Address if v6 else ipaddress.IPv4Address
    cidr = "%s/%d" % (mk(base), plen)
    a = str(mk(addr))
    net = ipaddress.ip_network(cidr, strict=False)
    if not v6 and rnd.random() < 0.1:
        a = "::ffff:" + a                       # a dual-stack socket's IPv4 peer
        ok = ipaddress.IPv4Address(a[7:]) in net
    elif rnd.random() < 0.05:
        a = str(ipaddress.IPv4Address(rnd.getrandbits(32)) if v6 else
                ipaddress.IPv6Address(rnd.getrandbits(128)))
        ok = False                              # the other family
    else:
        ok = ipaddress.ip_address(a) in net
    cases.append("%s %s" % (cidr, a))
    want.append("1" if ok else "0")
open(sys.argv[1], "w").write("\n".join(cases) + "\n")
open(sys.argv[2], "w").write("\n".join(want) + "\n")
PY
"$bin" --match <"$work/cases" >"$work/got"
n=$(paste -d' ' "$work/cases" "$work/want" "$work/got" | awk '$3 != $4' | tee "$work/diff" | wc -l)
if [ "$n" -eq 0 ]; then
	echo "[OK] --allow matching agrees with Python's ipaddress on $(wc -l <"$work/cases") cases"
	echo "recv-guard-peer: 1 passed, 0 failed"
else
	echo "[FAIL] --allow matching differs from Python's ipaddress on $n cases: $(head -n 3 "$work/diff" | tr '\n' ';')"
	echo "recv-guard-peer: 0 passed, 1 failed"
	exit 1
fi
