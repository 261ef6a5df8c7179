#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pprof's Locations of a function are the addresses perf sampled in it, each with the
source line perf gives it: from `go tool pprof -raw`, the Locations whose Line names FUNC
(their address, relative to the DSO's Mapping: the offset in the mapped file, and the line
number); from `perf script -G -F ip,sym,srcline --show-mmap-events`, the leaf samples in FUNC
(ip - map start + map offset for the map of a file named DSO, and perf's srcline). Both
sets must be equal and every line known.
  pprofaddrs.py RAW PERFSCRIPT FUNC DSO
Prints one [OK]/[FAIL] line; exits 1 on failure."""
import re
import sys


def read(path):
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'backslashreplace').splitlines()


def pprof_locs(path, func):
    locs, on = set(), False
    for l in read(path):
        if l.startswith('Locations'):
            on = True
        elif on and l and not l.startswith(' '):
            break
        m = on and re.match(r'\s*\d+: (0x[0-9a-f]+) M=\d+ (\S+) \S*:(\d+) s=\d+$', l)
        if m and m.group(2) == func:
            locs.add((int(m.group(1), 16), int(m.group(3))))
    return locs


def perf_samples(path, func, dso):
    maps, got, ip = [], set(), None
    for l in read(path):
        m = re.search(r'PERF_RECORD_MMAP2? .*\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|\d+) '
                      r'.*\]: r-xp (\S+)$', l)
        if m and m.group(4).endswith('/' + dso):
            maps.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 0)))
            continue
        m = re.match(r'\s+([0-9a-f]+) (\S+)$', l)
        if m:
            ip = int(m.group(1), 16) if m.group(2) == func else None
            continue
        m = re.match(r'\s+\S+:(\d+)$', l)
        if m and ip is not None:
            off = [ip - s + o for s, n, o in maps if s <= ip < s + n]
            got.add((off[0] if off else -1, int(m.group(1))))
        ip = None
    return got


def main():
    raw, ps, func, dso = sys.argv[1:5]
    locs, samples = pprof_locs(raw, func), perf_samples(ps, func, dso)
    ok = locs and locs == samples and all(line for _, line in locs)
    fmt = lambda s: ' '.join('%#x:%d' % x for x in sorted(s)[:6])
    if not ok:
        print('[FAIL] pprof %s: Locations %s, perf sampled %s' % (func, fmt(locs), fmt(samples)))
        sys.exit(1)
    print('[OK] pprof %s: %d Locations, the addresses:lines perf sampled (%s)'
          % (func, len(locs), fmt(locs)))


main()
