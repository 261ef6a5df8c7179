#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers of tests/fuzz/seeds.sh: cut real recordings into fuzz seeds.
  prefix BYTE IN OUT              OUT = BYTE + IN
  prefix-size PLAIN IN OUT        OUT = u16 le (len(PLAIN) + 15) // 16 + IN
  tcp-capture RECORDER OUT -- ARGS...   what `RECORDER record -o tcp://...` sends, saved
  trace PIPE-DATA DIR             per event: u16 le n, a raw sample of n bytes, TRACING_DATA
  symtab FILE-DATA OUT            OUT = 0 + the TP_FEAT_SYMTAB section (129)"""
import socket
import struct
import subprocess
import sys
import threading


def records(d):
    """(type, bytes) of each record of a pipe-mode perf.data (native byte order)."""
    off = struct.unpack_from('<Q', d, 8)[0]
    while off + 8 <= len(d):
        typ, _misc, size = struct.unpack_from('<IHH', d, off)
        if size < 8:
            return
        yield typ, d[off:off + size]
        off += size
        if typ == 66:   # HEADER_TRACING_DATA: the blob follows the record
            off += struct.unpack_from('<I', d, off - size + 8)[0]


def raw_of(rec):
    """PERF_SAMPLE_RAW is the sample's last field here: u32 size, then size bytes."""
    for off in range(8, len(rec) - 4):
        if struct.unpack_from('<I', rec, off)[0] == len(rec) - off - 4:
            return rec[off + 4:]
    return None


def main(a):
    if a[0] == 'prefix':
        data = open(a[2], 'rb').read()
        open(a[3], 'wb').write(bytes([int(a[1], 0)]) + data)
    elif a[0] == 'prefix-size':
        n = (len(open(a[1], 'rb').read()) + 15) // 16
        open(a[3], 'wb').write(struct.pack('<H', n) + open(a[2], 'rb').read())
    elif a[0] == 'tcp-capture':
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        s.listen(1)
        s.settimeout(30)
        got = []

        def take():
            c, _ = s.accept()
            c.settimeout(30)
            while True:
                x = c.recv(65536)
                if not x:
                    break
                got.append(x)
        t = threading.Thread(target=take)
        t.start()
        url = 'tcp://127.0.0.1:%d' % s.getsockname()[1]
        subprocess.run([a[1], 'record', '-q', '-o', url] + a[a.index('--') + 1:], check=True)
        t.join(30)
        open(a[2], 'wb').write(b''.join(got))
    elif a[0] == 'trace':
        d = open(a[1], 'rb').read()
        magic = b'\x17\x08\x44tracing'
        pos = d.index(magic)
        blob = d[pos:pos + struct.unpack_from('<I', d, pos - 4)[0]]
        seen = set()
        for typ, rec in records(d):
            raw = raw_of(rec) if typ == 9 else None
            if not raw or len(raw) < 2 or raw[:2] in seen or len(seen) >= 6:
                continue
            seen.add(raw[:2])
            out = '%s/event-%d' % (a[2], struct.unpack_from('<H', raw)[0])
            open(out, 'wb').write(struct.pack('<H', len(raw)) + raw + blob)
        open(a[2] + '/no-record', 'wb').write(b'\0\0' + blob)
    elif a[0] == 'symtab':
        d = open(a[1], 'rb').read()
        data_off, data_size = struct.unpack_from('<QQ', d, 40)
        bits = int.from_bytes(d[72:104], 'little')
        sect = data_off + data_size
        for f in range(256):
            if not bits >> f & 1:
                continue
            if f == 129:
                off, size = struct.unpack_from('<QQ', d, sect)
                open(a[2], 'wb').write(b'\0' + d[off:off + size])
                return
            sect += 16
        sys.exit('no TP_FEAT_SYMTAB in ' + a[1])


main(sys.argv[1:])
