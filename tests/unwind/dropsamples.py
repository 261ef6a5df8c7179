#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copies a perf.data file without some of its samples (tests/unwind: the samples whose chains
differ for an explained reason are taken out of the report -g comparison this way, so that the
rest is compared exactly). The data section loses their records; the feature sections after it
move up by as much. The samples are named by "TID TIME" lines (TIME in seconds as perf script
prints it, to the microsecond, cut as perf cuts it). Native-endian files with one sample layout
(every attr's sample_type the same); prints how many samples it dropped and exits 1 unless
every line matched one.
Usage: dropsamples.py IN.data OUT.data SAMPLES.txt"""
import struct
import sys

IDENTIFIER, IP, TID, TIME = 1 << 16, 1 << 0, 1 << 1, 1 << 2  # before the rest of a sample


def layout(f):
    """(data offset, data size, sample_type)"""
    magic, _, attr_size, attrs_off, attrs_size, data_off, data_size = \
        struct.unpack_from('<8sQQQQQQ', f, 0)
    if magic != b'PERFILE2':
        sys.exit('dropsamples: %s: not a native-endian perf.data file' % sys.argv[1])
    types = {struct.unpack_from('<Q', f, a + 24)[0]
             for a in range(attrs_off, attrs_off + attrs_size, attr_size)}
    if len(types) != 1:
        sys.exit('dropsamples: the events have different sample layouts')
    sample_type = types.pop()
    if not sample_type & TID or not sample_type & TIME:
        sys.exit('dropsamples: samples without a tid and a time (%#x)' % sample_type)
    return data_off, data_size, sample_type


def main():
    f = bytearray(open(sys.argv[1], 'rb').read())
    want = {}
    for line in open(sys.argv[3]):
        if line.strip():
            tid, t = line.split()
            sec, _, frac = t.partition('.')
            want[(int(tid), int(sec) * 10**6 + int((frac + '000000')[:6]))] = False
    data_off, data_size, st = layout(f)
    pos, end, keep = data_off, data_off + data_size, bytearray()
    while pos + 8 <= end:
        typ, _, size = struct.unpack_from('<IHH', f, pos)
        if size < 8:
            sys.exit('dropsamples: a record of size %d at %#x' % (size, pos))
        if typ == 9:
            p, tid, time = pos + 8, None, None
            for bit in (IDENTIFIER, IP, TID, TIME):
                if st & bit:
                    if bit == TID:
                        tid, = struct.unpack_from('<I', f, p + 4)
                    elif bit == TIME:
                        time, = struct.unpack_from('<Q', f, p)
                    p += 8
            key = (tid, time // 1000)  # perf script's microseconds
            if key in want and not want[key]:
                want[key] = True
                pos += size
                continue
        keep += f[pos:pos + size]
        pos += size
    cut = data_size - len(keep)
    # the feature sections' table is at the data's end, their offsets beyond it
    flags = struct.unpack_from('<4Q', f, 0x48)
    nfeat = sum(bin(x).count('1') for x in flags)
    feat = bytearray(f[end:])
    for i in range(nfeat):
        off, = struct.unpack_from('<Q', feat, 16 * i)
        if off >= end:
            struct.pack_into('<Q', feat, 16 * i, off - cut)
    f = f[:data_off] + keep + feat
    struct.pack_into('<Q', f, 0x30, len(keep))
    open(sys.argv[2], 'wb').write(f)
    print('dropsamples: %d of %d samples dropped' % (sum(want.values()), len(want)))
    return 0 if all(want.values()) else 1


sys.exit(main())
