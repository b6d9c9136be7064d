#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the folder of versions that the README's Line Up screenshot shows.

Usage: lineup-demo.py OUT_DIR

OUT_DIR/v1.0 … OUT_DIR/v1.4, five folded profiles each (one a minute, as a
continuous profiler keeps them), of a small Go web service. Each stack
varies by 6 % from profile to profile; from v1.4 on the search handler's
regular expressions take 80 % more, and from v1.2 on gzip takes 40 % less.
Always the same bytes (its own seeded generator): a demonstration, not a
measurement.
"""
import os
import random
import sys

SERVE = ("runtime.goexit;net/http.(*conn).serve;"
         "net/http.serverHandler.ServeHTTP;net/http.(*ServeMux).ServeHTTP")

# stack: (weight, {first version index: factor from then on})
STACKS = [
    (SERVE + ";main.(*api).checkout;main.(*api).priceCart;main.applyDiscounts", 900, {}),
    (SERVE + ";main.(*api).checkout;main.(*store).loadCart;database/sql.(*DB).QueryContext", 800, {}),
    (SERVE + ";main.(*api).checkout;encoding/json.Marshal;encoding/json.(*encodeState).marshal", 700, {}),
    (SERVE + ";main.(*api).search;regexp.(*Regexp).MatchString;regexp.(*Regexp).doExecute", 450, {4: 1.8}),
    (SERVE + ";main.(*api).search;sort.Slice;sort.pdqsort_func", 300, {}),
    (SERVE + ";main.gzipWriter.Write;compress/gzip.(*Writer).Write;compress/flate.(*compressor).deflate",
     500, {2: 0.6}),
    ("runtime.gcBgMarkWorker;runtime.gcDrain;runtime.scanobject", 600, {}),
    ("runtime.mcall;runtime.park_m;runtime.schedule;runtime.findRunnable", 250, {}),
]
VERSIONS = 5
PROFILES = 5


def main():
    out = sys.argv[1]
    rand = random.Random(19)
    for v in range(VERSIONS):
        folder = os.path.join(out, f"v1.{v}")
        os.makedirs(folder, exist_ok=True)
        for p in range(PROFILES):
            lines = []
            for stack, weight, changes in STACKS:
                factor = 1.0
                for since, change in changes.items():
                    if v >= since:
                        factor = change
                value = weight * factor * (1 + 0.06 * rand.gauss(0, 1))
                lines.append(f"{stack} {max(1, round(value))}\n")
            with open(os.path.join(folder, f"cpu-{p + 1}.folded"), "w", encoding="utf-8") as f:
                f.writelines(lines)


if __name__ == "__main__":
    main()
