#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Structural checks of the Buildroot package (buildroot/) and the Yocto layer
(yocto/meta-tinyperf/) that need neither Buildroot nor bitbake: every BR2_PACKAGE_TINYPERF_*
option and every PACKAGECONFIG flag sets a Kconfig symbol that exists, every user-visible
recorder feature is offered by both, the defaults agree with Kconfig's, the boards the two
pick exist, the versions agree with the Makefile's, the license hashes are LICENSE's, the
release hashes have the form 'make dist-hashes' writes, and the recipes parse as the subset
of BitBake syntax they use (assignments, flags, overrides, shell and Python functions, inline
Python compiled). The tarball itself is tests/build/dist.sh's.

Run from anywhere: tests/build/packaging.py [SRCDIR]. One [OK]/[FAIL] line per check, then
'packaging: N passed, M failed'."""
import glob
import hashlib
import os
import re
import subprocess
import sys
import tempfile

src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..', '..'))
BR = os.path.join(src, 'buildroot')
PKG = os.path.join(BR, 'package', 'tinyperf')
LAYER = os.path.join(src, 'yocto', 'meta-tinyperf')
passed = failed = 0

# Recorder symbols that are not features a package offers: the record command itself,
# the help texts and LTO are on in every packaged build
NOT_OFFERED = {'REC_RECORD', 'REC_HELP', 'REC_LTO'}


def result(ok, what, why=''):
    global passed, failed
    if ok:
        passed += 1
        print('[OK] ' + what)
    else:
        failed += 1
        print('[FAIL] ' + what + (': ' + why if why else ''))


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def kconfig_symbols():
    """{name: (has_prompt, first bool default or None)} of every Kconfig file."""
    syms = {}
    for path in glob.glob(os.path.join(src, '*', 'Kconfig')) + [os.path.join(src, 'Kconfig')]:
        name = None
        for line in read(path).splitlines():
            m = re.match(r'^(?:menu)?config\s+(\w+)', line)
            if m:
                name = m.group(1)
                syms[name] = [False, None]
                continue
            if name is None or not line.startswith('\t'):
                if not line.strip().startswith('#') and line.strip():
                    name = None if not line.startswith('\t') else name
                continue
            s = line.strip()
            if re.match(r'^bool\s+"', s):
                syms[name][0] = True
            m = re.match(r'^default\s+([yn])\b', s)
            if m and syms[name][1] is None:
                syms[name][1] = m.group(1)
    return {k: tuple(v) for k, v in syms.items()}


syms = kconfig_symbols()
features = sorted(s for s, (prompt, _) in syms.items()
                  if s.startswith('REC_') and prompt and s not in NOT_OFFERED)
result(len(features) >= 5, 'recorder/Kconfig offers features (%s)' % ' '.join(features))

# ---- Buildroot: Config.in options <-> tinyperf.mk <-> Kconfig
cfg = read(os.path.join(PKG, 'Config.in'))
mk = read(os.path.join(PKG, 'tinyperf.mk'))
br_opts = {}
for m in re.finditer(r'^config BR2_PACKAGE_TINYPERF_(\w+)\n((?:\t.*\n|\n)*?)(?=^\S|\Z)', cfg, re.M):
    d = re.search(r'^\tdefault\s+([yn])\s*$', m.group(2), re.M)
    br_opts[m.group(1)] = d.group(1) if d else 'n'
m = re.search(r'^TINYPERF_FEATURES = ((?:.*\\\n)*.*)$', mk, re.M)
mk_features = m.group(1).replace('\\\n', ' ').split() if m else []
result(bool(mk_features), 'tinyperf.mk lists TINYPERF_FEATURES')
# options that are not CONFIG_REC_<X>: what the .mk maps them to
OTHER = {'ARCH_SUPPORTS': None, 'CONFIG_FRAGMENT_FILES': None,
         'LIBC_TOOLCHAIN': 'SHIM_TOOLCHAIN_LIBC', 'LIBC_FREESTANDING': 'SHIM_FREESTANDING',
         'STATIC': 'SHIM_STATIC'}
for opt in sorted(br_opts):
    if opt in OTHER:
        target = OTHER[opt]
        if target:
            result(target in syms and ('CONFIG_' + target in mk or
                                       'CONFIG_SHIM_$(' in mk and target.startswith('SHIM_')),
                   'BR2_PACKAGE_TINYPERF_%s sets CONFIG_%s, a Kconfig symbol' % (opt, target))
        continue
    sym = 'REC_' + opt
    result(sym in syms and opt in mk_features,
           'BR2_PACKAGE_TINYPERF_%s sets CONFIG_%s, a Kconfig symbol' % (opt, sym),
           'not in TINYPERF_FEATURES' if sym in syms else 'no such Kconfig symbol')
    if sym in syms:
        result(br_opts[opt] == (syms[sym][1] or 'n'),
               'BR2_PACKAGE_TINYPERF_%s defaults as CONFIG_%s (%s)' % (opt, sym, br_opts[opt]),
               'Kconfig says %s' % (syms[sym][1] or 'n'))
for f in mk_features:
    result(f in br_opts, 'TINYPERF_FEATURES %s has a BR2_PACKAGE_TINYPERF_%s option' % (f, f))
for sym in features:
    result(sym[4:] in br_opts, 'Buildroot offers the recorder feature %s' % sym)
for lib in re.findall(r'\$\(foreach l,([\w ]+),', mk)[0].split():
    result('SHIM_' + lib in syms, 'tinyperf.mk: CONFIG_SHIM_%s is a Kconfig symbol' % lib)
for arch in re.findall(r'\$\(if \$\(BR2_\w+\),(\w+)\)', mk):
    result(os.path.exists(os.path.join(src, 'boards', 'qemu-%s_defconfig' % arch)),
           'Buildroot arch %s has boards/qemu-%s_defconfig' % (arch, arch))
for path in sorted(glob.glob(os.path.join(BR, 'configs', '*_defconfig'))):
    text = read(path)
    result('BR2_PACKAGE_TINYPERF=y' in text and 'BR2_TOOLCHAIN_EXTERNAL=y' in text,
           'configs/%s: tinyperf on an external toolchain' % os.path.basename(path))
result(re.search(r'^name: TINYPERF$', read(os.path.join(BR, 'external.desc')), re.M) is not None,
       'external.desc names TINYPERF (BR2_EXTERNAL_TINYPERF_PATH)')

# ---- versions and hashes
version = re.search(r'^VERSION := (\S+)$', read(os.path.join(src, 'Makefile')), re.M).group(1)
lic = open(os.path.join(src, 'LICENSE'), 'rb').read()
m = re.search(r'^TINYPERF_VERSION = (\S+)$', mk, re.M)
result(m is not None and m.group(1) == version, 'TINYPERF_VERSION is the Makefile\'s %s' % version)
result(re.search(r'^TINYPERF_LICENSE = MIT$', mk, re.M) is not None and
       re.search(r'^TINYPERF_LICENSE_FILES = LICENSE$', mk, re.M) is not None,
       'tinyperf.mk: MIT, LICENSE')
hashes = read(os.path.join(PKG, 'tinyperf.hash'))
lines = [ln for ln in hashes.splitlines() if ln and not ln.startswith('#')]
tar_lines = [ln for ln in lines if ln.endswith('  tinyperf-%s.tar.gz' % version)]
result(all(re.match(r'^sha256  [0-9a-f]{64}  \S+$', ln) for ln in lines) and len(tar_lines) == 1,
       'tinyperf.hash: sha256 lines, one for tinyperf-%s.tar.gz' % version)
result('sha256  %s  LICENSE' % hashlib.sha256(lic).hexdigest() in lines,
       'tinyperf.hash: the sha256 of LICENSE')
recipes = glob.glob(os.path.join(LAYER, 'recipes-devtools', 'tinyperf', 'tinyperf_*.bb'))
result([os.path.basename(r) for r in recipes] == ['tinyperf_%s.bb' % version],
       'the recipe is tinyperf_%s.bb' % version, ' '.join(recipes))
bb = read(recipes[0]) if recipes else ''
result('LIC_FILES_CHKSUM = "file://LICENSE;md5=%s"' % hashlib.md5(lic).hexdigest() in bb,
       'the recipe\'s LIC_FILES_CHKSUM is the md5 of LICENSE')
m = re.search(r'^SRC_URI\[sha256sum\] = "([0-9a-f]{64})"$', bb, re.M)
result(m is not None and tar_lines and tar_lines[0].split()[1] == m.group(1),
       'the recipe and tinyperf.hash hold the same tarball sha256')
result(re.search(r'^SRC_URI = ".*/tinyperf-\$\{PV\}\.tar\.gz"$', bb, re.M) is not None and
       re.search(r'^TINYPERF_SITE = .*v\$\(TINYPERF_VERSION\)$', mk, re.M) is not None,
       'both fetch tinyperf-<version>.tar.gz, what make dist writes')

# ---- Yocto: PACKAGECONFIG <-> Kconfig, layer.conf
pc_flags = re.findall(r'^PACKAGECONFIG\[([\w-]+)\] = ', bb, re.M)
opts = dict(re.findall(r"tinyperf_opt\(d, '([\w-]+)', '(\w+)'\)", bb))
for flag, sym in sorted(opts.items()):
    result(sym in syms and flag in pc_flags,
           'PACKAGECONFIG %s sets CONFIG_%s, a Kconfig symbol' % (flag, sym))
for sym in features:
    result(sym in opts.values(), 'Yocto offers the recorder feature %s' % sym)
m = re.search(r'^PACKAGECONFIG \?\?= "([^"]*)"$', bb, re.M)
default_on = set(m.group(1).split()) if m else set()
for flag, sym in sorted(opts.items()):
    if sym.startswith('REC_'):
        want = syms.get(sym, (0, None))[1] == 'y'
        result((flag in default_on) == want, 'PACKAGECONFIG %s defaults as CONFIG_%s' % (flag, sym))
for arch, board in re.findall(r"'(\w+)': '(qemu-[\w-]+)'", bb):
    result(os.path.exists(os.path.join(src, 'boards', board + '_defconfig')),
           'Yocto TARGET_ARCH %s picks boards/%s_defconfig' % (arch, board))
conf = read(os.path.join(LAYER, 'conf', 'layer.conf'))
m = re.search(r'^LAYERSERIES_COMPAT_tinyperf = "([^"]*)"$', conf, re.M)
result(m is not None and 'scarthgap' in m.group(1).split(), 'layer.conf: scarthgap and newer')
readme = read(os.path.join(LAYER, 'README.md'))
result(re.search(r'maintainer', readme, re.I) and re.search(r'[\w.+-]+@[\w-]+\.[\w.-]+', readme) and
       re.search(r'patch', readme, re.I), 'layer README: maintainer, e-mail, patches (yocto-check-layer)')


# ---- BitBake syntax, the subset the recipes use
def bb_syntax(path):
    """None when every line of PATH is a construct below, else what is wrong."""
    text = read(path)
    lines = text.split('\n')
    i = 0
    assign = re.compile(r'^(export\s+)?[\w${}./-]+(?::[\w${}-]+)*(\[[\w-]+\])?\s*'
                        r'(=|\?=|\?\?=|:=|\+=|=\+|\.=|=\.)\s*"')
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.startswith('#'):
            i += 1
            continue
        if re.match(r'^(inherit|require|include)\s+\S', line):
            i += 1
            continue
        if assign.match(line):
            # the value: a double-quoted string, continued with trailing backslashes
            start = i
            value = line[assign.match(line).end():]
            while value.endswith('\\') and i + 1 < len(lines):
                i += 1
                value = value[:-1] + '\n' + lines[i]
            if not value.endswith('"') or '"' in value[:-1].replace('\\"', ''):
                return 'line %d: unterminated or unbalanced value' % (start + 1)
            err = inline_python(value[:-1], start + 1)
            if err:
                return err
            i += 1
            continue
        m = re.match(r'^(python\s+)?([\w-]+(?::[\w-]+)*)\s*\(\)\s*\{$', line)
        if m:
            start = i
            body = []
            i += 1
            while i < len(lines) and lines[i] != '}':
                body.append(lines[i])
                i += 1
            if i == len(lines):
                return 'line %d: function %s has no closing }' % (start + 1, m.group(2))
            code = '\n'.join(body)
            err = inline_python(code, start + 1)
            if err:
                return err
            if m.group(1):
                err = py_compile('def f(d):\n' + code + '\n', start + 1)
            else:
                err = shell_check(re.sub(r'\$\{@[^}]*\}', 'X', code), start + 1)
            if err:
                return err
            i += 1
            continue
        if line.startswith('def '):
            start = i
            i += 1
            while i < len(lines) and (lines[i].startswith((' ', '\t')) or not lines[i].strip()):
                i += 1
            err = py_compile('\n'.join(lines[start:i]) + '\n', start + 1)
            if err:
                return err
            continue
        return 'line %d: not BitBake syntax: %s' % (i + 1, line)
    return None


def inline_python(text, lineno):
    """Compile every ${@...} expression of TEXT (nested braces counted)."""
    pos = 0
    while True:
        at = text.find('${@', pos)
        if at < 0:
            return None
        depth, j = 1, at + 3
        while j < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        if depth:
            return 'line %d: unterminated ${@' % lineno
        err = py_compile(text[at + 3:j - 1].replace('\\\n', ' '), lineno, 'eval')
        if err:
            return err
        pos = j


def py_compile(code, lineno, mode='exec'):
    try:
        compile(code, 'recipe line %d' % lineno, mode)
    except SyntaxError as e:
        return 'line %d: Python: %s' % (lineno, e)
    return None


def shell_check(code, lineno):
    with tempfile.NamedTemporaryFile('w', suffix='.sh') as f:
        f.write(code + '\n')
        f.flush()
        r = subprocess.run(['sh', '-n', f.name], capture_output=True, text=True)
    return None if r.returncode == 0 else 'line %d: shell: %s' % (lineno, r.stderr.strip())


for path in sorted(glob.glob(os.path.join(LAYER, '**', '*.bb'), recursive=True) +
                   glob.glob(os.path.join(LAYER, 'conf', '*.conf'))):
    why = bb_syntax(path)
    result(why is None, 'BitBake syntax: %s' % os.path.relpath(path, src), why or '')

print('packaging: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
