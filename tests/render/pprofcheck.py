#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The same functions with the same flat percentages in `go tool pprof -top` and in
`tinyperf report --no-children --sort sym -q -g none`, to 0.1 point, for every function
over 0.5 % in either (names compared as UTF-8, the report's other bytes as \\xNN, the way
pprof's strings have them).
  pprofcheck.py TOP REPORT
Prints one [OK]/[FAIL] line; exits 1 on failure."""
import re
import sys


def read(path):
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'backslashreplace').splitlines()


def main():
    top, rep = {}, {}
    lines = read(sys.argv[1])
    start = next((i for i, l in enumerate(lines) if re.match(r'\s*flat\s+flat%', l)), None)
    for l in lines[start + 1 if start is not None else len(lines):]:
        m = re.match(r'\s*\S+\s+([0-9.]+)%\s+\S+%\s+\S+\s+\S+%\s+(.*)$', l)
        if m:
            top[m.group(2)] = float(m.group(1))
    for l in read(sys.argv[2]):
        m = re.match(r'\s*([0-9.]+)%\s+\[.\]\s+(.*?)\s*$', l)
        if m:
            rep[m.group(2)] = rep.get(m.group(2), 0) + float(m.group(1))
    names = sorted({n for n, p in top.items() if p > 0.5} | {n for n, p in rep.items() if p > 0.5},
                   key=lambda n: -rep.get(n, 0))
    bad = [(n, top.get(n), rep.get(n)) for n in names
           if top.get(n) is None or rep.get(n) is None or abs(top[n] - rep[n]) > 0.1]
    if not names or bad:
        print('[FAIL] pprof -top vs report: %s' % (bad[:3] if bad else 'no functions'))
        sys.exit(1)
    print('[OK] pprof -top vs report: %s' % ', '.join('%s %.2f%%' % (n, rep[n]) for n in names))


main()
