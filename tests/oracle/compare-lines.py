#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares the details panel's lines (embers-details-dump) with
`go tool pprof -top -lines` (flat and cum of each function file:line node,
the figures `go tool pprof -list` prints per line).

Usage: compare-lines.py GO_TOP_LINES_OUTPUT EMBERS_DUMP
Exits 0 when every line of every function agrees.
"""
import re
import sys

UNITS = {"ns": 1, "B": 1, "": 1}


def parse_value(text):
    m = re.fullmatch(r"(-?\d+)([A-Za-z]*)", text)
    if not m or m.group(2) not in UNITS:
        raise ValueError(f"cannot read value {text!r}")
    return int(m.group(1)) * UNITS[m.group(2)]


def parse_go(path):
    rows = {}
    in_table = False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if re.match(r"^\s+flat\s+flat%\s+sum%\s+cum\s+cum%", line):
            in_table = True
            continue
        if not in_table or not line.strip():
            continue
        parts = line.split(None, 5)
        rest = parts[5]
        if rest.endswith(" (inline)"):
            rest = rest[: -len(" (inline)")]
        name, where = rest.rsplit(" ", 1)
        file, _, number = where.rpartition(":")
        if not number.isdigit():
            continue   # a node without a line
        key = (name, file, int(number))
        flat, cum = parse_value(parts[0]), parse_value(parts[3])
        old = rows.get(key, (0, 0))
        rows[key] = (old[0] + flat, old[1] + cum)
    return rows


def parse_embers(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        name, file, number, self_v, total_v = line.rstrip("\n").split("\t")
        if number != "*":
            rows[(name, file, int(number))] = (int(self_v), int(total_v))
    return rows


def main():
    go = parse_go(sys.argv[1])
    ours = parse_embers(sys.argv[2])
    problems = []
    for key, want in sorted(go.items()):
        got = ours.get(key)
        if want == (0, 0):
            continue
        if got != want:
            problems.append(f"{key[0]} {key[1]}:{key[2]}: go {want}, embers {got}")
    for key, got in sorted(ours.items()):
        if key not in go and got != (0, 0):
            problems.append(f"{key[0]} {key[1]}:{key[2]}: embers {got}, not in go's")
    for p in problems[:20]:
        print("# " + p)
    print(f"# {len(go)} lines of go tool pprof, {len(ours)} of embers, {len(problems)} differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
