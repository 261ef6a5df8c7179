#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A serial line for tests/transport/run.sh, made of two pty pairs and this relay between them.

The recorder writes to pty A, `tinyperf recv --serial` reads pty B. The relay moves bytes from
A to B at the pace of a UART (BAUD/10 bytes a second, reading A no faster, so the recorder
feels the back-pressure of a real line), injects console lines between frames the way printk
does, and corrupts a fraction of the frame bytes (each byte independently). It knows the frame
format (perfdata/framing.h), so it reports exactly which frames it damaged and which injected
lines the receiver must show (those whose neighbouring delimiters were left alone). Text
frames (base64 lines) are passed on whole and only counted.

usage: relay.py --info FILE [--baud N] [--corrupt P] [--text-every N] [--seed S]
                [--capture FILE] [--report FILE] [--timeout SECS]
FILE gets "A=/dev/pts/N B=/dev/pts/M" once both ends are ready. The relay stops when it has
passed on two END frames (or at the timeout), lets B drain, closes B and writes the report
(JSON): frames, damaged, lost_expected (damaged frames before the last intact one, which is
all a receiver can notice), intact, text_lines (the lines that must appear), bytes.
"""
import argparse
import base64
import errno
import json
import os
import pty
import random
import select
import sys
import time
import tty

FRAME_END = 4


def cobs_decode(data):
    out, i = bytearray(), 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            return None
        out += data[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--info", required=True)
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--corrupt", type=float, default=0.0)
    ap.add_argument("--text-every", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--capture")
    ap.add_argument("--report")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    ma, sa = pty.openpty()      # the recorder's end; sa stays open so A never hangs up
    mb, sb = pty.openpty()      # recv's end
    for fd in (sa, sb):
        tty.setraw(fd)          # no echo, no CR/LF games before the programs set them
    os.set_blocking(mb, False)
    with open(a.info + ".tmp", "w") as f:
        f.write("A=%s B=%s\n" % (os.ttyname(sa), os.ttyname(sb)))
    os.rename(a.info + ".tmp", a.info)
    os.close(sb)

    cap = open(a.capture, "wb") if a.capture else None
    rate = a.baud / 10.0
    tokens, last = 0.0, time.monotonic()
    inbuf, out = bytearray(), bytearray()
    frames = []                 # [seq, type, damaged, lead_damaged, trail_damaged]
    texts = []                  # [line, after_frame_index]
    ends = 0
    nline = 0
    bytes_in = bytes_out = 0
    deadline = time.monotonic() + a.timeout

    def take_frames():
        nonlocal ends, nline
        while inbuf:
            if inbuf[0] != 0:           # text framing (only counted) or other bytes
                i = inbuf.find(b"\0")
                j = inbuf.find(b"\n")
                if j >= 0 and (i < 0 or j < i):
                    line = bytes(inbuf[:j + 1])
                    if line.startswith(b"@TP:"):
                        raw = base64.b64decode(line[4:].rstrip(b"\r\n"))
                        frames.append([raw[1] | raw[2] << 8, raw[0], False, False, False])
                        ends += raw[0] == FRAME_END
                    out.extend(line)
                    del inbuf[:j + 1]
                    continue
                if i < 0:
                    return
                out.extend(inbuf[:i])
                del inbuf[:i]
                continue
            j = inbuf.find(b"\0", 1)
            if j < 0:
                return
            if j == 1:                  # a lone delimiter
                out.append(0)
                del inbuf[:1]
                continue
            unit = bytearray(inbuf[:j + 1])
            del inbuf[:j + 1]
            raw = cobs_decode(bytes(unit[1:-1]))
            ftype = raw[0] if raw and len(raw) >= 7 else 0
            seq = raw[1] | raw[2] << 8 if raw and len(raw) >= 7 else -1
            hit = [False] * len(unit)
            for k in range(len(unit)):
                if a.corrupt and rnd.random() < a.corrupt:
                    unit[k] ^= rnd.randint(1, 255)
                    hit[k] = True
            frames.append([seq, ftype, any(hit), hit[0], hit[-1]])
            out.extend(unit)
            if ftype == FRAME_END:
                ends += 1
            if a.text_every and ends == 0 and len(frames) % a.text_every == a.text_every // 2:
                nline += 1
                line = "[%6d.%06d] console: injected line %d\r\n" % (nline, nline * 37, nline)
                texts.append([line, len(frames) - 1])
                out.extend(line.encode())

    while True:
        now = time.monotonic()
        tokens = min(rate / 20 + 64, tokens + (now - last) * rate)
        last = now
        if out and tokens >= 1:
            n = min(len(out), int(tokens))
            try:
                w = os.write(mb, bytes(out[:n]))
            except BlockingIOError:
                w = 0
            del out[:w]
            tokens -= w
            bytes_out += w
        if ends >= 2 and not out and not inbuf:
            break
        if now > deadline:
            print("relay: timeout", file=sys.stderr)
            break
        rl = [ma] if len(out) < 256 else []
        r, _, _ = select.select(rl, [], [], 0.005)
        if r:
            try:
                data = os.read(ma, min(512, max(1, int(rate / 20))))
            except OSError as e:
                if e.errno != errno.EIO:
                    raise
                data = b""
            if cap:
                cap.write(data)
            bytes_in += len(data)
            inbuf.extend(data)
            take_frames()

    time.sleep(1.0)             # let recv read what is still in B
    os.close(mb)
    if cap:
        cap.close()
    intact = [i for i, f in enumerate(frames) if not f[2]]
    last_intact = intact[-1] if intact else -1
    must_show = []
    for line, after in texts:
        nxt = frames[after + 1] if after + 1 < len(frames) else None
        if not frames[after][4] and nxt is not None and not nxt[3]:
            must_show.append(line.rstrip("\r\n"))
    rep = {
        "frames": len(frames),
        "damaged": sum(1 for f in frames if f[2]),
        "lost_expected": sum(1 for f in frames[:last_intact + 1] if f[2]),
        "intact": len(intact),
        "text_injected": len(texts),
        "text_lines": must_show,
        "bytes_in": bytes_in,
        "bytes_out": bytes_out,
    }
    if a.report:
        with open(a.report, "w") as f:
            json.dump(rep, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
