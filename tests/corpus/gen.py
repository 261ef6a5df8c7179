#!/usr/bin/env python3
"""Generate the broken-file corpus tests/corpus/bad/*.data and their *.expect from the valid
seed recordings in tests/fuzz/corpus/reader/ (written by `test-reader --emit-seeds`).

Each .expect holds the exit status `tinyperf dump` must return and, one per line, words its
error or warning output (stderr) must contain:
    exit 1
    words: corrupt record at offset 0x
Run it again after the seeds change; tests/corpus/run.sh checks the tool against it.
usage: gen.py [SEED_DIR [OUT_DIR]]"""
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
seeds = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'fuzz', 'corpus', 'reader')
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, 'bad')

HOSTNAME, CMDLINE, EVENT_DESC = 3, 11, 12
SAMPLE, COMPRESSED = 9, 81


class Perf:
    """a valid file-mode or pipe-mode recording and where its parts are"""

    def __init__(self, path):
        self.buf = bytearray(open(path, 'rb').read())
        self.e = '<' if self.buf[:8] == b'PERFILE2' else '>'
        self.pipe = self.u64(8) == 16
        if self.pipe:
            self.data_off, self.data_end = 16, len(self.buf)
        else:
            self.attrs_off, self.attrs_size = self.u64(24), self.u64(32)
            self.data_off, self.data_size = self.u64(40), self.u64(48)
            self.data_end = self.data_off + self.data_size
            self.feat_off = self.data_end
            bits = [self.u64(72 + 8 * i) for i in range(4)]
            self.feats = [i for i in range(256) if bits[i // 64] >> (i % 64) & 1]
        self.records = []          # (offset, type, size)
        pos = self.data_off
        while pos + 8 <= self.data_end:
            typ, size = self.u32(pos), self.u16(pos + 6)
            self.records.append((pos, typ, size))
            if typ == 66:          # pipe tracing data: the blob follows
                size += self.u32(pos + 8)
            pos += size
        self.samples = [r[0] for r in self.records if r[1] == SAMPLE]

    def u16(self, o): return struct.unpack_from(self.e + 'H', self.buf, o)[0]
    def u32(self, o): return struct.unpack_from(self.e + 'I', self.buf, o)[0]
    def u64(self, o): return struct.unpack_from(self.e + 'Q', self.buf, o)[0]
    def p16(self, o, v): struct.pack_into(self.e + 'H', self.buf, o, v)
    def p32(self, o, v): struct.pack_into(self.e + 'I', self.buf, o, v)
    def p64(self, o, v): struct.pack_into(self.e + 'Q', self.buf, o, v)

    def feat_entry(self, feat):
        """file offset of the feature table entry of feat"""
        return self.feat_off + 16 * self.feats.index(feat)

    def feat_section(self, feat):
        return self.u64(self.feat_entry(feat))


def case(name, seed, damage, status, *words):
    p = Perf(os.path.join(seeds, seed))
    buf = damage(p)
    with open(os.path.join(out, name + '.data'), 'wb') as f:
        f.write(bytes(p.buf if buf is None else buf))
    with open(os.path.join(out, name + '.expect'), 'w') as f:
        f.write('exit %d\n' % status)
        for w in words:
            f.write('words: %s\n' % w)


def set16(off_fn, v):
    def d(p):
        p.p16(off_fn(p), v)
    return d


def set32(off_fn, v):
    def d(p):
        p.p32(off_fn(p), v)
    return d


def set64(off_fn, v):
    def d(p):
        p.p64(off_fn(p), v)
    return d


def cut(at_fn):
    return lambda p: p.buf[:at_fn(p)]


def main():
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith('.data') or f.endswith('.expect'):
            os.remove(os.path.join(out, f))
    second = lambda p: p.samples[1]
    for order in ('le', 'be'):
        seed = 'file-%s.data' % order
        case('trunc-header-' + order, seed, cut(lambda p: 60), 1,
             'header needs 104', 'cut short')
        case('trunc-attrs-' + order, seed, cut(lambda p: p.attrs_off + 20), 1,
             'attrs section', 'runs past the end of the file')
        case('trunc-data-' + order, seed, cut(lambda p: p.samples[2] + 20), 1,
             'runs past the end of the file', 'cut off by the end of the input',
             'the file is truncated')
        case('trunc-feature-table-' + order, seed, cut(lambda p: p.feat_off + 40), 1,
             'feature table', 'the file is truncated')
        case('record-size-zero-' + order, seed, set16(lambda p: second(p) + 6, 0), 1,
             'corrupt record at offset 0x', 'smaller than a record header', 'resuming at')
        case('record-size-huge-' + order, seed, set16(lambda p: second(p) + 6, 0xfff8), 1,
             'corrupt record at offset 0x', 'size runs past the end of the data')
        case('record-type-unknown-' + order, seed, set32(second, 0x1234), 1,
             'corrupt record at offset 0x', 'unknown record type')
        case('sample-id-unknown-' + order, seed, set64(lambda p: second(p) + 8, 999), 1,
             'record at offset 0x', 'sample id 999 matches no event', 'skipped')
        case('sample-callchain-overrun-' + order, seed,
             set64(lambda p: second(p) + 56, 1 << 40), 1,
             'record at offset 0x', 'callchain runs past the record end')
        case('magic-flipped-' + order, seed, 
             lambda p: bytes(b ^ 0x20 for b in p.buf[:8]) + p.buf[8:], 1, 'bad magic')
        case('attr-size-zero-' + order, seed, set64(lambda p: 16, 0), 1, 'attr_size is 0')
        case('attrs-offset-absurd-' + order, seed, set64(lambda p: 24, 1 << 50), 1,
             'attrs section', 'runs past the end of the file')
        case('data-offset-absurd-' + order, seed, set64(lambda p: 40, (1 << 64) - 8), 1,
             'starts past the end of the file')
        case('data-size-zero-' + order, seed,
             lambda p: (p.p64(48, 0), p.buf[:p.data_end])[1], 1,
             'data size in the header is 0', 'the recording was not finished')
        case('feature-past-eof-' + order, seed,
             set64(lambda p: p.feat_entry(CMDLINE), 1 << 33), 1,
             'feature CMDLINE', 'runs past the end of the file')
        case('cmdline-huge-nr-' + order, seed,
             set32(lambda p: p.feat_section(CMDLINE), 0x7fffffff), 1,
             'feature CMDLINE', 'string list count runs past the section')
        case('event-desc-bad-attr-size-' + order, seed,
             set32(lambda p: p.feat_section(EVENT_DESC) + 4, 7), 1,
             'feature EVENT_DESC', 'attr size runs past the section')
        case('hostname-no-nul-' + order, seed,
             lambda p: p.buf.__setitem__(slice(p.feat_section(HOSTNAME) + 4,
                                               p.feat_section(HOSTNAME) + 68), b'x' * 64), 1,
             'feature HOSTNAME', 'lacks its NUL')
        case('compressed-record-' + order, seed, set32(second, COMPRESSED), 1,
             'zstd-compressed', 'record without -z')
        case('data-all-zero-' + order, seed,
             lambda p: p.buf.__setitem__(slice(p.data_off, p.data_end),
                                         bytes(p.data_end - p.data_off)), 1,
             'corrupt record at offset 0x', 'no valid record up to the data end')
        seed = 'pipe-%s.data' % order
        case('pipe-cut-' + order, seed, cut(lambda p: p.samples[3] + 12), 1,
             'cut off by the end of the input', 'the file is truncated')
        case('pipe-record-size-zero-' + order, seed, set16(lambda p: second(p) + 6, 0), 1,
             'corrupt record at offset 0x', 'smaller than a record header')
        case('pipe-record-size-huge-' + order, seed, set16(lambda p: second(p) + 6, 0xfff8), 1,
             'corrupt record at offset 0x', 'size runs past the end of the data',
             'resuming at')
        case('pipe-header-size-' + order, seed, set64(lambda p: 8, 17), 1,
             'neither the pipe (16) nor the file header')
    case('empty', 'file-le.data', lambda p: b'', 1, 'the file is empty')


if __name__ == '__main__':
    main()
