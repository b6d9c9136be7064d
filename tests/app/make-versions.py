#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a folder of version folders of folded CPU profiles, for the
regressions screenshots (embers-shot regressions DIR): twelve versions of
a Go service, eight profiles each (5 % noise, a fixed seed); from v1.7 on
JSON decoding takes 70 % more, from v1.9 on allocation takes 40 % less.

usage: make-versions.py DIR
"""

import os
import random
import sys

STACKS = [
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.handleAPI;encoding/json.(*decodeState).object", 900),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.handleAPI;encoding/json.Marshal", 600),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.handleAPI;database/sql.(*DB).QueryContext", 1400),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.handleAPI;runtime.mallocgc", 1100),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.serveStatic;os.(*File).Read", 500),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;main.serveStatic;compress/gzip.(*Writer).Write", 700),
    ("main.main;net/http.(*Server).Serve;net/http.(*conn).serve;net/http.(*response).finishRequest", 300),
    ("runtime.gcBgMarkWorker;runtime.gcDrain;runtime.scanobject", 800),
    ("runtime.gcBgMarkWorker;runtime.gcDrain;runtime.markroot", 250),
    ("runtime.mcall;runtime.park_m;runtime.schedule;runtime.findRunnable", 400),
    ("main.backgroundGC;time.Sleep", 60),
]


def main():
    root = sys.argv[1]
    rng = random.Random(19)
    for v in range(12):
        version = "v1.%d" % v
        folder = os.path.join(root, version)
        os.makedirs(folder, exist_ok=True)
        for i in range(8):
            with open(os.path.join(folder, "cpu-%d.folded" % i), "w") as out:
                for stack, weight in STACKS:
                    if stack.endswith("(*decodeState).object") and v >= 7:
                        weight *= 1.7
                    if stack.endswith("runtime.mallocgc") and v >= 9:
                        weight *= 0.6
                    out.write("%s %d\n" % (stack, max(1, round(weight * (1 + 0.05 * rng.gauss(0, 1))))))


if __name__ == "__main__":
    main()
