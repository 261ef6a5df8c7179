# SPDX-License-Identifier: MIT
"""The source tree's files, for the checks that read them all (scripts/spdx.py,
tests/build/layers.py): in a git checkout what git tracks and the new files it does not ignore,
as they are in the working tree (build outputs, in-tree or in out/, are ignored); in a tree
without git, such as an unpacked `make dist` tarball, every file but those in .git/ and out/.

Import it by path, without leaving a scripts/__pycache__/ in the tree:
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(SRC, 'scripts'))
    import tracked"""
import os
import subprocess


def files(root):
    """The paths of the tree's regular files, relative to root, sorted."""
    root = os.path.realpath(root)
    try:
        top = subprocess.run(['git', '-C', root, 'rev-parse', '--show-toplevel'],
                             capture_output=True, text=True)
    except OSError:		# no git on this machine
        top = None
    if top and top.returncode == 0 and os.path.realpath(top.stdout.strip()) == root:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others',
                              '--exclude-standard'], check=True, capture_output=True).stdout
        names = set(p for p in out.decode().split('\0') if p)
    else:
        names = set()
        for d, dirs, found in os.walk(root):
            if d == root:
                dirs[:] = [x for x in dirs if x not in ('.git', 'out')]
            names.update(os.path.relpath(os.path.join(d, n), root) for n in found)
    # a tracked file deleted in the working tree is not there to read
    return sorted(p for p in names if os.path.isfile(os.path.join(root, p)))

