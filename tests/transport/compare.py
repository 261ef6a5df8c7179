#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two perf.data files through Linux perf, for tests/transport/run.sh.

  compare.py sum REF GOT TOL     the sums of sample periods agree within TOL (0.01 = 1 %)
  compare.py top REF GOT N       the same top-N symbols by 'perf report --children': every
                                 user-space entry of either that holds 2 % or more is in the
                                 other, within a point (below that is noise that varies run to
                                 run; kernel entries are interrupt noise: shown, not compared)
  compare.py subset REF GOT      every sample in GOT is one of REF's (tid, time, ip, period),
                                 with REF's symbol unless GOT had no map to resolve it

Prints one line with the figures; exits 0 when the relation holds, 1 when not.
"""
import collections
import subprocess
import sys


def perf(*args):
    return subprocess.run(["perf"] + list(args), capture_output=True, text=True).stdout


def samples(path):
    out = perf("script", "-i", path, "-F", "tid,time,period,ip,sym", "-G")
    rows = []
    for line in out.splitlines():
        f = line.split(None, 4)
        if len(f) >= 4:
            rows.append((f[0], f[1], f[2], f[3], f[4] if len(f) > 4 else "[unknown]"))
    return rows


def top(path, n):
    out = perf("report", "-i", path, "--stdio", "--children", "--sort", "sym")
    ents = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0].endswith("%") and f[1].endswith("%"):
            ents.append((" ".join(f[3:]), float(f[0][:-1]), f[2] == "[k]"))
    return ents[:n + 5]


def main():
    mode, ref, got = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "sum":
        tol = float(sys.argv[4])
        a = sum(int(r[2]) for r in samples(ref))
        b = sum(int(r[2]) for r in samples(got))
        diff = abs(a - b) / a if a else 1.0
        print("sum of periods: reference %d, received %d (%.3f %% apart, limit %.1f %%)"
              % (a, b, 100 * diff, 100 * tol))
        return 0 if a and diff <= tol else 1
    if mode == "top":
        # spin's profile is five real user-space entries (leaf, worker and their callers) and
        # kernel entries: the timer interrupts and softirqs that hit spin, which depend on
        # what else runs (the two recorders' own timers, the serial relay, the rest of the
        # machine: 1.9 % in one, 3.8 % in the other, seen under load). The user-space entries
        # of either top-N that hold 2 % or more must be the same, each within a point.
        n = int(sys.argv[4])
        a, b = top(ref, n)[:n], top(got, n)[:n]
        sa = {s: p for s, p, k in a if p >= 2.0 and not k}
        sb = {s: p for s, p, k in b if p >= 2.0 and not k}
        da, db = {s: p for s, p, k in a}, {s: p for s, p, k in b}
        ok = len(a) == n and len(b) == n and sa and \
            all(s in db and abs(p - db[s]) <= 1.0 for s, p in sa.items()) and \
            all(s in da and abs(p - da[s]) <= 1.0 for s, p in sb.items())
        print("top %d: %s%s" % (n, ", ".join("%s %.1f%%" % e[:2] for e in b),
                                "" if ok else " | reference: " +
                                ", ".join("%s %.1f%%" % e[:2] for e in a)))
        return 0 if ok else 1
    if mode == "subset":
        ref_rows = collections.Counter(samples(ref))
        by_key = {r[:4]: r[4] for r in ref_rows}
        got_rows = samples(got)
        bad, unresolved = [], 0
        for r in got_rows:
            sym = by_key.get(r[:4])
            if sym is None:
                bad.append("not in the reference: %s" % " ".join(r))
            elif r[4] != sym:
                if r[4].startswith("[unknown]") or r[4].startswith("0x"):
                    unresolved += 1
                else:
                    bad.append("symbol %s, reference %s: %s" % (r[4], sym, " ".join(r[:4])))
        print("%d of %d samples arrived, %d of them unresolved (their map was lost), "
              "%d wrong%s" % (len(got_rows), len(ref_rows), unresolved, len(bad),
                              ": " + bad[0] if bad else ""))
        return 0 if got_rows and not bad else 1
    print("unknown mode " + mode)
    return 2


if __name__ == "__main__":
    sys.exit(main())
