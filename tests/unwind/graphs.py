#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the call paths of two `report -g --stdio` outputs (tests/unwind): each entry's graph
is read back into its paths (root to leaf, with the leaf branch's percentage), and the two
multisets of (entry, path, percentage) are compared, so that the order perf and tinyperf give
to siblings of equal weight does not matter. Two naming differences are counted apart as
explained: perf names an unwound frame by its DWARF name as an "inlined" frame where the ELF
symbol is another alias (perf's inline lookup of unwound addresses: "__libc_start_main_impl
(inlined)" where the symbol is __libc_start_main@@GLIBC_2.34), and perf prints an unresolved
frame as its runtime address where tinyperf prints the address in the file.
perf's inline name stands for whichever alias the ELF symbol table gives (choose_best_symbol),
versioned or not: "__GI___pthread_cleanup_pop (inlined)" is tinyperf's (and perf's own entry
name) "_pthread_cleanup_pop@GLIBC_2.2.5", so a perf path with such names matches a tinyperf path
that has any name at those places; and perf --children adds an entry for that inline name whose
graph is the name alone ("---X (inlined)", no self time), which tinyperf has no counterpart for.
tinyperf runs with --inline, which perf has on by default: both add a "func (inlined)" frame for
each function inlined at an unwound address; perf --children also gives each such function an
entry of its own (no self time, the paths through it), tinyperf does not: counted apart.
Exits 1 when more than MAX_PCT percent (argv[3], default 1) of the paths differ, or none.
Usage: graphs.py PEER.txt OURS.txt [MAX_PCT]"""
import collections
import re
import sys

ENTRY = re.compile(r'^\s+\d+\.\d+%')
BRANCH = re.compile(r'--(\d+\.\d+%)--')
explained = collections.Counter()
inline_entries = set()  # perf's entries for a function it names "X (inlined)"


def norm(name, side):
    if name.endswith(' (inlined)') or '@@' in name:
        explained['alias'] += side == 'peer'
        return '<alias>'
    if re.fullmatch(r'0x[0-9a-f]+', name):
        explained['unresolved'] += side == 'peer'
        return '<unresolved>'
    return name


def entry_sym(entry):
    return entry.partition('] ')[2]


def alias_match(peer, ours, same_entry):
    """whether perf's path equals tinyperf's but where perf has an inline alias name"""
    (pe, pp, ppct), (oe, op, opct) = peer, ours
    if ppct != opct or len(pp) != len(op) or pe.partition('] ')[0] != oe.partition('] ')[0]:
        return False
    if entry_sym(pe) != entry_sym(oe) and (same_entry or entry_sym(pe) != '<alias>'):
        return False
    return all(a in ('<alias>', b) for a, b in zip(pp, op)) and \
        ('<alias>' in pp or entry_sym(pe) == '<alias>')


def paths(path, side):
    out = collections.Counter()
    entry, stack, pending = None, [], False

    def flush():
        if entry is not None and stack and pending:
            pct = next((p for _, _, p in reversed(stack) if p), '')
            out[(entry, tuple(n for _, n, _ in stack), pct)] += 1

    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#') or not line.strip():
                continue
            if ENTRY.match(line):
                flush()
                head, _, sym = ' '.join(line.split()).partition('] ')
                entry, stack, pending = head + '] ' + norm(sym, side), [], False
                if side == 'peer' and sym.endswith(' (inlined)'):
                    inline_entries.add(entry)
                continue
            if entry is None:
                continue
            m = BRANCH.search(line)
            if m:
                col, pct, name = m.end(), m.group(1), line[m.end():]
            elif '---' in line:
                col, pct, name = line.index('---') + 3, '', line[line.index('---') + 3:]
            else:
                text = line.lstrip(' |')
                if not text:
                    continue
                col, pct, name = len(line) - len(text), '', text
            name = norm(name.strip(), side)
            if stack and stack[-1][0] >= col:
                flush()
            while stack and stack[-1][0] >= col:
                stack.pop()
            stack.append((col, name, pct))
            pending = True
    flush()
    return out


def main():
    peer, ours = paths(sys.argv[1], 'peer'), paths(sys.argv[2], 'ours')
    max_pct = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    n = sum(peer.values())
    missing, extra = peer - ours, ours - peer
    # an entry of the same name first, so that perf's inline-named entry does not take the
    # path of another entry
    for same_entry in (True, False):
        for k in list(missing):
            while missing[k]:
                o = next((o for o in extra if extra[o] and alias_match(k, o, same_entry)), None)
                if o is None:
                    break
                missing[k] -= 1
                extra[o] -= 1
                explained['alias'] += 1
    for k in list(missing):
        if missing[k] and k[1] == ('<alias>',) and entry_sym(k[0]) == '<alias>' and \
                k[0].split()[1] == '0.00%':
            explained['alias'] += missing[k]
            missing[k] = 0
        elif missing[k] and k[0] in inline_entries and k[0].split()[1] == '0.00%':
            explained['inline entry'] += missing[k]
            missing[k] = 0
    missing, extra = +missing, +extra
    diff = sum(missing.values())
    print('graphs: %d call paths, %d equal, %d differ; explained: %d perf "inlined" alias '
          'names of unwound frames, %d unresolved addresses (runtime vs file), %d paths of '
          'perf --children entries of inlined functions'
          % (n, n - diff, diff, explained['alias'], explained['unresolved'],
             explained['inline entry']))
    for k in list(missing)[:3]:
        print('  only perf:      %s: %s (%s)' % (k[0], ' / '.join(k[1]), k[2]))
    for k in list(extra)[:3]:
        print('  only tinyperf:  %s: %s (%s)' % (k[0], ' / '.join(k[1]), k[2]))
    return 0 if n > 0 and 100.0 * max(diff, sum(extra.values())) / n <= max_pct else 1


sys.exit(main())
