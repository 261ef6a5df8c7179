#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Kconfig engine for hosts without kconfig-frontends: Kconfiglib (Debian python3-kconfiglib,
pip kconfiglib; ISC, pure Python, maintained for Zephyr and ESP-IDF), writing .config, auto.conf
and autoconf.h as kconfig-frontends 4.11 does, so that either engine configures the same build
(tests/kconfig/run.sh compares them on every board).

Run in the output directory with srctree= and KCONFIG_CONFIG= set, as the Makefile does:
  kconfig.py defconfig FILE | olddefconfig | oldconfig | savedefconfig OUT | syncconfig |
             menuconfig
syncconfig writes $KCONFIG_AUTOCONFIG and $KCONFIG_AUTOHEADER (the --silentoldconfig step)."""
import os
import sys

try:
    import kconfiglib
except ImportError:
    sys.exit("tinyperf: Kconfiglib is not installed: install python3-kconfiglib "
             "(pip: kconfiglib), or kconfig-frontends")


def config_text(kconf):
    """.config as kconfig-frontends 4.11 writes it: the header, then in menu order each
    visible menu's and comment's title as a comment block and each symbol's line (no
    '# end of' lines: those came with Linux 5.0's kconfig)."""
    out = ['#\n# Automatically generated file; DO NOT EDIT.\n# %s\n#\n' % kconf.mainmenu_text]
    seen = set()
    node = kconf.top_node.list
    while node:
        item = node.item
        if isinstance(item, kconfiglib.Symbol):
            if item not in seen:
                seen.add(item)
                out.append(item.config_string)
        elif item in (kconfiglib.MENU, kconfiglib.COMMENT) and \
                kconfiglib.expr_value(node.dep) and \
                (item is kconfiglib.COMMENT or kconfiglib.expr_value(node.visibility)):
            out.append('\n#\n# %s\n#\n' % node.prompt[0])
        # depth first: children, then the next sibling, else up to a parent's sibling
        if node.list:
            node = node.list
            continue
        while node and not node.next:
            node = node.parent
            if node is kconf.top_node:
                node = None
        node = node.next if node else None
    return ''.join(out)


def set_symbols(kconf):
    """The symbols a build sees, in definition order: (name, type, value) of every symbol
    written to .config whose value is not n."""
    for sym in kconf.unique_defined_syms:
        val = sym.str_value
        if not sym.config_string or (sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE)
                                     and val == 'n'):
            continue
        yield sym.name, sym.orig_type, val


def autoconf_text(kconf):
    """include/config/auto.conf (make syntax): what --silentoldconfig writes."""
    out = ['#\n# Automatically generated file; DO NOT EDIT.\n# %s\n#\n' % kconf.mainmenu_text]
    for name, typ, val in set_symbols(kconf):
        if typ == kconfiglib.STRING:
            val = '"%s"' % kconfiglib.escape(val)
        elif typ == kconfiglib.HEX and not val.lower().startswith('0x'):
            val = '0x' + val
        out.append('%s%s=%s\n' % (kconf.config_prefix, name, val))
    return ''.join(out)


def autoheader_text(kconf):
    """include/generated/autoconf.h: what --silentoldconfig writes."""
    out = ['/*\n *\n * Automatically generated file; DO NOT EDIT.\n * %s\n *\n */\n'
           % kconf.mainmenu_text]
    for name, typ, val in set_symbols(kconf):
        if typ in (kconfiglib.BOOL, kconfiglib.TRISTATE):
            out.append('#define %s%s%s 1\n' % (kconf.config_prefix, name,
                                               '_MODULE' if val == 'm' else ''))
            continue
        if typ == kconfiglib.STRING:
            val = '"%s"' % kconfiglib.escape(val)
        elif typ == kconfiglib.HEX and not val.lower().startswith('0x'):
            val = '0x' + val
        out.append('#define %s%s %s\n' % (kconf.config_prefix, name, val))
    return ''.join(out)


def write(path, text):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split('\n\n')[1])
    cmd = argv[1]
    srctree = os.environ.get('srctree', '.')
    config = os.environ.get('KCONFIG_CONFIG', '.config')
    kconf = kconfiglib.Kconfig(os.path.join(srctree, 'Kconfig'), warn_to_stderr=True)
    if cmd == 'menuconfig':
        import menuconfig   # Kconfiglib's curses interface (the same package)
        if os.path.exists(config):
            kconf.load_config(config)
        menuconfig.menuconfig(kconf)
        # menuconfig saves with Kconfiglib's own layout: rewrite it as the other engine would
        if os.path.exists(config):
            kconf.load_config(config)
            write(config, config_text(kconf))
        return 0
    if cmd == 'oldconfig':
        import oldconfig    # asks about each new symbol (the same package)
        sys.argv = ['oldconfig', os.path.join(srctree, 'Kconfig')]
        oldconfig._main()
        kconf.load_config(config)
        write(config, config_text(kconf))
        return 0
    if cmd == 'defconfig' and len(argv) == 3:
        kconf.load_config(argv[2])
    elif cmd in ('olddefconfig', 'syncconfig', 'savedefconfig'):
        if not os.path.exists(config):
            sys.exit('tinyperf: no %s: run make <board>_defconfig first' % config)
        kconf.load_config(config)
    else:
        sys.exit(__doc__.split('\n\n')[1])
    if cmd == 'savedefconfig':
        if len(argv) != 3:
            sys.exit('tinyperf: kconfig.py savedefconfig OUT')
        kconf.write_min_config(argv[2], header='')
        return 0
    write(config, config_text(kconf))
    if cmd == 'syncconfig':
        write(os.environ.get('KCONFIG_AUTOCONFIG', 'include/config/auto.conf'),
              autoconf_text(kconf))
        write(os.environ.get('KCONFIG_AUTOHEADER', 'include/generated/autoconf.h'),
              autoheader_text(kconf))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
