#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes the small hand-made pprof seeds in corpus/pprof/ (and gzipped copies
# in corpus/load/), and the seeds of fuzz-input in corpus/input/ (a first
# byte that picks the block size, then the data). Plain protobuf wire
# encoding, no libraries:
#   python3 tests/fuzz/make-pprof-seeds.py
import gzip
import os

here = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, value):
    return varint(num << 3) + varint(value)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return field_bytes(num, b"".join(varint(v) for v in values))


class Profile:
    def __init__(self):
        self.strings = [""]
        self.body = bytearray()

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def value_type(self, num, type_, unit):
        self.body += field_bytes(num, field_varint(1, self.s(type_)) + field_varint(2, self.s(unit)))

    def sample(self, locs, values, labels=()):
        msg = packed(1, locs) + packed(2, values)
        for key, str_, num, unit in labels:
            lab = field_varint(1, self.s(key))
            if str_ is not None:
                lab += field_varint(2, self.s(str_))
            else:
                lab += field_varint(3, num)
                if unit:
                    lab += field_varint(4, self.s(unit))
            msg += field_bytes(3, lab)
        self.body += field_bytes(2, msg)

    def mapping(self, id_, filename, has_functions=True):
        msg = field_varint(1, id_) + field_varint(2, 0x400000) + field_varint(3, 0x500000)
        msg += field_varint(5, self.s(filename))
        if has_functions:
            msg += field_varint(7, 1) + field_varint(8, 1) + field_varint(9, 1)
        self.body += field_bytes(3, msg)

    def location(self, id_, lines, mapping=1, address=0):
        msg = field_varint(1, id_) + field_varint(2, mapping)
        if address:
            msg += field_varint(3, address)
        for func, line in lines:
            msg += field_bytes(4, field_varint(1, func) + field_varint(2, line))
        self.body += field_bytes(4, msg)

    def function(self, id_, name, filename="main.go", line=1):
        msg = field_varint(1, id_)
        if name:
            msg += field_varint(2, self.s(name)) + field_varint(3, self.s(name))
        msg += field_varint(4, self.s(filename)) + field_varint(5, line)
        self.body += field_bytes(5, msg)

    def bytes(self, period=None, default_type=None, time_nanos=0, duration=0):
        out = bytearray(self.body)
        if period:
            ptype, punit, pval = period
            out += field_bytes(11, field_varint(1, self.s(ptype)) + field_varint(2, self.s(punit)))
            out += field_varint(12, pval)
        if default_type:
            out += field_varint(14, self.s(default_type))
        if time_nanos:
            out += field_varint(9, time_nanos)
        if duration:
            out += field_varint(10, duration)
        for text in self.strings:
            out += field_bytes(6, text if isinstance(text, bytes) else text.encode())
        return bytes(out)


def cpu():
    p = Profile()
    p.value_type(1, "samples", "count")
    p.value_type(1, "cpu", "nanoseconds")
    p.mapping(1, "/usr/bin/app")
    for i, name in enumerate(["main.main", "main.work", "runtime.mallocgc", "main.idle"], 1):
        p.function(i, name, "main.go", 10 * i)
        p.location(i, [(i, 10 * i + 3)], address=0x401000 + i * 16)
    p.sample([3, 2, 1], [3, 30000000])
    p.sample([2, 1], [2, 20000000])
    p.sample([4, 1], [1, 10000000])
    return p.bytes(period=("cpu", "nanoseconds", 10000000), time_nanos=1700000000000000000,
                   duration=10000000000)


def inline_recursion():
    p = Profile()
    p.value_type(1, "cpu", "nanoseconds")
    p.mapping(1, "/usr/bin/app")
    for i, name in enumerate(["main.main", "main.fib", "main.add", "main.leaf"], 1):
        p.function(i, name)
    p.location(1, [(1, 5)])
    p.location(2, [(3, 7), (2, 20)])         # add inlined into fib
    p.location(3, [(4, 9), (3, 8), (2, 21)])  # leaf and add inlined into fib
    p.sample([3, 2, 2, 2, 1], [40])
    p.sample([2, 2, 1], [20])
    p.sample([3, 1], [5])
    return p.bytes(period=("cpu", "nanoseconds", 10))


def labels():
    p = Profile()
    p.value_type(1, "samples", "count")
    p.value_type(1, "cpu", "nanoseconds")
    p.mapping(1, "/usr/bin/app")
    p.function(1, "main.main")
    p.function(2, "main.handler")
    p.location(1, [(1, 3)])
    p.location(2, [(2, 4)])
    p.sample([2, 1], [1, 10], [("span", "GET /a", 0, None), ("bytes", None, 512, "bytes")])
    p.sample([2, 1], [2, 20], [("span", "GET /b", 0, None)])
    p.sample([1], [1, 10], [("request_id", None, 42, None)])
    return p.bytes(period=("cpu", "nanoseconds", 10), default_type="cpu")


def heap_no_names():
    p = Profile()
    for t, u in [("alloc_objects", "count"), ("alloc_space", "bytes"),
                 ("inuse_objects", "count"), ("inuse_space", "bytes")]:
        p.value_type(1, t, u)
    p.mapping(1, "/usr/lib/libc.so.6", has_functions=False)
    p.mapping(2, "/usr/bin/app")
    p.function(1, "main.main")
    p.function(2, "")                           # no name
    p.location(1, [(1, 3)], mapping=2)
    p.location(2, [(2, 0)], mapping=2, address=0x401234)
    p.location(3, [], mapping=1, address=0x7F0012345678)  # no lines at all
    p.sample([3, 2, 1], [1, 4096, 1, 4096])
    p.sample([2, 1], [4, 256, 0, 0])
    p.sample([1], [1, 32, 1, 32])
    return p.bytes(period=("space", "bytes", 524288), default_type="inuse_space")


def empty_stacks():
    p = Profile()
    p.value_type(1, "goroutine", "count")
    p.mapping(1, "/usr/bin/app")
    p.function(1, "runtime.gopark")
    p.location(1, [(1, 1)])
    p.sample([], [3])
    p.sample([1], [2])
    p.sample([1], [0])
    return p.bytes()


def hostile_names():
    # Names that must not forge --top rows, reach the terminal or make an
    # unreadable folded file (issue 15): tabs, line breaks, escapes, bidi
    # overrides, a JSON-looking and a byte-order-mark root, bytes that are
    # not UTF-8
    p = Profile()
    p.value_type(1, "cpu", "nanoseconds")
    p.mapping(1, "/usr/bin/app")
    names = ["{\"json\": 1}", "\ufeffbom", "fake\t1\t2\tforged", "two\nrows\r",
             "\x1b[2J\x1b[Hclear", "\u202ereversed", "semi;colon", "  padded\t",
             b"bad\xff\xfeutf8", "c1\u009bcsi", "del\x7f"]
    for i, name in enumerate(names, 1):
        p.function(i, name)
        p.location(i, [(i, i)])
    p.sample([3, 1], [10])
    p.sample([4, 3, 1], [20])
    p.sample([5, 2], [30])
    p.sample([6, 7, 8, 9, 2], [40])
    p.sample([10, 11], [50])
    return p.bytes(period=("cpu", "nanoseconds", 10))


seeds = {
    "cpu.pb": cpu(),
    "inline-recursion.pb": inline_recursion(),
    "labels.pb": labels(),
    "heap-no-names.pb": heap_no_names(),
    "empty-stacks.pb": empty_stacks(),
    "hostile-names.pb": hostile_names(),
}

for name, data in seeds.items():
    with open(os.path.join(here, "corpus", "pprof", name), "wb") as f:
        f.write(data)
for name in ["cpu.pb", "labels.pb", "hostile-names.pb"]:
    with open(os.path.join(here, "corpus", "load", name + ".gz"), "wb") as f:
        f.write(gzip.compress(seeds[name], mtime=0))

# fuzz-input: block size byte, then the data
folded = b"main;work;leaf 10\nmain;idle 5\n" * 200
inputs = {
    "cpu.pb": (1, seeds["cpu.pb"]),
    "cpu.pb.gz": (3, gzip.compress(seeds["cpu.pb"], mtime=0)),
    "hostile-names.pb.gz": (5, gzip.compress(seeds["hostile-names.pb"], mtime=0)),
    "folded.gz": (9, gzip.compress(folded, mtime=0)),
    "two-members.gz": (2, gzip.compress(folded[:100], mtime=0) + gzip.compress(folded[100:], mtime=0)),
    "zeros.gz": (40, gzip.compress(bytes(1 << 20), mtime=0)),
    "flamebearer.json": (7, b'{"version":1,"flamebearer":{"names":["total","a"],'
                            b'"levels":[[0,3,0,0],[0,3,3,1]],"numTicks":3,"maxSelf":3},'
                            b'"metadata":{"format":"single","units":"samples"}}'),
}
os.makedirs(os.path.join(here, "corpus", "input"), exist_ok=True)
for name, (block, data) in inputs.items():
    with open(os.path.join(here, "corpus", "input", name), "wb") as f:
        f.write(bytes([block]) + data)
