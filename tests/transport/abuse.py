#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile clients for `tinyperf recv` (tests/transport/abuse.sh): IDLE connections that
never send a byte and RANDOM ones that send random bytes every half second, all held open
for SECONDS: each one recv closes is opened again (at most RATE new connections a second,
so that the attack does not just measure who gets the CPU), from the source addresses
given (loopback has all of 127.0.0.0/8). Writes "holding" to READY a second after every
connection was opened (the idle ones first), and at the end a JSON summary to STATS.

  abuse.py PORT IDLE RANDOM SECONDS READY STATS [SOURCE,...] [RATE]
"""
import json
import os
import resource
import selectors
import signal
import socket
import sys
import time


def main():
    port, n_idle, n_rand, secs = (int(x) for x in sys.argv[1:5])
    ready, stats_path = sys.argv[5], sys.argv[6]
    sources = sys.argv[7].split(",") if len(sys.argv) > 7 else ["127.0.0.1"]
    rate = int(sys.argv[8]) if len(sys.argv) > 8 else 300
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = n_idle + n_rand + 64
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    sel = selectors.DefaultSelector()
    st = {"opened": 0, "closed_by_recv": 0, "bye_lines": 0, "connect_failed": 0,
          "max_open": 0, "open_at_end": 0, "random_bytes_sent": 0}
    conns = {}                  # socket -> [kind, next send time, bytes got]
    # popped from the end: the idle ones first, as in the lockout of issue 24 (they fill
    # the table before anything else comes)
    todo = ["random"] * n_rand + ["idle"] * n_idle
    tokens, last_tok = float(rate), time.monotonic()
    end = time.monotonic() + secs
    said_ready = False
    all_open = None
    k = 0

    def on_term(sig, frame):
        nonlocal end
        end = 0
    signal.signal(signal.SIGTERM, on_term)

    def open_one(kind):
        nonlocal k
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((sources[k % len(sources)], 0))
            k += 1
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            st["connect_failed"] += 1
            s.close()
            return False
        conns[s] = [kind, time.monotonic(), b""]
        sel.register(s, selectors.EVENT_READ)
        st["opened"] += 1
        return True

    def gone(s):
        if b"TPBYE " in conns[s][2]:
            st["bye_lines"] += 1
        sel.unregister(s)
        s.close()
        todo.append(conns.pop(s)[0])
        st["closed_by_recv"] += 1

    while time.monotonic() < end:
        now = time.monotonic()
        tokens = min(float(rate), tokens + (now - last_tok) * rate)
        last_tok = now
        # the first round opens everything at once, later ones as the rate allows
        while todo and (all_open is None or tokens >= 1):
            if not open_one(todo.pop()):
                break
            if all_open is not None:
                tokens -= 1
        if all_open is None and not todo:
            all_open = now
        # "holding" a second after: recv has seen them all by then
        if not said_ready and all_open is not None and now - all_open >= 1:
            with open(ready, "w") as f:
                f.write("holding\n")
            said_ready = True
        st["max_open"] = max(st["max_open"], len(conns))
        for key, _ in sel.select(timeout=0.05):
            s = key.fileobj
            try:
                d = s.recv(4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                d = b""
            if not d:
                gone(s)
            else:
                conns[s][2] = (conns[s][2] + d)[-256:]
        for s, c in list(conns.items()):
            if c[0] == "random" and now >= c[1]:
                c[1] = now + 0.5
                try:
                    st["random_bytes_sent"] += s.send(os.urandom(512))
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    gone(s)
    st["open_at_end"] = len(conns)
    for s in list(conns):
        s.close()
    with open(stats_path, "w") as f:
        json.dump(st, f)
        f.write("\n")


if __name__ == "__main__":
    main()
