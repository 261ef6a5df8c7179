#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The license line of every source file: `spdx.py --check` lists the tracked source files whose
first lines lack `SPDX-License-Identifier: MIT` (exit 1 if any; a part of make check);
`spdx.py --add` puts the line where it belongs (first line, or after a #! line).

Source files: C, headers and assembly (a /* */ comment), shell, Python, make, Kconfig and
Kbuild (a # comment), JavaScript (a // comment). Data, corpora, defconfigs and docs carry no
header (LICENSE covers the whole tree)."""
import os
import sys

sys.dont_write_bytecode = True		# no scripts/__pycache__/ left in the tree
import tracked  # noqa: E402 (scripts/tracked.py, beside this file)

TAG = 'SPDX-License-Identifier: MIT'
HASH_NAMES = {'Makefile', 'Kconfig', 'Kbuild', 'run'}


def style(path):
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    if path.startswith('tests/fuzz/corpus/') or '/corpus/' in path:
        return None
    if ext in ('.c', '.h', '.S'):
        return '/* %s */' % TAG
    if ext in ('.sh', '.py', '.mk', '.bash') or base in HASH_NAMES:
        return '# %s' % TAG
    if ext in ('.js', '.mjs'):
        return '// %s' % TAG
    return None


def has_tag(text):
    return TAG in '\n'.join(text.split('\n', 3)[:3])


def add(path, line):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if has_tag(text):
        return False
    if text.startswith('#!'):
        first, _, rest = text.partition('\n')
        text = first + '\n' + line + '\n' + rest
    else:
        text = line + '\n' + text
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return True


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else '--check'
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    missing, changed, total = [], 0, 0
    for rel in tracked.files(root):
        line = style(rel)
        path = os.path.join(root, rel)
        if not line or not os.path.isfile(path) or os.path.islink(path):
            continue
        total += 1
        if mode == '--add':
            changed += add(path, line)
        else:
            with open(path, encoding='utf-8', errors='replace') as f:
                if not has_tag(f.read(4096)):
                    missing.append(rel)
    if mode == '--add':
        print('spdx: %d of %d source files given the line' % (changed, total))
        return 0
    for rel in missing:
        print('[FAIL] no "%s" in the first 3 lines of %s' % (TAG, rel))
    print('[%s] %d source files, %d without the license line' %
          ('OK' if not missing else 'FAIL', total, len(missing)))
    print('spdx: %d passed, %d failed' % (0 if missing else 1, len(missing)))
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
