#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Open 'make menuconfig' in a pseudo-terminal, wait for the tinyperf menu, press ESC ESC,
and check that it exits cleanly. Usage: menuconfig.py SRCTREE OUTDIR [ENGINE]
(ENGINE: KCONFIG_ENGINE=, frontends or kconfiglib; default: the Makefile's choice)"""
import os, pty, select, subprocess, sys, time

src, out = sys.argv[1], sys.argv[2]
engine = ["KCONFIG_ENGINE=" + sys.argv[3]] if len(sys.argv) > 3 else []
subprocess.run(["make", "-s", "-C", src, "O=" + out, "qemu-armv7_defconfig"] + engine, check=True,
               stdout=subprocess.DEVNULL)
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.environ["COLUMNS"], os.environ["LINES"] = "100", "30"
    os.execvp("make", ["make", "-s", "-C", src, "O=" + out, "menuconfig"] + engine)
screen, deadline, sent = b"", time.time() + 30, False
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    if not sent and b"tinyperf configuration" in screen and b"arget architecture" in screen:
        time.sleep(0.3)
        os.write(fd, b"\x1b\x1b")
        sent = True
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
else:
    os.kill(pid, 9)
    sys.exit("menuconfig did not show the menu or did not exit within 30 s")
if not done:
    _, status = os.waitpid(pid, 0)
if not sent:
    sys.exit("menuconfig exited without showing the tinyperf menu")
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit("menuconfig exited with status %d" % os.waitstatus_to_exitcode(status))
print("menuconfig showed the menu and exited cleanly")
