#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the call chains of two `perf script`-layout outputs sample by sample (tests/unwind):
each sample's header line and its frames, a frame being (address, DSO basename); a frame of
perf's "(inlined)" at the address of the frame before or after it is one with it (perf adds a
frame per inlined function of an unwound address). A chain that perf continues past ours with
[unknown] frames only (values it could not read) is counted as explained; so is one that perf
continues past a PC that no unwind table of its binary covers (readelf's .eh_frame and
.debug_frame FDEs): perf's unwinder guesses on there with the frame pointer, tinyperf's does not
guess (crtstuff's __do_global_dtors_aux, at exit, has no FDE). Prints the share of equal chains,
the differences by kind, a few examples, and exits 1 when fewer than MIN_PCT percent (argv[3],
default 99) are equal or explained. SAMPLES.txt (argv[4]), when given, gets a "TID TIME" line
per sample with an explained difference (for dropsamples.py).
Usage: chains.py PEER.txt OURS.txt [MIN_PCT [SAMPLES.txt]]"""
import collections
import functools
import os
import re
import subprocess
import sys

FRAME = re.compile(r'^\s+([0-9a-f]+) (.*) \((.*)\)$')
EXPLAINED = 'explained: perf adds [unknown] frames past the end of the chain'
GUESSED = 'explained: perf guesses on past a PC no unwind table covers'


def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False,
                              timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ''


@functools.lru_cache(maxsize=None)
def tables(dso):
    """the link-time addresses of dso's symbols, and its FDEs' [start, end) ranges"""
    syms = {}
    for opt in ('--defined-only', '-D'):
        for line in run('nm', opt, dso).splitlines():
            f = line.split()
            if len(f) == 3:
                syms.setdefault(f[2].split('@')[0], int(f[0], 16))
    fdes = [(int(a, 16), int(b, 16)) for a, b in
            re.findall(r' pc=([0-9a-f]+)\.\.([0-9a-f]+)', run('readelf', '--debug-dump=frames', dso))]
    return syms, fdes


def no_table(name, dso):
    """whether frame NAME (sym+0xoff) of dso is at an address no FDE of dso covers"""
    sym, _, off = name.rpartition('+0x')
    syms, fdes = tables(dso)
    addr = syms.get(sym.split('@')[0])
    if not off or addr is None or not fdes:
        return False
    addr += int(off, 16)
    return not any(a <= addr < b for a, b in fdes)


def parse(path):
    samples, cur = [], None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip():
                cur = None
                continue
            m = FRAME.match(line)
            if m and cur is not None:
                addr, name, dso = m.groups()
                key = (int(addr, 16), os.path.basename(dso) if dso != 'inlined' else None)
                # perf's frames of the functions inlined at an address, and the frame of
                # the address itself, are one frame (a recursion's are not)
                if cur[1] and cur[1][-1][0][0] == key[0] and None in (cur[1][-1][0][1], key[1]):
                    continue
                cur[1].append((key, name, dso))
            elif not line.startswith((' ', '\t')):
                # "comm tid time: period event:": the first two fields, and tid and time
                head = line.split(':')
                cur = (head[0] + head[1], [], head[0].split()[-2:])
                samples.append(cur)
    return samples


def main():
    peer, ours = parse(sys.argv[1]), parse(sys.argv[2])
    need = float(sys.argv[3]) if len(sys.argv) > 3 else 99.0
    kinds, examples = collections.Counter(), []
    equal = explained = 0
    cut = []
    if len(peer) != len(ours):
        kinds['different sample counts %d vs %d' % (len(peer), len(ours))] += 1
    for p, o in zip(peer, ours):
        pa = [k[0] for k, _, _ in p[1]]
        oa = [k[0] for k, _, _ in o[1]]
        if p[0] == o[0] and pa == oa:
            equal += 1
            continue
        if p[0] != o[0]:
            kind = 'sample headers differ'
        elif oa == pa[:len(oa)] and oa and all(n.startswith('[unknown]') for _, n, _ in p[1][len(oa):]):
            # perf's unwinder goes on past the last row with a value it could not read
            kind = EXPLAINED
            explained += 1
            cut.append(p[2])
        elif oa == pa[:len(oa)] and oa and no_table(p[1][len(oa) - 1][1], p[1][len(oa) - 1][2]):
            kind = GUESSED
            explained += 1
            cut.append(p[2])
        elif oa == pa[:len(oa)]:
            kind = 'ours stops early'
        elif pa == oa[:len(pa)]:
            kind = 'peer stops early'
        else:
            kind = 'frames differ'
        kinds[kind] += 1
        if len(examples) < 3 and kind not in (EXPLAINED, GUESSED):
            examples.append((kind, p, o))
    n = max(len(peer), 1)
    pct = 100.0 * (equal + explained) / n
    print('chains: %d of %d samples equal, %d more with an explained difference (%.2f%%)'
          % (equal, len(peer), explained, pct))
    for k, v in kinds.most_common():
        print('  %6d  %s' % (v, k))
    for kind, p, o in examples:
        print('  e.g. (%s) %s' % (kind, p[0]))
        print('    peer: ' + ' <- '.join(n for _, n, _ in p[1][:12]))
        print('    ours: ' + ' <- '.join(n for _, n, _ in o[1][:12]))
    if len(sys.argv) > 4:
        with open(sys.argv[4], 'w') as f:
            f.writelines('%s %s\n' % (tid, time) for tid, time in cut)
    return 0 if pct >= need and len(peer) > 0 else 1


sys.exit(main())
