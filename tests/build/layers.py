#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The house rules, checked on the tree: the host library's folders include only what the layer
line of their public header allows, callers outside a folder include only its public header,
the recorder's folders include only the folders the layer line of their Kbuild allows, the
declared layers have no cycle, the library never includes the CLI or the recorder (nor the
recorder the host), and no source file outside tests/ is over 600 lines.

Run from anywhere: tests/build/layers.py [SRCDIR]. Prints one [OK]/[FAIL] line per rule and
'layers: N passed, M failed'."""
import os
import re
import sys

src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True		# no scripts/__pycache__/ left in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../scripts'))
import tracked  # noqa: E402 (scripts/tracked.py)
LIB = 'host-tools/lib'
MAX_LINES = 600
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LAYER = re.compile(r'^/\* Layer (\w+): may use (.*)\. \*/$', re.M)
REC_LAYER = re.compile(r'^# Layer (\w+): may use (.*)\.$', re.M)
passed = failed = 0


def result(ok, what, why=''):
    global passed, failed
    if ok:
        passed += 1
        print('[OK] ' + what)
    else:
        failed += 1
        print('[FAIL] %s: %s' % (what, why))


def read(rel):
    with open(os.path.join(src, rel), encoding='utf-8', errors='replace') as f:
        return f.read()


def files_under(rel, exts=('.c', '.h', '.S')):
    return [f for f in FILES if f.startswith(rel + '/') and f.endswith(exts)]


FILES = tracked.files(src)

# the layers and what each may use, from the line in each folder's public header
folders = sorted(d for d in os.listdir(os.path.join(src, LIB))
                 if os.path.isdir(os.path.join(src, LIB, d)))
allowed = {}
# layers declared here while their folder's first files land before its public header (a folder
# written by several hands); once the header exists its layer line must say the same
DECLARED = {'unwind': 'common/, data/, session/, sym/'}
for d in folders:
    pub = '%s/%s/%s.h' % (LIB, d, d)
    if not os.path.exists(os.path.join(src, pub)):
        if d in DECLARED:
            allowed[d] = set(re.findall(r'(\w+)/', DECLARED[d]))
            result(True, 'layer %s declared in layers.py (no %s yet)' % (d, pub))
            continue
        result(False, 'layer %s has a public header' % d, pub + ' does not exist')
        continue
    m = LAYER.search(read(pub))
    if m and d in DECLARED:
        result(set(re.findall(r'(\w+)/', m.group(2))) == set(re.findall(r'(\w+)/', DECLARED[d])),
               'layer %s: header and layers.py agree' % d,
               '%s says "%s", layers.py "%s"' % (pub, m.group(2), DECLARED[d]))
    if not m or m.group(1) != d:
        result(False, 'layer %s declares what it may use' % d,
               'no "/* Layer %s: may use ... */" line in %s' % (d, pub))
        continue
    uses = re.findall(r'(\w+)/', m.group(2))
    unknown = [u for u in uses if u not in folders]
    result(not unknown, 'layer %s: the layers it names exist' % d, 'unknown: %s' % unknown)
    allowed[d] = set(uses)

# no cycle among the declared layers (a depth-first walk)


def cyclic(d, path, allowed, state):
    if state.get(d) == 1:
        return path[path.index(d):] + [d]
    if state.get(d) == 2:
        return None
    state[d] = 1
    for u in sorted(allowed.get(d, ())):
        c = cyclic(u, path + [d], allowed, state)
        if c:
            return c
    state[d] = 2
    return None


def no_cycle(what, allowed):
    cycle, state = None, {}
    for d in sorted(allowed):
        cycle = cycle or cyclic(d, [], allowed, state)
    result(not cycle, '%s: the declared layers have no cycle' % what, ' -> '.join(cycle or []))


no_cycle(LIB, allowed)

# every include of the host library and the host commands
for f in list(files_under(LIB)) + [f for f in files_under('host-tools') if not f.startswith(LIB)]:
    own = f.split('/')[2] if f.startswith(LIB + '/') else None
    bad = []
    for inc in INC.findall(read(f)):
        parts = inc.split('/')
        if inc.startswith('recorder/'):
            bad.append(inc + ' (the host never includes recorder code)')
        elif own and inc.startswith('host-tools/') and not inc.startswith(LIB + '/'):
            bad.append(inc + ' (the library never includes the CLI)')
        elif inc.startswith(LIB + '/') and len(parts) == 4 and parts[2] != own:
            layer, name = parts[2], parts[3]
            if name != layer + '.h':
                bad.append(inc + ' (outside %s/ only %s/%s.h is public)' % (layer, layer, layer))
            elif own and layer not in allowed.get(own, ()):
                bad.append(inc + ' (layer %s may not use %s/)' % (own, layer))
        elif inc.startswith(LIB + '/') and len(parts) != 4:
            bad.append(inc + ' (not in a layer folder)')
    result(not bad, '%s includes by the rules' % f, '; '.join(bad))

# the recorder: each folder's Kbuild says which folders it may use; main.c and cmd.h, at the
# top, may use them all
REC = 'recorder'
rec_folders = sorted(d for d in os.listdir(os.path.join(src, REC))
                     if os.path.isdir(os.path.join(src, REC, d)))
rec_allowed = {}
for d in rec_folders:
    kb = '%s/%s/Kbuild' % (REC, d)
    m = REC_LAYER.search(read(kb)) if os.path.exists(os.path.join(src, kb)) else None
    if not m or m.group(1) != d:
        result(False, 'recorder layer %s declares what it may use' % d,
               'no "# Layer %s: may use ..." line in %s' % (d, kb))
        continue
    rec_allowed[d] = set(re.findall(r'(\w+)/', m.group(2)))
no_cycle(REC, rec_allowed)
for f in files_under(REC):
    parts = f.split('/')
    own = parts[1] if len(parts) > 2 else None
    bad = []
    for inc in INC.findall(read(f)):
        ip = inc.split('/')
        if inc.startswith(REC + '/') and len(ip) == 3 and own and ip[1] != own and \
           ip[1] not in rec_allowed.get(own, ()):
            bad.append(inc + ' (layer %s may not use %s/)' % (own, ip[1]))
    result(not bad, '%s includes by the rules' % f, '; '.join(bad))

# the device side never includes host code
for top in ('recorder', 'perfdata', 'libc-shim', 'arch'):
    bad = []
    for f in files_under(top):
        bad += ['%s: %s' % (f, i) for i in INC.findall(read(f)) if i.startswith('host-tools/')]
    result(not bad, '%s/ includes no host code' % top, '; '.join(bad))

# one job per file: no source over MAX_LINES lines outside tests/
long = []
for top in ('arch', 'libc-shim', 'perfdata', 'recorder', 'host-tools', 'include'):
    for f in files_under(top):
        n = read(f).count('\n')
        if n > MAX_LINES:
            long.append('%s (%d lines)' % (f, n))
result(not long, 'no source file over %d lines' % MAX_LINES, ', '.join(long))

print('layers: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
