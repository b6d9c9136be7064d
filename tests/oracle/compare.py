#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares `embers --top` (self, total, name) with `go tool pprof -top`.

Usage: compare.py GO_TOP_OUTPUT EMBERS_TSV
Exits 0 when every function agrees on flat/self and cum/total.
"""
import re
import sys

UNITS = {"ns": 1, "B": 1, "": 1}


def parse_value(text):
    m = re.fullmatch(r"(-?\d+)([A-Za-z]*)", text)
    if not m:
        raise ValueError(f"cannot read value {text!r}")
    if m.group(2) not in UNITS:
        raise ValueError(f"unexpected unit in {text!r}")
    return int(m.group(1)) * UNITS[m.group(2)]


def parse_go(path):
    rows = {}
    total = None
    in_table = False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.search(r"of (\S+) total", line)
        if m and total is None and line.startswith("Showing nodes"):
            total = parse_value(m.group(1))
        if re.match(r"^\s+flat\s+flat%\s+sum%\s+cum\s+cum%", line):
            in_table = True
            continue
        if not in_table or not line.strip():
            continue
        parts = line.split(None, 5)
        if len(parts) < 6:
            raise ValueError(f"bad row {line!r}")
        name = parts[5]
        if name.endswith(" (inline)"):
            name = name[: -len(" (inline)")]
        rows[name] = (parse_value(parts[0]), parse_value(parts[3]))
    return total, rows


def parse_embers(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        self_v, total_v, name = line.rstrip("\n").split("\t", 2)
        rows[name] = (int(self_v), int(total_v))
    return rows


def main():
    go_total, go_rows = parse_go(sys.argv[1])
    ours = parse_embers(sys.argv[2])
    problems = []
    for name, (flat, cum) in go_rows.items():
        if flat == 0 and cum == 0:
            continue
        got = ours.get(name)
        if got is None:
            problems.append(f"missing {name}: go has flat {flat} cum {cum}")
        elif got != (flat, cum):
            problems.append(f"{name}: go flat {flat} cum {cum}, embers self {got[0]} total {got[1]}")
    for name, (s, t) in ours.items():
        if (s or t) and name not in go_rows:
            problems.append(f"extra {name}: embers self {s} total {t}")
    our_total = sum(s for s, _ in ours.values())
    if go_total is not None and our_total != go_total:
        problems.append(f"total: go {go_total}, embers {our_total}")
    for p in problems:
        print("#", p)
    print(f"# {len(go_rows)} functions compared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
