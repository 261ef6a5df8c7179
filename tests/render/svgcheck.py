#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a tinyperf flame graph against what it was drawn from.

  svgcheck.py widths SVG FOLDED   every stack's own width (a frame's samples less its
                                  children's) is the folded count of that stack, and each
                                  frame's rect is as wide as its samples say
  svgcheck.py colour SVG NAME red|blue   NAME's frames are tinted so (a diff)
  svgcheck.py empty SVG           a valid picture with no frames that says so
  svgcheck.py valid SVG           parses, and the frames nest
Prints one [OK]/[FAIL] line; exits 1 on failure."""
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def frames(path):
    root = ET.parse(path).getroot()
    box = root.find('.//%sg[@id="frames"]' % NS)
    out = []
    for g in box.findall(NS + 'g'):
        title = g.find(NS + 'title').text
        rect = g.find(NS + 'rect')
        out.append({'s': int(g.get('data-s')), 'n': int(g.get('data-n')),
                    'd': int(g.get('data-d')), 'name': title[:title.rindex(' (')],
                    'w': float(rect.get('width')), 'fill': rect.get('fill')})
    return root, out


def tree(fs):
    """each frame's path from the root, by nesting: a frame's parent is the frame one level
    up whose range holds it (written in depth-first order)"""
    stack, paths = [], []
    for f in fs:
        del stack[f['d']:]
        if f['d'] != len(stack):
            raise ValueError('frame %s at depth %d has no parent' % (f['name'], f['d']))
        if stack and not (stack[-1]['s'] <= f['s'] and f['s'] + f['n'] <= stack[-1]['s'] + stack[-1]['n']):
            raise ValueError('frame %s lies outside its parent' % f['name'])
        stack.append(f)
        paths.append(tuple(x['name'] for x in stack[1:]))
    return paths


def tidy(path):
    """the names as script --folded writes them"""
    return tuple((n.replace(';', ':').replace(' ', '_') if i == 0 else n.replace(';', ':'))
                 for i, n in enumerate(path))


def fail(msg):
    print('[FAIL] ' + msg)
    sys.exit(1)


def main():
    what, svg = sys.argv[1], sys.argv[2]
    try:
        root, fs = frames(svg)
        paths = tree(fs)
    except (ET.ParseError, ValueError, AttributeError) as e:
        fail('%s: not a well-formed flame graph: %s' % (svg, e))
    if what == 'valid':
        print('[OK] %s: %d frames, well-formed and nested' % (svg, len(fs)))
    elif what == 'empty':
        if fs or root.find('.//%stext[@id="empty"]' % NS) is None:
            fail('%s: expected no frames and the "No samples" line, got %d frames' % (svg, len(fs)))
        print('[OK] %s: an empty picture that says so' % svg)
    elif what == 'widths':
        folded = {}
        with open(sys.argv[3], 'rb') as f:
            for line in f:
                stack, _, count = line.rstrip(b'\n').rpartition(b' ')
                key = tuple(stack.decode('utf-8', 'backslashreplace').split(';'))
                folded[key] = folded.get(key, 0) + int(count)
        own = {}
        for i, f in enumerate(fs):
            if f['d'] == 0:
                continue
            own[tidy(paths[i])] = own.get(tidy(paths[i]), 0) + f['n']
            if f['d'] > 0:
                parent = tidy(paths[i][:-1])
                if parent:
                    own[parent] = own.get(parent, 0) - f['n']
        own = {k: v for k, v in own.items() if v}
        total = fs[0]['n'] if fs else 0
        scale = fs[0]['w'] / total if total else 0
        bad = [f for f in fs if abs(f['w'] - f['n'] * scale) > 0.06]
        if own != folded:
            diff = sorted(set(own.items()) ^ set(folded.items()))[:3]
            fail('%s: stacks differ from the folded counts (%d vs %d stacks), e.g. %s'
                 % (svg, len(own), len(folded), diff))
        if bad:
            fail('%s: %s is %.1f px wide for %d of %d samples' % (svg, bad[0]['name'], bad[0]['w'],
                                                               bad[0]['n'], total))
        print('[OK] %s: %d stacks, each as wide as its folded count (%d samples)'
              % (svg, len(folded), sum(folded.values())))
    elif what == 'colour':
        name, want = sys.argv[3], sys.argv[4]
        hits = [f for f in fs if f['name'] == name]
        if not hits:
            fail('%s: no frame named %s' % (svg, name))
        for f in hits:
            r, g, b = map(int, re.findall(r'\d+', f['fill']))
            ok = (r > b and r > g) if want == 'red' else (b > r and b > g)
            if not ok:
                fail('%s: %s expected %s, got %s' % (svg, name, want, f['fill']))
        print('[OK] %s: %s is %s (%s)' % (svg, name, want, hits[0]['fill']))


main()
